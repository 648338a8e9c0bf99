/**
 * An optional provider capability for the orphan sweep: list the load-balancer stacks the
 * provider owns (by its ownership tags, or its own state) and delete one by its identity, without
 * needing the Kubernetes object (which is exactly what is missing for an orphan).
 */
import type { MultiClusterProvider, ProviderContext } from '../provider/contract.js';

export interface OwnedStack {
  kind: 'mci' | 'mcs';
  namespace: string;
  name: string;
  /** The provider's own id for the stack (e.g. `mci/default/minimal-ingress`). */
  stackId: string;
  /**
   * When it was created, if the provider knows: younger stacks are left alone. The AWS provider
   * reports its newest resource's time, so a stack still being built counts as young.
   */
  createdAt?: Date;
}

export interface StackInventory {
  listOwnedStacks(ctx: ProviderContext): Promise<OwnedStack[]>;
  deleteOwnedStack(ctx: ProviderContext, stackId: string): Promise<void>;
}

export function inventoryOf(provider: MultiClusterProvider): StackInventory | undefined {
  const p = provider as Partial<StackInventory>;
  return typeof p.listOwnedStacks === 'function' && typeof p.deleteOwnedStack === 'function'
    ? (p as StackInventory)
    : undefined;
}

/** A resource group (an AWS target group) owned by a stack but used by none of its load balancers. */
export interface UnattachedTargetGroup {
  /** The provider's id for it (an ARN). */
  id: string;
  name: string;
  /** The stack whose tags it carries. */
  stack: Omit<OwnedStack, 'createdAt'>;
  /** When it was created, if the provider knows: younger ones are left alone. */
  createdAt?: Date;
}

/**
 * An optional second capability: target groups a reconcile cannot find (they are attached to none
 * of its load balancers and no longer under a name it wants) are listed here, account-wide, once
 * per sweep, instead of by every object's reconcile.
 */
export interface TargetGroupInventory {
  listUnattachedTargetGroups(ctx: ProviderContext): Promise<UnattachedTargetGroup[]>;
  /**
   * Deletes it after checking again that it is still unattached, still ours and not named by its
   * stack's object (when that exists); false when it was left alone.
   */
  deleteUnattachedTargetGroup(ctx: ProviderContext, tg: UnattachedTargetGroup): Promise<boolean>;
}

export function targetGroupInventoryOf(provider: MultiClusterProvider): TargetGroupInventory | undefined {
  const p = provider as Partial<TargetGroupInventory>;
  return typeof p.listUnattachedTargetGroups === 'function' &&
    typeof p.deleteUnattachedTargetGroup === 'function'
    ? (p as TargetGroupInventory)
    : undefined;
}
