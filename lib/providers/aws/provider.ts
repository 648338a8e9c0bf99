/**
 * The AWS provider: MultiClusterIngress → Application Load Balancer, MultiClusterService →
 * Network Load Balancer. Stateless: every call re-reads the object's inputs from Kubernetes and
 * the actual state from AWS (by name and tags).
 */
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { errorMessage, InvalidObjectError } from '../../errors.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import type { UnattachedTargetGroup } from '../../maintenance/inventory.js';
import type {
  IngressLoadBalancerStatus,
  LoadBalancerStatus,
  MultiClusterIngress,
  MultiClusterService,
} from '../../karmada/types.js';
import type {
  GetResult,
  LoadBalancer,
  MCSLoadBalancer,
  MultiClusterProvider,
  ProviderContext,
  ProviderDependencies,
} from '../../provider/contract.js';
import type { AwsProviderConfig } from './config.js';
import {
  DEFAULT_DEPLOY_OPTIONS,
  LookupMemo,
  type DeployContext,
  type DeployOptions,
} from './deploy/context.js';
import {
  deleteStack,
  deleteUnattachedTargetGroup,
  inventoryStacks,
  listOwnerInventory,
  unattachedTargetGroups,
  type OwnerInventory,
} from './deploy/deletion.js';
import { deployStack } from './deploy/deployer.js';
import { findOwnedLoadBalancer } from './deploy/lookup.js';
import type { Operation } from './deploy/operations.js';
import { limitCallsPerSecond, TokenBucket } from './deploy/rate-limit.js';
import { readIngressInputs, readServiceInputs } from './inputs.js';
import { buildIngressStack, ingressLoadBalancerNames, ingressStackOwner } from './model/ingress.js';
import { buildServiceStack, serviceLoadBalancerNames, serviceStackOwner } from './model/service.js';
import { resourcesOf, ResourceTypes, type Stack } from './model/types.js';
import { createdAtOf, STACK_TAG, type StackKind, type StackOwner } from './tagging.js';

export const AWS_PROVIDER_NAME = 'aws';

export interface AwsProviderOptions {
  client: ElasticLoadBalancingV2Client;
  deploy?: Partial<DeployOptions>;
}

/**
 * `{ ingress: [{ hostname }] }`: the lower-cased DNS name, WITHOUT `ports`. LBC also reports the
 * listener ports, but Karmada's CRDs (infra/crds/) make `ingress[].ports[].error` required, so a
 * real Karmada API server rejects a port status without an error; we have no error to report.
 */
export function ingressStatus(dnsName: string): IngressLoadBalancerStatus & LoadBalancerStatus {
  return { ingress: [{ hostname: dnsName.toLowerCase() }] };
}

/** What differs between the ALB (MCI) and the NLB (MCS): everything else is shared. */
interface StackKindAdapter<O> {
  owner(obj: Readonly<O>): StackOwner;
  /** The wanted name first, then names a previous spec may have used. */
  names(obj: Readonly<O>): string[];
  build(obj: Readonly<O>): Promise<Stack>;
}

export interface PlanResult {
  plan: Operation[];
  /** Stopped after confirming the fingerprint: nothing to do. */
  skipped: boolean;
}

class AwsStackLoadBalancer<O> {
  constructor(
    private readonly provider: AwsProvider,
    private readonly kind: StackKindAdapter<O>,
  ) {}

  async get(ctx: ProviderContext, obj: Readonly<O>): Promise<GetResult<LoadBalancerStatus>> {
    const lb = await findOwnedLoadBalancer(
      this.provider.context(ctx, this.kind.owner(obj)),
      this.kind.names(obj),
      'record',
    );
    if (!lb?.LoadBalancerArn) return { exists: false };
    return { exists: true, status: ingressStatus(lb.DNSName ?? '') };
  }

  // Ensure and update are one level-triggered reconcile: the same desired stack either way.
  async reconcile(ctx: ProviderContext, obj: Readonly<O>): Promise<LoadBalancerStatus | undefined> {
    const result = await this.deploy(ctx, obj, this.provider.config.dryRun === true);
    return result.dnsName !== undefined ? ingressStatus(result.dnsName) : undefined;
  }

  /** The change plan a reconcile would apply now (a dry run, whatever the configuration says). */
  async plan(ctx: ProviderContext, obj: Readonly<O>): Promise<PlanResult> {
    const { plan, skipped } = await this.deploy(ctx, obj, true);
    return { plan, skipped };
  }

  private async deploy(ctx: ProviderContext, obj: Readonly<O>, dryRun: boolean) {
    // The model is built (and every annotation and limit checked) before the first AWS call.
    const stack = await this.kind.build(obj);
    const dctx = this.provider.context(ctx, this.kind.owner(obj));
    dctx.logger.debug('built model', { stack });
    return deployStack(dctx, stack, {
      resync: ctx.resync === true,
      dryRun,
      previousNames: this.kind.names(obj),
      ...(this.provider.config.externalManagedTags
        ? { externalManagedTags: this.provider.config.externalManagedTags }
        : {}),
    });
  }

  async ensureDeleted(ctx: ProviderContext, obj: Readonly<O>, dryRun = this.provider.config.dryRun === true) {
    // No model needed: deletion must work even when the spec no longer builds one.
    const dctx = this.provider.context(ctx, this.kind.owner(obj));
    return deleteStack(dctx, this.kind.names(obj), {
      dryRun,
      targetGroupNames: [...((await this.targetGroupNames(obj, dctx.logger)) ?? [])],
    });
  }

  /**
   * The target group names the object wants now, or undefined when its spec builds no model: the
   * only way to find a group of its stack that no load balancer uses without listing the account.
   */
  async targetGroupNames(
    obj: Readonly<O>,
    logger: { debug(message: string, fields?: Record<string, unknown>): void },
  ): Promise<Set<string> | undefined> {
    try {
      const stack = await this.kind.build(obj);
      return new Set(resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name));
    } catch (err) {
      logger.debug('no model: target groups are found through the load balancers only', {
        error: errorMessage(err),
      });
      return undefined;
    }
  }
}

class AwsIngressLoadBalancer implements LoadBalancer {
  constructor(readonly impl: AwsStackLoadBalancer<MultiClusterIngress>) {}
  get(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<GetResult<IngressLoadBalancerStatus>> {
    return this.impl.get(ctx, mci);
  }
  ensure(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>) {
    return this.impl.reconcile(ctx, mci);
  }
  update(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>) {
    return this.impl.reconcile(ctx, mci);
  }
  async ensureDeleted(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>): Promise<void> {
    await this.impl.ensureDeleted(ctx, mci);
  }
}

class AwsServiceLoadBalancer implements MCSLoadBalancer {
  constructor(readonly impl: AwsStackLoadBalancer<MultiClusterService>) {}
  get(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<GetResult<LoadBalancerStatus>> {
    return this.impl.get(ctx, mcs);
  }
  ensure(ctx: ProviderContext, mcs: Readonly<MultiClusterService>) {
    return this.impl.reconcile(ctx, mcs);
  }
  update(ctx: ProviderContext, mcs: Readonly<MultiClusterService>) {
    return this.impl.reconcile(ctx, mcs);
  }
  async ensureDeleted(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<void> {
    await this.impl.ensureDeleted(ctx, mcs);
  }
}

export interface OwnedStack {
  stackId: string;
  kind: StackKind;
  namespace: string;
  name: string;
  /** The newest creation time its resources tell (see inventoryStacks). */
  createdAt?: Date;
}

export class AwsProvider implements MultiClusterProvider {
  readonly ingress: AwsIngressLoadBalancer;
  readonly service: AwsServiceLoadBalancer;
  /** Per reconcile (the lifecycle passes one ProviderContext to get() and then update()). */
  private readonly memos = new WeakMap<ProviderContext, LookupMemo>();
  /**
   * Per sweep (the sweep passes one ProviderContext to every inventory call): the account-wide
   * listing made by listOwnedStacks, reused by deleteOwnedStack and listUnattachedTargetGroups so a
   * sweep lists the account once, not once per orphan.
   */
  private readonly inventories = new WeakMap<ProviderContext, { at: number; inventory: OwnerInventory }>();
  private readonly kube: KubeClient;

  constructor(
    readonly config: AwsProviderConfig,
    deps: ProviderDependencies,
    private readonly options: AwsProviderOptions,
  ) {
    this.kube = deps.kube;
    if (config.maxCallsPerSecond !== undefined) {
      limitCallsPerSecond(options.client, new TokenBucket(config.maxCallsPerSecond));
    }
    this.ingress = new AwsIngressLoadBalancer(
      new AwsStackLoadBalancer<MultiClusterIngress>(this, {
        owner: (mci) => ingressStackOwner(mci, config.ownerId),
        names: (mci) => ingressLoadBalancerNames(mci, config),
        build: async (mci) =>
          buildIngressStack({ mci, ...(await readIngressInputs(deps.kube, mci)), config }),
      }),
    );
    this.service = new AwsServiceLoadBalancer(
      new AwsStackLoadBalancer<MultiClusterService>(this, {
        owner: (mcs) => serviceStackOwner(mcs, config.ownerId),
        names: (mcs) => serviceLoadBalancerNames(mcs, config),
        build: async (mcs) =>
          buildServiceStack({ mcs, ...(await readServiceInputs(deps.kube, mcs)), config }),
      }),
    );
  }

  context(ctx: ProviderContext, owner: StackOwner): DeployContext {
    let lookups = this.memos.get(ctx);
    if (!lookups) {
      lookups = new LookupMemo();
      this.memos.set(ctx, lookups);
    }
    return {
      client: this.options.client,
      lookups,
      signal: ctx.signal,
      logger: ctx.logger.child({ provider: AWS_PROVIDER_NAME, stack: owner.stackId }),
      owner,
      vpcId: this.config.vpc.id,
      options: { ...DEFAULT_DEPLOY_OPTIONS, ...this.options.deploy },
      ...(ctx.announce ? { announce: ctx.announce } : {}),
    };
  }

  loadBalancer(): LoadBalancer {
    return this.ingress;
  }
  mcsLoadBalancer(): MCSLoadBalancer {
    return this.service;
  }
  providerName(): string {
    return AWS_PROVIDER_NAME;
  }

  /** The change plan a reconcile of this MCI or MCS would apply now; changes nothing. */
  plan(
    ctx: ProviderContext,
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
  ): Promise<PlanResult> {
    return obj.kind === 'MultiClusterService'
      ? this.service.impl.plan(ctx, obj as MultiClusterService)
      : this.ingress.impl.plan(ctx, obj as MultiClusterIngress);
  }

  /** For the orphan sweep: every stack that has a load balancer or target group with our owner tag. */
  async listOwnedStacks(ctx: ProviderContext): Promise<OwnedStack[]> {
    const inventory = await this.listInventory(ctx);
    return inventoryStacks(inventory).flatMap((s): OwnedStack[] => {
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
    await deleteStack(this.context(ctx, { ownerId: this.config.ownerId, stackId }), undefined, {
      dryRun: this.config.dryRun === true,
      inventory: await this.recentInventory(ctx),
    });
  }

  /** For the orphan sweep: our target groups that no load balancer uses, with their created-at tag. */
  async listUnattachedTargetGroups(ctx: ProviderContext): Promise<UnattachedTargetGroup[]> {
    return unattachedTargetGroups(await this.recentInventory(ctx)).flatMap((e): UnattachedTargetGroup[] => {
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
    const owner = { ownerId: this.config.ownerId, stackId: tg.stack.stackId };
    const dctx = this.context(ctx, owner);
    const outcome = await deleteUnattachedTargetGroup(
      dctx,
      tg.id,
      async () => {
        const { kind, namespace, name } = tg.stack;
        if (kind === 'mci') {
          const mci = await this.kube.get<MultiClusterIngress>(
            Resources.MultiClusterIngress,
            namespace,
            name,
          );
          return mci ? this.ingress.impl.targetGroupNames(mci, dctx.logger) : new Set<string>();
        }
        const mcs = await this.kube.get<MultiClusterService>(Resources.MultiClusterService, namespace, name);
        return mcs ? this.service.impl.targetGroupNames(mcs, dctx.logger) : new Set<string>();
      },
      { dryRun: this.config.dryRun === true },
    );
    if (outcome !== 'deleted')
      dctx.logger.info('unattached target group left alone', { name: tg.name, outcome });
    return outcome === 'deleted';
  }

  private async listInventory(ctx: ProviderContext): Promise<OwnerInventory> {
    const inventory = await listOwnerInventory(
      this.context(ctx, { ownerId: this.config.ownerId, stackId: '' }),
    );
    this.inventories.set(ctx, { at: Date.now(), inventory });
    return inventory;
  }

  /** The listing made on this context within a sweep's lifetime, else a fresh one. */
  private async recentInventory(ctx: ProviderContext): Promise<OwnerInventory> {
    const seen = this.inventories.get(ctx);
    return seen && Date.now() - seen.at <= INVENTORY_TTL_MS ? seen.inventory : this.listInventory(ctx);
  }
}

/**
 * How long one listing serves a sweep: a sweep function runs for at most 15 minutes, and what it
 * acts on is checked again (object gone, group still unattached) right before each deletion.
 */
const INVENTORY_TTL_MS = 15 * 60_000;

function parseStackId(stackId: string): Omit<OwnedStack, 'createdAt'> | undefined {
  const [kind, namespace, name, ...rest] = stackId.split('/');
  if ((kind !== 'mci' && kind !== 'mcs') || !namespace || !name || rest.length > 0) return undefined;
  return { stackId, kind, namespace, name };
}
