/**
 * The orphan sweep: load-balancer stacks owned by this deployment whose MultiClusterIngress or
 * MultiClusterService no longer exists or no longer claims them (its finalizer was removed by hand,
 * the object was force-deleted – and perhaps re-created under another class –, the provider was
 * switched while it existed) are deleted – but only after a grace
 * period since they were created, and only after a fresh read just before deleting confirms the
 * object is still gone, so a stack created moments ago by an in-flight reconcile is never touched.
 */
import { errorMessage } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../karmada/constants.js';
import { hasFinalizer } from '../kube/finalizers.js';
import { GROUP_LABEL, groupFinalizer } from '../karmada/ingress-group.js';
import { SHARED_GROUP_NAMESPACE } from '../provider/stack-id.js';
import { Resources } from '../kube/resources.js';
import type { Logger } from '../log/logger.js';
import type { MultiClusterProvider, OwnedStack, ProviderContext } from '../provider/contract.js';

export interface SweepOptions {
  /** Stacks younger than this are never deleted. */
  graceSeconds: number;
  signal: AbortSignal;
  logger: Logger;
  /** Report what would be deleted without deleting. */
  dryRun?: boolean;
  /** Only stacks of objects in these namespaces are considered (ALLOWED_NAMESPACES). */
  namespaces?: readonly string[];
  now?: () => Date;
}

export interface SweepResult {
  owned: number;
  orphaned: string[];
  deleted: string[];
  /** Orphans left for a later sweep: too young, or their deletion failed. */
  deferred: string[];
  errors: Array<{ stackId: string; error: string }>;
  /**
   * Target groups of stacks whose object exists but that no load balancer uses (providers with a
   * TargetGroupInventory only): names deleted, left for later (too young, dry run, failed), kept
   * (still wanted or attached again when checked).
   */
  targetGroups: { unattached: number; deleted: string[]; deferred: string[]; kept: string[] };
}

/**
 * Whether the stack still belongs to a live object. Existing under the same name is not enough: a
 * stack whose object was force-deleted and then re-created under another class (or as a
 * MultiClusterService without the LoadBalancer type) is ignored by the reconciler and would leak
 * forever. A stack belongs to an object that carries our finalizer – every reconcile adds it
 * before creating anything – or to one younger than the grace period, whose first reconcile may
 * not have run yet.
 */
async function claimedByObject(
  kube: KubeClient,
  stack: OwnedStack,
  graceSeconds: number,
  now: Date,
): Promise<boolean> {
  if (stack.kind === 'mci-group') return claimedByGroupMember(kube, stack, graceSeconds, now);
  const mci = stack.kind === 'mci';
  const obj = await kube.get(
    mci ? Resources.MultiClusterIngress : Resources.MultiClusterService,
    stack.namespace,
    stack.name,
  );
  if (!obj) return false;
  if (hasFinalizer(obj, mci ? MCI_FINALIZER : MCS_FINALIZER)) return true;
  const created = Date.parse(obj.metadata.creationTimestamp ?? '');
  return !Number.isFinite(created) || (now.getTime() - created) / 1000 < graceSeconds;
}

/**
 * An IngressGroup's stack belongs to the MCIs that carry the group's finalizer (added before one
 * joins, removed after it left) in the stack's namespace, or in any namespace for a shared group;
 * or to a young member whose first reconcile may not have run yet.
 */
async function claimedByGroupMember(
  kube: KubeClient,
  stack: OwnedStack,
  graceSeconds: number,
  now: Date,
): Promise<boolean> {
  const list = await kube.list(Resources.MultiClusterIngress, {
    ...(stack.namespace === SHARED_GROUP_NAMESPACE ? {} : { namespace: stack.namespace }),
    labelSelector: `${GROUP_LABEL}=${stack.name}`,
  });
  return list.items.some((obj) => {
    if (hasFinalizer(obj, groupFinalizer(stack.name))) return true;
    const created = Date.parse(obj.metadata.creationTimestamp ?? '');
    return !Number.isFinite(created) || (now.getTime() - created) / 1000 < graceSeconds;
  });
}

export async function sweepOrphans(
  kube: KubeClient,
  provider: MultiClusterProvider,
  options: SweepOptions,
): Promise<SweepResult> {
  const result: SweepResult = {
    owned: 0,
    orphaned: [],
    deleted: [],
    deferred: [],
    errors: [],
    targetGroups: { unattached: 0, deleted: [], deferred: [], kept: [] },
  };
  const inventory = provider.inventory();
  if (!inventory) {
    options.logger.info('provider keeps no inventory of its stacks: nothing to sweep', {
      provider: provider.providerName(),
    });
    return result;
  }
  const ctx: ProviderContext = { signal: options.signal, logger: options.logger, resync: true };
  const now = (options.now ?? (() => new Date()))();
  const allowed = options.namespaces?.length ? new Set(options.namespaces) : undefined;
  // A shared group's stack spans namespaces: left to an unrestricted sweep.
  const stacks = (await inventory.listOwnedStacks(ctx)).filter((s) => !allowed || allowed.has(s.namespace));
  result.owned = stacks.length;
  for (const stack of stacks) {
    if (options.signal.aborted) break;
    if (await claimedByObject(kube, stack, options.graceSeconds, now)) continue;
    result.orphaned.push(stack.stackId);
    const age = stack.createdAt ? (now.getTime() - stack.createdAt.getTime()) / 1000 : Infinity;
    if (age < options.graceSeconds || options.dryRun) {
      result.deferred.push(stack.stackId);
      continue;
    }
    // Read again right before deleting: the object may have been created (or claimed) since the list.
    if (await claimedByObject(kube, stack, options.graceSeconds, new Date())) continue;
    try {
      await inventory.deleteOwnedStack(ctx, stack.stackId);
      result.deleted.push(stack.stackId);
      options.logger.info('orphaned load balancer stack deleted', { stackId: stack.stackId });
    } catch (error) {
      result.deferred.push(stack.stackId);
      result.errors.push({ stackId: stack.stackId, error: errorMessage(error) });
      options.logger.warn('could not delete orphaned stack; the next sweep retries', {
        stackId: stack.stackId,
        error,
      });
    }
  }
  await sweepUnattachedTargetGroups(provider, ctx, now, new Set(result.orphaned), options, result);
  return result;
}

/**
 * Target groups no load balancer uses, of stacks that are not orphans (an orphan's whole stack is
 * handled above): left behind when a rule stopped using them and their deletion failed, or when a
 * reconcile died between creating a group and the rule for it. Reconciles no longer list the
 * account to find them; this does, once per sweep (the provider reuses the stacks' listing).
 */
async function sweepUnattachedTargetGroups(
  provider: MultiClusterProvider,
  ctx: ProviderContext,
  now: Date,
  orphaned: ReadonlySet<string>,
  options: SweepOptions,
  result: SweepResult,
): Promise<void> {
  const inventory = provider.targetGroupInventory();
  if (!inventory || options.signal.aborted) return;
  const groups = await inventory.listUnattachedTargetGroups(ctx);
  const out = result.targetGroups;
  out.unattached = groups.length;
  for (const tg of groups) {
    if (options.signal.aborted) break;
    if (orphaned.has(tg.stack.stackId)) continue;
    const age = tg.createdAt ? (now.getTime() - tg.createdAt.getTime()) / 1000 : Infinity;
    // Young: an in-flight reconcile creates a group before the rule that uses it.
    if (age < options.graceSeconds || options.dryRun) {
      out.deferred.push(tg.name);
      continue;
    }
    try {
      if (await inventory.deleteUnattachedTargetGroup(ctx, tg)) {
        out.deleted.push(tg.name);
        options.logger.info('unattached target group deleted', { stackId: tg.stack.stackId, name: tg.name });
      } else {
        out.kept.push(tg.name);
      }
    } catch (error) {
      out.deferred.push(tg.name);
      result.errors.push({ stackId: tg.stack.stackId, error: errorMessage(error) });
      options.logger.warn('could not delete an unattached target group; the next sweep retries', {
        stackId: tg.stack.stackId,
        name: tg.name,
        error,
      });
    }
  }
}
