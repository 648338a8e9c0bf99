/**
 * Deploys a stack in LBC's order (pkg/deploy/stack_deployer.go): discover and check ownership →
 * target groups → load balancer → listeners → rules → targets → delete orphaned target groups.
 * Nothing is changed until every resource found under one of our names has proved to be ours.
 */
import { DescribeListenersCommand, type LoadBalancer } from '@aws-sdk/client-elastic-load-balancing-v2';
import { resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { isOwnedBy } from '../tagging.js';
import { call, checkAborted, type DeployContext } from './context.js';
import {
  assertOwned,
  describeTags,
  findLoadBalancerByName,
  findTargetGroupsByLoadBalancer,
  findTargetGroupsByNames,
  sweepOwnedTargetGroups,
} from './discovery.js';
import { synthesizeListenerRules } from './listener-rule.js';
import { synthesizeListeners } from './listener.js';
import { deleteLoadBalancer, synthesizeLoadBalancer } from './load-balancer.js';
import { deleteTargetGroups, synthesizeTargetGroups, type OwnedTargetGroup } from './target-group.js';
import { synthesizeTargets } from './targets.js';

export interface DeployResult {
  dnsName: string;
  listenerPorts: number[];
}

export interface DeployStackOptions {
  /** Also sweep target groups by tags (finds orphans no rule points at any more): for resyncs. */
  fullSweep?: boolean;
}

export async function deployStack(
  ctx: DeployContext,
  stack: Stack,
  options: DeployStackOptions = {},
): Promise<DeployResult> {
  const [lbRes] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  if (!lbRes) throw new Error(`stack ${stack.id} has no load balancer`);
  const desiredTgs = resourcesOf(stack, ResourceTypes.TargetGroup);

  // 1. Discover.
  const lb = await findLoadBalancerByName(ctx, lbRes.spec.name);
  const attached = lb?.LoadBalancerArn ? await findTargetGroupsByLoadBalancer(ctx, lb.LoadBalancerArn) : [];
  const attachedNames = new Set(attached.map((tg) => tg.TargetGroupName));
  const byName = await findTargetGroupsByNames(
    ctx,
    desiredTgs.map((t) => t.spec.name).filter((n) => !attachedNames.has(n)),
  );
  const tags = await describeTags(ctx, [
    ...(lb?.LoadBalancerArn ? [lb.LoadBalancerArn] : []),
    ...[...attached, ...byName].flatMap((tg) => (tg.TargetGroupArn ? [tg.TargetGroupArn] : [])),
  ]);
  const tagsOf = (arn: string | undefined) => tags.get(arn ?? '') ?? {};
  if (lb) assertOwned(ctx, 'load balancer', lb.LoadBalancerName, tagsOf(lb.LoadBalancerArn));
  const desiredNames = new Set(desiredTgs.map((d) => d.spec.name));
  for (const tg of [...attached, ...byName]) {
    if (desiredNames.has(tg.TargetGroupName ?? '')) {
      assertOwned(ctx, 'target group', tg.TargetGroupName, tagsOf(tg.TargetGroupArn));
    }
  }
  const owned = new Map<string, OwnedTargetGroup>();
  for (const tg of [...attached, ...byName]) {
    const t = tagsOf(tg.TargetGroupArn);
    // A foreign group someone attached to our load balancer is not ours to delete.
    if (tg.TargetGroupArn && isOwnedBy(t, ctx.owner)) owned.set(tg.TargetGroupArn, { tg, tags: t });
  }
  if (options.fullSweep) {
    for (const e of await sweepOwnedTargetGroups(ctx)) owned.set(e.tg.TargetGroupArn ?? '', e);
  }
  checkAborted(ctx);

  // 2. Target groups (create/update; deletes wait until rules stopped pointing at them).
  const tgs = await synthesizeTargetGroups(ctx, desiredTgs, [...owned.values()]);
  const resolve = (id: string): string => {
    const arn = tgs.arns.get(id);
    if (!arn) throw new Error(`stack ${stack.id}: unresolved reference to ${id}`);
    return arn;
  };
  checkAborted(ctx);

  // 3. Load balancer.
  const deployed = await synthesizeLoadBalancer(
    ctx,
    lbRes,
    lb ? { lb, tags: tagsOf(lb.LoadBalancerArn) } : undefined,
  );
  checkAborted(ctx);

  // 4. Listeners, 5. their rules.
  const listeners = resourcesOf(stack, ResourceTypes.Listener).filter(
    (l) => l.spec.loadBalancer.$ref === lbRes.id,
  );
  const deployedListeners = await synthesizeListeners(ctx, deployed, listeners, resolve);
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
  for (const [id, listener] of deployedListeners) {
    checkAborted(ctx);
    await synthesizeListenerRules(
      ctx,
      listener,
      rules.filter((r) => r.spec.listener.$ref === id),
      resolve,
    );
  }

  // 6. Targets.
  for (const tg of desiredTgs) {
    checkAborted(ctx);
    await synthesizeTargets(ctx, resolve(tg.id), tg.spec.targets, tgs.created.has(tg.id));
  }

  // 7. Orphaned target groups, last.
  checkAborted(ctx);
  await deleteTargetGroups(ctx, tgs.orphans);

  return {
    dnsName: deployed.dnsName,
    listenerPorts: [...deployedListeners.values()].map((l) => l.port).sort((a, b) => a - b),
  };
}

/** Our load balancer with one of these names, if any (foreign ones are reported, never returned). */
export async function findOwnedLoadBalancer(
  ctx: DeployContext,
  names: readonly string[],
): Promise<LoadBalancer | undefined> {
  for (const name of names) {
    const lb = await findLoadBalancerByName(ctx, name);
    if (!lb?.LoadBalancerArn) continue;
    const tags = (await describeTags(ctx, [lb.LoadBalancerArn])).get(lb.LoadBalancerArn) ?? {};
    if (isOwnedBy(tags, ctx.owner)) return lb;
    ctx.logger.warn('a load balancer with our name is not ours; leaving it alone', { name });
  }
  return undefined;
}

export async function listenerPorts(ctx: DeployContext, lbArn: string): Promise<number[]> {
  const res = await call(ctx, 'DescribeListeners', (o) =>
    ctx.client.send(new DescribeListenersCommand({ LoadBalancerArn: lbArn }), o),
  );
  return (res.Listeners ?? []).flatMap((l) => (l.Port !== undefined ? [l.Port] : [])).sort((a, b) => a - b);
}

/**
 * Deletes a stack without a model (the object's spec may be invalid): the load balancer under any
 * of `lbNames` that is ours, then every target group tagged with our owner and stack.
 * A foreign resource under our name is left alone: it is not ours, so ours does not exist.
 */
export async function deleteStack(ctx: DeployContext, lbNames: readonly string[]): Promise<void> {
  for (const name of lbNames) {
    const lb = await findOwnedLoadBalancer(ctx, [name]);
    if (lb) await deleteLoadBalancer(ctx, lb);
    checkAborted(ctx);
  }
  const groups = await sweepOwnedTargetGroups(ctx);
  await deleteTargetGroups(ctx, groups);
}
