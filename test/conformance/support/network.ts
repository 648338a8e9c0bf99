/**
 * The VPC every scenario runs in, made (or found) through the real EC2 SDK client: the address
 * plan of the simulated account (dev/elbv2-sim/config.ts), a primary CIDR and a secondary one for
 * pods, public and private load balancer subnets in three zones with LBC's role tags, and pod
 * subnets without. On moto it is created (CreateVpc, AssociateVpcCidrBlock, CreateSubnet); our
 * EC2 simulator serves that network from the start, so there it is found. Either way the role tags
 * are written with CreateTags, and what comes back is read from EC2, so a scenario knows the
 * target's IDs only from what EC2 answered.
 */
import {
  AssociateVpcCidrBlockCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteTagsCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';

export const VPC_CIDR = '10.0.0.0/16';
export const POD_CIDR = '100.64.0.0/16';

export type SubnetRole = 'public' | 'private' | 'pods';

export const ELB_ROLE_TAG = 'kubernetes.io/role/elb';
export const INTERNAL_ELB_ROLE_TAG = 'kubernetes.io/role/internal-elb';

interface PlannedSubnet {
  /** Its Name tag, the simulated account's (`simulated-private-1a`): also its label in observations. */
  name: string;
  zoneLetter: 'a' | 'b' | 'c';
  cidr: string;
  role: SubnetRole;
}

const plan = (role: SubnetRole, cidrs: [string, string, string]): PlannedSubnet[] =>
  (['a', 'b', 'c'] as const).map((zoneLetter, i) => ({
    name: `simulated-${role}-1${zoneLetter}`,
    zoneLetter,
    cidr: cidrs[i]!,
    role,
  }));

export const SUBNET_PLAN: readonly PlannedSubnet[] = [
  ...plan('public', ['10.0.0.0/20', '10.0.16.0/20', '10.0.32.0/20']),
  ...plan('private', ['10.0.128.0/20', '10.0.144.0/20', '10.0.160.0/20']),
  ...plan('pods', ['100.64.0.0/18', '100.64.64.0/18', '100.64.128.0/18']),
];

export interface Subnet {
  id: string;
  name: string;
  zone: string;
  cidr: string;
  role: SubnetRole;
}

export interface Network {
  region: string;
  vpcId: string;
  defaultSecurityGroupId: string;
  subnets: Subnet[];
  /** The IDs of the subnets of a role, in zone order. */
  ids(role: SubnetRole): string[];
}

const roleTags = (role: SubnetRole): Record<string, string> =>
  role === 'public' ? { [ELB_ROLE_TAG]: '1' } : role === 'private' ? { [INTERNAL_ELB_ROLE_TAG]: '1' } : {};

/** Finds or makes the scenario VPC in the client's Region, and tags its subnets with their roles. */
export async function seedNetwork(ec2: EC2Client, region: string): Promise<Network> {
  const vpcs = (await ec2.send(new DescribeVpcsCommand({}))).Vpcs ?? [];
  let vpc = vpcs.find((v) => v.CidrBlock === VPC_CIDR);
  if (!vpc) {
    vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: VPC_CIDR }))).Vpc;
  }
  const vpcId = vpc?.VpcId;
  if (!vpcId) throw new Error(`no VPC ${VPC_CIDR} in ${region}`);
  const associated = (vpc?.CidrBlockAssociationSet ?? []).some(
    (a) => a.CidrBlock === POD_CIDR && a.CidrBlockState?.State !== 'disassociated',
  );
  if (!associated) await ec2.send(new AssociateVpcCidrBlockCommand({ VpcId: vpcId, CidrBlock: POD_CIDR }));

  const existing = async () =>
    (await ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] })))
      .Subnets ?? [];
  let found = await existing();
  for (const s of SUBNET_PLAN) {
    if (found.some((f) => f.CidrBlock === s.cidr)) continue;
    await ec2.send(
      new CreateSubnetCommand({
        VpcId: vpcId,
        CidrBlock: s.cidr,
        AvailabilityZone: `${region}${s.zoneLetter}`,
      }),
    );
  }
  found = await existing();
  const subnets: Subnet[] = SUBNET_PLAN.map((s) => {
    const f = found.find((x) => x.CidrBlock === s.cidr);
    if (!f?.SubnetId || !f.AvailabilityZone) throw new Error(`subnet ${s.cidr} missing in ${region}`);
    return { id: f.SubnetId, name: s.name, zone: f.AvailabilityZone, cidr: s.cidr, role: s.role };
  });
  for (const s of subnets) {
    const tags = { Name: s.name, ...roleTags(s.role) };
    await ec2.send(
      new CreateTagsCommand({
        Resources: [s.id],
        Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
      }),
    );
  }
  const groups =
    (
      await ec2.send(
        new DescribeSecurityGroupsCommand({
          Filters: [
            { Name: 'vpc-id', Values: [vpcId] },
            { Name: 'group-name', Values: ['default'] },
          ],
        }),
      )
    ).SecurityGroups ?? [];
  const defaultSecurityGroupId = groups[0]?.GroupId;
  if (!defaultSecurityGroupId) throw new Error(`no default security group in ${vpcId}`);
  return {
    region,
    vpcId,
    defaultSecurityGroupId,
    subnets,
    ids: (role) => subnets.filter((s) => s.role === role).map((s) => s.id),
  };
}

/** Moves a role tag: from `from` (deleted) to `to` (created), as an operator retags subnets. */
export async function retag(
  ec2: EC2Client,
  key: string,
  changes: { remove?: readonly string[]; add?: readonly string[] },
): Promise<void> {
  if (changes.remove?.length)
    await ec2.send(new DeleteTagsCommand({ Resources: [...changes.remove], Tags: [{ Key: key }] }));
  if (changes.add?.length)
    await ec2.send(new CreateTagsCommand({ Resources: [...changes.add], Tags: [{ Key: key, Value: '1' }] }));
}
