/**
 * The frontend NLB (enable-frontend-nlb, frontend-nlb-*) against the ELBv2 simulator: created in
 * front of the ALB with a port mapping and health checks, changed (a health check, the mapping,
 * the scheme: an announced replacement), turned off (only its pieces go), turned on again and
 * deleted with the stack, NLB before ALB: nothing is left. The status carries both hostnames.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';
import { PUBLIC_SUBNETS, startAwsEnv, type AwsEnv } from './aws-env.js';

const A = 'alb.ingress.kubernetes.io/';
const EIPS = ['eipalloc-0a000000000000001', 'eipalloc-0a000000000000002', 'eipalloc-0a000000000000003'];

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve'),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const lb = () => env.provider.loadBalancer();
function mci(annotations: Record<string, string>): MultiClusterIngress {
  const m = minimalIngress();
  return { ...m, metadata: { ...m.metadata, annotations } };
}
const ON = {
  [`${A}listen-ports`]: '[{"HTTP": 80}, {"HTTP": 8080}]',
  [`${A}enable-frontend-nlb`]: 'true',
  [`${A}frontend-nlb-listener-port-mapping`]: '80=8080, 9000=80',
  [`${A}frontend-nlb-healthcheck-path`]: '/healthz',
  [`${A}frontend-nlb-healthcheck-interval-seconds`]: '10',
  [`${A}frontend-nlb-healthcheck-success-codes`]: '200-299',
};

/** The frontend NLB as the simulator holds it: listeners, groups, targets (ALB by name). */
function frontend() {
  const s = env.sim.snapshot();
  const lbName = new Map(s.loadBalancers.map((l) => [l.LoadBalancerArn, l.LoadBalancerName]));
  const tgByArn = new Map(s.targetGroups.map((t) => [t.TargetGroupArn, t]));
  const nlb = s.loadBalancers.find((l) => l.Type === 'network');
  return {
    nlb: nlb && { name: nlb.LoadBalancerName, scheme: nlb.Scheme, dns: nlb.DNSName },
    listeners: s.listeners
      .filter((l) => l.LoadBalancerArn === nlb?.LoadBalancerArn)
      .map((l) => {
        const tg = tgByArn.get(l.DefaultActions?.[0]?.TargetGroupArn);
        return {
          port: l.Port,
          protocol: l.Protocol,
          group: {
            type: tg?.TargetType,
            protocol: tg?.Protocol,
            port: tg?.Port,
            check: `${tg?.HealthCheckProtocol} ${tg?.HealthCheckPath} ${tg?.HealthCheckIntervalSeconds} ${tg?.Matcher?.HttpCode}`,
          },
          targets: s.targets
            .filter((t) => t.TargetGroupArn === tg?.TargetGroupArn)
            .map((t) => `${lbName.get(t.Id) ?? t.Id}:${t.Port}`),
        };
      })
      .sort((a, b) => (a.port ?? 0) - (b.port ?? 0)),
    albTargetGroups: s.targetGroups.filter((t) => t.TargetType === 'alb').length,
  };
}

describe('frontend NLB', () => {
  it('is created, changed, turned off and on, and deleted with the stack: nothing leaks', async () => {
    const status = await lb().ensure(env.ctx, mci(ON));
    const s = env.sim.snapshot();
    const alb = s.loadBalancers.find((l) => l.Type === 'application');
    const nlb = s.loadBalancers.find((l) => l.Type === 'network');
    // LBC's name: the ALB's, cut to 28 characters, and -nlb.
    expect(nlb?.LoadBalancerName).toBe(`${(alb?.LoadBalancerName ?? '').slice(0, 28)}-nlb`);
    // As LBC: the ALB's hostname, then the frontend NLB's.
    expect(status).toStrictEqual({
      ingress: [{ hostname: alb?.DNSName?.toLowerCase() }, { hostname: nlb?.DNSName?.toLowerCase() }],
    });
    const albName = alb?.LoadBalancerName ?? '';
    expect(frontend()).toStrictEqual({
      nlb: { name: nlb?.LoadBalancerName, scheme: 'internal', dns: nlb?.DNSName },
      listeners: [
        {
          port: 80,
          protocol: 'TCP',
          group: { type: 'alb', protocol: 'TCP', port: 80, check: 'HTTP /healthz 10 200-299' },
          targets: [`${albName}:8080`],
        },
        {
          port: 9000,
          protocol: 'TCP',
          group: { type: 'alb', protocol: 'TCP', port: 9000, check: 'HTTP /healthz 10 200-299' },
          targets: [`${albName}:80`],
        },
      ],
      albTargetGroups: 2,
    });
    // Unchanged: the fingerprint fast path, and the status from the ALB's tags.
    const noop = await env.measured(() => lb().update(env.ctx, mci(ON)));
    expect(Object.keys(noop).filter((a) => !a.startsWith('Describe'))).toStrictEqual([]);
    expect(await lb().get(env.ctx, mci(ON))).toStrictEqual({ exists: true, status });

    // A health check and the mapping change: the group is modified, the ALB re-registered.
    const changed = {
      ...ON,
      [`${A}frontend-nlb-healthcheck-interval-seconds`]: '20',
      [`${A}frontend-nlb-listener-port-mapping`]: '80=80, 9000=80',
    };
    const plan = await env.provider.ingress.plan(env.ctx, mci(changed));
    expect(plan.plan.map((o) => `${o.op} ${o.resource} ${o.id}: ${o.detail}`)).toContain(
      `modify TargetGroup FrontendNlb-tg-TCP-80: deregister ${alb?.LoadBalancerArn ?? ''}:8080; register the ALB on port 80`,
    );
    await lb().update(env.ctx, mci(changed));
    expect(frontend().listeners.map((l) => [l.port, l.group.check, l.targets])).toStrictEqual([
      [80, 'HTTP /healthz 20 200-299', [`${albName}:80`]],
      [9000, 'HTTP /healthz 20 200-299', [`${albName}:80`]],
    ]);

    // Another scheme: the NLB is replaced, and the replacement announced.
    env.announced.length = 0;
    await lb().update(
      env.ctx,
      mci({
        ...changed,
        [`${A}frontend-nlb-scheme`]: 'internet-facing',
        [`${A}frontend-nlb-subnets`]: PUBLIC_SUBNETS.join(','),
        [`${A}frontend-nlb-eip-allocations`]: EIPS.join(','),
      }),
    );
    expect(env.announced.map((a) => a.reason)).toStrictEqual(['ReplacingLoadBalancer']);
    expect(frontend().nlb?.scheme).toBe('internet-facing');
    expect(env.sim.snapshot().loadBalancers).toHaveLength(2);

    // Off: only the frontend NLB's pieces go; the ALB's stay as they were.
    const albBefore = env.sim.snapshot().loadBalancers.find((l) => l.Type === 'application');
    const off = await lb().update(env.ctx, mci({ [`${A}listen-ports`]: ON[`${A}listen-ports`] }));
    expect(off).toStrictEqual({ ingress: [{ hostname: albBefore?.DNSName?.toLowerCase() }] });
    const afterOff = env.sim.snapshot();
    expect(afterOff.loadBalancers.map((l) => l.LoadBalancerArn)).toStrictEqual([albBefore?.LoadBalancerArn]);
    expect(afterOff.targetGroups.map((t) => t.TargetType)).toStrictEqual(['ip']);
    expect(afterOff.listeners.map((l) => l.Port).sort()).toStrictEqual([80, 8080]);
    expect(
      Object.keys(afterOff.tags.find((t) => t.ResourceArn === albBefore?.LoadBalancerArn)?.Tags ?? {}),
    ).not.toContain('multicluster.karmada.io/frontend-nlb');

    // On again, then the object goes: NLB before ALB, and nothing is left.
    await lb().update(env.ctx, mci(ON));
    expect(frontend().albTargetGroups).toBe(2);
    env.sim.calls.reset();
    await lb().ensureDeleted(env.ctx, mci(ON));
    const deletes = env.mutatingCalls().filter((c) => c.startsWith('DeleteLoadBalancer'));
    expect(deletes).toHaveLength(2);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('is swept with its stack when the object is gone for good', async () => {
    await lb().ensure(env.ctx, mci(ON));
    const swept = await sweepOrphans(env.kube, env.provider, {
      graceSeconds: 0,
      signal: env.ctx.signal,
      logger: silentLogger,
    });
    expect(swept.deleted).toStrictEqual(['mci/default/minimal-ingress']);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it.each([
    [`${A}frontend-nlb-listener-port-mapping`, { [`${A}frontend-nlb-listener-port-mapping`]: '80=443' }],
    [
      `${A}frontend-nlb-eip-allocations`,
      {
        [`${A}frontend-nlb-scheme`]: 'internet-facing',
        [`${A}frontend-nlb-subnets`]: PUBLIC_SUBNETS.join(','),
        [`${A}frontend-nlb-eip-allocations`]: EIPS[0]!,
      },
    ],
    [`${A}frontend-nlb-healthcheck-protocol`, { [`${A}frontend-nlb-healthcheck-protocol`]: 'TCP' }],
    [
      `${A}frontend-nlb-healthcheck-timeout-seconds`,
      { [`${A}frontend-nlb-healthcheck-timeout-seconds`]: '30' },
    ],
    [`${A}frontend-nlb-attributes`, { [`${A}frontend-nlb-attributes`]: 'idle_timeout.timeout_seconds=60' }],
  ])('refuses a bad %s before any call', async (field, bad) => {
    env.sim.calls.reset();
    const err = await lb()
      .ensure(env.ctx, mci({ [`${A}enable-frontend-nlb`]: 'true', ...bad }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field, reason: 'InvalidAnnotation' });
    expect(env.mutatingCalls()).toStrictEqual([]);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });
});
