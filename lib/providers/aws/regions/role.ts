/**
 * What makes an AwsProvider one Region's part of a multi-Region provider (regions/provider.ts):
 * its Region's share of each object's endpoints, and the markers of the Regions a stack may be in.
 * A one-Region provider has none, and does exactly what it did before Regions existed.
 */
import type { EndpointSlice } from '../../../karmada/types.js';
import type { KubeClient } from '../../../kube/client.js';
import type { ProviderContext } from '../../../provider/contract.js';
import type { RegionalDeploy } from './accelerator-seam.js';
import type { RegionMarkers } from './markers.js';
import type { RegionShare } from './partition.js';

export interface RegionalRole {
  region: string;
  /** The first configured Region: its records and stacks are a one-Region provider's. */
  primary: boolean;
  /**
   * This Region's share of an object's slices, read in this reconcile (`ctx`) or through `kube`;
   * `named`: the clusters the object names besides its slices' (partition.ts).
   */
  share(
    slices: readonly EndpointSlice[],
    kube: KubeClient,
    ctx: ProviderContext | undefined,
    named?: readonly string[],
  ): Promise<RegionShare>;
  markers: RegionMarkers;
  /** Told of each deploy of a stack in this Region (for the accelerator in front: accelerator-seam.ts). */
  deployed(ctx: ProviderContext, deploy: RegionalDeploy): void;
  /**
   * Runs the accelerator's `before` phase of a stack in this Region once the other Regions' of the
   * same reconcile are done (turns.ts): the Regions deploy concurrently, the record is theirs in turn.
   */
  frontDoorTurn<T>(ctx: ProviderContext, stackId: string, work: () => Promise<T>): Promise<T>;
}
