/** Deleting a stack (by names or by tags) and listing every stack this owner has in AWS. */
import { isOwnedBy, OWNER_TAG, STACK_TAG } from '../tagging.js';
import { applyPlan } from './apply.js';
import { checkAborted, type DeployContext } from './context.js';
import { sweepOwnedLoadBalancers, sweepOwnedTargetGroups } from './discovery.js';
import type { OwnedLoadBalancer } from './load-balancer.js';
import { findOwnedLoadBalancer } from './lookup.js';
import { formatPlan, type Operation } from './operations.js';
import { planDeletion } from './plan.js';

/**
 * Deletes a stack without a model (the object's spec may be invalid): the load balancers under
 * `lbNames` that are ours (or, without names, every one tagged with our stack), then every target
 * group tagged with our owner and stack. A foreign resource under our name is left alone.
 */
export async function deleteStack(
  ctx: DeployContext,
  lbNames: readonly string[] | undefined,
  options: { dryRun?: boolean } = {},
): Promise<Operation[]> {
  // What get() saw is about to be wrong.
  ctx.lookups?.clear();
  const lbs: OwnedLoadBalancer[] = [];
  if (lbNames) {
    for (const name of lbNames) {
      const lb = await findOwnedLoadBalancer(ctx, [name]);
      if (lb) lbs.push({ lb, tags: {} });
    }
  } else {
    lbs.push(
      ...(await sweepOwnedLoadBalancers(ctx, ctx.owner.ownerId)).filter((e) => isOwnedBy(e.tags, ctx.owner)),
    );
  }
  checkAborted(ctx);
  const plan = planDeletion(lbs, await sweepOwnedTargetGroups(ctx));
  ctx.logger.info(options.dryRun ? 'deletion plan (dry run: not applied)' : 'deletion plan', {
    stack: ctx.owner.stackId,
    operations: formatPlan(plan),
  });
  if (!options.dryRun) await applyPlan(ctx, plan);
  return plan;
}

/** Stack IDs of every load balancer and target group carrying this owner's tags. */
export async function listOwnedStackIds(ctx: DeployContext): Promise<string[]> {
  const ownerId = ctx.owner.ownerId;
  const ids = new Set<string>();
  for (const e of await sweepOwnedLoadBalancers(ctx, ownerId)) ids.add(e.tags[STACK_TAG] ?? '');
  const groups = await sweepOwnedTargetGroups(
    ctx,
    (t) => t[OWNER_TAG] === ownerId && t[STACK_TAG] !== undefined,
  );
  for (const e of groups) ids.add(e.tags[STACK_TAG] ?? '');
  ids.delete('');
  return [...ids].sort();
}
