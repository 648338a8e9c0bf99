/**
 * The Global Accelerator simulator through the real @aws-sdk/client-global-accelerator: its wire
 * protocol, the service's rules (status transitions, disable-before-delete, dependants, quotas,
 * tags on accelerators only, one endpoint group per Region, endpoints that exist), the us-west-2
 * only endpoint, faults and persistence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AcceleratorNotDisabledException,
  AcceleratorNotFoundException,
  AddEndpointsCommand,
  AssociatedEndpointGroupFoundException,
  AssociatedListenerFoundException,
  CreateAcceleratorCommand,
  CreateEndpointGroupCommand,
  CreateListenerCommand,
  DeleteAcceleratorCommand,
  DeleteEndpointGroupCommand,
  DeleteListenerCommand,
  DescribeAcceleratorCommand,
  DescribeEndpointGroupCommand,
  EndpointGroupAlreadyExistsException,
  EndpointGroupNotFoundException,
  InternalServiceErrorException,
  InvalidArgumentException,
  InvalidNextTokenException,
  InvalidPortRangeException,
  LimitExceededException,
  ListAcceleratorsCommand,
  ListenerNotFoundException,
  ListEndpointGroupsCommand,
  ListListenersCommand,
  ListTagsForResourceCommand,
  RemoveEndpointsCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateAcceleratorCommand,
  UpdateEndpointGroupCommand,
  UpdateListenerCommand,
  type GlobalAcceleratorClient,
} from '@aws-sdk/client-global-accelerator';
import {
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, SIM_NETWORK, startElbv2Simulator } from '../../dev/elbv2-sim/index.js';
import {
  endpointsIn,
  gaClientFor,
  startGaSimulator,
  type GaSimulator,
  type GaSimulatorOptions,
} from '../../dev/ga-sim/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A clock the test moves: status transitions without waiting. */
function clock(start = 1_800_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function sim(
  options: GaSimulatorOptions = {},
): Promise<{ sim: GaSimulator; ga: GlobalAcceleratorClient }> {
  const s = await startGaSimulator(options);
  closers.push(() => s.close());
  return { sim: s, ga: gaClientFor(s, { maxAttempts: 3, retryDelayMs: 1 }) };
}

const ALB_EAST = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web/0123456789abcdef';
const ALB_WEST = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/web/fedcba9876543210';
const NLB_EAST = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/tcp/00112233445566aa';

async function accelerator(ga: GlobalAcceleratorClient, name = 'web', extra: object = {}) {
  const r = await ga.send(new CreateAcceleratorCommand({ Name: name, ...extra }));
  return r.Accelerator!;
}

async function listener(
  ga: GlobalAcceleratorClient,
  acceleratorArn: string,
  from = 80,
  to = from,
  protocol: 'TCP' | 'UDP' = 'TCP',
) {
  const r = await ga.send(
    new CreateListenerCommand({
      AcceleratorArn: acceleratorArn,
      PortRanges: [{ FromPort: from, ToPort: to }],
      Protocol: protocol,
    }),
  );
  return r.Listener!;
}

describe('accelerators', () => {
  it('creates one with two static IPv4 addresses and a DNS name, IN_PROGRESS then DEPLOYED after the delay', async () => {
    const c = clock();
    const { ga } = await sim({ now: c.now, deployMs: 60_000 });
    const a = await accelerator(ga, 'web', { Tags: [{ Key: 'owner', Value: 'me' }] });
    expect(a).toMatchObject({
      Name: 'web',
      IpAddressType: 'IPV4',
      Enabled: true,
      Status: 'IN_PROGRESS',
      AcceleratorArn: expect.stringMatching(
        /^arn:aws:globalaccelerator::123456789012:accelerator\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      ),
      DnsName: expect.stringMatching(/^a[0-9a-f]{16}\.awsglobalaccelerator\.com$/),
    });
    expect(a.CreatedTime).toEqual(new Date(c.now()));
    expect(a.IpSets).toHaveLength(1);
    expect(a.IpSets![0]).toMatchObject({ IpAddressFamily: 'IPv4', IpFamily: 'IPv4' });
    expect(a.IpSets![0]!.IpAddresses).toHaveLength(2);
    expect(a).not.toHaveProperty('DualStackDnsName');
    c.advance(59_999);
    const mid = await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }));
    expect(mid.Accelerator!.Status).toBe('IN_PROGRESS');
    c.advance(1);
    const done = await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }));
    expect(done.Accelerator!.Status).toBe('DEPLOYED');
    const tags = await ga.send(new ListTagsForResourceCommand({ ResourceArn: a.AcceleratorArn }));
    expect(tags.Tags).toEqual([{ Key: 'owner', Value: 'me' }]);
  });

  it('an accelerator’s ARN, addresses and DNS name follow from its name, not from the order of creation', async () => {
    const identity = (a: {
      AcceleratorArn?: string;
      DnsName?: string;
      IpSets?: Array<{ IpAddresses?: string[] }>;
    }) => [a.AcceleratorArn, a.DnsName, a.IpSets?.flatMap((s) => s.IpAddresses ?? [])];
    const one = await sim();
    const web = identity(await accelerator(one.ga, 'web'));
    const api = identity(await accelerator(one.ga, 'api'));
    const other = await sim();
    expect(identity(await accelerator(other.ga, 'api'))).toEqual(api);
    expect(identity(await accelerator(other.ga, 'web'))).toEqual(web);
    expect(web).not.toEqual(api);
    // a second accelerator of one name is another one, with addresses of its own
    const again = identity(await accelerator(other.ga, 'web'));
    expect(again[0]).not.toBe(web[0]);
    expect(again[2]).not.toEqual(expect.arrayContaining([web[2]![0]]));
  });

  it('a DUAL_STACK accelerator has two IPv4 and two IPv6 addresses and a dual-stack DNS name', async () => {
    const { ga } = await sim();
    const a = await accelerator(ga, 'dual', { IpAddressType: 'DUAL_STACK' });
    expect(a.IpSets!.map((s) => [s.IpAddressFamily, s.IpAddresses!.length])).toEqual([
      ['IPv4', 2],
      ['IPv6', 2],
    ]);
    expect(a.IpSets![1]!.IpAddresses![0]).toMatch(/^2600:9000:/);
    expect(a.DualStackDnsName).toBe(
      a.DnsName!.replace('.awsglobalaccelerator.com', '.dualstack.awsglobalaccelerator.com'),
    );
  });

  it('the same IdempotencyToken returns the same accelerator; with other parameters it is refused', async () => {
    const { sim: s, ga } = await sim();
    const first = await accelerator(ga, 'web', { IdempotencyToken: 'tok-1' });
    const again = await accelerator(ga, 'web', { IdempotencyToken: 'tok-1' });
    expect(again.AcceleratorArn).toBe(first.AcceleratorArn);
    await expect(accelerator(ga, 'other', { IdempotencyToken: 'tok-1' })).rejects.toBeInstanceOf(
      InvalidArgumentException,
    );
    // The SDK fills in a fresh token when none is given: two creates make two.
    await accelerator(ga, 'web');
    await accelerator(ga, 'web');
    expect(s.snapshot()).toHaveLength(3);
  });

  it('refuses bad names, BYOIP addresses and more accelerators than the quota', async () => {
    const { ga } = await sim({ limits: { acceleratorsPerAccount: 2 } });
    await expect(accelerator(ga, '-bad')).rejects.toBeInstanceOf(InvalidArgumentException);
    await expect(accelerator(ga, 'x'.repeat(65))).rejects.toBeInstanceOf(InvalidArgumentException);
    await expect(accelerator(ga, 'byoip', { IpAddresses: ['192.0.2.1'] })).rejects.toBeInstanceOf(
      InvalidArgumentException,
    );
    await accelerator(ga, 'a');
    await accelerator(ga, 'b');
    const err = await accelerator(ga, 'c').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitExceededException);
    expect((err as Error).message).toContain('maximum number of accelerators (2)');
  });

  it('the default quota is 20 accelerators', async () => {
    const { sim: s } = await sim();
    expect(s.state.limits).toEqual({
      acceleratorsPerAccount: 20,
      listenersPerAccelerator: 10,
      portRangesPerListener: 10,
      endpointGroupsPerListener: 10,
      endpointsPerEndpointGroup: 10,
    });
  });

  it('lists in pages that stay right when an accelerator is deleted between them', async () => {
    const { sim: s, ga } = await sim({ deployMs: 0 });
    const arns: string[] = [];
    for (const n of ['a', 'b', 'c', 'd', 'e'])
      arns.push((await accelerator(ga, n, { Enabled: false })).AcceleratorArn!);
    const p1 = await ga.send(new ListAcceleratorsCommand({ MaxResults: 2 }));
    expect(p1.Accelerators!.map((a) => a.Name)).toEqual(['a', 'b']);
    s.state.finishDeployments();
    await ga.send(new DeleteAcceleratorCommand({ AcceleratorArn: arns[2] }));
    const p2 = await ga.send(new ListAcceleratorsCommand({ MaxResults: 2, NextToken: p1.NextToken }));
    expect(p2.Accelerators!.map((a) => a.Name)).toEqual(['d', 'e']);
    expect(p2.NextToken).toBeUndefined();
    const all = await ga.send(new ListAcceleratorsCommand({}));
    expect(all.Accelerators!.map((a) => a.Name)).toEqual(['a', 'b', 'd', 'e']);
    await expect(ga.send(new ListAcceleratorsCommand({ NextToken: 'nonsense' }))).rejects.toBeInstanceOf(
      InvalidNextTokenException,
    );
    await expect(ga.send(new ListAcceleratorsCommand({ MaxResults: 101 }))).rejects.toBeInstanceOf(
      InvalidArgumentException,
    );
  });

  it('an update (Enabled, Name, IpAddressType) is IN_PROGRESS again; one that changes nothing is not', async () => {
    const c = clock();
    const { ga } = await sim({ now: c.now, deployMs: 1000 });
    const a = await accelerator(ga);
    c.advance(1000);
    const same = await ga.send(
      new UpdateAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn, Enabled: true }),
    );
    expect(same.Accelerator!.Status).toBe('DEPLOYED');
    for (const change of [
      { Enabled: false },
      { Name: 'renamed' },
      { IpAddressType: 'DUAL_STACK' as const },
    ]) {
      const r = await ga.send(new UpdateAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn, ...change }));
      expect(r.Accelerator).toMatchObject({ ...change, Status: 'IN_PROGRESS' });
      c.advance(1000);
      const d = await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }));
      expect(d.Accelerator).toMatchObject({ ...change, Status: 'DEPLOYED' });
    }
    const d = await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }));
    expect(d.Accelerator!.IpSets!.map((s) => s.IpAddressFamily)).toEqual(['IPv4', 'IPv6']);
    expect(d.Accelerator!.IpSets![0]!.IpAddresses).toEqual(a.IpSets![0]!.IpAddresses);
    expect(d.Accelerator!.Events!.map((e) => e.Message)).toEqual([
      'Updating the IP address type to DUAL_STACK',
    ]);
  });

  it('deletes only a disabled, DEPLOYED accelerator without listeners; a listener only without endpoint groups', async () => {
    const c = clock();
    const { sim: s, ga } = await sim({ now: c.now, deployMs: 5000 });
    const a = await accelerator(ga);
    const arn = a.AcceleratorArn!;
    const l = await listener(ga, arn);
    const g = await ga.send(
      new CreateEndpointGroupCommand({
        ListenerArn: l.ListenerArn,
        EndpointGroupRegion: 'us-east-1',
        EndpointConfigurations: [{ EndpointId: ALB_EAST }],
      }),
    );
    c.advance(5000);
    const del = () => ga.send(new DeleteAcceleratorCommand({ AcceleratorArn: arn }));
    await expect(del()).rejects.toBeInstanceOf(AcceleratorNotDisabledException);
    await ga.send(new UpdateAcceleratorCommand({ AcceleratorArn: arn, Enabled: false }));
    const stillDisabling = await del().catch((e: unknown) => e);
    expect(stillDisabling).toBeInstanceOf(AcceleratorNotDisabledException);
    expect((stillDisabling as Error).message).toContain('IN_PROGRESS');
    c.advance(5000);
    await expect(del()).rejects.toBeInstanceOf(AssociatedListenerFoundException);
    await expect(ga.send(new DeleteListenerCommand({ ListenerArn: l.ListenerArn }))).rejects.toBeInstanceOf(
      AssociatedEndpointGroupFoundException,
    );
    await ga.send(new DeleteEndpointGroupCommand({ EndpointGroupArn: g.EndpointGroup!.EndpointGroupArn }));
    await ga.send(new DeleteListenerCommand({ ListenerArn: l.ListenerArn }));
    // Removing the listener was a change: the accelerator deploys it before it can go.
    await expect(del()).rejects.toBeInstanceOf(AcceleratorNotDisabledException);
    c.advance(5000);
    await del();
    expect(s.snapshot()).toEqual([]);
    await expect(ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: arn }))).rejects.toBeInstanceOf(
      AcceleratorNotFoundException,
    );
    await expect(del()).rejects.toBeInstanceOf(AcceleratorNotFoundException);
  });
});

describe('tags', () => {
  it('go on accelerators only: a listener or endpoint group ARN is InvalidArgumentException', async () => {
    const { ga } = await sim();
    const a = await accelerator(ga, 'web', { Tags: [{ Key: 'a', Value: '1' }] });
    const arn = a.AcceleratorArn!;
    await ga.send(
      new TagResourceCommand({
        ResourceArn: arn,
        Tags: [
          { Key: 'b', Value: '2' },
          { Key: 'a', Value: '3' },
        ],
      }),
    );
    await ga.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: ['b'] }));
    expect((await ga.send(new ListTagsForResourceCommand({ ResourceArn: arn }))).Tags).toEqual([
      { Key: 'a', Value: '3' },
    ]);
    const l = await listener(ga, arn);
    const g = await ga.send(
      new CreateEndpointGroupCommand({ ListenerArn: l.ListenerArn, EndpointGroupRegion: 'us-east-1' }),
    );
    for (const other of [l.ListenerArn!, g.EndpointGroup!.EndpointGroupArn!]) {
      await expect(
        ga.send(new TagResourceCommand({ ResourceArn: other, Tags: [{ Key: 'k', Value: 'v' }] })),
      ).rejects.toBeInstanceOf(InvalidArgumentException);
      await expect(ga.send(new ListTagsForResourceCommand({ ResourceArn: other }))).rejects.toBeInstanceOf(
        InvalidArgumentException,
      );
      await expect(
        ga.send(new UntagResourceCommand({ ResourceArn: other, TagKeys: ['k'] })),
      ).rejects.toBeInstanceOf(InvalidArgumentException);
    }
    await expect(
      ga.send(new ListTagsForResourceCommand({ ResourceArn: `${arn}/listener/00000000` })),
    ).rejects.toBeInstanceOf(ListenerNotFoundException);
    const gone = arn.replace(/[0-9a-f]{12}$/, '000000000000');
    await expect(ga.send(new ListTagsForResourceCommand({ ResourceArn: gone }))).rejects.toBeInstanceOf(
      AcceleratorNotFoundException,
    );
  });
});

describe('listeners', () => {
  it('refuses port ranges that overlap another listener of the same protocol; TCP and UDP may share', async () => {
    const c = clock();
    const { ga } = await sim({ now: c.now, deployMs: 100 });
    const a = await accelerator(ga);
    const arn = a.AcceleratorArn!;
    c.advance(100);
    const web = await listener(ga, arn, 80, 90);
    expect(web).toMatchObject({
      Protocol: 'TCP',
      ClientAffinity: 'NONE',
      PortRanges: [{ FromPort: 80, ToPort: 90 }],
    });
    expect(web.ListenerArn).toMatch(new RegExp(`^${arn}/listener/[0-9a-f]{8}$`));
    expect((await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: arn }))).Accelerator!.Status).toBe(
      'IN_PROGRESS',
    );
    await expect(listener(ga, arn, 90, 100)).rejects.toBeInstanceOf(InvalidPortRangeException);
    await listener(ga, arn, 80, 90, 'UDP');
    const tls = await listener(ga, arn, 443);
    await expect(
      ga.send(
        new UpdateListenerCommand({
          ListenerArn: tls.ListenerArn,
          PortRanges: [{ FromPort: 85, ToPort: 85 }],
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidPortRangeException);
    const updated = await ga.send(
      new UpdateListenerCommand({
        ListenerArn: tls.ListenerArn,
        PortRanges: [{ FromPort: 443, ToPort: 444 }],
        ClientAffinity: 'SOURCE_IP',
      }),
    );
    expect(updated.Listener).toMatchObject({
      ClientAffinity: 'SOURCE_IP',
      PortRanges: [{ FromPort: 443, ToPort: 444 }],
    });
    for (const bad of [
      [{ FromPort: 0, ToPort: 10 }],
      [{ FromPort: 20, ToPort: 10 }],
      [
        { FromPort: 1000, ToPort: 1010 },
        { FromPort: 1005, ToPort: 1020 },
      ],
    ]) {
      await expect(
        ga.send(new CreateListenerCommand({ AcceleratorArn: arn, PortRanges: bad, Protocol: 'TCP' })),
      ).rejects.toBeInstanceOf(InvalidPortRangeException);
    }
    await expect(
      ga.send(
        new CreateListenerCommand({
          AcceleratorArn: arn,
          PortRanges: [{ FromPort: 1, ToPort: 1 }],
          Protocol: 'HTTP' as 'TCP',
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidArgumentException);
    const listed = await ga.send(new ListListenersCommand({ AcceleratorArn: arn, MaxResults: 2 }));
    expect(listed.Listeners).toHaveLength(2);
    const rest = await ga.send(
      new ListListenersCommand({ AcceleratorArn: arn, NextToken: listed.NextToken }),
    );
    expect(rest.Listeners).toHaveLength(1);
  });

  it('at most 10 listeners per accelerator and 10 port ranges per listener by default, configurable', async () => {
    const { ga } = await sim({ limits: { listenersPerAccelerator: 2 } });
    const arn = (await accelerator(ga)).AcceleratorArn!;
    await listener(ga, arn, 80);
    await listener(ga, arn, 443);
    await expect(listener(ga, arn, 8080)).rejects.toBeInstanceOf(LimitExceededException);
    const b = (await accelerator(ga, 'b')).AcceleratorArn!;
    const eleven = Array.from({ length: 11 }, (_, i) => ({ FromPort: 100 + i, ToPort: 100 + i }));
    await expect(
      ga.send(new CreateListenerCommand({ AcceleratorArn: b, PortRanges: eleven, Protocol: 'TCP' })),
    ).rejects.toBeInstanceOf(LimitExceededException);
    await ga.send(
      new CreateListenerCommand({ AcceleratorArn: b, PortRanges: eleven.slice(0, 10), Protocol: 'TCP' }),
    );
  });
});

describe('endpoint groups', () => {
  it('one per Region per listener, with the reported defaults and the endpoint group ARN format', async () => {
    const { ga } = await sim();
    const a = await accelerator(ga);
    const l = await listener(ga, a.AcceleratorArn!, 443);
    const r = await ga.send(
      new CreateEndpointGroupCommand({
        ListenerArn: l.ListenerArn,
        EndpointGroupRegion: 'us-east-1',
        EndpointConfigurations: [{ EndpointId: ALB_EAST }, { EndpointId: NLB_EAST, Weight: 0 }],
      }),
    );
    expect(r.EndpointGroup).toEqual({
      EndpointGroupArn: expect.stringMatching(new RegExp(`^${l.ListenerArn}/endpoint-group/[0-9a-f]{12}$`)),
      EndpointGroupRegion: 'us-east-1',
      EndpointDescriptions: [
        { EndpointId: ALB_EAST, Weight: 128, HealthState: 'HEALTHY', ClientIPPreservationEnabled: true },
        { EndpointId: NLB_EAST, Weight: 0, HealthState: 'HEALTHY', ClientIPPreservationEnabled: false },
      ],
      TrafficDialPercentage: 100,
      HealthCheckPort: 443,
      HealthCheckProtocol: 'TCP',
      HealthCheckIntervalSeconds: 30,
      ThresholdCount: 3,
      PortOverrides: [],
    });
    const dup = ga.send(
      new CreateEndpointGroupCommand({ ListenerArn: l.ListenerArn, EndpointGroupRegion: 'us-east-1' }),
    );
    await expect(dup).rejects.toBeInstanceOf(EndpointGroupAlreadyExistsException);
    const west = await ga.send(
      new CreateEndpointGroupCommand({
        ListenerArn: l.ListenerArn,
        EndpointGroupRegion: 'eu-west-1',
        EndpointConfigurations: [{ EndpointId: ALB_WEST, Weight: 255, ClientIPPreservationEnabled: false }],
        TrafficDialPercentage: 12.5,
        HealthCheckProtocol: 'HTTPS',
        HealthCheckPath: '/healthz',
        HealthCheckPort: 8443,
        HealthCheckIntervalSeconds: 10,
        ThresholdCount: 5,
      }),
    );
    expect(west.EndpointGroup).toMatchObject({
      TrafficDialPercentage: 12.5,
      HealthCheckProtocol: 'HTTPS',
      HealthCheckPath: '/healthz',
      HealthCheckPort: 8443,
      HealthCheckIntervalSeconds: 10,
      ThresholdCount: 5,
    });
    const listed = await ga.send(new ListEndpointGroupsCommand({ ListenerArn: l.ListenerArn }));
    expect(listed.EndpointGroups!.map((g) => g.EndpointGroupRegion)).toEqual(['us-east-1', 'eu-west-1']);
  });

  it('checks endpoints (Region, weight 0-255, each once, at most 10), dial 0-100 and health-check values', async () => {
    const { ga } = await sim({ limits: { endpointsPerEndpointGroup: 2 } });
    const a = await accelerator(ga);
    const l = await listener(ga, a.AcceleratorArn!, 80);
    const create = (extra: object) =>
      ga.send(
        new CreateEndpointGroupCommand({
          ListenerArn: l.ListenerArn,
          EndpointGroupRegion: 'us-east-1',
          ...extra,
        }),
      );
    for (const bad of [
      { EndpointConfigurations: [{ EndpointId: ALB_WEST }] },
      { EndpointConfigurations: [{ EndpointId: ALB_EAST, Weight: 256 }] },
      { EndpointConfigurations: [{ EndpointId: ALB_EAST }, { EndpointId: ALB_EAST }] },
      { EndpointConfigurations: [{ EndpointId: 'i-0123456789abcdef0' }] },
      { TrafficDialPercentage: 101 },
      { HealthCheckIntervalSeconds: 20 },
      { ThresholdCount: 11 },
      { HealthCheckPath: 'no-slash' },
      { PortOverrides: [{ ListenerPort: 81, EndpointPort: 8080 }] },
    ]) {
      await expect(create(bad)).rejects.toBeInstanceOf(InvalidArgumentException);
    }
    await expect(
      ga.send(new CreateEndpointGroupCommand({ ListenerArn: l.ListenerArn, EndpointGroupRegion: 'mars' })),
    ).rejects.toBeInstanceOf(InvalidArgumentException);
    const three = [ALB_EAST, NLB_EAST, ALB_EAST.replace('0123456789abcdef', 'aaaaaaaaaaaaaaaa')].map(
      (EndpointId) => ({ EndpointId }),
    );
    await expect(create({ EndpointConfigurations: three })).rejects.toBeInstanceOf(LimitExceededException);
    const g = await create({
      EndpointConfigurations: three.slice(0, 2),
      PortOverrides: [{ ListenerPort: 80, EndpointPort: 8080 }],
    });
    const arn = g.EndpointGroup!.EndpointGroupArn!;
    expect(g.EndpointGroup!.PortOverrides).toEqual([{ ListenerPort: 80, EndpointPort: 8080 }]);
    await expect(
      ga.send(new AddEndpointsCommand({ EndpointGroupArn: arn, EndpointConfigurations: [three[2]!] })),
    ).rejects.toBeInstanceOf(LimitExceededException);
  });

  it('updates only the fields given; EndpointConfigurations replaces the list; Add/RemoveEndpoints edit it', async () => {
    const c = clock();
    const { ga } = await sim({ now: c.now, deployMs: 10 });
    const a = await accelerator(ga);
    const l = await listener(ga, a.AcceleratorArn!, 80);
    const g = await ga.send(
      new CreateEndpointGroupCommand({
        ListenerArn: l.ListenerArn,
        EndpointGroupRegion: 'us-east-1',
        EndpointConfigurations: [{ EndpointId: ALB_EAST, Weight: 10 }],
      }),
    );
    const arn = g.EndpointGroup!.EndpointGroupArn!;
    c.advance(10);
    const dial = await ga.send(
      new UpdateEndpointGroupCommand({ EndpointGroupArn: arn, TrafficDialPercentage: 0 }),
    );
    expect(dial.EndpointGroup).toMatchObject({
      TrafficDialPercentage: 0,
      EndpointDescriptions: [{ EndpointId: ALB_EAST, Weight: 10 }],
    });
    expect(
      (await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }))).Accelerator!
        .Status,
    ).toBe('IN_PROGRESS');
    c.advance(10);
    await ga.send(new UpdateEndpointGroupCommand({ EndpointGroupArn: arn, TrafficDialPercentage: 0 }));
    expect(
      (await ga.send(new DescribeAcceleratorCommand({ AcceleratorArn: a.AcceleratorArn }))).Accelerator!
        .Status,
    ).toBe('DEPLOYED');
    const replaced = await ga.send(
      new UpdateEndpointGroupCommand({
        EndpointGroupArn: arn,
        EndpointConfigurations: [{ EndpointId: NLB_EAST, Weight: 5 }],
      }),
    );
    expect(replaced.EndpointGroup!.EndpointDescriptions!.map((e) => [e.EndpointId, e.Weight])).toEqual([
      [NLB_EAST, 5],
    ]);
    const added = await ga.send(
      new AddEndpointsCommand({
        EndpointGroupArn: arn,
        EndpointConfigurations: [{ EndpointId: ALB_EAST }, { EndpointId: NLB_EAST, Weight: 7 }],
      }),
    );
    expect(added.EndpointGroupArn).toBe(arn);
    const desc = async () =>
      (
        await ga.send(new DescribeEndpointGroupCommand({ EndpointGroupArn: arn }))
      ).EndpointGroup!.EndpointDescriptions!.map((e) => [e.EndpointId, e.Weight]);
    expect(await desc()).toEqual([
      [NLB_EAST, 7],
      [ALB_EAST, 128],
    ]);
    await ga.send(
      new RemoveEndpointsCommand({
        EndpointGroupArn: arn,
        EndpointIdentifiers: [{ EndpointId: NLB_EAST }, { EndpointId: ALB_WEST }],
      }),
    );
    expect(await desc()).toEqual([[ALB_EAST, 128]]);
    await ga.send(new DeleteEndpointGroupCommand({ EndpointGroupArn: arn }));
    await expect(ga.send(new DescribeEndpointGroupCommand({ EndpointGroupArn: arn }))).rejects.toBeInstanceOf(
      EndpointGroupNotFoundException,
    );
  });

  it('with the ELBv2 simulator as resolver, an endpoint must be a load balancer that exists', async () => {
    const elbv2 = await startElbv2Simulator();
    closers.push(() => elbv2.close());
    const lbs = elbv2ClientFor(elbv2);
    const created = await lbs.send(
      new CreateLoadBalancerCommand({
        Name: 'web',
        Subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
      }),
    );
    const albArn = created.LoadBalancers![0]!.LoadBalancerArn!;
    const { ga } = await sim({ endpoints: endpointsIn([elbv2]) });
    const a = await accelerator(ga);
    const l = await listener(ga, a.AcceleratorArn!, 80);
    const create = (EndpointId: string) =>
      ga.send(
        new CreateEndpointGroupCommand({
          ListenerArn: l.ListenerArn,
          EndpointGroupRegion: elbv2.region,
          EndpointConfigurations: [{ EndpointId }],
        }),
      );
    const missing = await create(ALB_EAST).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidArgumentException);
    expect((missing as Error).message).toContain('does not exist');
    const g = await create(albArn);
    expect(g.EndpointGroup!.EndpointDescriptions).toEqual([
      { EndpointId: albArn, Weight: 128, HealthState: 'HEALTHY', ClientIPPreservationEnabled: true },
    ]);
    await lbs.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: albArn }));
    const after = await ga.send(
      new DescribeEndpointGroupCommand({ EndpointGroupArn: g.EndpointGroup!.EndpointGroupArn }),
    );
    expect(after.EndpointGroup!.EndpointDescriptions![0]).toMatchObject({ HealthState: 'UNHEALTHY' });
  });
});

describe('the service around it', () => {
  it('is served for us-west-2 only: a client of another Region reaches no endpoint and changes nothing', async () => {
    const { sim: s, ga } = await sim();
    const elsewhere = gaClientFor({ url: s.url, region: 'eu-west-1' }, { maxAttempts: 1 });
    const err = await elsewhere.send(new CreateAcceleratorCommand({ Name: 'web' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(InvalidArgumentException);
    expect(s.snapshot()).toEqual([]);
    expect(s.calls.get('CreateAccelerator').errorCodes).toEqual({ 'NoEndpointIn:eu-west-1': 1 });
    expect(s.region).toBe('us-west-2');
    await accelerator(ga);
    expect(s.snapshot()).toHaveLength(1);
  });

  it('faults: throttling and 5xx are retried by the SDK; a 500 surfaces as InternalServiceErrorException; same seed, same faults', async () => {
    const { sim: s, ga } = await sim();
    s.faults.failNext('CreateAccelerator', 2, { code: 'ThrottlingException' });
    await accelerator(ga);
    expect(s.calls.get('CreateAccelerator')).toMatchObject({ calls: 3, ok: 1, faulted: 2 });
    s.faults.set({ internal: 1 });
    const err = await ga.send(new ListAcceleratorsCommand({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServiceErrorException);
    expect((err as InternalServiceErrorException).$metadata.httpStatusCode).toBe(500);
    expect(s.calls.get('ListAccelerators').faults.internal).toBe(3);

    const outcomes = async (seed: number) => {
      const { sim: t, ga: c } = await sim({ seed, faults: { throttle: 0.3, unavailable: 0.2 } });
      const one = gaClientFor(t, { maxAttempts: 1 });
      for (let i = 0; i < 20; i++) await one.send(new ListAcceleratorsCommand({})).catch(() => undefined);
      void c;
      return t.calls.history().map((h) => h.fault ?? h.outcome);
    };
    const first = await outcomes(7);
    expect(first).toContain('throttle');
    expect(await outcomes(7)).toEqual(first);
    expect(await outcomes(8)).not.toEqual(first);
  });

  it('a dropped answer after the commit: the SDK retries with the same token and gets the same accelerator', async () => {
    const { sim: s, ga } = await sim();
    s.faults.failNext('CreateAccelerator', 1, { dropAfterCommit: true });
    const a = await accelerator(ga);
    expect(s.snapshot().map((x) => x.AcceleratorArn)).toEqual([a.AcceleratorArn]);
    expect(s.calls.get('CreateAccelerator')).toMatchObject({ calls: 2, faulted: 1, ok: 1 });
  });

  it('persists its state: a restarted simulator has the accelerators, and hands out new IDs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ga-sim-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ga.json');
    const first = await startGaSimulator({ persistFile: file });
    const ga1 = gaClientFor(first);
    const a = await accelerator(ga1, 'kept', { Tags: [{ Key: 'k', Value: 'v' }] });
    const l = await listener(ga1, a.AcceleratorArn!, 80);
    await ga1.send(
      new CreateEndpointGroupCommand({ ListenerArn: l.ListenerArn, EndpointGroupRegion: 'us-east-1' }),
    );
    const before = first.snapshot();
    await first.close();
    const { sim: second, ga } = await sim({ persistFile: file });
    expect(second.snapshot()).toEqual(before);
    const b = await accelerator(ga, 'new');
    expect(b.AcceleratorArn).not.toBe(a.AcceleratorArn);
    expect(b.IpSets![0]!.IpAddresses).not.toEqual(a.IpSets![0]!.IpAddresses);
    const listed = await ga.send(new ListAcceleratorsCommand({}));
    expect(listed.Accelerators!.map((x) => x.Name)).toEqual(['kept', 'new']);
  });
});
