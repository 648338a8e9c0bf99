/**
 * The managed security groups' EC2 calls (model/security-group.ts, deploy/security-group.ts):
 * finding a stack's groups (and the owner's, for the orphan sweep) by their ownership tags, and
 * the mutating calls of a plan. Its own chunk in the function bundles with the EC2 client
 * (lazy-parts.ts): only a stack that has a managed group, or a deletion or sweep that may find
 * one, loads it.
 */
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateTagsCommand,
  DeleteSecurityGroupCommand,
  DeleteTagsCommand,
  DescribeSecurityGroupsCommand,
  RevokeSecurityGroupIngressCommand,
  type CreateSecurityGroupCommandInput,
  type EC2Client,
  type Filter,
  type IpPermission,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import { RetryLaterError } from '../../../errors.js';
import { ownershipConflict } from '../ownership-conflict.js';
import type { DeployContext, SecurityGroupAccess } from '../deploy/context.js';
import { call, isAwsError } from '../deploy/context.js';
import type { Ec2Call } from '../deploy/operations.js';
import type { ActualRule, ActualSecurityGroup } from '../deploy/security-group.js';
import { INSTANCE_TAG, isOwnedBy, OWNER_TAG, STACK_TAG } from '../tagging.js';

export { createEc2Client } from './vpc-reader.js';

/** DescribeSecurityGroups' largest page. */
const PAGE_SIZE = 1000;

function rulesOf(permissions: readonly IpPermission[] | undefined): ActualRule[] {
  return (permissions ?? []).flatMap((p) => {
    const base = {
      protocol: p.IpProtocol ?? '-1',
      ...(p.FromPort !== undefined && p.FromPort !== -1 ? { fromPort: p.FromPort, toPort: p.ToPort } : {}),
    };
    return [
      ...(p.IpRanges ?? []).flatMap((r) => (r.CidrIp ? [{ ...base, source: { cidrIpv4: r.CidrIp } }] : [])),
      ...(p.Ipv6Ranges ?? []).flatMap((r) =>
        r.CidrIpv6 ? [{ ...base, source: { cidrIpv6: r.CidrIpv6 } }] : [],
      ),
      ...(p.PrefixListIds ?? []).flatMap((r) =>
        r.PrefixListId ? [{ ...base, source: { prefixListId: r.PrefixListId } }] : [],
      ),
      ...(p.UserIdGroupPairs ?? []).flatMap((r) =>
        r.GroupId ? [{ ...base, source: { groupId: r.GroupId } }] : [],
      ),
    ];
  });
}

function actualOf(g: SecurityGroup): ActualSecurityGroup {
  const tags: Record<string, string> = {};
  for (const t of g.Tags ?? []) if (t.Key !== undefined) tags[t.Key] = t.Value ?? '';
  return { groupId: g.GroupId ?? '', groupName: g.GroupName ?? '', tags, ingress: rulesOf(g.IpPermissions) };
}

async function describe(
  client: EC2Client,
  ctx: DeployContext,
  filters: Filter[],
): Promise<ActualSecurityGroup[]> {
  const out: ActualSecurityGroup[] = [];
  let token: string | undefined;
  do {
    const page = await call(
      ctx,
      'DescribeSecurityGroups',
      (o) =>
        client.send(
          new DescribeSecurityGroupsCommand({
            Filters: filters,
            MaxResults: PAGE_SIZE,
            ...(token ? { NextToken: token } : {}),
          }),
          o,
        ),
      'EC2',
    );
    out.push(...(page.SecurityGroups ?? []).map(actualOf));
    token = page.NextToken;
  } while (token);
  return out;
}

const ownerFilters = (ctx: DeployContext): Filter[] => [
  { Name: 'vpc-id', Values: [ctx.vpcId] },
  { Name: `tag:${OWNER_TAG}`, Values: [ctx.owner.ownerId] },
  ...(ctx.owner.instanceId !== undefined
    ? [{ Name: `tag:${INSTANCE_TAG}`, Values: [ctx.owner.instanceId] }]
    : []),
];

/** The stack's groups: ours (owner and instance) and tagged with the stack. */
async function findStackSecurityGroups(
  client: EC2Client,
  ctx: DeployContext,
): Promise<ActualSecurityGroup[]> {
  const found = await describe(client, ctx, [
    ...ownerFilters(ctx),
    { Name: `tag:${STACK_TAG}`, Values: [ctx.owner.stackId] },
  ]);
  return found.filter((g) => isOwnedBy(g.tags, ctx.owner));
}

/** Every group of this owner in the VPC, any stack (the orphan sweep's inventory). */
async function findOwnedSecurityGroups(
  client: EC2Client,
  ctx: DeployContext,
): Promise<ActualSecurityGroup[]> {
  const found = await describe(client, ctx, ownerFilters(ctx));
  return found.filter((g) => g.tags[STACK_TAG] !== undefined);
}

/** The groups' EC2 side through `client`. */
export function securityGroupAccess(client: EC2Client): SecurityGroupAccess {
  return {
    findStack: (ctx) => findStackSecurityGroups(client, ctx),
    findOwned: (ctx) => findOwnedSecurityGroups(client, ctx),
    send: (ctx, c, o) => sendEc2(client, ctx, c, o),
  };
}

/**
 * The Karmada instance tag on a new group, as withInstance adds it to ELBv2 creates (apply.ts):
 * ownership is owner AND instance, and IAM allows the create only with both.
 */
function withInstanceTag(
  input: CreateSecurityGroupCommandInput,
  ctx: Pick<DeployContext, 'owner'>,
): CreateSecurityGroupCommandInput {
  const instanceId = ctx.owner.instanceId;
  if (instanceId === undefined) return input;
  return {
    ...input,
    TagSpecifications: (input.TagSpecifications ?? []).map((spec) => ({
      ...spec,
      Tags: [
        ...(spec.Tags ?? []).filter((t) => t.Key !== INSTANCE_TAG),
        { Key: INSTANCE_TAG, Value: instanceId },
      ],
    })),
  };
}

/**
 * One mutating EC2 call of a plan; CreateSecurityGroup answers the new group's ID (as its `arn`).
 * A deletion of what is gone already is done; what else a refusal means, `settled` says.
 */
async function sendEc2(
  client: EC2Client,
  ctx: DeployContext,
  c: Ec2Call,
  o: { abortSignal: AbortSignal },
): Promise<{ arn?: string }> {
  try {
    switch (c.action) {
      case 'CreateSecurityGroup':
        return {
          arn: (await client.send(new CreateSecurityGroupCommand(withInstanceTag(c.input, ctx)), o)).GroupId,
        };
      case 'AuthorizeSecurityGroupIngress':
        await client.send(new AuthorizeSecurityGroupIngressCommand(c.input), o);
        return {};
      case 'RevokeSecurityGroupIngress':
        await client.send(new RevokeSecurityGroupIngressCommand(c.input), o);
        return {};
      case 'DeleteSecurityGroup':
        await client.send(new DeleteSecurityGroupCommand(c.input), o);
        return {};
      case 'CreateTags':
        await client.send(new CreateTagsCommand(c.input), o);
        return {};
      case 'DeleteTags':
        await client.send(new DeleteTagsCommand(c.input), o);
        return {};
    }
  } catch (err) {
    if (alreadyDone(c, err)) return {};
    throw await settled(client, ctx, c, err);
  }
}

/** What a refused call means for the plan: done already, retry later, or a real failure. */
async function settled(client: EC2Client, ctx: DeployContext, c: Ec2Call, err: unknown): Promise<unknown> {
  if (c.action === 'AuthorizeSecurityGroupIngress' && isAwsError(err, 'InvalidPermission.Duplicate')) {
    // All or nothing: someone added one of the rules meanwhile; the next reconcile adds the rest.
    return new RetryLaterError(`security group ${c.input.GroupId ?? ''} changed meanwhile`, { cause: err });
  }
  if (c.action === 'CreateSecurityGroup' && isAwsError(err, 'InvalidGroup.Duplicate')) {
    const [named] = await describe(client, ctx, [
      { Name: 'vpc-id', Values: [ctx.vpcId] },
      { Name: 'group-name', Values: [c.input.GroupName ?? ''] },
    ]);
    if (named && !isOwnedBy(named.tags, ctx.owner)) {
      return ownershipConflict('security group', c.input.GroupName, named.tags, ctx.owner, err);
    }
    // Ours (a create whose answer was lost): the next reconcile finds it by its tags.
    return new RetryLaterError(`security group ${c.input.GroupName ?? ''} was created meanwhile`, {
      cause: err,
    });
  }
  return err;
}

/** Whether a refused call left nothing to do (the thing is gone already). */
function alreadyDone(c: Ec2Call, err: unknown): boolean {
  return (
    (c.action === 'DeleteSecurityGroup' && isAwsError(err, 'InvalidGroup.NotFound')) ||
    (c.action === 'RevokeSecurityGroupIngress' && isAwsError(err, 'InvalidPermission.NotFound'))
  );
}
