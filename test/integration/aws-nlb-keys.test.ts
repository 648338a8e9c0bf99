/**
 * The NLB keys of the edge issue against the ELBv2 simulator: static addresses per subnet
 * (eip-allocations, private-ipv4-addresses, ipv6-addresses), dualstack, ALPN on TLS listeners,
 * proxy protocol, TLS to the targets and one port's own target group attributes. Each is
 * created, changed and removed, and each bad value is refused naming its key before any call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterService, Service } from '../../lib/karmada/types.js';
import { collectedSlice, service } from '../fixtures/aws/objects.js';
import { CERT_A, mcs, PUBLIC_SUBNETS, simConfig, startAwsEnv, type AwsEnv } from './aws-env.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

const K = 'service.beta.kubernetes.io/aws-load-balancer-';
const PRIVATE_SUBNETS = simConfig.subnets!;
const EIPS = ['eipalloc-0a000000000000001', 'eipalloc-0a000000000000002', 'eipalloc-0a000000000000003'];

const ports = [
  { name: 'https', port: 443, targetPort: 8443, protocol: 'TCP' as const },
  { name: 'db', port: 3306, targetPort: 3306, protocol: 'TCP' as const },
];

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', ports),
    collectedSlice('member1', 'serve', {
      addresses: ['10.0.1.10'],
      ports: [
        { name: 'https', port: 8443 },
        { name: 'db', port: 3306 },
      ],
    }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const lb = () => env.provider.mcsLoadBalancer();
const sdkLoadBalancer = () => env.sim.snapshot().loadBalancers[0];
const addresses = () =>
  (sdkLoadBalancer()?.AvailabilityZones ?? []).map((az) => [az.SubnetId, az.LoadBalancerAddresses]);
const internetFacing = (more: Record<string, string> = {}) => ({
  [`${K}scheme`]: 'internet-facing',
  [`${K}subnets`]: PUBLIC_SUBNETS.join(', '),
  ...more,
});
async function tgAttributes(port: number): Promise<Record<string, string | undefined>> {
  const tg = env.sim.snapshot().targetGroups.find((t) => t.Port === port);
  const out = await env.sim.state.describeTargetGroupAttributes({ TargetGroupArn: tg?.TargetGroupArn });
  return Object.fromEntries((out.Attributes ?? []).map((a) => [a.Key, a.Value]));
}
async function expectRefused(m: MultiClusterService, field: string, message: RegExp) {
  env.sim.calls.reset();
  const err = await lb()
    .ensure(env.ctx, m)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InvalidObjectError);
  expect(err).toMatchObject({ field, reason: 'InvalidAnnotation' });
  expect((err as Error).message).toMatch(message);
  expect(env.sim.calls.total()).toBe(0);
}

describe('NLB static addresses (simulator)', () => {
  it('EIPs: created with one per subnet, a changed EIP replaces the NLB (announced), deleted with nothing left', async () => {
    const m = mcs('serve', {}, internetFacing({ [`${K}eip-allocations`]: EIPS.join(', ') }));
    await lb().ensure(env.ctx, m);
    expect(addresses()).toStrictEqual(
      PUBLIC_SUBNETS.map((s, i) => [
        s,
        [{ IpAddress: expect.stringMatching(/^3\./) as unknown, AllocationId: EIPS[i] }],
      ]),
    );
    expect(env.state()).toStrictEqual(await env.expectedForMcs(m));
    // Converged: a resync changes nothing.
    const before = env.sim.snapshot();
    await lb().update({ ...env.ctx, resync: true }, m);
    expect(env.sim.snapshot()).toStrictEqual(before);

    const swapped = [EIPS[0], EIPS[1], 'eipalloc-0a000000000000009'];
    const changed = mcs('serve', {}, internetFacing({ [`${K}eip-allocations`]: swapped.join(',') }));
    env.announced.length = 0;
    await lb().update(env.ctx, changed);
    expect(env.announced.map((a) => a.message).join('\n')).toMatch(
      /Elastic IP of subnet subnet-0e1b5000000000c01 eipalloc-0a000000000000003 → eipalloc-0a000000000000009/,
    );
    expect(env.sim.snapshot().loadBalancers).toHaveLength(1);
    expect(sdkLoadBalancer()?.LoadBalancerArn).not.toBe(before.loadBalancers[0]?.LoadBalancerArn);
    expect(
      addresses().map(([, a]) => (a as Array<{ AllocationId?: string }>)[0]?.AllocationId),
    ).toStrictEqual(swapped);
    expect(env.state()).toStrictEqual(await env.expectedForMcs(changed));

    await lb().ensureDeleted(env.ctx, changed);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('private IPv4 addresses on an internal NLB; adding a subnet keeps the others', async () => {
    const two = PRIVATE_SUBNETS.slice(0, 2);
    const m = mcs(
      'serve',
      {},
      {
        [`${K}subnets`]: two.join(','),
        [`${K}private-ipv4-addresses`]: '10.0.128.10, 10.0.144.10',
      },
    );
    await lb().ensure(env.ctx, m);
    expect(addresses()).toStrictEqual([
      [two[0], [{ PrivateIPv4Address: '10.0.128.10' }]],
      [two[1], [{ PrivateIPv4Address: '10.0.144.10' }]],
    ]);
    const arn = sdkLoadBalancer()?.LoadBalancerArn;
    const three = mcs(
      'serve',
      {},
      {
        [`${K}subnets`]: PRIVATE_SUBNETS.join(','),
        [`${K}private-ipv4-addresses`]: '10.0.128.10, 10.0.144.10, 10.0.160.10',
      },
    );
    const calls = await env.measured(() => lb().update(env.ctx, three));
    expect(calls.SetSubnets).toBe(1);
    expect(calls.CreateLoadBalancer).toBeUndefined();
    expect(sdkLoadBalancer()?.LoadBalancerArn).toBe(arn);
    expect(
      addresses().map(([, a]) => (a as Array<{ PrivateIPv4Address?: string }>)[0]?.PrivateIPv4Address),
    ).toStrictEqual(['10.0.128.10', '10.0.144.10', '10.0.160.10']);
    await lb().ensureDeleted(env.ctx, three);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('dualstack with IPv6 addresses; a Service of the IPv6 family gets ipv6 target groups', async () => {
    const v6: Service = { ...service('serve', ports) };
    v6.spec = { ...v6.spec, ipFamilies: ['IPv6'] };
    env.kube.put(v6);
    const m = mcs(
      'serve',
      {},
      internetFacing({
        [`${K}ip-address-type`]: 'dualstack',
        [`${K}ipv6-addresses`]: '2600:1f18:e1b5:5000::10, 2600:1f18:e1b5:5001::10, 2600:1f18:e1b5:5002::10',
      }),
    );
    await lb().ensure(env.ctx, m);
    expect(sdkLoadBalancer()?.IpAddressType).toBe('dualstack');
    expect(addresses().map(([, a]) => (a as Array<{ IPv6Address?: string }>)[0]?.IPv6Address)).toStrictEqual([
      '2600:1f18:e1b5:5000::10',
      '2600:1f18:e1b5:5001::10',
      '2600:1f18:e1b5:5002::10',
    ]);
    expect(env.sim.snapshot().targetGroups.map((t) => t.IpAddressType)).toStrictEqual(['ipv6', 'ipv6']);
    await lb().ensureDeleted(env.ctx, m);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('refuses bad static addresses naming the key, before any call', async () => {
    await expectRefused(
      mcs('serve', {}, internetFacing({ [`${K}eip-allocations`]: EIPS.slice(0, 2).join(',') })),
      `${K}eip-allocations`,
      /lists 2 address\(es\) for 3 subnet\(s\)/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}eip-allocations`]: EIPS.join(',') }),
      `${K}eip-allocations`,
      /needs scheme internet-facing/,
    );
    await expectRefused(
      mcs('serve', {}, internetFacing({ [`${K}private-ipv4-addresses`]: '10.0.0.10,10.0.16.10,10.0.32.10' })),
      `${K}private-ipv4-addresses`,
      /needs scheme internal/,
    );
    await expectRefused(
      mcs('serve', {}, internetFacing({ [`${K}ipv6-addresses`]: '2600:1f18:e1b5:5000::10' })),
      `${K}ipv6-addresses`,
      /needs .*ip-address-type: dualstack/,
    );
    await expectRefused(
      mcs('serve', {}, internetFacing({ [`${K}eip-allocations`]: 'eip-1,eip-2,eip-3' })),
      `${K}eip-allocations`,
      /is not an Elastic IP allocation ID/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}ip-address-type`]: 'dualstack-without-public-ipv4' }),
      `${K}ip-address-type`,
      /must be one of ipv4, dualstack/,
    );
  });
});

describe('NLB listener and target group keys (simulator)', () => {
  const tls = {
    [`${K}ssl-cert`]: CERT_A,
    [`${K}ssl-ports`]: '443',
  };

  it('ALPN, TLS to the targets, proxy protocol and per-port attributes: created, changed, removed', async () => {
    const m = mcs(
      'serve',
      {},
      {
        ...tls,
        [`${K}alpn-policy`]: 'HTTP2Preferred',
        [`${K}backend-protocol`]: 'ssl',
        [`${K}proxy-protocol`]: '*',
        [`${K}target-group-attributes`]: 'deregistration_delay.timeout_seconds=120',
        [`${K}target-group-attributes.3306`]:
          'deregistration_delay.timeout_seconds=5,preserve_client_ip.enabled=',
      },
    );
    await lb().ensure(env.ctx, m);
    const listeners = env.sim.snapshot().listeners;
    expect(listeners.map((l) => [l.Port, l.Protocol, l.AlpnPolicy])).toStrictEqual([
      [443, 'TLS', ['HTTP2Preferred']],
      [3306, 'TCP', undefined],
    ]);
    // ssl: the TLS listener's group speaks TLS; the TCP listener's stays TCP.
    expect(
      env.sim
        .snapshot()
        .targetGroups.map((t) => [t.Port, t.Protocol])
        .sort(),
    ).toStrictEqual([
      [3306, 'TCP'],
      [8443, 'TLS'],
    ]);
    expect(await tgAttributes(8443)).toMatchObject({
      'proxy_protocol_v2.enabled': 'true',
      'deregistration_delay.timeout_seconds': '120',
    });
    expect(await tgAttributes(3306)).toMatchObject({
      'proxy_protocol_v2.enabled': 'true',
      'deregistration_delay.timeout_seconds': '5',
    });
    expect(env.state()).toStrictEqual(await env.expectedForMcs(m));

    // Removed: ALPN back to None, proxy protocol off, TLS target group replaced by a TCP one.
    const plain = mcs('serve', {}, { ...tls, [`${K}proxy-protocol-per-target-group`]: '3306' });
    env.announced.length = 0;
    await lb().update(env.ctx, plain);
    expect(env.sim.snapshot().listeners.map((l) => l.AlpnPolicy)).toStrictEqual([['None'], undefined]);
    expect(
      env.sim
        .snapshot()
        .targetGroups.map((t) => [t.Port, t.Protocol])
        .sort(),
    ).toStrictEqual([
      [3306, 'TCP'],
      [8443, 'TCP'],
    ]);
    expect(env.announced.map((a) => a.message).join('\n')).toMatch(/protocol TLS → TCP/);
    expect(await tgAttributes(8443)).toMatchObject({
      'proxy_protocol_v2.enabled': 'false',
      'deregistration_delay.timeout_seconds': '300',
    });
    expect(await tgAttributes(3306)).toMatchObject({ 'proxy_protocol_v2.enabled': 'true' });
    expect(env.state()).toStrictEqual(await env.expectedForMcs(plain));

    // Someone turns proxy protocol on by hand: a resync turns it off again.
    const tg = env.sim.snapshot().targetGroups.find((t) => t.Port === 8443);
    await env.sim.state.modifyTargetGroupAttributes({
      TargetGroupArn: tg?.TargetGroupArn,
      Attributes: [{ Key: 'proxy_protocol_v2.enabled', Value: 'true' }],
    });
    await lb().update({ ...env.ctx, resync: true }, plain);
    expect(await tgAttributes(8443)).toMatchObject({ 'proxy_protocol_v2.enabled': 'false' });

    await lb().ensureDeleted(env.ctx, plain);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('refuses bad values naming the key, before any call', async () => {
    await expectRefused(
      mcs('serve', {}, { ...tls, [`${K}alpn-policy`]: 'h2' }),
      `${K}alpn-policy`,
      /must be one of/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}proxy-protocol`]: 'true' }),
      `${K}proxy-protocol`,
      /must be "\*"/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}proxy-protocol-per-target-group`]: '80,http' }),
      `${K}proxy-protocol-per-target-group`,
      /is not a port number/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}backend-protocol`]: 'https' }),
      `${K}backend-protocol`,
      /must be one of ssl, tcp/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}target-group-attributes.db`]: 'deregistration_delay.timeout_seconds=5' }),
      `${K}target-group-attributes.db`,
      /names port "db", which is not a port number/,
    );
    await expectRefused(
      mcs('serve', {}, { [`${K}target-group-attributes.3306`]: 'stickiness.type=lb_cookie' }),
      `${K}target-group-attributes.3306`,
      /must be one of source_ip/,
    );
  });
});
