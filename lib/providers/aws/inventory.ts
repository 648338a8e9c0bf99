/**
 * The AWS provider's inventory for the orphan sweep: every stack that has a load balancer or a
 * target group with our owner tag, and the target groups no load balancer uses. The account-wide
 * listing is made once per sweep (the sweep passes one ProviderContext to every call) and reused
 * by the deletions that follow, so a sweep lists the account once, not once per orphan.
 */
import { InvalidObjectError } from '../../errors.js';
import type { Logger } from '../../log/logger.js';
import type {
  OwnedStack,
  ProviderContext,
  StackInventory,
  TargetGroupInventory,
  UnattachedTargetGroup,
} from '../../provider/contract.js';
import { parseStackId, type StackRef } from '../../provider/stack-id.js';
import type { DeployContext } from './deploy/context.js';
import type { OwnerInventory } from './deploy/deletion.js';
import { loadFullPath } from './lazy-parts.js';
import { createdAtOf, STACK_TAG, type StackOwner } from './tagging.js';
import type { ActualAccelerator } from './accelerator/types.js';

/** The accelerators' side of the sweep (accelerator/service.ts). */
export interface AcceleratorInventory {
  /** Every accelerator of this owner, by stack (none when GA is not configured). */
  owned(ctx: ProviderContext): Promise<Array<ActualAccelerator & { stackId: string }>>;
  /** One step for each accelerator being retired (replaced, or no longer wanted). */
  retireAll(
    ctx: ProviderContext,
    accelerators: ReadonlyArray<ActualAccelerator & { stackId: string }>,
    dryRun: boolean,
  ): Promise<void>;
  /** The stack's accelerators one step closer to gone; RetryLaterError while one is left. */
  delete(ctx: ProviderContext, owner: StackOwner, dryRun: boolean, mark: boolean): Promise<unknown>;
}

/**
 * How long one listing serves a sweep: a sweep function runs for at most 15 minutes, and what it
 * acts on is checked again (object gone, group still unattached) right before each deletion.
 */
const INVENTORY_TTL_MS = 15 * 60_000;

export interface AwsInventoryOptions {
  ownerId: string;
  dryRun: boolean;
  context(ctx: ProviderContext, owner: StackOwner): DeployContext;
  /** What the stack's object wants now (see AwsProvider); undefined when unknown. */
  wantedTargetGroupNames(stack: StackRef, logger: Logger): Promise<ReadonlySet<string> | undefined>;
  accelerators?: AcceleratorInventory;
  /** After a stack was deleted: the records that outlive no stack (an IngressGroup's join record). */
  deleted?(stackId: string): Promise<void>;
}

export class AwsInventory implements StackInventory, TargetGroupInventory {
  private readonly listings = new WeakMap<ProviderContext, { at: number; inventory: OwnerInventory }>();

  constructor(private readonly options: AwsInventoryOptions) {}

  /**
   * Stacks with an owned load balancer or target group, or an owned accelerator (whose load
   * balancers may be gone already). Listing the accelerators also takes each one being retired
   * (replaced, or no longer wanted by a live object) one step further: nothing else would.
   */
  async listOwnedStacks(ctx: ProviderContext): Promise<OwnedStack[]> {
    const inventory = await this.list(ctx);
    const { inventoryStacks } = await loadFullPath();
    const accelerators = (await this.options.accelerators?.owned(ctx)) ?? [];
    await this.options.accelerators?.retireAll(ctx, accelerators, this.options.dryRun);
    const byId = new Map<string, { stackId: string; createdAt?: Date }>();
    for (const s of inventoryStacks(inventory)) byId.set(s.stackId, s);
    for (const a of accelerators) {
      const seen = byId.get(a.stackId);
      const at = a.createdAt !== undefined ? new Date(a.createdAt) : undefined;
      // The stack is as old as its oldest resource.
      const createdAt =
        seen?.createdAt && at ? (seen.createdAt < at ? seen.createdAt : at) : (seen?.createdAt ?? at);
      byId.set(a.stackId, { stackId: a.stackId, ...(createdAt ? { createdAt } : {}) });
    }
    return [...byId.values()].flatMap((s): OwnedStack[] => {
      const parsed = parseStackId(s.stackId);
      return parsed ? [{ ...parsed, ...(s.createdAt ? { createdAt: s.createdAt } : {}) }] : [];
    });
  }

  /**
   * Deletes a stack found by `listOwnedStacks`: its load balancers and target groups, by tags, from
   * the listing `listOwnedStacks` just made on this context (or a fresh one).
   */
  async deleteOwnedStack(ctx: ProviderContext, stackId: string): Promise<void> {
    if (!parseStackId(stackId)) {
      throw new InvalidObjectError(`not a stack ID: ${stackId}`, { field: 'stackId' });
    }
    // Its accelerator first (disable, wait, delete: one step per sweep), as an object's deletion does.
    // No retiring mark: the sweep's role holds no TagResource, and an orphan's stack has no object
    // that could take its accelerator back.
    await this.options.accelerators?.delete(ctx, this.owner(stackId), this.options.dryRun, false);
    const { deleteStack } = await loadFullPath();
    await deleteStack(
      this.options.context(ctx, this.owner(stackId)),
      { inventory: await this.recent(ctx) },
      { dryRun: this.options.dryRun },
    );
    if (!this.options.dryRun) await this.options.deleted?.(stackId);
  }

  /** Our target groups that no load balancer uses, with their created-at tag. */
  async listUnattachedTargetGroups(ctx: ProviderContext): Promise<UnattachedTargetGroup[]> {
    const { unattachedTargetGroups } = await loadFullPath();
    return unattachedTargetGroups(await this.recent(ctx)).flatMap((e): UnattachedTargetGroup[] => {
      const stack = parseStackId(e.tags[STACK_TAG] ?? '');
      const createdAt = createdAtOf(e.tags);
      if (!stack || !e.tg.TargetGroupArn) return [];
      return [
        {
          id: e.tg.TargetGroupArn,
          name: e.tg.TargetGroupName ?? '',
          stack,
          ...(createdAt ? { createdAt } : {}),
        },
      ];
    });
  }

  /**
   * Deletes one group `listUnattachedTargetGroups` returned, unless a fresh look says otherwise:
   * attached again, gone, not ours, or named by its stack's object (which then still wants it; an
   * object whose spec builds no model keeps all its groups, since what it wants is unknown).
   */
  async deleteUnattachedTargetGroup(ctx: ProviderContext, tg: UnattachedTargetGroup): Promise<boolean> {
    const dctx = this.options.context(ctx, this.owner(tg.stack.stackId));
    const { deleteUnattachedTargetGroup } = await loadFullPath();
    const outcome = await deleteUnattachedTargetGroup(
      dctx,
      tg.id,
      () => this.options.wantedTargetGroupNames(tg.stack, dctx.logger),
      { dryRun: this.options.dryRun },
    );
    if (outcome !== 'deleted')
      dctx.logger.info('unattached target group left alone', { name: tg.name, outcome });
    return outcome === 'deleted';
  }

  private owner(stackId: string): StackOwner {
    return { ownerId: this.options.ownerId, stackId };
  }

  private async list(ctx: ProviderContext): Promise<OwnerInventory> {
    const { listOwnerInventory } = await loadFullPath();
    const inventory = await listOwnerInventory(this.options.context(ctx, this.owner('')));
    this.listings.set(ctx, { at: Date.now(), inventory });
    return inventory;
  }

  /** The listing made on this context within a sweep's lifetime, else a fresh one. */
  private async recent(ctx: ProviderContext): Promise<OwnerInventory> {
    const seen = this.listings.get(ctx);
    return seen && Date.now() - seen.at <= INVENTORY_TTL_MS ? seen.inventory : this.list(ctx);
  }
}
