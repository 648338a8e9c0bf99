/**
 * The EC2 simulator through the real `@aws-sdk/client-ec2`: the SDK's ec2-protocol serialiser,
 * XML parser, error mapping and retry strategy run for real against it.
 */
import {
  CreateTagsCommand,
  DeleteTagsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  paginateDescribeSubnets,
  type DescribeSubnetsCommandInput,
  type EC2Client,
  type Subnet,
} from '@aws-sdk/client-ec2';
import { CreateLoadBalancerCommand, RegisterTargetsCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { createTg, sdkError, useSim } from './elbv2-sim-fixtures.js';

const VPC = SIM_NETWORK.vpcId;
const ALL_SUBNETS = [...SIM_NETWORK.subnets, ...SIM_NETWORK.podSubnets];

describe('EC2 simulator', () => {
  let sim: Ec2Simulator;
  let ec2: EC2Client;
  beforeEach(async () => {
    sim = await startEc2Simulator({ seed: 3 });
    ec2 = ec2ClientFor(sim, { maxAttempts: 1 });
  });
  afterEach(async () => {
    ec2.destroy();
    await sim.close();
  });

  describe('DescribeVpcs', () => {
    it('states the primary and secondary CIDR block associations and the IPv6 one, as EC2 does', async () => {
      const { Vpcs } = await ec2.send(new DescribeVpcsCommand({ VpcIds: [VPC] }));
      expect(Vpcs).toHaveLength(1);
      const vpc = Vpcs![0]!;
      expect(vpc).toMatchObject({
        VpcId: VPC,
        OwnerId: '123456789012',
        State: 'available',
        CidrBlock: '10.0.0.0/16',
        IsDefault: false,
        InstanceTenancy: 'default',
        Tags: [{ Key: 'Name', Value: 'simulated-vpc' }],
      });
      expect(vpc.CidrBlockAssociationSet?.map((a) => [a.CidrBlock, a.CidrBlockState?.State])).toEqual([
        ['10.0.0.0/16', 'associated'],
        ['100.64.0.0/16', 'associated'],
      ]);
      expect(
        vpc.CidrBlockAssociationSet?.every((a) => /^vpc-cidr-assoc-[0-9a-f]{17}$/.test(a.AssociationId!)),
      ).toBe(true);
      expect(vpc.Ipv6CidrBlockAssociationSet).toEqual([
        expect.objectContaining({
          Ipv6CidrBlock: '2600:1f18:e1b5:5000::/56',
          Ipv6CidrBlockState: { State: 'associated' },
          NetworkBorderGroup: 'us-east-1',
          Ipv6Pool: 'Amazon',
        }),
      ]);
      expect(sim.calls.get('DescribeVpcs')).toMatchObject({ calls: 1, ok: 1 });
    });

    it('filters by vpc-id, by an associated CIDR (wildcards too) and by tag; an empty match is no error', async () => {
      const ids = async (filters: Array<{ Name: string; Values: string[] }>) =>
        (await ec2.send(new DescribeVpcsCommand({ Filters: filters }))).Vpcs?.map((v) => v.VpcId) ?? [];
      expect(await ids([{ Name: 'vpc-id', Values: [VPC] }])).toEqual([VPC]);
      expect(await ids([{ Name: 'vpc-id', Values: ['vpc-0123456789abcdef0'] }])).toEqual([]);
      expect(await ids([{ Name: 'cidr-block-association.cidr-block', Values: ['100.64.0.0/16'] }])).toEqual([
        VPC,
      ]);
      // `cidr` is the primary block only.
      expect(await ids([{ Name: 'cidr', Values: ['100.64.0.0/16'] }])).toEqual([]);
      expect(await ids([{ Name: 'cidr-block-association.cidr-block', Values: ['100.64.*'] }])).toEqual([VPC]);
      expect(await ids([{ Name: 'tag:Name', Values: ['simulated-?pc'] }])).toEqual([VPC]);
      // Filters AND together, a filter's values OR together.
      expect(
        await ids([
          { Name: 'vpc-id', Values: ['vpc-0123456789abcdef0', VPC] },
          { Name: 'state', Values: ['pending'] },
        ]),
      ).toEqual([]);
    });

    it('answers unknown and malformed IDs and unknown filters with EC2 error codes', async () => {
      const missing = await sdkError(
        ec2.send(new DescribeVpcsCommand({ VpcIds: ['vpc-0123456789abcdef0'] })),
      );
      expect(missing.name).toBe('InvalidVpcID.NotFound');
      expect(missing.message).toBe("The vpc ID 'vpc-0123456789abcdef0' does not exist");
      expect(missing.$metadata.httpStatusCode).toBe(400);
      expect(missing.$fault).toBe('client');
      const malformed = await sdkError(ec2.send(new DescribeVpcsCommand({ VpcIds: ['subnet-1'] })));
      expect(malformed.name).toBe('InvalidVpcID.Malformed');
      const filter = await sdkError(
        ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'colour', Values: ['x'] }] })),
      );
      expect(filter.name).toBe('InvalidParameterValue');
      expect(filter.message).toBe("The filter 'colour' is invalid");
      const dry = await sdkError(ec2.send(new DescribeVpcsCommand({ DryRun: true })));
      expect(dry.name).toBe('DryRunOperation');
      expect(dry.$metadata.httpStatusCode).toBe(412);
      expect(sim.calls.get('DescribeVpcs').errorCodes).toEqual({
        'InvalidVpcID.NotFound': 1,
        'InvalidVpcID.Malformed': 1,
        InvalidParameterValue: 1,
        DryRunOperation: 1,
      });
    });
  });

  describe('DescribeSubnets', () => {
    it("lists the VPC's load balancer and pod subnets with zones, zone IDs, CIDRs and LBC's role tags", async () => {
      const { Subnets } = await ec2.send(
        new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [VPC] }] }),
      );
      expect(Subnets?.map((s) => [s.SubnetId, s.AvailabilityZone, s.CidrBlock])).toEqual(
        ALL_SUBNETS.map((s) => [s.subnetId, s.availabilityZone, s.cidr]),
      );
      const byId = new Map(Subnets!.map((s) => [s.SubnetId!, s]));
      const publicA = byId.get('subnet-0e1b5000000000a01')!;
      expect(publicA).toMatchObject({
        VpcId: VPC,
        State: 'available',
        AvailabilityZoneId: 'use1-az4',
        MapPublicIpOnLaunch: true,
        DefaultForAz: false,
        AvailableIpAddressCount: 4091,
        SubnetArn: 'arn:aws:ec2:us-east-1:123456789012:subnet/subnet-0e1b5000000000a01',
      });
      expect(publicA.Ipv6CidrBlockAssociationSet?.[0]).toMatchObject({
        Ipv6CidrBlock: '2600:1f18:e1b5:5000::/64',
        Ipv6CidrBlockState: { State: 'associated' },
      });
      const tags = (s: Subnet) => Object.fromEntries(s.Tags!.map((t) => [t.Key, t.Value]));
      expect(tags(publicA)).toEqual({ Name: 'simulated-public-1a', 'kubernetes.io/role/elb': '1' });
      expect(tags(byId.get('subnet-0e1b5000000000b02')!)).toEqual({
        Name: 'simulated-private-1b',
        'kubernetes.io/role/internal-elb': '1',
      });
      const pods = byId.get('subnet-0e1b5000000000c03')!;
      expect(tags(pods)).toEqual({ Name: 'simulated-pods-1c' });
      expect(pods).toMatchObject({ AvailabilityZone: 'us-east-1c', AvailabilityZoneId: 'use1-az1' });
      expect(pods.Ipv6CidrBlockAssociationSet).toEqual([]);
    });

    it('filters by zone, zone ID, CIDR, tag and ID; unknown IDs are errors', async () => {
      const ids = async (input: DescribeSubnetsCommandInput) =>
        (await ec2.send(new DescribeSubnetsCommand(input))).Subnets?.map((s) => s.SubnetId) ?? [];
      expect(await ids({ Filters: [{ Name: 'availability-zone', Values: ['us-east-1b'] }] })).toEqual([
        'subnet-0e1b5000000000b01',
        'subnet-0e1b5000000000b02',
        'subnet-0e1b5000000000b03',
      ]);
      expect(await ids({ Filters: [{ Name: 'availability-zone-id', Values: ['use1-az6'] }] })).toHaveLength(
        3,
      );
      expect(await ids({ Filters: [{ Name: 'cidr-block', Values: ['100.64.*'] }] })).toEqual(
        SIM_NETWORK.podSubnets.map((s) => s.subnetId),
      );
      expect(
        await ids({
          Filters: [
            { Name: 'vpc-id', Values: [VPC] },
            { Name: 'tag:kubernetes.io/role/elb', Values: ['1', ''] },
          ],
        }),
      ).toEqual(SIM_NETWORK.subnets.filter((s) => s.public).map((s) => s.subnetId));
      expect(
        await ids({ Filters: [{ Name: 'tag-key', Values: ['kubernetes.io/role/internal-elb'] }] }),
      ).toEqual(SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId));
      expect(await ids({ SubnetIds: ['subnet-0e1b5000000000a03'] })).toEqual(['subnet-0e1b5000000000a03']);
      const missing = await sdkError(
        ec2.send(new DescribeSubnetsCommand({ SubnetIds: ['subnet-0123456789abcdef0'] })),
      );
      expect(missing.name).toBe('InvalidSubnetID.NotFound');
      expect(missing.message).toBe("The subnet ID 'subnet-0123456789abcdef0' does not exist");
    });

    it('pages by MaxResults (5 to 1000) and NextToken, as the SDK paginator follows it', async () => {
      const first = await ec2.send(new DescribeSubnetsCommand({ MaxResults: 5 }));
      expect(first.Subnets).toHaveLength(5);
      expect(first.NextToken).toBeDefined();
      const pages: string[][] = [];
      for await (const page of paginateDescribeSubnets({ client: ec2, pageSize: 5 }, {})) {
        pages.push(page.Subnets!.map((s) => s.SubnetId!));
      }
      expect(pages.map((p) => p.length)).toEqual([5, 4]);
      expect(pages.flat()).toEqual(ALL_SUBNETS.map((s) => s.subnetId));
      const small = await sdkError(ec2.send(new DescribeSubnetsCommand({ MaxResults: 4 })));
      expect(small.name).toBe('InvalidParameterValue');
      expect(small.message).toContain('Expecting a value between 5 and 1000');
      const token = await sdkError(ec2.send(new DescribeSubnetsCommand({ NextToken: 'dnBjOjE' })));
      expect(token.name).toBe('InvalidNextToken');
    });
  });

  describe('CreateTags and DeleteTags', () => {
    const A01 = 'subnet-0e1b5000000000a01';
    const tagsOf = async (id: string) =>
      Object.fromEntries(
        ((await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [id] }))).Subnets?.[0]?.Tags ?? []).map(
          (t) => [t.Key!, t.Value!] as const,
        ),
      );

    it('adds and overwrites tags, which DescribeSubnets and its tag filters then see', async () => {
      await ec2.send(
        new CreateTagsCommand({
          Resources: [A01],
          Tags: [
            { Key: 'Name', Value: 'edge-1a' },
            { Key: 'team', Value: 'a' },
          ],
        }),
      );
      expect(await tagsOf(A01)).toEqual({ Name: 'edge-1a', 'kubernetes.io/role/elb': '1', team: 'a' });
      const named = await ec2.send(
        new DescribeSubnetsCommand({ Filters: [{ Name: 'tag:Name', Values: ['edge-*'] }] }),
      );
      expect(named.Subnets?.map((s) => s.SubnetId)).toEqual([A01]);
    });

    it('deletes a key whatever its value, or only with the value given; an absent key is no error', async () => {
      await ec2.send(
        new DeleteTagsCommand({
          Resources: [A01],
          Tags: [
            { Key: 'Name', Value: 'not-its-name' },
            { Key: 'kubernetes.io/role/elb' },
            { Key: 'absent' },
          ],
        }),
      );
      expect(await tagsOf(A01)).toEqual({ Name: 'simulated-public-1a' });
      await ec2.send(new DeleteTagsCommand({ Resources: [A01] }));
      expect(await tagsOf(A01)).toEqual({});
      // A restart serves the initial tags again: nothing is persisted.
    });

    it('refuses an unknown resource, a reserved key and a dry run, changing nothing', async () => {
      const before = await tagsOf(A01);
      const unknown = await sdkError(
        ec2.send(
          new CreateTagsCommand({
            Resources: [A01, 'subnet-0123456789abcdef0'],
            Tags: [{ Key: 'k', Value: 'v' }],
          }),
        ),
      );
      expect(unknown).toMatchObject({ name: 'InvalidSubnetID.NotFound' });
      const reserved = await sdkError(
        ec2.send(
          new CreateTagsCommand({
            Resources: [A01],
            Tags: [{ Key: 'aws:cloudformation:stack-name', Value: 'x' }],
          }),
        ),
      );
      expect(reserved).toMatchObject({ name: 'InvalidParameterValue' });
      const dry = await sdkError(ec2.send(new DeleteTagsCommand({ Resources: [A01], DryRun: true })));
      expect(dry).toMatchObject({ name: 'DryRunOperation' });
      expect(await tagsOf(A01)).toEqual(before);
    });
  });

  describe('faults', () => {
    it("throttles with EC2's RequestLimitExceeded (HTTP 503), which the SDK retries as throttling", async () => {
      const retrying = ec2ClientFor(sim, { maxAttempts: 3, retryDelayMs: 1 });
      sim.faults.failNext('DescribeVpcs', 2, { code: 'Throttling' });
      const { Vpcs } = await retrying.send(new DescribeVpcsCommand({ VpcIds: [VPC] }));
      expect(Vpcs?.[0]?.VpcId).toBe(VPC);
      expect(sim.calls.get('DescribeVpcs')).toMatchObject({ calls: 3, ok: 1, faulted: 2 });

      sim.faults.setForAction('DescribeSubnets', { throttle: 1 });
      const err = await sdkError(retrying.send(new DescribeSubnetsCommand({})));
      expect(err.name).toBe('RequestLimitExceeded');
      expect(err.message).toBe('Request limit exceeded.');
      expect(err.$metadata.httpStatusCode).toBe(503);
      expect(err.$metadata.attempts).toBe(3);
      expect(sim.calls.get('DescribeSubnets').faults.throttle).toBe(3);
      retrying.destroy();
    });

    it('fails with InternalError and Unavailable, and drops connections, on the seeded dice', async () => {
      sim.faults.failNext('DescribeVpcs', 1, { code: 'InternalFailure' });
      const internal = await sdkError(ec2.send(new DescribeVpcsCommand({})));
      expect([internal.name, internal.$metadata.httpStatusCode, internal.$fault]).toEqual([
        'InternalError',
        500,
        'server',
      ]);
      sim.faults.failNext('DescribeVpcs', 1, { code: 'ServiceUnavailable' });
      expect((await sdkError(ec2.send(new DescribeVpcsCommand({})))).name).toBe('Unavailable');
      sim.faults.failNext('DescribeVpcs', 1, { drop: true });
      expect((await sdkError(ec2.send(new DescribeVpcsCommand({})))).name).toBe('TimeoutError');
    });
  });
});

describe('EC2 and ELBv2 simulators: one network', () => {
  const elbv2 = useSim();
  let sim: Ec2Simulator;
  beforeEach(async () => {
    sim = await startEc2Simulator();
  });
  afterEach(() => sim.close());

  it('the subnets EC2 lists are those ELBv2 places load balancers in and detects target zones from', async () => {
    const ec2 = ec2ClientFor(sim);
    const { Subnets } = await ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [VPC] }] }),
    );
    const zoneOf = new Map(Subnets!.map((s) => [s.SubnetId!, s.AvailabilityZone!]));
    const lbSubnets = Subnets!.filter((s) =>
      s.Tags?.some((t) => t.Key === 'kubernetes.io/role/internal-elb'),
    );
    const lb = await elbv2.client.send(
      new CreateLoadBalancerCommand({
        Name: 'on-ec2-subnets',
        Scheme: 'internal',
        Subnets: lbSubnets.map((s) => s.SubnetId!),
      }),
    );
    expect(lb.LoadBalancers![0]!.AvailabilityZones!.map((z) => [z.SubnetId, z.ZoneName])).toEqual(
      lbSubnets.map((s) => [s.SubnetId, zoneOf.get(s.SubnetId!)]),
    );
    // A pod address in the secondary CIDR: ELBv2 detects the zone EC2 states for its subnet.
    const tg = await createTg(elbv2.client);
    await elbv2.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '100.64.70.9' }] }),
    );
    expect(elbv2.sim.state.targets().map((t) => t.AvailabilityZone)).toEqual([
      zoneOf.get('subnet-0e1b5000000000b03'),
    ]);
    ec2.destroy();
  });
});
