/**
 * Each Region's simulated VPC (dev/elbv2-sim/config.ts `simNetwork`): SIM_NETWORK in us-east-1,
 * a VPC of its own elsewhere, served alike by that Region's ELBv2 and EC2 simulators through
 * the real SDK clients.
 */
import {
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
} from '@aws-sdk/client-ec2';
import { CreateLoadBalancerCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, zoneIdOf } from '../../dev/ec2-sim/index.js';
import {
  elbv2ClientFor,
  hostedZoneIds,
  SIM_NETWORK,
  simNetwork,
  startElbv2Simulator,
} from '../../dev/elbv2-sim/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('simNetwork', () => {
  it('is SIM_NETWORK in us-east-1, and elsewhere the same address plan with its own IDs and zones', () => {
    expect(simNetwork('us-east-1')).toBe(SIM_NETWORK);
    expect(simNetwork()).toBe(SIM_NETWORK);
    const west = simNetwork('eu-west-1');
    expect(simNetwork('eu-west-1')).toBe(west);
    expect(west.region).toBe('eu-west-1');
    expect(west.vpcId).toMatch(/^vpc-0[0-9a-f]{16}$/);
    expect(west.vpcId).not.toBe(SIM_NETWORK.vpcId);
    // The one ID kept: objects across Regions name the default group by it (config.ts says why).
    expect(west.defaultSecurityGroupId).toBe(SIM_NETWORK.defaultSecurityGroupId);
    expect(west.vpcIpv6Cidr).not.toBe(SIM_NETWORK.vpcIpv6Cidr);
    expect([west.vpcCidr, ...west.secondaryCidrs]).toEqual([
      SIM_NETWORK.vpcCidr,
      ...SIM_NETWORK.secondaryCidrs,
    ]);
    expect(west.subnets.map((s) => [s.availabilityZone, s.cidr, s.public])).toEqual(
      SIM_NETWORK.subnets.map((s) => [
        s.availabilityZone.replace('us-east-1', 'eu-west-1'),
        s.cidr,
        s.public,
      ]),
    );
    const ids = [...west.subnets, ...west.podSubnets].map((s) => s.subnetId);
    expect(ids.every((id) => /^subnet-0[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(ids.filter((id) => SIM_NETWORK.subnets.some((s) => s.subnetId === id))).toEqual([]);
    expect(simNetwork('ap-south-1').vpcId).not.toBe(west.vpcId);
  });

  it('zone IDs in AWS’s shape; Route 53 zone IDs per Region', () => {
    expect(zoneIdOf('us-east-1a')).toBe('use1-az4');
    expect(zoneIdOf('eu-west-1b')).toBe('euw1-az2');
    expect(zoneIdOf('ap-southeast-2c')).toBe('apse2-az3');
    expect(hostedZoneIds('eu-west-1').application).toBe('Z32O12XQLNTSW2');
    expect(hostedZoneIds('us-east-1').network).toBe('Z26RNL4JYFTOTI');
  });
});

describe('a Region’s ELBv2 and EC2 simulators', () => {
  it('serve that Region’s VPC: its subnets and zones, and refuse another Region’s subnets', async () => {
    const elbv2 = await startElbv2Simulator({ region: 'eu-west-1' });
    closers.push(() => elbv2.close());
    const ec2 = await startEc2Simulator({ elbv2 });
    closers.push(() => ec2.close());
    const west = simNetwork('eu-west-1');
    expect(elbv2.network).toBe(west);
    expect(ec2.region).toBe('eu-west-1');
    expect(ec2.network).toBe(west);

    const client = ec2ClientFor(ec2, { maxAttempts: 1 });
    const { Vpcs } = await client.send(new DescribeVpcsCommand({}));
    expect(Vpcs?.map((v) => v.VpcId)).toEqual([west.vpcId]);
    expect(Vpcs?.[0]?.Ipv6CidrBlockAssociationSet?.[0]?.NetworkBorderGroup).toBe('eu-west-1');
    const { Subnets } = await client.send(new DescribeSubnetsCommand({}));
    const privateOnes = Subnets?.filter((s) =>
      s.Tags?.some((t) => t.Key === 'kubernetes.io/role/internal-elb'),
    );
    expect(privateOnes?.map((s) => [s.AvailabilityZone, s.AvailabilityZoneId])).toEqual([
      ['eu-west-1a', 'euw1-az1'],
      ['eu-west-1b', 'euw1-az2'],
      ['eu-west-1c', 'euw1-az3'],
    ]);
    expect(Subnets?.every((s) => s.SubnetArn?.startsWith('arn:aws:ec2:eu-west-1:'))).toBe(true);
    const { SecurityGroups } = await client.send(new DescribeSecurityGroupsCommand({}));
    expect(SecurityGroups?.map((g) => [g.GroupId, g.VpcId])).toEqual([
      [west.defaultSecurityGroupId, west.vpcId],
    ]);

    const lbs = elbv2ClientFor(elbv2, { maxAttempts: 1 });
    const created = await lbs.send(
      new CreateLoadBalancerCommand({
        Name: 'west',
        Subnets: privateOnes!.map((s) => s.SubnetId!),
        SecurityGroups: [west.defaultSecurityGroupId],
      }),
    );
    const lb = created.LoadBalancers![0]!;
    expect(lb.VpcId).toBe(west.vpcId);
    expect(lb.CanonicalHostedZoneId).toBe('Z32O12XQLNTSW2');
    expect(lb.AvailabilityZones?.map((z) => z.ZoneName)).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    await expect(
      lbs.send(
        new CreateLoadBalancerCommand({
          Name: 'east-subnets',
          Subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
        }),
      ),
    ).rejects.toMatchObject({ name: 'SubnetNotFoundException' });
  });

  it('an EC2 simulator linked to another Region’s ELBv2 simulator is refused', async () => {
    const elbv2 = await startElbv2Simulator({ region: 'eu-west-1' });
    closers.push(() => elbv2.close());
    await expect(startEc2Simulator({ elbv2, region: 'us-east-1' })).rejects.toThrow(
      'EC2 simulator for us-east-1 linked to the ELBv2 simulator of eu-west-1',
    );
  });
});
