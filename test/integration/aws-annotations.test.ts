/**
 * Every annotation of the README's annotation tables against the ELBv2 simulator: what it changes in AWS,
 * and for a bad value an InvalidObjectError naming the key, thrown before any ELBv2 call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import {
  CERT_A,
  CERT_B,
  CERT_C,
  loadBalancerAttributesOf,
  mcs,
  PUBLIC_SUBNETS,
  startAwsEnv,
  type AwsEnv,
} from './aws-env.js';

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', [
      { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
      { name: 'tls', port: 443, targetPort: 8443, protocol: 'TCP' },
    ]),
    collectedSlice('member1', 'serve', {
      addresses: ['10.0.1.10'],
      ports: [
        { name: 'http', port: 8080 },
        { name: 'tls', port: 8443 },
      ],
    }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const alb = (annotations: Record<string, string>): MultiClusterIngress =>
  minimalIngress({
    metadata: { name: 'minimal-ingress', namespace: 'default', uid: 'mci-uid-1', annotations },
  });
const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const N = (k: string) => `service.beta.kubernetes.io/aws-load-balancer-${k}`;
const SG = 'sg-0123456789abcdef0';
const lbAttributes = () => loadBalancerAttributesOf(env.sim);
const tgAttributes = (i = 0) =>
  Object.fromEntries(
    (
      env.sim.state.describeTargetGroupAttributes({
        TargetGroupArn: env.sim.snapshot().targetGroups[i]?.TargetGroupArn,
      }).Attributes ?? []
    ).map((a) => [a.Key, a.Value]),
  );
const extraCertificates = (port: number) => {
  const l = env.sim.snapshot().listeners.find((x) => x.Port === port);
  return (env.sim.state.describeListenerCertificates({ ListenerArn: l?.ListenerArn }).Certificates ?? [])
    .filter((c) => !c.IsDefault)
    .map((c) => c.CertificateArn);
};

describe('ALB annotations (alb.ingress.kubernetes.io/…)', () => {
  it('scheme, subnets, security-groups; a scheme change is announced, then the ALB is replaced', async () => {
    const lb = env.provider.loadBalancer();
    const first = alb({
      [A('scheme')]: 'internet-facing',
      [A('subnets')]: PUBLIC_SUBNETS.join(','),
      [A('security-groups')]: SG,
    });
    await lb.ensure(env.ctx, first);
    expect(env.state()).toStrictEqual(await env.expectedForMci(first));
    expect(env.state().loadBalancers).toMatchObject([
      { scheme: 'internet-facing', subnets: [...PUBLIC_SUBNETS].sort(), securityGroups: [SG] },
    ]);
    const oldName = env.state().loadBalancers[0]?.name;

    const second = alb({ [A('scheme')]: 'internal', [A('security-groups')]: SG });
    const plan = (await env.provider.ingress.plan(env.ctx, second)).plan;
    expect(plan.filter((o) => o.op === 'replace').map((o) => o.resource)).toStrictEqual(['LoadBalancer']);
    await lb.update(env.ctx, second);
    expect(env.announced).toStrictEqual([
      {
        reason: 'ReplacingLoadBalancer',
        message: expect.stringMatching(
          new RegExp(`^replacing LoadBalancer: ${oldName}.*scheme internet-facing → internal`),
        ),
      },
    ]);
    expect(env.state()).toStrictEqual(await env.expectedForMci(second));
    expect(env.state().loadBalancers.map((l) => l.name)).not.toContain(oldName);
  });

  it('listen-ports, certificate-arn (first = default, the rest added), ssl-policy, ssl-redirect', async () => {
    const mci = alb({
      [A('listen-ports')]: '[{"HTTP":80},{"HTTPS":443}]',
      [A('certificate-arn')]: `${CERT_A},${CERT_B}`,
      [A('ssl-policy')]: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
      [A('ssl-redirect')]: '443',
    });
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    const state = env.state();
    expect(state).toStrictEqual(await env.expectedForMci(mci));
    expect(state.listeners).toMatchObject([
      {
        port: 80,
        protocol: 'HTTP',
        defaultActions: [{ type: 'redirect', protocol: 'HTTPS', port: '443', statusCode: 'HTTP_301' }],
      },
      { port: 443, protocol: 'HTTPS', certificate: CERT_A, sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06' },
    ]);
    // ssl-redirect: the HTTP listener carries no rules.
    expect(state.rules.map((r) => r.listener)).toStrictEqual([443]);
    expect(extraCertificates(443)).toStrictEqual([CERT_B]);

    // Certificates change: B out, C in, A stays the default.
    const next = alb({ ...mci.metadata.annotations, [A('certificate-arn')]: `${CERT_A},${CERT_C}` });
    const calls = await env.measured(() => env.provider.loadBalancer().update(env.ctx, next));
    expect(extraCertificates(443)).toStrictEqual([CERT_C]);
    expect(calls).toMatchObject({ AddListenerCertificates: 1, RemoveListenerCertificates: 1 });
    expect(calls.ModifyListener).toBeUndefined();
  });

  it('defaults to HTTPS:443 when only certificate-arn is given', async () => {
    const mci = alb({ [A('certificate-arn')]: CERT_A });
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state().listeners).toMatchObject([
      { port: 443, protocol: 'HTTPS', certificate: CERT_A, sslPolicy: 'ELBSecurityPolicy-2016-08' },
    ]);
  });

  it('health check annotations, then changed in place with ModifyTargetGroup', async () => {
    const hc = {
      [A('healthcheck-path')]: '/healthz',
      [A('healthcheck-port')]: '9000',
      [A('healthcheck-protocol')]: 'HTTPS',
      [A('healthcheck-interval-seconds')]: '30',
      [A('healthcheck-timeout-seconds')]: '7',
      [A('healthy-threshold-count')]: '4',
      [A('unhealthy-threshold-count')]: '5',
      [A('success-codes')]: '200-299',
    };
    await env.provider.loadBalancer().ensure(env.ctx, alb(hc));
    expect(env.state().targetGroups[0]?.healthCheck).toBe('/healthz 9000 HTTPS 30 7 4 5 200-299');
    const calls = await env.measured(() =>
      env.provider.loadBalancer().update(env.ctx, alb({ ...hc, [A('healthcheck-path')]: '/ready' })),
    );
    expect(env.state().targetGroups[0]?.healthCheck).toBe('/ready 9000 HTTPS 30 7 4 5 200-299');
    expect(calls.ModifyTargetGroup).toBe(1);
    expect(calls.CreateTargetGroup).toBeUndefined();
  });

  it('target-group-attributes, load-balancer-attributes and tags', async () => {
    const mci = alb({
      [A('target-group-attributes')]: 'deregistration_delay.timeout_seconds=30,stickiness.enabled=true',
      [A('load-balancer-attributes')]: 'idle_timeout.timeout_seconds=120,routing.http2.enabled=false',
      [A('tags')]: 'cost-center=42,env=prod',
    });
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(tgAttributes()).toMatchObject({
      'deregistration_delay.timeout_seconds': '30',
      'stickiness.enabled': 'true',
    });
    expect(lbAttributes()).toMatchObject({
      'idle_timeout.timeout_seconds': '120',
      'routing.http2.enabled': 'false',
    });
    const state = env.state();
    for (const r of [...state.loadBalancers, ...state.targetGroups, ...state.listeners, ...state.rules]) {
      expect(r.tags).toMatchObject({ 'cost-center': '42', env: 'prod', team: 'platform' });
    }
    // Changing one attribute: one Modify call; unchanged ones are not re-sent.
    const next = alb({
      ...mci.metadata.annotations,
      [A('load-balancer-attributes')]: 'idle_timeout.timeout_seconds=60,routing.http2.enabled=false',
    });
    const calls = await env.measured(() => env.provider.loadBalancer().update(env.ctx, next));
    expect(lbAttributes()['idle_timeout.timeout_seconds']).toBe('60');
    expect(calls).toMatchObject({ ModifyLoadBalancerAttributes: 1, DescribeLoadBalancerAttributes: 1 });
    expect(calls.ModifyTargetGroupAttributes).toBeUndefined();
  });

  it('load-balancer-name: used as is; a new name replaces the ALB (announced)', async () => {
    const status = await env.provider
      .loadBalancer()
      .ensure(env.ctx, alb({ [A('load-balancer-name')]: 'my-edge' }));
    expect(env.state().loadBalancers.map((l) => l.name)).toStrictEqual(['my-edge']);
    // The reconciler wrote this status: its hostname remembers the previous (explicit) name.
    const renamed = { ...alb({}), status: { loadBalancer: status ?? {} } };
    await env.provider.loadBalancer().update(env.ctx, renamed);
    expect(env.state().loadBalancers.map((l) => l.name)).toStrictEqual([
      expect.stringMatching(/^k8s-default-minimali-/),
    ]);
    expect(env.announced.map((a) => a.reason)).toStrictEqual(['ReplacingLoadBalancer']);
    expect(env.state()).toStrictEqual(await env.expectedForMci(renamed));
    // Deletion probes the explicit name and both derived names: found whatever the spec says now.
    await env.provider.loadBalancer().ensureDeleted(env.ctx, alb({ [A('load-balancer-name')]: 'other' }));
    expect(env.sim.snapshot().loadBalancers).toHaveLength(0);
    expect(env.sim.snapshot().targetGroups).toHaveLength(0);
  });

  it('keys the provider does not act on: one Warning per reconcile naming each, the rest served', async () => {
    const mci = alb({
      [A('scheme')]: 'internet-facing',
      [A('subnets')]: PUBLIC_SUBNETS.join(','),
      [A('sucess-codes')]: '200-299',
      [A('waf-acl-id')]: 'classic-acl',
    });
    const plan = await env.provider.ingress.plan(env.ctx, mci);
    const expected = {
      reason: 'UnsupportedAnnotation',
      message: expect.stringMatching(
        /^annotations ignored by the aws provider: alb\.ingress\.kubernetes\.io\/sucess-codes \(not a key .*check its spelling\); alb\.ingress\.kubernetes\.io\/waf-acl-id \(not applicable here: WAF Classic .*wafv2-acl-arn.*\)$/,
      ),
    };
    expect(plan.warnings).toStrictEqual([
      { ...expected, object: { namespace: 'default', name: 'minimal-ingress' } },
    ]);
    expect(env.announced).toStrictEqual([]); // a plan is not a reconcile
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state().loadBalancers).toMatchObject([{ scheme: 'internet-facing' }]);
    // The fingerprint is not changed by a warning: the second reconcile is a no-op that warns again.
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, mci);
    expect(env.mutatingCalls()).toStrictEqual([]);
    expect(env.announced).toStrictEqual([expected, expected]);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
  });
});

describe('NLB annotations (service.beta.kubernetes.io/aws-load-balancer-…)', () => {
  it('scheme, subnets, security-groups, name, attributes, target-group-attributes, additional-resource-tags', async () => {
    const m = mcs(
      'serve',
      { ports: [{ port: 80 }] },
      {
        [N('scheme')]: 'internet-facing',
        [N('subnets')]: PUBLIC_SUBNETS.join(','),
        [N('security-groups')]: SG,
        [N('name')]: 'serve-nlb',
        [N('attributes')]: 'load_balancing.cross_zone.enabled=true',
        [N('target-group-attributes')]:
          'preserve_client_ip.enabled=true,deregistration_delay.timeout_seconds=10',
        [N('additional-resource-tags')]: 'owner-team=edge',
      },
    );
    await env.provider.mcsLoadBalancer().ensure(env.ctx, m);
    expect(env.state()).toStrictEqual(await env.expectedForMcs(m));
    expect(env.state().loadBalancers).toMatchObject([
      {
        name: 'serve-nlb',
        type: 'network',
        scheme: 'internet-facing',
        securityGroups: [SG],
        tags: { 'owner-team': 'edge' },
      },
    ]);
    expect(lbAttributes()['load_balancing.cross_zone.enabled']).toBe('true');
    expect(tgAttributes()).toMatchObject({
      'preserve_client_ip.enabled': 'true',
      'deregistration_delay.timeout_seconds': '10',
    });
  });

  it('an LBC key the provider does not act on, on the MultiClusterService: a Warning, the NLB served', async () => {
    const m = mcs(
      'serve',
      { ports: [{ port: 80 }] },
      { [N('quic-enabled-ports')]: '80', [N('scheme')]: 'internet-facing' },
    );
    await env.provider.mcsLoadBalancer().ensure(env.ctx, m);
    expect(env.state().loadBalancers).toMatchObject([{ type: 'network', scheme: 'internet-facing' }]);
    expect(env.announced).toStrictEqual([
      {
        reason: 'UnsupportedAnnotation',
        message: expect.stringMatching(
          /^annotation ignored by the aws provider: service\.beta\.kubernetes\.io\/aws-load-balancer-quic-enabled-ports \(not supported yet: QUIC listeners are not built/,
        ),
      },
    ]);
  });

  it('ssl-cert + ssl-ports → TLS listeners on those ports only; ssl-negotiation-policy', async () => {
    const m = mcs(
      'serve',
      {},
      {
        [N('ssl-cert')]: `${CERT_A},${CERT_B}`,
        [N('ssl-ports')]: 'tls',
        [N('ssl-negotiation-policy')]: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
      },
    );
    await env.provider.mcsLoadBalancer().ensure(env.ctx, m);
    expect(env.state()).toStrictEqual(await env.expectedForMcs(m));
    expect(env.state().listeners).toMatchObject([
      { port: 80, protocol: 'TCP', certificate: undefined },
      { port: 443, protocol: 'TLS', certificate: CERT_A, sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06' },
    ]);
    expect(extraCertificates(443)).toStrictEqual([CERT_B]);
    // Without ssl-ports every port is TLS.
    const all = mcs('serve', {}, { [N('ssl-cert')]: CERT_A });
    await env.provider.mcsLoadBalancer().update(env.ctx, all);
    expect(env.state().listeners.map((l) => l.protocol)).toStrictEqual(['TLS', 'TLS']);
    expect(extraCertificates(443)).toStrictEqual([]);
  });

  it('HTTP health checks: path, port, protocol, interval, timeout, thresholds, success codes', async () => {
    const m = mcs(
      'serve',
      { ports: [{ port: 80 }] },
      {
        [N('healthcheck-protocol')]: 'HTTP',
        [N('healthcheck-path')]: '/healthz',
        [N('healthcheck-port')]: '8080',
        [N('healthcheck-interval')]: '30',
        [N('healthcheck-timeout')]: '6',
        [N('healthcheck-healthy-threshold')]: '2',
        [N('healthcheck-unhealthy-threshold')]: '2',
        [N('healthcheck-success-codes')]: '200-299',
      },
    );
    await env.provider.mcsLoadBalancer().ensure(env.ctx, m);
    expect(env.state().targetGroups[0]?.healthCheck).toBe('/healthz 8080 HTTP 30 6 2 2 200-299');
  });
});

describe('bad annotation values: InvalidObjectError naming the key, before any ELBv2 call', () => {
  const albCases: Array<[string, string]> = [
    [A('scheme'), 'public'],
    [A('subnets'), 'subnet-not-hex'],
    [A('security-groups'), 'sg-xyz'],
    [A('listen-ports'), '[{"HTTP":"eighty"}]'],
    [A('listen-ports'), 'not json'],
    [A('certificate-arn'), 'arn:aws:s3:::bucket'],
    [A('ssl-policy'), 'Modern'],
    [A('ssl-redirect'), '443'],
    [A('healthcheck-path'), 'healthz'],
    [A('healthcheck-port'), '70000'],
    [A('healthcheck-protocol'), 'TCP'],
    [A('healthcheck-interval-seconds'), '1'],
    [A('healthcheck-timeout-seconds'), 'five'],
    [A('healthy-threshold-count'), '11'],
    [A('unhealthy-threshold-count'), '0'],
    [A('success-codes'), 'ok'],
    [A('target-group-attributes'), 'no_such.attribute=1'],
    [A('target-group-attributes'), 'stickiness.enabled=yes'],
    [A('load-balancer-attributes'), 'idle_timeout.timeout_seconds=soon'],
    [A('tags'), 'multicluster.karmada.io/owner=me'],
    [A('tags'), 'novalue'],
    [A('load-balancer-name'), '-bad-'],
  ];
  it.each(albCases)('MCI %s=%s', async (key, value) => {
    env.sim.calls.reset();
    const err = await env.provider
      .loadBalancer()
      .ensure(env.ctx, alb({ [key]: value }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field: key, reason: 'InvalidAnnotation' });
    expect(env.sim.calls.total()).toBe(0);
  });

  const nlbCases: Array<[string, string]> = [
    [N('scheme'), 'external'],
    [N('ssl-ports'), '443'],
    [N('ssl-cert'), 'cert'],
    [N('healthcheck-protocol'), 'UDP'],
    [N('healthcheck-timeout'), '500'],
    [N('attributes'), 'idle_timeout.timeout_seconds=60'],
    [N('additional-resource-tags'), 'aws:created=x'],
  ];
  it.each(nlbCases)('MCS %s=%s', async (key, value) => {
    env.sim.calls.reset();
    await expect(
      env.provider.mcsLoadBalancer().ensure(env.ctx, mcs('serve', {}, { [key]: value })),
    ).rejects.toMatchObject({
      field: key,
      reason: 'InvalidAnnotation',
    });
    expect(env.sim.calls.total()).toBe(0);
  });
});
