/**
 * Global Accelerator over every Region of a multi-Region provider (the seam in
 * regions/accelerator-seam.ts): each regional part lowers its own Region's dial before its deploy
 * (balancer.ts), and this, once every Region has deployed, brings each stack's one accelerator to
 * its full desired state over every Region that serves the stack: an endpoint group per Region
 * with that Region's load balancer, Regions that no longer serve it dropped, and the dials of
 * Regions back from a drain raised. Deletion comes before the regional stacks'.
 */
import type { MultiClusterIngress, MultiClusterService } from '../../../karmada/types.js';
import type { ProviderContext } from '../../../provider/contract.js';
import type { AwsLoadBalancerStatus } from '../balancer.js';
import type { AwsProviderConfig } from '../config.js';
import { stackOwner } from '../model/stack.js';
import type { AcceleratorPlan, AcceleratorSeam, RegionalDeploy } from '../regions/accelerator-seam.js';
import { regionDrained } from './drained.js';
import type { AcceleratorStatus } from './reconcile.js';
import { acceleratorIngress, type AcceleratorService } from './service.js';
import type { AcceleratorOperation, DesiredAccelerator, RegionalEndpoint } from './types.js';

type Obj = MultiClusterIngress | MultiClusterService;

/** A served Region's endpoint: its load balancer, drained when all its clusters are out. */
function endpointOf(d: RegionalDeploy): RegionalEndpoint {
  const intent = d.stack.accelerator;
  return {
    region: d.region,
    loadBalancerArn: d.result.loadBalancerArn,
    drained: intent ? regionDrained(d.stack, intent.clusters, new Set(intent.blocked)) : false,
  };
}

export class AcceleratorOverRegions implements AcceleratorSeam {
  constructor(
    /** The primary Region's part's: GA's API is global, one client serves every Region. */
    private readonly service: AcceleratorService,
    private readonly config: AwsProviderConfig,
  ) {}

  async afterRegions(
    ctx: ProviderContext,
    _obj: Readonly<Obj>,
    deploys: ReadonlyMap<string, readonly RegionalDeploy[]>,
  ): Promise<AwsLoadBalancerStatus | undefined> {
    const dryRun = this.config.dryRun === true;
    const { status, plan } = await this.overRegions(ctx, deploys, dryRun);
    if (dryRun || plan.length === 0) ctx.unchanged?.();
    return status ? acceleratorIngress(status) : undefined;
  }

  async planAfterRegions(
    ctx: ProviderContext,
    _obj: Readonly<Obj>,
    deploys: ReadonlyMap<string, readonly RegionalDeploy[]>,
  ): Promise<AcceleratorPlan> {
    return this.overRegions(ctx, deploys, true);
  }

  /** Each stack's accelerator over the Regions that deployed it; the first served one's status. */
  private async overRegions(
    ctx: ProviderContext,
    deploys: ReadonlyMap<string, readonly RegionalDeploy[]>,
    dryRun: boolean,
  ): Promise<AcceleratorPlan> {
    let status: AcceleratorStatus | undefined;
    let desired: DesiredAccelerator | undefined;
    const plan: AcceleratorOperation[] = [];
    for (const list of deploys.values()) {
      const first = list[0];
      const intent = list.find((d) => d.stack.accelerator)?.stack.accelerator;
      if (!first || !intent) continue;
      const served = list.filter((d) => d.served);
      const result = await this.service.reconcileWith(
        ctx,
        first.owner,
        served.length > 0 ? intent.settings : undefined,
        served[0]?.stack ?? first.stack,
        served.map(endpointOf),
        dryRun,
      );
      plan.push(...(result?.plan ?? []));
      // The object's own stack, or the group's it joined: the first one served is its entry point.
      if (!status && !desired && (result?.status || result?.desired)) {
        status = result.status;
        desired = result.desired;
      }
    }
    return { ...(status ? { status } : {}), ...(desired ? { desired } : {}), plan };
  }

  async deleteAccelerator(ctx: ProviderContext, obj: Readonly<Obj>): Promise<void> {
    const owner = stackOwner(obj.kind === 'MultiClusterService' ? 'mcs' : 'mci', obj, this.config.ownerId);
    await this.service.delete(ctx, owner, this.config.dryRun === true);
  }
}
