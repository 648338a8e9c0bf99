/**
 * The ELBv2 Describe calls, one function each (paging and batching included), and the two
 * account-wide listings by ownership tags that only the orphan sweep's inventory makes. Which of
 * them a stack needs is decided by discover.ts.
 */
import {
  DescribeCapacityReservationCommand,
  DescribeListenerAttributesCommand,
  DescribeListenerCertificatesCommand,
  DescribeListenersCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand,
  DescribeRulesCommand,
  DescribeTagsCommand,
  DescribeTargetGroupAttributesCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  DescribeTrustStoresCommand,
  type Listener,
  type LoadBalancer,
  type Rule,
  type TargetGroup,
  type TargetHealthDescription,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { STACK_TAG, isOwnerOf, tagsToRecord, type StackOwner } from '../tagging.js';
import { capacityOf, type ActualCapacity } from './capacity.js';
import { call, chunks, isAwsError, type DeployContext } from './context.js';

export type TagMap = Map<string, Record<string, string>>;

/** DescribeTags takes at most 20 ARNs per call. */
const TAGS_PER_CALL = 20;

export async function describeTags(
  ctx: Pick<DeployContext, 'client' | 'signal'>,
  arns: readonly string[],
): Promise<TagMap> {
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

/** Every item of a Marker-paged Describe call: one call per page, each under `call`. */
async function allPages<T>(
  ctx: Pick<DeployContext, 'signal'>,
  operation: string,
  page: (
    marker: string | undefined,
    options: { abortSignal: AbortSignal },
  ) => Promise<{ items: T[] | undefined; next: string | undefined }>,
): Promise<T[]> {
  const out: T[] = [];
  let marker: string | undefined;
  do {
    const res = await call(ctx, operation, (o) => page(marker, o));
    out.push(...(res.items ?? []));
    marker = res.next;
  } while (marker);
  return out;
}

/** Each resource with its tags (one DescribeTags per 20). */
async function withTags<T>(
  ctx: Pick<DeployContext, 'client' | 'signal'>,
  resources: readonly T[],
  arnOf: (r: T) => string | undefined,
): Promise<Array<{ resource: T; tags: Record<string, string> }>> {
  const tags = await describeTags(
    ctx,
    resources.map((r) => arnOf(r) ?? ''),
  );
  return resources.map((resource) => ({ resource, tags: tags.get(arnOf(resource) ?? '') ?? {} }));
}

export function findTargetGroupsByLoadBalancer(ctx: DeployContext, lbArn: string): Promise<TargetGroup[]> {
  return allPages(ctx, 'DescribeTargetGroups', async (Marker, o) => {
    const res = await ctx.client.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: lbArn, Marker }), o);
    return { items: res.TargetGroups, next: res.NextMarker };
  });
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

/** The target group with this ARN, or undefined when it is gone. */
export async function findTargetGroupByArn(
  ctx: Pick<DeployContext, 'client' | 'signal'>,
  arn: string,
): Promise<TargetGroup | undefined> {
  try {
    const res = await call(ctx, 'DescribeTargetGroups', (o) =>
      ctx.client.send(new DescribeTargetGroupsCommand({ TargetGroupArns: [arn] }), o),
    );
    return res.TargetGroups?.[0];
  } catch (err) {
    if (isAwsError(err, 'TargetGroupNotFound')) return undefined;
    throw err;
  }
}

/**
 * Every target group whose tags `match`: pages through the account's
 * target groups and describes the tags of every candidate, so it costs O(account). Only the
 * orphan sweep's inventory calls it, once per sweep; a per-object reconcile must find its groups
 * through its load balancer and its desired names, or a resync of N objects costs O(N²).
 */
export async function sweepOwnedTargetGroups(
  ctx: DeployContext,
  match: (tags: Record<string, string>) => boolean,
): Promise<Array<{ tg: TargetGroup; tags: Record<string, string> }>> {
  const all = await allPages(ctx, 'DescribeTargetGroups', async (Marker, o) => {
    const res = await ctx.client.send(new DescribeTargetGroupsCommand({ Marker, PageSize: 400 }), o);
    return { items: res.TargetGroups, next: res.NextMarker };
  });
  // Only our naming scheme in our VPC can be ours: fewer DescribeTags calls on a busy account.
  const candidates = all.filter(
    (tg) => tg.TargetGroupArn && tg.VpcId === ctx.vpcId && tg.TargetGroupName?.startsWith('k8s-'),
  );
  return (await withTags(ctx, candidates, (tg) => tg.TargetGroupArn))
    .map(({ resource, tags }) => ({ tg: resource, tags }))
    .filter((e) => match(e.tags));
}

/** Every load balancer of this owner (optionally one stack), by tags: for deletion by stack and the orphan sweep. */
export async function sweepOwnedLoadBalancers(
  ctx: Pick<DeployContext, 'client' | 'signal'>,
  owner: Pick<StackOwner, 'ownerId' | 'instanceId'>,
): Promise<Array<{ lb: LoadBalancer; tags: Record<string, string> }>> {
  const all = await allPages(ctx, 'DescribeLoadBalancers', async (Marker, o) => {
    const res = await ctx.client.send(new DescribeLoadBalancersCommand({ Marker, PageSize: 400 }), o);
    return { items: res.LoadBalancers, next: res.NextMarker };
  });
  return (
    await withTags(
      ctx,
      all.filter((lb) => lb.LoadBalancerArn),
      (lb) => lb.LoadBalancerArn,
    )
  )
    .map(({ resource, tags }) => ({ lb: resource, tags }))
    .filter((e) => isOwnerOf(e.tags, owner) && e.tags[STACK_TAG] !== undefined);
}

export function describeRules(ctx: DeployContext, listenerArn: string): Promise<Rule[]> {
  return allPages(ctx, 'DescribeRules', async (Marker, o) => {
    const res = await ctx.client.send(new DescribeRulesCommand({ ListenerArn: listenerArn, Marker }), o);
    return { items: res.Rules, next: res.NextMarker };
  });
}

export function describeListeners(ctx: DeployContext, lbArn: string): Promise<Listener[]> {
  return allPages(ctx, 'DescribeListeners', async (Marker, o) => {
    const res = await ctx.client.send(new DescribeListenersCommand({ LoadBalancerArn: lbArn, Marker }), o);
    return { items: res.Listeners, next: res.NextMarker };
  });
}

/** The listener's non-default certificates. */
export async function describeExtraCertificates(ctx: DeployContext, listenerArn: string): Promise<string[]> {
  const all = await allPages(ctx, 'DescribeListenerCertificates', async (Marker, o) => {
    const res = await ctx.client.send(
      new DescribeListenerCertificatesCommand({ ListenerArn: listenerArn, Marker }),
      o,
    );
    return { items: res.Certificates, next: res.NextMarker };
  });
  return all.flatMap((c) => (!c.IsDefault && c.CertificateArn ? [c.CertificateArn] : []));
}

export async function describeTargets(
  ctx: DeployContext,
  targetGroupArn: string,
): Promise<TargetHealthDescription[]> {
  const res = await call(ctx, 'DescribeTargetHealth', (o) =>
    ctx.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: targetGroupArn }), o),
  );
  return res.TargetHealthDescriptions ?? [];
}

const attributeRecord = (attrs: ReadonlyArray<{ Key?: string; Value?: string }> | undefined) =>
  Object.fromEntries((attrs ?? []).flatMap((a) => (a.Key ? [[a.Key, a.Value ?? '']] : [])));

export async function describeLoadBalancerAttributes(
  ctx: DeployContext,
  arn: string,
): Promise<Record<string, string>> {
  const res = await call(ctx, 'DescribeLoadBalancerAttributes', (o) =>
    ctx.client.send(new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: arn }), o),
  );
  return attributeRecord(res.Attributes);
}

/**
 * The ARNs of the trust stores with these names (absent: no such trust store). One call for all;
 * ELBv2 fails the whole call when a name is missing, so then one call per name.
 */
export async function findTrustStoreArns(
  ctx: Pick<DeployContext, 'client' | 'signal'>,
  names: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  try {
    const res = await call(ctx, 'DescribeTrustStores', (o) =>
      ctx.client.send(new DescribeTrustStoresCommand({ Names: [...names] }), o),
    );
    for (const t of res.TrustStores ?? []) if (t.Name && t.TrustStoreArn) out.set(t.Name, t.TrustStoreArn);
    return out;
  } catch (err) {
    if (!isAwsError(err, 'TrustStoreNotFound')) throw err;
    if (names.length === 1) return out;
  }
  for (const name of names) for (const [k, v] of await findTrustStoreArns(ctx, [name])) out.set(k, v);
  return out;
}

export async function describeCapacityReservation(ctx: DeployContext, arn: string): Promise<ActualCapacity> {
  const res = await call(ctx, 'DescribeCapacityReservation', (o) =>
    ctx.client.send(new DescribeCapacityReservationCommand({ LoadBalancerArn: arn }), o),
  );
  return capacityOf(res);
}

export async function describeListenerAttributes(
  ctx: DeployContext,
  arn: string,
): Promise<Record<string, string>> {
  const res = await call(ctx, 'DescribeListenerAttributes', (o) =>
    ctx.client.send(new DescribeListenerAttributesCommand({ ListenerArn: arn }), o),
  );
  return attributeRecord(res.Attributes);
}

export async function describeTargetGroupAttributes(
  ctx: DeployContext,
  arn: string,
): Promise<Record<string, string>> {
  const res = await call(ctx, 'DescribeTargetGroupAttributes', (o) =>
    ctx.client.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: arn }), o),
  );
  return attributeRecord(res.Attributes);
}
