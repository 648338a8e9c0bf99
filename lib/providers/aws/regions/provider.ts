/**
 * The multi-Region AWS provider (a configuration with `regions:`): one AwsProvider per Region
 * (its regional part: its own ELBv2, Tagging, EC2, WAFv2 and ACM clients, VPC, subnets, security
 * groups and scheme), each fed only the EndpointSlices of the clusters in its Region
 * (cluster-regions.ts, partition.ts), and this orchestrator over them, which is what the
 * reconcilers see.
 *
 * - A reconcile runs every Region's part at once (results.ts `inEveryRegion`), each to its own
 *   end: one Region's throttling or outage never keeps the others from converging. What the
 *   Regions share, the accelerator's record, is theirs one at a time (turns.ts). The
 *   condition lists each Region's outcome (`us-east-1: ok; eu-west-1: failed: ...`); when one
 *   failed the reconcile fails (RegionsFailedError) and is retried.
 * - A Region without clusters of the object deletes its stack there, if its markers say it may
 *   have one (markers.ts): a no-op reconcile makes no AWS call in Regions that serve nothing.
 * - The status lists every served Region's hostnames, in the configuration's order.
 * - Deletion deletes every Region's stack (and fails, to be retried, while one Region fails).
 * - Clusters whose Region is unknown are told as a Warning Event (ClusterRegionUnknown) naming
 *   the cluster; their endpoints are served nowhere.
 *
 * A one-Region file (no `regions:`) is served by a plain AwsProvider (factory.ts), exactly as
 * before this module existed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { errorMessage } from '../../../errors.js';
import type { MultiClusterIngress, MultiClusterService } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import type {
  Balancer,
  FingerprintSource,
  GetResult,
  MultiClusterProvider,
  OwnedStack,
  ProviderContext,
  ProviderDependencies,
  StackInventory,
  TargetGroupInventory,
  UnattachedTargetGroup,
} from '../../../provider/contract.js';
import { perReconcile } from '../../../provider/per-reconcile.js';
import type { AwsLoadBalancerStatus } from '../balancer.js';
import type { PlanResult } from '../balancer-types.js';
import type { AwsProviderConfig } from '../config.js';
import type { ModelWarning } from '../model/types.js';
import { AWS_PROVIDER_NAME, type AwsProvider } from '../provider.js';
import type { AcceleratorOperation } from '../accelerator/types.js';
import type { AcceleratorPlan, AcceleratorSeam, RegionalDeploys } from './accelerator-seam.js';
import type { ClusterRegionSource, UnknownRegion } from './cluster-regions.js';
import { RegionalFingerprints } from './fingerprints.js';
import type { RegionalPart } from './part.js';
import type { RegionMarkers } from './markers.js';
import { unknownRegionMessage } from './partition.js';
import { describeOutcomes, inEveryRegion, throwIfFailed } from './results.js';
import { weightedClusters, weightsAcrossRegions } from './weights.js';
import { reportWarnings } from '../../../provider/announce.js';

export type { RegionalPart } from './part.js';

/** The reason of the Warning Event naming a cluster whose Region is unknown (lib/reconcile/next-steps.ts). */
export const CLUSTER_REGION_UNKNOWN = 'ClusterRegionUnknown';

/** One Region's plan, for `npm run plan`. */
export interface RegionalPlan {
  region: string;
  result?: PlanResult;
  error?: string;
}

/**
 * Every Region's plan, and the accelerator's after them (when the object has one): its operations,
 * and `front`, the accelerator they bring GA to and its addresses.
 */
export type RegionalPlans = RegionalPlan[] & {
  accelerator?: AcceleratorOperation[];
  front?: Omit<AcceleratorPlan, 'plan'>;
  /** About the object over its Regions (its cluster weights weigh in several). */
  warnings?: ModelWarning[];
};

type Obj = MultiClusterIngress | MultiClusterService;

const served = (status: AwsLoadBalancerStatus | undefined) => (status?.ingress?.length ?? 0) > 0;

/** Per reconcile: the clusters without a configured Region its Regions' builds met. */
export class UnknownClusters {
  private readonly byReconcile = perReconcile(() => new Map<string, UnknownRegion>());

  note(ctx: ProviderContext, unknown: readonly UnknownRegion[]): void {
    if (unknown.length === 0) return;
    const seen = this.byReconcile(ctx);
    for (const u of unknown) seen.set(u.cluster, u);
  }

  of(ctx: ProviderContext): UnknownRegion[] {
    return [...this.byReconcile(ctx).values()].sort((a, b) => a.cluster.localeCompare(b.cluster));
  }
}

/** The Region whose part is running: its condition lines are kept until every Region is done. */
const regionAtWork = new AsyncLocalStorage<string>();

type ReconcileScope = ProviderContext & {
  unchangedParts(): number;
  /** Runs one Region's part of the reconcile. */
  inRegion<T>(region: string, work: () => Promise<T>): Promise<T>;
  /** The condition lines the Regions' parts gave, in the Regions' order (not as they finished). */
  tellDetails(regions: readonly string[]): void;
};

/**
 * The context every Region's part of one reconcile gets: the same object (the Cluster LIST and
 * the markers are memoised on it), whose Events are recorded once however many Regions report them.
 * `unchanged` counts the parts (each Region, the accelerator in front) that changed nothing.
 */
function reconcileScope(ctx: ProviderContext): ReconcileScope {
  const announced = new Set<string>();
  const announce = ctx.announce;
  const detail = ctx.detail;
  const lines = new Map<string, string[]>();
  let unchanged = 0;
  return {
    ...ctx,
    unchanged: () => {
      unchanged++;
    },
    unchangedParts: () => unchanged,
    inRegion: (region, work) => regionAtWork.run(region, work),
    tellDetails: (regions) => {
      for (const region of regions) for (const line of lines.get(region) ?? []) detail?.(line);
      lines.clear();
    },
    ...(detail
      ? {
          detail: (line: string) => {
            const region = regionAtWork.getStore();
            if (region === undefined) return detail(line);
            lines.set(region, [...(lines.get(region) ?? []), line]);
          },
        }
      : {}),
    ...(announce
      ? {
          announce: async (reason, message, type) => {
            const key = `${type ?? 'Warning'}\n${reason}\n${message}`;
            if (announced.has(key)) return;
            announced.add(key);
            await announce(reason, message, type);
          },
        }
      : {}),
  };
}

class RegionalBalancer<O extends Obj> implements Balancer<O, AwsLoadBalancerStatus> {
  constructor(
    private readonly owner: MultiRegionProvider,
    private readonly partOf: (p: AwsProvider) => Balancer<O, AwsLoadBalancerStatus> & {
      plan(ctx: ProviderContext, obj: Readonly<O>): Promise<PlanResult>;
    },
  ) {}

  /** Whether the object has been served: its status (no AWS call; ensure and update are one reconcile). */
  get(_ctx: ProviderContext, obj: Readonly<O>): Promise<GetResult<AwsLoadBalancerStatus>> {
    const ingress = obj.status?.loadBalancer?.ingress ?? [];
    return Promise.resolve({ exists: ingress.length > 0 });
  }

  ensure(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  update(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  private async reconcile(
    ctx: ProviderContext,
    obj: Readonly<O>,
  ): Promise<AwsLoadBalancerStatus | undefined> {
    const scope = reconcileScope(ctx);
    const outcomes = await inEveryRegion(this.owner.parts, (part) =>
      scope.inRegion(part.region, () => this.partOf(part.provider).update(scope, obj)),
    );
    scope.tellDetails(this.owner.parts.map((p) => p.region));
    for (const o of outcomes) {
      if (!o.ok) scope.logger.warn('region failed', { region: o.region, error: errorMessage(o.error) });
    }
    await this.owner.reportUnknown(scope);
    ctx.detail?.(`regions: ${describeOutcomes(outcomes, served)}`);
    throwIfFailed(outcomes, served);
    await this.owner.report(scope, this.owner.overRegions(scope, obj));
    // Every Region deployed: the accelerator in front, if any, gets its full desired state.
    const accelerated = await this.owner.accelerator?.afterRegions(scope, obj, this.owner.deploys.of(scope));
    // The object's load balancers are as it asks only when every Region and the accelerator say so.
    if (scope.unchangedParts() === this.owner.parts.length + (this.owner.accelerator ? 1 : 0)) {
      ctx.unchanged?.();
    }
    if (accelerated) return accelerated;
    const ingress = outcomes.flatMap((o) => (o.ok ? (o.status?.ingress ?? []) : []));
    return ingress.length > 0 ? { ingress } : undefined;
  }

  async ensureDeleted(ctx: ProviderContext, obj: Readonly<O>): Promise<void> {
    const scope = reconcileScope(ctx);
    // The accelerator first: it must stop sending to the regional load balancers before they go.
    await this.owner.accelerator?.deleteAccelerator(scope, obj);
    const outcomes = await inEveryRegion(this.owner.parts, (part) =>
      this.partOf(part.provider).ensureDeleted(scope, obj),
    );
    throwIfFailed(outcomes, () => true);
  }

  /**
   * Each Region's change plan (a dry run); a Region's failure is its entry's error. With an
   * accelerator in front, `accelerator` is its change plan once every Region has deployed.
   */
  async plan(ctx: ProviderContext, obj: Readonly<O>): Promise<RegionalPlans> {
    const scope = reconcileScope(ctx);
    const outcomes = await inEveryRegion(this.owner.parts, (part) =>
      scope.inRegion(part.region, () => this.partOf(part.provider).plan(scope, obj)),
    );
    scope.tellDetails(this.owner.parts.map((p) => p.region));
    const plans = outcomes.map((o): RegionalPlan =>
      o.ok
        ? { region: o.region, ...(o.status ? { result: o.status } : {}) }
        : { region: o.region, error: errorMessage(o.error) },
    );
    const after = await this.owner.accelerator?.planAfterRegions?.(scope, obj, this.owner.deploys.of(scope));
    const { plan: accelerator = [], ...front }: Partial<AcceleratorPlan> = after ?? {};
    const warnings = this.owner.overRegions(scope, obj);
    return Object.assign(
      plans,
      accelerator.length > 0 ? { accelerator } : {},
      front.desired || front.status ? { front } : {},
      warnings.length > 0 ? { warnings } : {},
    );
  }
}

/** The orphan sweep over every Region: a stack is listed once, and deleted in every Region. */
class RegionalInventory implements StackInventory, TargetGroupInventory {
  constructor(private readonly owner: MultiRegionProvider) {}

  async listOwnedStacks(ctx: ProviderContext): Promise<OwnedStack[]> {
    const byId = new Map<string, OwnedStack>();
    const failures: string[] = [];
    for (const part of this.owner.parts) {
      let stacks: OwnedStack[];
      try {
        stacks = await part.provider.stacks.listOwnedStacks(ctx);
      } catch (err) {
        // The other Regions' orphans are still swept; this one's at the next sweep.
        failures.push(`${part.region}: ${errorMessage(err)}`);
        ctx.logger.warn('could not list a Region’s stacks', {
          region: part.region,
          error: errorMessage(err),
        });
        continue;
      }
      for (const s of stacks) {
        const known = byId.get(s.stackId);
        // The newest resource of any Region: a stack still being built somewhere counts as young.
        const createdAt =
          known?.createdAt && s.createdAt
            ? known.createdAt > s.createdAt
              ? known.createdAt
              : s.createdAt
            : undefined;
        byId.set(s.stackId, { ...s, ...(createdAt ? { createdAt } : {}) });
      }
    }
    if (failures.length === this.owner.parts.length)
      throw new Error(`no Region listed: ${failures.join('; ')}`);
    return [...byId.values()];
  }

  async deleteOwnedStack(ctx: ProviderContext, stackId: string): Promise<void> {
    const outcomes = await inEveryRegion(this.owner.parts, async (part) => {
      await part.provider.stacks.deleteOwnedStack(ctx, stackId);
      if (!this.owner.config.dryRun) await this.owner.markers.remove(undefined, stackId, part.region);
    });
    throwIfFailed(outcomes, () => true);
  }

  async listUnattachedTargetGroups(ctx: ProviderContext): Promise<UnattachedTargetGroup[]> {
    const all: UnattachedTargetGroup[] = [];
    for (const part of this.owner.parts) {
      try {
        all.push(...(await part.provider.stacks.listUnattachedTargetGroups(ctx)));
      } catch (err) {
        ctx.logger.warn('could not list a Region’s unattached target groups', {
          region: part.region,
          error: errorMessage(err),
        });
      }
    }
    return all;
  }

  deleteUnattachedTargetGroup(ctx: ProviderContext, tg: UnattachedTargetGroup): Promise<boolean> {
    // arn:aws:elasticloadbalancing:<region>:<account>:targetgroup/...
    const region = tg.id.split(':')[3];
    const part = this.owner.parts.find((p) => p.region === region);
    if (!part) return Promise.resolve(false);
    return part.provider.stacks.deleteUnattachedTargetGroup(ctx, tg);
  }
}

export class MultiRegionProvider implements MultiClusterProvider {
  readonly ingress: RegionalBalancer<MultiClusterIngress>;
  readonly service: RegionalBalancer<MultiClusterService>;
  private readonly inventoryOverRegions: RegionalInventory;
  private readonly fingerprintsOverRegions: RegionalFingerprints;

  readonly clusters: ClusterRegionSource;
  readonly markers: RegionMarkers;
  readonly unknown: UnknownClusters;
  readonly deploys: RegionalDeploys;

  constructor(
    readonly config: AwsProviderConfig,
    readonly parts: readonly RegionalPart[],
    shared: {
      clusters: ClusterRegionSource;
      markers: RegionMarkers;
      unknown: UnknownClusters;
      deploys: RegionalDeploys;
    },
    private readonly deps: ProviderDependencies,
    /** Global Accelerator in front of the regional load balancers, when configured (accelerator-seam.ts). */
    readonly accelerator?: AcceleratorSeam,
  ) {
    this.clusters = shared.clusters;
    this.markers = shared.markers;
    this.unknown = shared.unknown;
    this.deploys = shared.deploys;
    this.ingress = new RegionalBalancer<MultiClusterIngress>(this, (p) => p.ingress);
    this.service = new RegionalBalancer<MultiClusterService>(this, (p) => p.service);
    this.inventoryOverRegions = new RegionalInventory(this);
    this.fingerprintsOverRegions = new RegionalFingerprints(parts);
  }

  /** Each cluster of the object without a configured Region: a Warning Event naming it. */
  async reportUnknown(ctx: ProviderContext): Promise<void> {
    await this.report(
      ctx,
      this.unknown.of(ctx).map((u) => ({ reason: CLUSTER_REGION_UNKNOWN, message: unknownRegionMessage(u) })),
    );
  }

  /** What is true of the object over every Region of this reconcile: its weights in several (weights.ts). */
  overRegions(ctx: ProviderContext, obj: Readonly<KubeObject>): ModelWarning[] {
    const deploys = [...this.deploys.of(ctx).values()];
    const accelerated = deploys.some((list) => list.some((d) => d.served && d.stack.accelerator));
    const warning = weightsAcrossRegions(
      obj,
      weightedClusters(deploys),
      this.parts.map((p) => p.region),
      accelerated,
    );
    return warning ? [warning] : [];
  }

  /** Reported as the model's warnings are: a Warning Event and a log line each. */
  async report(ctx: ProviderContext, warnings: readonly ModelWarning[]): Promise<void> {
    await reportWarnings(ctx, warnings);
  }

  loadBalancer(): RegionalBalancer<MultiClusterIngress> {
    return this.ingress;
  }
  mcsLoadBalancer(): RegionalBalancer<MultiClusterService> {
    return this.service;
  }
  providerName(): string {
    return AWS_PROVIDER_NAME;
  }
  inventory(): StackInventory {
    return this.inventoryOverRegions;
  }
  targetGroupInventory(): TargetGroupInventory {
    return this.inventoryOverRegions;
  }
  /** Every Region's fingerprints for the resync (fingerprints.ts). */
  fingerprints(): FingerprintSource {
    return this.fingerprintsOverRegions;
  }

  /** Each Region's change plan for the object (a dry run). */
  plan(ctx: ProviderContext, obj: Readonly<Obj>): Promise<RegionalPlans> {
    return obj.kind === 'MultiClusterService'
      ? this.service.plan(ctx, obj as MultiClusterService)
      : this.ingress.plan(ctx, obj as MultiClusterIngress);
  }

  get kube() {
    return this.deps.kube;
  }
}
