/**
 * Whether Karmada has taken every cluster of a Region out of traffic, read from the built stack:
 * a cluster is out when TrafficControl blocks it (`status.trafficBlockClusters`) or when every
 * per-cluster target group that carries it is drained at weight 0 (model/cluster-weights.ts,
 * deploy/drains.ts). A Region with no known cluster is not drained: nothing says it should be.
 */
import type { MultiClusterIngress } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import { resourcesOf, ResourceTypes, type Stack } from '../model/types.js';

/** The clusters an object knows: where its Services are, the blocked ones, the stack's per-cluster groups'. */
export function objectClusters(obj: Readonly<KubeObject>, stack: Stack): string[] {
  const status = (obj as Readonly<MultiClusterIngress>).status;
  const out = new Set<string>(status?.trafficBlockClusters ?? []);
  for (const l of status?.serviceLocations ?? []) for (const c of l.clusters ?? []) out.add(c);
  for (const tg of resourcesOf(stack, ResourceTypes.TargetGroup))
    for (const c of tg.spec.clusters ?? []) out.add(c);
  return [...out].sort();
}

/** The clusters TrafficControl blocks for the object. */
export function blockedClusters(obj: Readonly<KubeObject>): Set<string> {
  return new Set((obj as Readonly<MultiClusterIngress>).status?.trafficBlockClusters ?? []);
}

export function regionDrained(
  stack: Stack,
  clusters: readonly string[],
  blocked: ReadonlySet<string>,
): boolean {
  if (clusters.length === 0) return false;
  const groups = resourcesOf(stack, ResourceTypes.TargetGroup);
  return clusters.every((cluster) => {
    if (blocked.has(cluster)) return true;
    const carrying = groups.filter((tg) => tg.spec.clusters?.includes(cluster));
    return carrying.length > 0 && carrying.every((tg) => tg.spec.drain === true);
  });
}
