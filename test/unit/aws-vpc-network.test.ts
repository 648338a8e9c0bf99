/**
 * The target groups' VPC network (vpc-network.ts, ec2/vpc-reader.ts) and what it decides for the
 * targets: their zones (model/targets.ts) and the registration sent again in the endpoints' own
 * zones when AWS insists on one (deploy/targets.ts, deploy/apply.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { ProviderConfigError, RetryLaterError } from '../../lib/errors.js';
import type { EndpointSlice } from '../../lib/karmada/types.js';
import { isZoneRequiredError } from '../../lib/providers/aws/deploy/apply.js';
import { diffTargets, planTargets } from '../../lib/providers/aws/deploy/targets.js';
import { ec2NetworkReader } from '../../lib/providers/aws/ec2/vpc-reader.js';
import { buildTargets, targetZone } from '../../lib/providers/aws/model/targets.js';
import { parseIPv4 } from '../../lib/providers/aws/model/ip.js';
import type { TargetSpec } from '../../lib/providers/aws/model/types.js';
import {
  VpcNetworkCache,
  VpcNetworkSource,
  zonesOf,
  type VpcNetwork,
  type VpcSubnet,
} from '../../lib/providers/aws/vpc-network.js';
import { collectedSlice } from '../fixtures/aws/objects.js';

const signal = new AbortController().signal;
const network = (cidrs: string[]): VpcNetwork => ({ cidrs, ipv6Cidrs: [], subnets: [] });

describe('VpcNetworkCache', () => {
  it('reads once per TTL, shares a read in flight, and sees a newly associated CIDR after the TTL', async () => {
    let now = 0;
    let answer = ['10.0.0.0/16'];
    const reads: string[] = [];
    const cache = new VpcNetworkCache(
      async (vpcId) => {
        reads.push(vpcId);
        return network([...answer]);
      },
      { ttlMs: 1000, now: () => now },
    );
    const [a, b] = await Promise.all([cache.get('vpc-1', { signal }), cache.get('vpc-1', { signal })]);
    expect(a).toBe(b);
    expect(reads).toEqual(['vpc-1']);
    answer = ['10.0.0.0/16', '100.64.0.0/16'];
    now = 999;
    expect((await cache.get('vpc-1', { signal })).cidrs).toEqual(['10.0.0.0/16']);
    now = 1000;
    expect((await cache.get('vpc-1', { signal })).cidrs).toEqual(['10.0.0.0/16', '100.64.0.0/16']);
    expect(reads).toEqual(['vpc-1', 'vpc-1']);
  });

  it('forgets a failed read, so the next reconcile tries again', async () => {
    let fail = true;
    let reads = 0;
    const cache = new VpcNetworkCache(async () => {
      reads++;
      if (fail) throw new Error('denied');
      return network(['10.0.0.0/16']);
    });
    await expect(cache.get('vpc-1', { signal })).rejects.toThrow('denied');
    fail = false;
    expect((await cache.get('vpc-1', { signal })).cidrs).toEqual(['10.0.0.0/16']);
    expect(reads).toBe(2);
  });

  it('keeps at most maxEntries VPCs, dropping the oldest', async () => {
    const reads: string[] = [];
    const cache = new VpcNetworkCache(
      async (id) => {
        reads.push(id);
        return network([]);
      },
      { maxEntries: 2 },
    );
    for (const id of ['vpc-1', 'vpc-2', 'vpc-3']) await cache.get(id, { signal });
    expect(cache.size).toBe(2);
    await cache.get('vpc-3', { signal });
    await cache.get('vpc-1', { signal });
    expect(reads).toEqual(['vpc-1', 'vpc-2', 'vpc-3', 'vpc-1']);
  });
});

describe('VpcNetworkSource', () => {
  it('a configured vpc.cidrs is the whole answer: EC2 is never loaded', async () => {
    let loads = 0;
    const source = new VpcNetworkSource({ id: 'vpc-1', cidrs: ['10.0.0.0/16'] }, () => {
      loads++;
      return Promise.reject(new Error('no EC2 here'));
    });
    expect(source.fromEc2).toBe(false);
    expect(await source.network({ signal })).toEqual({ cidrs: ['10.0.0.0/16'], ipv6Cidrs: [], subnets: [] });
    expect(loads).toBe(0);
  });

  it('without it, the EC2 reader is loaded at the first read only', async () => {
    let loads = 0;
    const source = new VpcNetworkSource({ id: 'vpc-1' }, async () => {
      loads++;
      return async () => network(['10.0.0.0/16', '100.64.0.0/16']);
    });
    expect(loads).toBe(0);
    await source.network({ signal });
    expect((await source.network({ signal })).cidrs).toEqual(['10.0.0.0/16', '100.64.0.0/16']);
    expect(loads).toBe(1);
  });
});

describe('the EC2 reader, against the EC2 simulator', () => {
  let sim: Ec2Simulator;
  beforeAll(async () => {
    sim = await startEc2Simulator();
  });
  afterAll(() => sim.close());

  it("reads every associated CIDR block and every subnet's zone", async () => {
    const read = ec2NetworkReader(ec2ClientFor(sim));
    const net = await read(SIM_NETWORK.vpcId, { signal });
    expect(net.cidrs).toEqual(['10.0.0.0/16', '100.64.0.0/16']);
    expect(net.ipv6Cidrs).toEqual(['2600:1f18:e1b5:5000::/56']);
    expect(net.subnets).toHaveLength(9);
    expect(net.subnets).toContainEqual({
      id: 'subnet-0e1b5000000000b03',
      cidr: '100.64.64.0/18',
      zone: 'us-east-1b',
      tags: { Name: 'simulated-pods-1b' },
      availableAddresses: 2 ** 14 - 5,
      // Pod subnets have no IPv6 block; the load balancer subnets have theirs.
      ipv6: false,
    });
    expect(net.subnets.find((s) => s.id === 'subnet-0e1b5000000000a01')).toMatchObject({
      tags: { Name: 'simulated-public-1a', 'kubernetes.io/role/elb': '1' },
      ipv6: true,
    });
    expect([...zonesOf(net)].sort()).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    expect(sim.calls.get('DescribeVpcs').ok).toBe(1);
    expect(sim.calls.get('DescribeSubnets').ok).toBe(1);
  });

  it('an unknown VPC is a configuration error naming vpc.id; throttling past the retries is retry-later', async () => {
    const read = ec2NetworkReader(ec2ClientFor(sim, { maxAttempts: 2, retryDelayMs: 1 }));
    const missing = await read('vpc-0123456789abcdef0', { signal }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ProviderConfigError);
    expect((missing as Error).message).toMatch(/^vpc\.id vpc-0123456789abcdef0: EC2 does not know this VPC/);
    sim.faults.failNext('DescribeSubnets', 2, { code: 'Throttling' });
    const throttled = await read(SIM_NETWORK.vpcId, { signal }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(RetryLaterError);
    expect((throttled as RetryLaterError).message).toMatch(
      /^EC2 throttled DescribeSubnets through the SDK's retries/,
    );
    expect((throttled as RetryLaterError).reason).toBe('Throttled');
  });

  it('a refused read names the EC2 call and the way around it, keeping the AWS error as its cause', async () => {
    const read = ec2NetworkReader(ec2ClientFor(sim, { maxAttempts: 1 }));
    sim.faults.failNext('DescribeVpcs', 1, {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
    });
    const denied = (await read(SIM_NETWORK.vpcId, { signal }).catch((e: unknown) => e)) as Error;
    expect(denied.message).toBe(
      "EC2 DescribeVpcs (the VPC's CIDRs and zones; vpc.cidrs in the configuration skips EC2): You are not authorized to perform this operation.",
    );
    expect((denied.cause as Error).name).toBe('UnauthorizedOperation');
  });
});

const SUBNETS: VpcSubnet[] = [
  { id: 'subnet-a', cidr: '10.0.0.0/20', zone: 'us-east-1a' },
  { id: 'subnet-pods-b', cidr: '100.64.64.0/18', zone: 'us-east-1b' },
];
const CIDRS = ['10.0.0.0/16', '100.64.0.0/16'];
const zone = (address: string, endpointZone?: string, cidrs = CIDRS, subnets = SUBNETS) =>
  targetZone(parseIPv4(address)!, endpointZone, cidrs, subnets);

describe('Function: targetZone', () => {
  it.each([
    {
      name: "in a subnet: the subnet's zone (what AWS detects)",
      address: '100.64.70.1',
      ez: 'us-east-1b',
      want: { availabilityZone: 'us-east-1b' },
    },
    {
      name: "in a subnet, the endpoint saying another zone: still the subnet's",
      address: '10.0.1.1',
      ez: 'us-east-1b',
      want: { availabilityZone: 'us-east-1a' },
    },
    {
      name: "in a VPC CIDR but no subnet: the endpoint's zone, one of the VPC's",
      address: '10.0.100.1',
      ez: 'us-east-1b',
      want: { availabilityZone: 'us-east-1b' },
    },
    {
      name: "in a VPC CIDR but no subnet, the endpoint's zone not the VPC's: none",
      address: '10.0.100.1',
      ez: 'eu-west-1a',
      want: {},
    },
    {
      name: 'in a VPC CIDR, no zone known at all: none (AWS detects it)',
      address: '10.0.100.1',
      ez: undefined,
      want: {},
    },
    {
      name: "off the VPC: all, keeping the endpoint's zone",
      address: '172.20.1.1',
      ez: 'us-east-1c',
      want: { availabilityZone: 'all', endpointZone: 'us-east-1c' },
    },
    {
      name: 'off the VPC, no endpoint zone: all',
      address: '172.20.1.1',
      ez: undefined,
      want: { availabilityZone: 'all' },
    },
  ])('$name', ({ address, ez, want }) => {
    expect(zone(address, ez)).toEqual(want);
  });

  it('a secondary CIDR the configured list missed makes a pod off the VPC; the one EC2 states makes it in-VPC', () => {
    expect(zone('100.64.70.1', 'us-east-1b', ['10.0.0.0/16'], [])).toEqual({
      availabilityZone: 'all',
      endpointZone: 'us-east-1b',
    });
    expect(zone('100.64.70.1', 'us-east-1b')).toEqual({ availabilityZone: 'us-east-1b' });
  });
});

describe('Function: buildTargets with endpoint zones', () => {
  it("takes each endpoint's zone from the EndpointSlice", () => {
    const slice: EndpointSlice = collectedSlice('member-1', 'web', {
      addresses: ['100.64.70.1', '172.20.1.1'],
    });
    slice.endpoints = slice.endpoints!.map((e) => ({ ...e, zone: 'us-east-1b' }));
    const targets = buildTargets({
      serviceKey: 'default/web',
      servicePort: { port: 80 },
      slices: [slice],
      blockedClusters: new Set(),
      knownClusters: ['member-1'],
      vpcCidrs: CIDRS,
      vpcSubnets: SUBNETS,
    });
    expect(targets).toEqual([
      { id: '100.64.70.1', port: 8080, availabilityZone: 'us-east-1b' },
      { id: '172.20.1.1', port: 8080, availabilityZone: 'all', endpointZone: 'us-east-1b' },
    ]);
  });
});

describe('registering in the endpoints own zones', () => {
  const desired: TargetSpec[] = [
    { id: '10.0.1.1', port: 80, availabilityZone: 'us-east-1a' },
    { id: '172.20.1.1', port: 80, availabilityZone: 'all', endpointZone: 'us-east-1c' },
    { id: '172.20.1.2', port: 80, availabilityZone: 'all' },
  ];

  it('plans the registration with `all`, and the same targets in their own zones for when AWS insists', () => {
    const [op] = planTargets('tg', 'arn:tg', desired, []);
    const [call] = op!.calls;
    expect(call).toEqual({
      action: 'RegisterTargets',
      input: {
        TargetGroupArn: 'arn:tg',
        Targets: [
          { Id: '10.0.1.1', Port: 80, AvailabilityZone: 'us-east-1a' },
          { Id: '172.20.1.1', Port: 80, AvailabilityZone: 'all' },
          { Id: '172.20.1.2', Port: 80, AvailabilityZone: 'all' },
        ],
      },
      ifZoneRequired: [
        { Id: '10.0.1.1', Port: 80, AvailabilityZone: 'us-east-1a' },
        { Id: '172.20.1.1', Port: 80, AvailabilityZone: 'us-east-1c' },
        { Id: '172.20.1.2', Port: 80, AvailabilityZone: 'all' },
      ],
    });
    // Nothing to offer: no alternative.
    const [plain] = planTargets('tg', 'arn:tg', [desired[2]!], []);
    expect(plain!.calls[0]).not.toHaveProperty('ifZoneRequired');
  });

  it('a target registered in its own zone after that is as wanted: nothing moves it back to all', () => {
    const diff = diffTargets(desired, [
      { Id: '10.0.1.1', Port: 80, AvailabilityZone: 'us-east-1a' },
      { Id: '172.20.1.1', Port: 80, AvailabilityZone: 'us-east-1c' },
      { Id: '172.20.1.2', Port: 80, AvailabilityZone: 'all' },
    ]);
    expect(diff).toEqual({ rezone: [], register: [], deregister: [] });
    // In another zone than its own: re-registered with all.
    const moved = diffTargets(desired, [{ Id: '172.20.1.1', Port: 80, AvailabilityZone: 'us-east-1a' }]);
    expect(moved.rezone).toEqual([{ Id: '172.20.1.1', Port: 80, AvailabilityZone: 'us-east-1a' }]);
  });

  it("recognises AWS's answer as LBC does: ValidationError, 'you must specify an Availability Zone'", () => {
    const err = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(
      isZoneRequiredError(
        err(
          'ValidationError',
          "When cross-zone load balancing is disabled on this target group, you must specify an Availability Zone for IP target '172.20.1.1' since it is outside of the VPC",
        ),
      ),
    ).toBe(true);
    expect(
      isZoneRequiredError(
        err(
          'ValidationError',
          "The Availability Zone is required for IP address '172.20.1.1' because it is not in the VPC",
        ),
      ),
    ).toBe(false);
    expect(isZoneRequiredError(err('InvalidTarget', 'you must specify an Availability Zone'))).toBe(false);
  });
});
