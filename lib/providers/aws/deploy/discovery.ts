/**
 * Finding what exists: by deterministic name (cheap, exact) and by ownership tags. Names only
 * locate candidates; whether a resource is ours is always decided by its tags.
 */
import {
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  type LoadBalancer,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { OwnershipConflictError } from '../../../errors.js';
import { OWNER_TAG, STACK_TAG, isOwnedBy, tagsToRecord } from '../tagging.js';
import { call, chunks, isAwsError, type DeployContext } from './context.js';

export type TagMap = Map<string, Record<string, string>>;

/** DescribeTags takes at most 20 ARNs per call. */
const TAGS_PER_CALL = 20;

export async function describeTags(ctx: DeployContext, arns: readonly string[]): Promise<TagMap> {
  const out: TagMap = new Map();
  for (const batch of chunks([...new Set(arns)], TAGS_PER_CALL)) {
    const res = await call(ctx, 'DescribeTags', (o) =>
      ctx.client.send(new DescribeTagsCommand({ ResourceArns: batch }), o),
    );
    for (const d of res.TagDescriptions ?? [])
      if (d.ResourceArn) out.set(d.ResourceArn, tagsToRecord(d.Tags));
  }
  return out;
}

export async function findLoadBalancerByName(
  ctx: DeployContext,
  name: string,
): Promise<LoadBalancer | undefined> {
  try {
    const res = await call(ctx, 'DescribeLoadBalancers', (o) =>
      ctx.client.send(new DescribeLoadBalancersCommand({ Names: [name] }), o),
    );
    return res.LoadBalancers?.[0];
  } catch (err) {
    if (isAwsError(err, 'LoadBalancerNotFound')) return undefined;
    throw err;
  }
}

export async function findTargetGroupsByLoadBalancer(
  ctx: DeployContext,
  lbArn: string,
): Promise<TargetGroup[]> {
  const out: TargetGroup[] = [];
  let marker: string | undefined;
  do {
    const res = await call(ctx, 'DescribeTargetGroups', (o) =>
      ctx.client.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: lbArn, Marker: marker }), o),
    );
    out.push(...(res.TargetGroups ?? []));
    marker = res.NextMarker;
  } while (marker);
  return out;
}

/**
 * Target groups with these names. One call for all; ELBv2 fails the whole call when any name is
 * missing, so on TargetGroupNotFound it falls back to one call per name.
 */
export async function findTargetGroupsByNames(
  ctx: DeployContext,
  names: readonly string[],
): Promise<TargetGroup[]> {
  if (names.length === 0) return [];
  const describe = async (batch: string[]) =>
    (
      await call(ctx, 'DescribeTargetGroups', (o) =>
        ctx.client.send(new DescribeTargetGroupsCommand({ Names: batch }), o),
      )
    ).TargetGroups ?? [];
  try {
    return await describe([...names]);
  } catch (err) {
    if (!isAwsError(err, 'TargetGroupNotFound') || names.length === 1) {
      if (isAwsError(err, 'TargetGroupNotFound')) return [];
      throw err;
    }
  }
  const out: TargetGroup[] = [];
  for (const name of names) out.push(...(await findTargetGroupsByNames(ctx, [name])));
  return out;
}

/**
 * Every target group of this stack, by tags: a sweep over the VPC's target groups. Used where the
 * model cannot say which names to look for (deletion, full resync).
 */
export async function sweepOwnedTargetGroups(
  ctx: DeployContext,
): Promise<Array<{ tg: TargetGroup; tags: Record<string, string> }>> {
  const candidates: TargetGroup[] = [];
  let marker: string | undefined;
  do {
    const res = await call(ctx, 'DescribeTargetGroups', (o) =>
      ctx.client.send(new DescribeTargetGroupsCommand({ Marker: marker, PageSize: 400 }), o),
    );
    // Only our naming scheme in our VPC can be ours: fewer DescribeTags calls on a busy account.
    for (const tg of res.TargetGroups ?? []) {
      if (tg.TargetGroupArn && tg.VpcId === ctx.vpcId && tg.TargetGroupName?.startsWith('k8s-'))
        candidates.push(tg);
    }
    marker = res.NextMarker;
  } while (marker);
  const tags = await describeTags(
    ctx,
    candidates.map((tg) => tg.TargetGroupArn ?? ''),
  );
  return candidates
    .map((tg) => ({ tg, tags: tags.get(tg.TargetGroupArn ?? '') ?? {} }))
    .filter((e) => isOwnedBy(e.tags, ctx.owner));
}

/** Refuses to touch a resource that carries a name we would use but not our ownership tags. */
export function assertOwned(
  ctx: DeployContext,
  kind: string,
  name: string | undefined,
  tags: Readonly<Record<string, string>> | undefined,
): void {
  if (tags && isOwnedBy(tags, ctx.owner)) return;
  const who = tags?.[OWNER_TAG]
    ? `owner "${tags[OWNER_TAG]}", stack "${tags[STACK_TAG] ?? ''}"`
    : 'no multicluster ownership tags';
  throw new OwnershipConflictError(
    `${kind} "${name ?? ''}" already exists and is not owned by this provider (${who}; expected owner "${ctx.owner.ownerId}", stack "${ctx.owner.stackId}"): refusing to modify or delete it. Rename or delete the foreign ${kind}, or tag it as ours to adopt it.`,
  );
}
