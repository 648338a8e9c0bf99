/**
 * Traffic blocking, part of the `multiclusteringress` controller (upstream 5.1,
 * updateMCITrafficBlockClusters): before the provider sees a MultiClusterIngress, its
 * `status.trafficBlockClusters` names the clusters that serve one of its Services and that Karmada
 * asked to take out of traffic (`TrafficControl` in the Cluster's `status.remedyActions`), so a
 * provider can leave their endpoints out. Runs as the lifecycle's `prepare` hook.
 */
import { TRAFFIC_CONTROL_REMEDY } from '../karmada/constants.js';
import type { Cluster, MultiClusterIngress } from '../karmada/types.js';
import { retryOnConflict } from '../kube/conflict.js';
import { Resources } from '../kube/resources.js';
import { semanticEqual } from '../util/equal.js';
import type { ReconcileDeps } from './types.js';

export function hasTrafficControl(c: Readonly<Cluster> | undefined): boolean {
  return (c?.status?.remedyActions ?? []).includes(TRAFFIC_CONTROL_REMEDY);
}

/** ∪ status.serviceLocations[].clusters */
export function locatedClusters(mci: Readonly<MultiClusterIngress>): Set<string> {
  return new Set((mci.status?.serviceLocations ?? []).flatMap((l) => l.clusters ?? []));
}

/** Sorted names of the located clusters that have the TrafficControl remedy. */
export function trafficBlockClusters(
  mci: Readonly<MultiClusterIngress>,
  clusters: ReadonlyArray<Cluster>,
): string[] {
  const located = locatedClusters(mci);
  return clusters
    .filter((c) => located.has(c.metadata.name ?? '') && hasTrafficControl(c))
    .map((c) => c.metadata.name ?? '')
    .sort();
}

/** A copy whose status carries `blocked` (the field omitted when empty, as Go's omitempty writes it). */
export function withTrafficBlockClusters(mci: MultiClusterIngress, blocked: string[]): MultiClusterIngress {
  const { trafficBlockClusters: _old, ...rest } = mci.status ?? {};
  return { ...mci, status: blocked.length ? { ...rest, trafficBlockClusters: blocked } : rest };
}

/**
 * Writes `status.trafficBlockClusters` when it changed (an absent and an empty list are the same)
 * and returns the MultiClusterIngress the provider should see.
 */
export async function prepareTrafficBlock(
  deps: ReconcileDeps,
  mci: MultiClusterIngress,
): Promise<MultiClusterIngress> {
  // No locations, no blocked clusters: skip listing Clusters on the common path.
  const clusters = locatedClusters(mci).size ? (await deps.kube.list<Cluster>(Resources.Cluster)).items : [];
  const blocked = trafficBlockClusters(mci, clusters);
  if (semanticEqual(blocked, mci.status?.trafficBlockClusters)) return mci;

  let first: MultiClusterIngress | undefined = mci;
  const written = await retryOnConflict(async () => {
    const current =
      first ??
      (await deps.kube.get<MultiClusterIngress>(
        Resources.MultiClusterIngress,
        mci.metadata.namespace,
        mci.metadata.name ?? '',
      ));
    first = undefined;
    if (!current) return undefined;
    if (semanticEqual(blocked, current.status?.trafficBlockClusters)) return current;
    return deps.kube.updateStatus<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      withTrafficBlockClusters(current, blocked),
    );
  });
  deps.logger.info('traffic block clusters updated', { trafficBlockClusters: blocked });
  // Gone meanwhile: the provider still gets what we computed; the next notification will say it is gone.
  return written ?? withTrafficBlockClusters(mci, blocked);
}
