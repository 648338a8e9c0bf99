/**
 * The seam between the regional stacks and Global Accelerator (lib/providers/aws/accelerator/).
 * The accelerator is one per stack over all its Regions, so the regional parts must not set it
 * from their own Region alone:
 * - `before` (only the dials of Regions going to 0, so clients leave a Region before its targets
 *   drain) belongs right before each Region's deploy, with that Region's endpoint: a regional
 *   part's deployBuilt (balancer.ts), where `provider.regional` says it is one. Until GA has
 *   deployed a drained Region's dial at 0 it throws InProgressError, and that Region's deploy
 *   waits for a later reconcile (its outcome `waiting`; the other Regions deploy);
 * - `after` (the full desired state: endpoint groups, dials back up) belongs after every Region's
 *   deploy: the orchestrator (provider.ts) calls `afterRegions` once per reconcile with every
 *   Region's deploy of every stack it touched (RegionalDeploys, below), and its status, when it
 *   returns one, is the object's (the accelerator's DNS name and static IPs);
 * - deletion: `deleteAccelerator` before the regional stacks are deleted (it throws
 *   RetryLaterError while it waits: the finalizer stays until the accelerator is gone).
 */
import type { MultiClusterIngress, MultiClusterService } from '../../../karmada/types.js';
import type { ProviderContext } from '../../../provider/contract.js';
import { perReconcile } from '../../../provider/per-reconcile.js';
import type { AwsLoadBalancerStatus } from '../load-balancer-status.js';
import type { DeployResult } from '../deploy/deployer.js';
import type { Stack } from '../model/types.js';
import type { StackOwner } from '../tagging.js';
import type { AcceleratorOperation } from '../accelerator/types.js';
import type { AcceleratorResult } from '../accelerator/reconcile.js';

/** One Region's load balancer as the accelerator sees it (COMMON.md's contract). */
export interface RegionalEndpoint {
  region: string;
  /** Undefined only in a dry run that would create the load balancer. */
  loadBalancerArn: string | undefined;
  /** Every cluster of the Region is blocked (trafficBlockClusters) or at weight 0. */
  drained: boolean;
}

export type AcceleratorPhase = 'before' | 'after';

/** One Region's deploy of one stack in a reconcile (served or, without clusters there, retired). */
export interface RegionalDeploy {
  region: string;
  owner: StackOwner;
  /** The stack as this Region built it (its Region's endpoints only). */
  stack: Stack;
  result: DeployResult;
  /** False: the Region has no cluster of the stack, and what it had of it was deleted. */
  served: boolean;
}

type Obj = MultiClusterIngress | MultiClusterService;

export interface AcceleratorSeam {
  /**
   * The `after` phase over every Region's deploys of this reconcile; its status, when any, is the
   * object's. Calls `ctx.unchanged` when it changed nothing in Global Accelerator.
   */
  afterRegions(
    ctx: ProviderContext,
    obj: Readonly<Obj>,
    deploys: ReadonlyMap<string, readonly RegionalDeploy[]>,
  ): Promise<AwsLoadBalancerStatus | undefined>;
  deleteAccelerator(ctx: ProviderContext, obj: Readonly<Obj>): Promise<void>;
  /** The `after` phase's change plan over every Region's deploys of a dry run (`npm run plan`). */
  planAfterRegions?(
    ctx: ProviderContext,
    obj: Readonly<Obj>,
    deploys: ReadonlyMap<string, readonly RegionalDeploy[]>,
  ): Promise<AcceleratorPlan>;
}

/**
 * The accelerator's change plan over every Region, with the accelerator it brings GA to and its
 * addresses once it exists (the object's entry point: its own stack's, or its group's).
 */
export interface AcceleratorPlan extends Pick<AcceleratorResult, 'desired' | 'status'> {
  plan: AcceleratorOperation[];
}

/**
 * Every Region's deploys of one reconcile, by stack ID (the reconcile's context is the key), each
 * stack's in the configuration's Region order whatever order the concurrent Regions finished in:
 * the first served Region's stack is the accelerator's source (over-regions.ts).
 */
export class RegionalDeploys {
  private readonly byReconcile = perReconcile(() => new Map<string, RegionalDeploy[]>());

  /** `regions`: the configured Regions, in order. */
  constructor(private readonly regions: readonly string[]) {}

  note(ctx: ProviderContext, deploy: RegionalDeploy): void {
    const byStack = this.byReconcile(ctx);
    const list = byStack.get(deploy.owner.stackId) ?? [];
    list.push(deploy);
    list.sort((a, b) => this.regions.indexOf(a.region) - this.regions.indexOf(b.region));
    byStack.set(deploy.owner.stackId, list);
  }

  of(ctx: ProviderContext): ReadonlyMap<string, readonly RegionalDeploy[]> {
    return this.byReconcile(ctx);
  }
}
