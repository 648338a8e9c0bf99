/**
 * Deleting a stack (by names, or from the owner's inventory) and the inventory itself: every load
 * balancer and target group this owner has in AWS, listed once per orphan sweep.
 */
import { STACK_TAG, createdAtOf, isOwnedBy, isOwnerOf } from '../tagging.js';
import { applyPlan } from './apply.js';
import { checkAborted, type DeployContext } from './context.js';
import {
  describeTags,
  findTargetGroupByArn,
  sweepOwnedLoadBalancers,
  sweepOwnedTargetGroups,
} from './describe.js';
import { discover, type DeletionTarget, type InventoryTarget, type OwnerInventory } from './discover.js';
import { formatPlan, type Operation } from './operations.js';
import { planDeletion } from './plan.js';
import type { OwnedTargetGroup } from './target-group.js';

export type { OwnerInventory } from './discover.js';

/** The account-wide listing: O(account) calls, so once per orphan sweep, never per object. */
export async function listOwnerInventory(ctx: DeployContext): Promise<OwnerInventory> {
  // Owner AND Karmada instance: another Karmada's resources are never in this deployment's inventory.
  const loadBalancers = await sweepOwnedLoadBalancers(ctx, ctx.owner);
  const targetGroups = await sweepOwnedTargetGroups(
    ctx,
    (t) => isOwnerOf(t, ctx.owner) && t[STACK_TAG] !== undefined,
  );
  const securityGroups = ctx.securityGroups ? await (await ctx.securityGroups()).findOwned(ctx) : undefined;
  return { loadBalancers, targetGroups, ...(securityGroups ? { securityGroups } : {}) };
}

export interface DeleteStackOptions {
  dryRun?: boolean;
}

/**
 * Deletes a stack without a model (the object's spec may be invalid), from what discovery finds:
 * for an object's deletion, its load balancers under any of its names, the target groups attached
 * to them and ours under the names it wants (found without listing the account; others are the
 * sweep's); for the orphan sweep, everything the owner's inventory tags with the stack. A foreign
 * resource is left alone.
 */
export async function deleteStack(
  ctx: DeployContext,
  target: DeletionTarget | InventoryTarget,
  options: DeleteStackOptions = {},
): Promise<Operation[]> {
  // What get() saw is about to be wrong.
  ctx.lookups?.clear();
  const actual = await discover(ctx, target);
  checkAborted(ctx);
  // The stack's managed security groups go after its load balancers (planDeletion's order). Found
  // by tags, not through the load balancer: a deletion retried after the load balancer is gone
  // (its interfaces held a group a while: DependencyViolation) must still find them.
  const securityGroups =
    'inventory' in target
      ? target.inventory.securityGroups?.filter((g) => isOwnedBy(g.tags, ctx.owner))
      : ctx.securityGroups
        ? await (await ctx.securityGroups()).findStack(ctx)
        : undefined;
  const plan = planDeletion({ ...actual, ...(securityGroups ? { securityGroups } : {}) });
  ctx.logger.info(options.dryRun ? 'deletion plan (dry run: not applied)' : 'deletion plan', {
    stack: ctx.owner.stackId,
    operations: formatPlan(plan),
  });
  if (!options.dryRun) {
    await applyPlan(ctx, plan);
    // Last: a deletion that stops half-way is retried, and the record is only bookkeeping.
    await ctx.records.forget(ctx.owner.stackId);
  }
  return plan;
}

/** One stack of the inventory, with the newest creation time its resources tell. */
export interface InventoryStack {
  stackId: string;
  createdAt?: Date;
}

/**
 * The stacks of an inventory. `createdAt` is the NEWEST known creation time of the stack's
 * resources (load balancer CreatedTime, target group created-at tag): a stack an in-flight
 * reconcile is still building must count as young, however old its other resources are.
 */
export function inventoryStacks(inventory: OwnerInventory): InventoryStack[] {
  const stacks = new Map<string, Date | undefined>();
  const see = (id: string | undefined, at: Date | undefined) => {
    if (!id) return;
    const prev = stacks.get(id);
    stacks.set(id, prev === undefined || (at !== undefined && at > prev) ? (at ?? prev) : prev);
  };
  for (const e of inventory.loadBalancers) see(e.tags[STACK_TAG], e.lb.CreatedTime);
  for (const e of inventory.targetGroups) see(e.tags[STACK_TAG], createdAtOf(e.tags));
  // EC2 states no creation time: a group alone is as old as the stack's other resources say.
  for (const e of inventory.securityGroups ?? []) see(e.tags[STACK_TAG], undefined);
  return [...stacks.keys()].sort().map((stackId) => {
    const createdAt = stacks.get(stackId);
    return createdAt ? { stackId, createdAt } : { stackId };
  });
}

/** Target groups of the inventory that no load balancer uses (a listener or rule would attach it). */
export function unattachedTargetGroups(inventory: OwnerInventory): OwnedTargetGroup[] {
  return inventory.targetGroups.filter((e) => (e.tg.LoadBalancerArns ?? []).length === 0);
}

/** Why `deleteUnattachedTargetGroup` left a group alone, or `deleted`. */
export type UnattachedOutcome = 'deleted' | 'gone' | 'attached' | 'not-owned' | 'wanted';

/**
 * Deletes one owned target group the inventory found unattached, after checking again right
 * before (the inventory may be minutes old): it still exists, still carries our stack's tags, is
 * still attached to no load balancer, and `wanted` (the names the stack's object wants now, or
 * undefined when unknown: then nothing is deleted) does not name it.
 */
export async function deleteUnattachedTargetGroup(
  ctx: DeployContext,
  arn: string,
  wanted: () => Promise<ReadonlySet<string> | undefined>,
  options: { dryRun?: boolean } = {},
): Promise<UnattachedOutcome> {
  const tg = await findTargetGroupByArn(ctx, arn);
  if (!tg?.TargetGroupArn) return 'gone';
  if ((tg.LoadBalancerArns ?? []).length > 0) return 'attached';
  const tags = (await describeTags(ctx, [tg.TargetGroupArn])).get(tg.TargetGroupArn) ?? {};
  if (!isOwnedBy(tags, ctx.owner)) return 'not-owned';
  const names = await wanted();
  if (names === undefined || names.has(tg.TargetGroupName ?? '')) return 'wanted';
  checkAborted(ctx);
  const plan = planDeletion({ staleLoadBalancers: [], targetGroups: [{ tg, tags }] });
  ctx.logger.info(options.dryRun ? 'deletion plan (dry run: not applied)' : 'deletion plan', {
    stack: ctx.owner.stackId,
    operations: formatPlan(plan),
  });
  if (!options.dryRun) await applyPlan(ctx, plan);
  return 'deleted';
}
