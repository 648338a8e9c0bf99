/**
 * The orphan sweep: load-balancer stacks owned by this deployment whose MultiClusterIngress or
 * MultiClusterService no longer exists (its finalizer was removed by hand, the object was
 * force-deleted, the provider was switched while it existed) are deleted – but only after a grace
 * period since they were created, and only after a fresh read just before deleting confirms the
 * object is still gone, so a stack created moments ago by an in-flight reconcile is never touched.
 */
import { errorMessage } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import { Resources } from '../kube/resources.js';
import type { Logger } from '../log/logger.js';
import type { MultiClusterProvider } from '../provider/contract.js';
import { inventoryOf, type OwnedStack } from './inventory.js';

export interface SweepOptions {
  /** Stacks younger than this are never deleted. */
  graceSeconds: number;
  signal: AbortSignal;
  logger: Logger;
  /** Report what would be deleted without deleting. */
  dryRun?: boolean;
  now?: () => Date;
}

export interface SweepResult {
  owned: number;
  orphaned: string[];
  deleted: string[];
  /** Orphans left for a later sweep: too young, or their deletion failed. */
  deferred: string[];
  errors: Array<{ stackId: string; error: string }>;
}

async function objectExists(kube: KubeClient, stack: OwnedStack): Promise<boolean> {
  const type = stack.kind === 'mci' ? Resources.MultiClusterIngress : Resources.MultiClusterService;
  return (await kube.get(type, stack.namespace, stack.name)) !== undefined;
}

export async function sweepOrphans(
  kube: KubeClient,
  provider: MultiClusterProvider,
  options: SweepOptions,
): Promise<SweepResult> {
  const result: SweepResult = { owned: 0, orphaned: [], deleted: [], deferred: [], errors: [] };
  const inventory = inventoryOf(provider);
  if (!inventory) {
    options.logger.info('provider keeps no inventory of its stacks: nothing to sweep', {
      provider: provider.providerName(),
    });
    return result;
  }
  const ctx = { signal: options.signal, logger: options.logger, resync: true };
  const now = (options.now ?? (() => new Date()))();
  const stacks = await inventory.listOwnedStacks(ctx);
  result.owned = stacks.length;
  for (const stack of stacks) {
    if (options.signal.aborted) break;
    if (await objectExists(kube, stack)) continue;
    result.orphaned.push(stack.stackId);
    const age = stack.createdAt ? (now.getTime() - stack.createdAt.getTime()) / 1000 : Infinity;
    if (age < options.graceSeconds || options.dryRun) {
      result.deferred.push(stack.stackId);
      continue;
    }
    // Read again right before deleting: the object may have been created since the list.
    if (await objectExists(kube, stack)) continue;
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
  return result;
}
