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
  /** When its oldest resource was created, if the provider knows: younger stacks are left alone. */
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
