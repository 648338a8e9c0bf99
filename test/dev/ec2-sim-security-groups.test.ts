/**
 * The EC2 simulator's security groups through the real `@aws-sdk/client-ec2`, alone and linked
 * with the ELBv2 simulator (one account: a load balancer names groups EC2 has, and a group in use
 * cannot be deleted).
 */
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  DeleteSecurityGroupCommand,
  DescribeSecurityGroupsCommand,
  RevokeSecurityGroupIngressCommand,
  type EC2Client,
  type IpPermission,
} from '@aws-sdk/client-ec2';
import {
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
  SetSecurityGroupsCommand,
  type ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  type Elbv2Simulator,
} from '../../dev/elbv2-sim/index.js';
import { sdkError } from './elbv2-sim-fixtures.js';

const VPC = SIM_NETWORK.vpcId;
const TAGS = [{ ResourceType: 'security-group' as const, Tags: [{ Key: 'owner', Value: 'test' }] }];
const tcp = (port: number, source: Partial<IpPermission>): IpPermission => ({
  IpProtocol: 'tcp',
  FromPort: port,
  ToPort: port,
  ...source,
});

let elbv2Sim: Elbv2Simulator;
let ec2Sim: Ec2Simulator;
let ec2: EC2Client;
let elbv2: ElasticLoadBalancingV2Client;
beforeEach(async () => {
  elbv2Sim = await startElbv2Simulator();
  ec2Sim = await startEc2Simulator({
    elbv2: elbv2Sim,
    releaseAttempts: 1,
    limits: { inboundRulesPerGroup: 4 },
  });
  ec2 = ec2ClientFor(ec2Sim, { maxAttempts: 1 });
  elbv2 = elbv2ClientFor(elbv2Sim, { maxAttempts: 1 });
});
afterEach(async () => {
  ec2.destroy();
  elbv2.destroy();
  await ec2Sim.close();
  await elbv2Sim.close();
});

const create = async (name = 'k8s-web') =>
  (
    await ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: name,
        Description: 'managed',
        VpcId: VPC,
        TagSpecifications: TAGS,
      }),
    )
  ).GroupId!;
const describeOne = async (id: string) =>
  (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [id] }))).SecurityGroups![0]!;

describe('CreateSecurityGroup and DescribeSecurityGroups', () => {
  it('creates a tagged group with the default egress rule, found by ID, name and tag filters', async () => {
    const id = await create();
    expect(id).toMatch(/^sg-[0-9a-f]{17}$/);
    expect(await describeOne(id)).toMatchObject({
      GroupId: id,
      GroupName: 'k8s-web',
      Description: 'managed',
      VpcId: VPC,
      OwnerId: '123456789012',
      Tags: [{ Key: 'owner', Value: 'test' }],
      IpPermissions: [],
      IpPermissionsEgress: [{ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
    });
    const byTag = await ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [VPC] },
          { Name: 'tag:owner', Values: ['test'] },
        ],
      }),
    );
    expect(byTag.SecurityGroups?.map((g) => g.GroupId)).toEqual([id]);
    const byName = await ec2.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: ['k8s-*'] }] }),
    );
    expect(byName.SecurityGroups?.map((g) => g.GroupId)).toEqual([id]);
  });

  it('refuses a duplicate name in the VPC, an sg- name, an unknown VPC; an unknown ID is InvalidGroup.NotFound', async () => {
    await create();
    expect(await sdkError(create())).toMatchObject({ name: 'InvalidGroup.Duplicate' });
    expect(await sdkError(create('sg-web'))).toMatchObject({ name: 'InvalidParameterValue' });
    expect(
      await sdkError(
        ec2.send(
          new CreateSecurityGroupCommand({
            GroupName: 'x',
            Description: 'd',
            VpcId: 'vpc-0123456789abcdef0',
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidVpcID.NotFound' });
    const missing = await sdkError(describeOne('sg-0123456789abcdef0'));
    expect(missing).toMatchObject({ name: 'InvalidGroup.NotFound' });
    expect(missing.message).toBe("The security group 'sg-0123456789abcdef0' does not exist");
    expect(await sdkError(describeOne('sg-xyz'))).toMatchObject({ name: 'InvalidGroupId.Malformed' });
  });
});

describe('AuthorizeSecurityGroupIngress and RevokeSecurityGroupIngress', () => {
  it('adds IPv4, IPv6, prefix-list and group rules, described grouped by port; revokes by value and by rule ID', async () => {
    const id = await create();
    const other = await create('k8s-backend');
    const added = await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: id,
        IpPermissions: [
          tcp(443, {
            IpRanges: [{ CidrIp: '10.0.0.0/8' }],
            Ipv6Ranges: [{ CidrIpv6: '2600:1f18::/32' }],
            PrefixListIds: [{ PrefixListId: 'pl-0123abcd' }],
          }),
          tcp(80, { UserIdGroupPairs: [{ GroupId: other }] }),
        ],
      }),
    );
    expect(added.Return).toBe(true);
    expect(
      added.SecurityGroupRules?.map((r) => [
        r.FromPort,
        r.CidrIpv4 ?? r.CidrIpv6 ?? r.PrefixListId ?? r.ReferencedGroupInfo?.GroupId,
      ]),
    ).toEqual([
      [443, '10.0.0.0/8'],
      [443, '2600:1f18::/32'],
      [443, 'pl-0123abcd'],
      [80, other],
    ]);
    const { IpPermissions } = await describeOne(id);
    expect(IpPermissions).toEqual([
      expect.objectContaining({
        IpProtocol: 'tcp',
        FromPort: 443,
        ToPort: 443,
        IpRanges: [{ CidrIp: '10.0.0.0/8' }],
        Ipv6Ranges: [{ CidrIpv6: '2600:1f18::/32' }],
        PrefixListIds: [{ PrefixListId: 'pl-0123abcd' }],
      }),
      expect.objectContaining({
        FromPort: 80,
        UserIdGroupPairs: [{ UserId: '123456789012', GroupId: other }],
      }),
    ]);
    // A group another group's rule references is in use.
    expect(await sdkError(ec2.send(new DeleteSecurityGroupCommand({ GroupId: other })))).toMatchObject({
      name: 'DependencyViolation',
    });
    await ec2.send(
      new RevokeSecurityGroupIngressCommand({
        GroupId: id,
        IpPermissions: [tcp(443, { IpRanges: [{ CidrIp: '10.0.0.0/8' }] })],
      }),
    );
    const byId = added.SecurityGroupRules!.find((r) => r.FromPort === 80)!.SecurityGroupRuleId!;
    await ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: id, SecurityGroupRuleIds: [byId] }));
    expect((await describeOne(id)).IpPermissions?.map((p) => p.FromPort)).toEqual([443]);
    expect(
      await sdkError(
        ec2.send(
          new RevokeSecurityGroupIngressCommand({
            GroupId: id,
            IpPermissions: [tcp(443, { IpRanges: [{ CidrIp: '10.0.0.0/8' }] })],
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidPermission.NotFound' });
    await ec2.send(new DeleteSecurityGroupCommand({ GroupId: other }));
  });

  it('refuses a duplicate rule, a malformed CIDR, a bad port range and rules past the quota, adding none of them', async () => {
    const id = await create();
    const auth = (perms: IpPermission[]) =>
      ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: id, IpPermissions: perms }));
    await auth([tcp(80, { IpRanges: [{ CidrIp: '0.0.0.0/0' }] })]);
    const dup = await sdkError(auth([tcp(80, { IpRanges: [{ CidrIp: '0.0.0.0/0' }] })]));
    expect(dup).toMatchObject({ name: 'InvalidPermission.Duplicate' });
    expect(dup.message).toContain('peer: 0.0.0.0/0, TCP, from port: 80, to port: 80, ALLOW');
    expect(await sdkError(auth([tcp(80, { IpRanges: [{ CidrIp: '10.0.0.0/33' }] })]))).toMatchObject({
      name: 'InvalidParameterValue',
      message: 'CIDR block 10.0.0.0/33 is malformed',
    });
    expect(
      await sdkError(
        auth([{ IpProtocol: 'tcp', FromPort: 90, ToPort: 80, IpRanges: [{ CidrIp: '10.0.0.0/8' }] }]),
      ),
    ).toMatchObject({ name: 'InvalidParameterValue' });
    // The quota here is 4 inbound IPv4 rules (60 by default); IPv6 rules count apart.
    const many = ['10.1.0.0/16', '10.2.0.0/16', '10.3.0.0/16', '10.4.0.0/16'].map((CidrIp) => ({ CidrIp }));
    expect(await sdkError(auth([tcp(81, { IpRanges: many })]))).toMatchObject({
      name: 'RulesPerSecurityGroupLimitExceeded',
    });
    await auth([
      tcp(81, {
        Ipv6Ranges: ['::/0', '2600::/16', '2601::/16', '2602::/16'].map((CidrIpv6) => ({ CidrIpv6 })),
      }),
    ]);
    expect((await describeOne(id)).IpPermissions?.flatMap((p) => p.IpRanges ?? [])).toEqual([
      { CidrIp: '0.0.0.0/0' },
    ]);
  });
});

describe('linked with the ELBv2 simulator', () => {
  const subnets = SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId);

  it('a load balancer may only name groups EC2 has; one in use, or just let go of, is a DependencyViolation', async () => {
    const id = await create();
    const refused = await sdkError(
      elbv2.send(
        new CreateLoadBalancerCommand({
          Name: 'web',
          Subnets: subnets,
          SecurityGroups: ['sg-0123456789abcdef0'],
        }),
      ),
    );
    expect(refused).toMatchObject({ name: 'InvalidSecurityGroupException' });
    const { LoadBalancers } = await elbv2.send(
      new CreateLoadBalancerCommand({ Name: 'web', Subnets: subnets, SecurityGroups: [id] }),
    );
    const arn = LoadBalancers![0]!.LoadBalancerArn!;
    const deleteGroup = () => ec2.send(new DeleteSecurityGroupCommand({ GroupId: id }));
    const inUse = await sdkError(deleteGroup());
    expect(inUse).toMatchObject({
      name: 'DependencyViolation',
      message: `resource ${id} has a dependent object`,
    });
    await elbv2.send(
      new SetSecurityGroupsCommand({
        LoadBalancerArn: arn,
        SecurityGroups: [SIM_NETWORK.defaultSecurityGroupId],
      }),
    );
    await elbv2.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn }));
    // Its interfaces linger for one more attempt (releaseAttempts: 1), then the group goes.
    expect(await sdkError(deleteGroup())).toMatchObject({ name: 'DependencyViolation' });
    await deleteGroup();
    expect(await sdkError(deleteGroup())).toMatchObject({ name: 'InvalidGroup.NotFound' });
    expect(
      await sdkError(
        ec2.send(new DeleteSecurityGroupCommand({ GroupId: SIM_NETWORK.defaultSecurityGroupId })),
      ),
    ).toMatchObject({
      name: 'CannotDelete',
    });
  });

  it('faults in EC2 words: throttling is RequestLimitExceeded (503) and changes nothing', async () => {
    ec2Sim.faults.failNext('CreateSecurityGroup', 1, { code: 'Throttling' });
    expect(await sdkError(create())).toMatchObject({
      name: 'RequestLimitExceeded',
      $metadata: { httpStatusCode: 503 },
    });
    expect(ec2Sim.state.securityGroups.all().map((g) => g.groupName)).toEqual(['default']);
    // A drop after the commit: the group exists, the answer is lost (a retry meets the duplicate).
    ec2Sim.faults.failNext('CreateSecurityGroup', 1, { dropAfterCommit: true });
    expect(await sdkError(create())).toBeInstanceOf(Error);
    expect(ec2Sim.state.securityGroups.all().map((g) => g.groupName)).toEqual(['default', 'k8s-web']);
    expect(await sdkError(create())).toMatchObject({ name: 'InvalidGroup.Duplicate' });
  });
});
