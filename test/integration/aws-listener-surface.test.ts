/**
 * The ALB listener surface against the ELBv2 simulator: listener attributes and mutual TLS with
 * trust stores. What each setting
 * becomes in AWS, that a second reconcile makes no mutating call (and no extra call once the
 * fingerprint matches), that a resync repairs drift, and what the change plan says.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError, RetryLaterError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { formatPlan } from '../../lib/providers/aws/index.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { CERT_A, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'], ports: [{ name: 'http', port: 8080 }] }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const alb = (annotations: Record<string, string>): MultiClusterIngress =>
  minimalIngress({ metadata: { name: 'web', namespace: 'default', uid: 'mci-web', annotations } });
const TWO_PORTS = { [A('listen-ports')]: '[{"HTTP":80},{"HTTPS":443}]', [A('certificate-arn')]: CERT_A };

const listenerArn = (port: number) => env.sim.snapshot().listeners.find((l) => l.Port === port)?.ListenerArn;
const listenerAttributes = (port: number) =>
  Object.fromEntries(
    (env.sim.state.describeListenerAttributes({ ListenerArn: listenerArn(port) }).Attributes ?? []).map(
      (a) => [a.Key, a.Value],
    ),
  );
const resync = { resync: true };

describe('listener-attributes.${Protocol}-${Port}', () => {
  const SERVER_OFF = 'routing.http.response.server.enabled=false';
  const HSTS = 'routing.http.response.strict_transport_security.header_value=max-age=63072000';
  const mci = alb({
    ...TWO_PORTS,
    [A('listener-attributes.HTTP-80')]: SERVER_OFF,
    [A('listener-attributes.HTTPS-443')]: HSTS,
  });

  it('sets the keys given on their listener; AWS keeps its defaults for the rest', async () => {
    const plan = (await env.provider.ingress.plan(env.ctx, mci)).plan;
    expect(formatPlan(plan).filter((l) => l.includes('Listener '))).toStrictEqual([
      `+ create Listener 80: HTTP:80; attributes ${SERVER_OFF} [CreateListener, ModifyListenerAttributes]`,
      `+ create Listener 443: HTTPS:443; attributes ${HSTS} [CreateListener, ModifyListenerAttributes]`,
    ]);
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(listenerAttributes(80)).toMatchObject({
      'routing.http.response.server.enabled': 'false',
      'routing.http.response.strict_transport_security.header_value': '',
    });
    expect(listenerAttributes(443)).toMatchObject({
      'routing.http.response.server.enabled': 'true',
      'routing.http.response.strict_transport_security.header_value': 'max-age=63072000',
    });
  });

  it('a second reconcile: only the fingerprint; a resync reads the attributes and changes nothing', async () => {
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    const again = await env.measured(() => env.provider.loadBalancer().update(env.ctx, mci));
    expect(again).toStrictEqual({ DescribeLoadBalancers: 1, DescribeTags: 1 });
    env.sim.calls.reset();
    const full = await env.measured(() => env.provider.loadBalancer().update({ ...env.ctx, ...resync }, mci));
    expect(full.DescribeListenerAttributes).toBe(2);
    expect(env.mutatingCalls()).toStrictEqual([]);
  });

  it('drift is repaired on resync with one ModifyListenerAttributes of the drifted key', async () => {
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    env.sim.state.modifyListenerAttributes({
      ListenerArn: listenerArn(80),
      Attributes: [
        { Key: 'routing.http.response.server.enabled', Value: 'true' },
        // A key the object does not set: left as someone set it.
        { Key: 'routing.http.response.x_frame_options.header_value', Value: 'DENY' },
      ],
    });
    const plan = (await env.provider.ingress.plan({ ...env.ctx, ...resync }, mci)).plan;
    expect(plan.flatMap((o) => o.calls).filter((c) => c.action !== 'AddTags')).toStrictEqual([
      {
        action: 'ModifyListenerAttributes',
        input: {
          ListenerArn: listenerArn(80),
          Attributes: [{ Key: 'routing.http.response.server.enabled', Value: 'false' }],
        },
      },
    ]);
    env.sim.calls.reset();
    await env.provider.loadBalancer().update({ ...env.ctx, ...resync }, mci);
    expect(env.mutatingCalls().filter((a) => a !== 'AddTags')).toStrictEqual(['ModifyListenerAttributes']);
    expect(listenerAttributes(80)).toMatchObject({
      'routing.http.response.server.enabled': 'false',
      'routing.http.response.x_frame_options.header_value': 'DENY',
    });
  });

  it('a changed value: one ModifyListenerAttributes; a removed annotation leaves AWS as it is, unread', async () => {
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    const changed = alb({
      ...TWO_PORTS,
      [A('listener-attributes.HTTP-80')]: SERVER_OFF,
      [A('listener-attributes.HTTPS-443')]:
        'routing.http.response.strict_transport_security.header_value=max-age=1',
    });
    const plan = (await env.provider.ingress.plan(env.ctx, changed)).plan;
    expect(formatPlan(plan).filter((l) => l.includes('Listener '))).toStrictEqual([
      '~ modify Listener 443: attributes routing.http.response.strict_transport_security.header_value=max-age=1 [ModifyListenerAttributes]',
    ]);
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, changed);
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyListenerAttributes', 'AddTags']);
    expect(listenerAttributes(443)['routing.http.response.strict_transport_security.header_value']).toBe(
      'max-age=1',
    );

    const removed = await env.measured(() => env.provider.loadBalancer().update(env.ctx, alb(TWO_PORTS)));
    expect(removed.DescribeListenerAttributes).toBeUndefined();
    expect(removed.ModifyListenerAttributes).toBeUndefined();
    expect(listenerAttributes(80)['routing.http.response.server.enabled']).toBe('false');
  });

  it('a bad key is refused before any ELBv2 call, naming the annotation', async () => {
    const key = A('listener-attributes.HTTP-8080');
    await expect(
      env.provider.loadBalancer().ensure(env.ctx, alb({ [key]: SERVER_OFF })),
    ).rejects.toMatchObject({ field: key, reason: 'InvalidAnnotation' });
    expect(env.sim.calls.total()).toBe(0);
  });
});

describe('mutual-authentication', () => {
  const MA = A('mutual-authentication');
  const trustStore = (name: string) =>
    env.sim.state.createTrustStore({
      Name: name,
      CaCertificatesBundleS3Bucket: 'ca-bundles',
      CaCertificatesBundleS3Key: `${name}.pem`,
    }).TrustStores?.[0]?.TrustStoreArn ?? '';
  const THREE = {
    [A('listen-ports')]: '[{"HTTP":80},{"HTTPS":443},{"HTTPS":8443}]',
    [A('certificate-arn')]: CERT_A,
  };
  const mutualAuthentication = (port: number) =>
    env.sim.snapshot().listeners.find((l) => l.Port === port)?.MutualAuthentication;

  it('verify by trust store name (resolved once) and passthrough; a second reconcile makes no call but the fingerprint', async () => {
    const arn = trustStore('clients');
    const mci = alb({
      ...THREE,
      [MA]: JSON.stringify([
        { port: 443, mode: 'verify', trustStore: 'clients', advertiseTrustStoreCaNames: 'on' },
        { port: 8443, mode: 'passthrough' },
      ]),
    });
    const plan = (await env.provider.ingress.plan(env.ctx, mci)).plan;
    expect(formatPlan(plan).filter((l) => l.includes('Listener '))).toStrictEqual([
      '+ create Listener 80: HTTP:80 [CreateListener]',
      `+ create Listener 443: HTTPS:443; mutual authentication verify (trust store ${arn}) [CreateListener]`,
      '+ create Listener 8443: HTTPS:8443; mutual authentication passthrough [CreateListener]',
    ]);
    expect(
      plan.flatMap((o) => o.calls).find((c) => c.action === 'CreateListener' && c.input.Port === 443)?.input,
    ).toMatchObject({
      MutualAuthentication: {
        Mode: 'verify',
        TrustStoreArn: arn,
        IgnoreClientCertificateExpiry: false,
        AdvertiseTrustStoreCaNames: 'on',
      },
    });
    const calls = await env.measured(() => env.provider.loadBalancer().ensure(env.ctx, mci));
    expect(calls.DescribeTrustStores).toBe(1);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(mutualAuthentication(80)).toBeUndefined();
    expect(mutualAuthentication(443)).toMatchObject({
      Mode: 'verify',
      TrustStoreArn: arn,
      IgnoreClientCertificateExpiry: false,
      AdvertiseTrustStoreCaNames: 'on',
    });
    expect(mutualAuthentication(8443)).toStrictEqual({ Mode: 'passthrough' });
    expect(
      env.sim.state.describeTrustStoreAssociations({ TrustStoreArn: arn }).TrustStoreAssociations,
    ).toHaveLength(1);

    expect(await env.measured(() => env.provider.loadBalancer().update(env.ctx, mci))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
    env.sim.calls.reset();
    await env.provider.loadBalancer().update({ ...env.ctx, ...resync }, mci);
    expect(env.mutatingCalls()).toStrictEqual([]);
  });

  it('drift (mutual TLS turned off out of band) is repaired on resync with one ModifyListener', async () => {
    const arn = trustStore('clients');
    const mci = alb({ ...THREE, [MA]: JSON.stringify([{ port: 443, mode: 'verify', trustStore: arn }]) });
    const calls = await env.measured(() => env.provider.loadBalancer().ensure(env.ctx, mci));
    // By ARN: nothing to resolve.
    expect(calls.DescribeTrustStores).toBeUndefined();
    const l443 = env.sim.snapshot().listeners.find((l) => l.Port === 443);
    env.sim.state.modifyListener({ ListenerArn: l443?.ListenerArn, MutualAuthentication: { Mode: 'off' } });
    env.sim.calls.reset();
    await env.provider.loadBalancer().update({ ...env.ctx, ...resync }, mci);
    expect(env.mutatingCalls().filter((a) => a !== 'AddTags')).toStrictEqual(['ModifyListener']);
    expect(mutualAuthentication(443)).toMatchObject({ Mode: 'verify', TrustStoreArn: arn });
    expect(mutualAuthentication(8443)).toStrictEqual({ Mode: 'off' });
  });

  it('a changed mode is one ModifyListener; removing the annotation turns mutual TLS off', async () => {
    const arn = trustStore('clients');
    await env.provider
      .loadBalancer()
      .ensure(
        env.ctx,
        alb({ ...THREE, [MA]: JSON.stringify([{ port: 443, mode: 'verify', trustStore: 'clients' }]) }),
      );
    const ignore = alb({
      ...THREE,
      [MA]: JSON.stringify([
        { port: 443, mode: 'verify', trustStore: 'clients', ignoreClientCertificateExpiry: true },
      ]),
    });
    const plan = (await env.provider.ingress.plan(env.ctx, ignore)).plan;
    expect(formatPlan(plan).filter((l) => l.includes('Listener '))).toStrictEqual([
      `~ modify Listener 443: mutual authentication verify (trust store ${arn}) [ModifyListener]`,
    ]);
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, ignore);
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyListener', 'AddTags']);
    expect(mutualAuthentication(443)).toMatchObject({ IgnoreClientCertificateExpiry: true });

    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, alb(THREE));
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyListener', 'AddTags']);
    expect(mutualAuthentication(443)).toStrictEqual({ Mode: 'off' });
    // The trust store is referenced, never owned: it stays.
    expect(env.sim.state.trustStores().map((t) => t.Name)).toStrictEqual(['clients']);
  });

  it('a trust store name that does not exist: InvalidObjectError naming the annotation, before any change', async () => {
    env.sim.calls.reset();
    const err = await env.provider
      .loadBalancer()
      .ensure(
        env.ctx,
        alb({ ...THREE, [MA]: JSON.stringify([{ port: 443, mode: 'verify', trustStore: 'nope' }]) }),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({
      field: MA,
      reason: 'InvalidAnnotation',
      message: `annotation ${MA}: no trust store named "nope" in this Region (DescribeTrustStores): create it, or name an existing one or its ARN`,
    });
    expect(env.mutatingCalls()).toStrictEqual([]);
  });
});

describe('minimum-load-balancer-capacity', () => {
  const MC = A('minimum-load-balancer-capacity');
  // A clock the test moves: ELBv2's `pending` and its UTC day of decreases, without sleeping.
  let now = Date.UTC(2026, 11, 1, 20, 0, 0);
  let capEnv: AwsEnv;
  beforeEach(async () => {
    now = Date.UTC(2026, 11, 1, 20, 0, 0);
    capEnv = await startAwsEnv(
      [
        service('serve', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
        collectedSlice('member1', 'serve', {
          addresses: ['10.0.1.10'],
          ports: [{ name: 'http', port: 8080 }],
        }),
      ],
      { sim: { now: () => now, provisioningMs: 60_000 } },
    );
  });
  afterEach(async () => {
    await capEnv.close();
  });
  const withUnits = (units: number | undefined) =>
    alb(units === undefined ? {} : { [MC]: `CapacityUnits=${units}` });
  const reservation = () =>
    capEnv.sim.state.describeCapacityReservation({
      LoadBalancerArn: capEnv.sim.snapshot().loadBalancers[0]?.LoadBalancerArn,
    });
  const lbTags = (): Record<string, string> =>
    (capEnv.state().loadBalancers[0]?.tags as Record<string, string> | undefined) ?? {};
  const deploy = (mci: MultiClusterIngress, o: { resync?: boolean } = {}) =>
    capEnv.provider.loadBalancer().update({ ...capEnv.ctx, ...o }, mci);
  const rejection = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it('reserves on create, records it, and a second reconcile makes no call but the fingerprint', async () => {
    const mci = withUnits(1000);
    const plan = (await capEnv.provider.ingress.plan(capEnv.ctx, mci)).plan;
    expect(formatPlan(plan).find((l) => l.includes(' LoadBalancer:'))).toMatch(
      /^\+ create LoadBalancer: application internal k8s-default-web-\w+; minimum capacity 0 → 1000 units \[CreateLoadBalancer, ModifyCapacityReservation\]$/,
    );
    await capEnv.provider.loadBalancer().ensure(capEnv.ctx, mci);
    expect(capEnv.state()).toStrictEqual(await capEnv.expectedForMci(mci));
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 1000 });
    expect(lbTags()['multicluster.karmada.io/capacity-units']).toBe('1000');

    expect(await capEnv.measured(() => deploy(mci))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
    // A resync reads the reservation (still pending: the same units, nothing to do).
    capEnv.sim.calls.reset();
    const calls = await capEnv.measured(() => deploy(mci, { resync: true }));
    expect(calls.DescribeCapacityReservation).toBe(1);
    expect(capEnv.mutatingCalls()).toStrictEqual([]);
  });

  it('a change while the last one is pending is a RetryLaterError, applied once it is provisioned', async () => {
    await capEnv.provider.loadBalancer().ensure(capEnv.ctx, withUnits(1000));
    now += 30_000;
    const err = await rejection(deploy(withUnits(2000)));
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toMatchObject({
      retryAfterSeconds: 60,
      message: expect.stringContaining('still being provisioned (CapacityReservationPending)'),
    });
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 1000 });
    now += 31_000;
    await deploy(withUnits(2000));
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 2000 });
    expect(lbTags()['multicluster.karmada.io/capacity-units']).toBe('2000');
  });

  it('the fifth decrease of a UTC day is retried after midnight', async () => {
    await capEnv.provider.loadBalancer().ensure(capEnv.ctx, withUnits(2000));
    for (const units of [1900, 1800, 1700, 1600]) {
      now += 61_000;
      await deploy(withUnits(units));
    }
    now += 61_000;
    const err = await rejection(deploy(withUnits(1500)));
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toMatchObject({
      message: expect.stringContaining('4 capacity decreases per load balancer per UTC day'),
    });
    // Until 00:00 UTC by the provider's clock (the simulator's is the test's).
    const wall = new Date();
    const untilMidnight =
      (Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1) - wall.getTime()) / 1000;
    const { retryAfterSeconds } = err as RetryLaterError;
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(Math.floor(untilMidnight) - 5);
    expect(retryAfterSeconds).toBeLessThanOrEqual(Math.ceil(untilMidnight) + 1);
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 1600 });
    now = Date.UTC(2026, 11, 2, 0, 0, 1);
    await deploy(withUnits(1500));
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 1500 });
  });

  it('removing the annotation resets the reservation, then the record; later full deploys do not read it', async () => {
    await capEnv.provider.loadBalancer().ensure(capEnv.ctx, withUnits(1000));
    now += 61_000;
    const plan = (await capEnv.provider.ingress.plan(capEnv.ctx, withUnits(undefined))).plan;
    expect(formatPlan(plan).find((l) => l.startsWith('~ modify LoadBalancer: capacity'))).toBe(
      '~ modify LoadBalancer: capacity reservation reset (was 1000 units); untag multicluster.karmada.io/capacity-units [ModifyCapacityReservation, RemoveTags]',
    );
    capEnv.sim.calls.reset();
    await deploy(withUnits(undefined));
    expect(capEnv.mutatingCalls()).toStrictEqual([
      'AddTags',
      'ModifyCapacityReservation',
      'RemoveTags',
      'AddTags',
    ]);
    expect(reservation().MinimumLoadBalancerCapacity).toBeUndefined();
    expect(lbTags()['multicluster.karmada.io/capacity-units']).toBeUndefined();
    const resync = await capEnv.measured(() => deploy(withUnits(undefined), { resync: true }));
    expect(resync.DescribeCapacityReservation).toBeUndefined();
  });

  it('drift is repaired on resync; CapacityUnits=0 resets a reservation that is not ours', async () => {
    await capEnv.provider.loadBalancer().ensure(capEnv.ctx, withUnits(1000));
    const arn = capEnv.sim.snapshot().loadBalancers[0]?.LoadBalancerArn;
    now += 61_000;
    capEnv.sim.state.modifyCapacityReservation({
      LoadBalancerArn: arn,
      MinimumLoadBalancerCapacity: { CapacityUnits: 500 },
    });
    now += 61_000;
    capEnv.sim.calls.reset();
    await deploy(withUnits(1000), { resync: true });
    expect(capEnv.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyCapacityReservation', 'AddTags']);
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 1000 });

    // Reserved by someone else on an ALB without the record: left alone unless asked with 0.
    now += 61_000;
    await deploy(withUnits(undefined));
    now += 61_000;
    capEnv.sim.state.modifyCapacityReservation({
      LoadBalancerArn: arn,
      MinimumLoadBalancerCapacity: { CapacityUnits: 300 },
    });
    now += 61_000;
    await deploy(withUnits(undefined), { resync: true });
    expect(reservation().MinimumLoadBalancerCapacity).toStrictEqual({ CapacityUnits: 300 });
    await deploy(withUnits(0));
    expect(reservation().MinimumLoadBalancerCapacity).toBeUndefined();
    expect(lbTags()['multicluster.karmada.io/capacity-units']).toBeUndefined();
  });

  it('more units than the account allows: InvalidObjectError naming the annotation', async () => {
    const err = await rejection(capEnv.provider.loadBalancer().ensure(capEnv.ctx, withUnits(20000)));
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({
      field: MC,
      reason: 'InvalidAnnotation',
      message: expect.stringContaining(`annotation ${MC}: more capacity than the account's quota allows`),
    });
  });
});

describe('the default listener (no listen-ports), as LBC chooses it', () => {
  const tls = (annotations: Record<string, string>): MultiClusterIngress => ({
    ...alb(annotations),
    spec: { ...alb(annotations).spec, tls: [{ hosts: ['www.example.com'] }] },
  });
  const ports = () => env.sim.snapshot().listeners.map((l) => `${l.Protocol ?? ''}:${l.Port ?? ''}`);
  /** The listener calls of the last reconcile, in order. */
  const listenerCalls = () =>
    env.sim.calls
      .history()
      .filter((r) => r.outcome === 'ok' && /^(Create|Delete)Listener$/.test(r.action))
      .map((r) => r.action);

  it('is HTTP:80 with spec.tls alone (discovery needs HTTPS in listen-ports, as in LBC), HTTPS:443 once certificate-arn is given', async () => {
    // spec.tls alone: HTTP:80, with no certificate to discover.
    await env.provider.loadBalancer().ensure(env.ctx, tls({}));
    expect(ports()).toStrictEqual(['HTTP:80']);
    expect(env.state()).toStrictEqual(await env.expectedForMci(tls({})));

    // certificate-arn added to the existing ALB: HTTPS:443 replaces HTTP:80, the plan says so,
    // and the new listener (with its rules) is up before the old one goes.
    const https = tls({ [A('certificate-arn')]: CERT_A });
    const plan = formatPlan((await env.provider.ingress.plan(env.ctx, https)).plan);
    const created = plan.indexOf('+ create Listener 443: HTTPS:443 [CreateListener]');
    const deleted = plan.indexOf('- delete Listener HTTP:80: port no longer served [DeleteListener]');
    expect(created).toBeGreaterThanOrEqual(0);
    expect(deleted).toBeGreaterThan(created);
    expect(plan.findIndex((l) => l.startsWith('+ create ListenerRule 443:'))).toBeLessThan(deleted);
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, https);
    expect(listenerCalls()).toStrictEqual(['CreateListener', 'DeleteListener']);
    expect(ports()).toStrictEqual(['HTTPS:443']);
    expect(env.sim.snapshot().listeners[0]?.Certificates?.map((c) => c.CertificateArn)).toStrictEqual([
      CERT_A,
    ]);
    expect(env.state()).toStrictEqual(await env.expectedForMci(https));

    // And back when it goes, made before broken again.
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, tls({}));
    expect(listenerCalls()).toStrictEqual(['CreateListener', 'DeleteListener']);
    expect(ports()).toStrictEqual(['HTTP:80']);
  });
});
