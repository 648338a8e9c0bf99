/**
 * The seam between the regional stacks and Global Accelerator (lib/providers/aws/accelerator/):
 * the orchestrator (provider.ts) is the one caller, over all Regions at once. Deletion is wired;
 * the accelerator's reconcile around the regional deploys (`before`: only dials of Regions going
 * to 0, so clients leave a Region before its targets drain; `after`: the full desired state) is
 * the accelerator module's to call from RegionalBalancer.reconcile with each Region's endpoint.
 */
import type { KubeObject } from '../../../kube/types.js';
import type { ProviderContext } from '../../../provider/contract.js';

/** One Region's load balancer as its regional deploy has it. */
export interface RegionalEndpoint {
  region: string;
  /** Undefined only in a dry run that would create the load balancer. */
  loadBalancerArn: string | undefined;
  /** Every cluster of the Region is blocked (trafficBlockClusters) or at weight 0. */
  drained: boolean;
}

export type AcceleratorPhase = 'before' | 'after';

export interface AcceleratorSeam {
  reconcileAccelerator(
    ctx: ProviderContext,
    owner: Readonly<KubeObject>,
    endpoints: readonly RegionalEndpoint[],
    phase: AcceleratorPhase,
  ): Promise<unknown>;
  /** Throws RetryLaterError while it waits (disable, then delete): the finalizer stays until it is gone. */
  deleteAccelerator(ctx: ProviderContext, owner: Readonly<KubeObject>): Promise<void>;
}
