/**
 * One Region's share of an object's endpoints: the EndpointSlices Karmada collected from the
 * clusters in that Region. Pure.
 */
import type { EndpointSlice } from '../../../karmada/types.js';
import { EXECUTION_SPACE_PREFIX, WORK_NAMESPACE_KEY } from '../model/targets.js';
import type { ClusterRegionMap, UnknownRegion } from './cluster-regions.js';

/** The member cluster of an imported slice: its execution space (imported-slices.ts keeps only those). */
export function sliceCluster(slice: Readonly<EndpointSlice>): string | undefined {
  const ns = slice.metadata.annotations?.[WORK_NAMESPACE_KEY] ?? '';
  return ns.startsWith(EXECUTION_SPACE_PREFIX) && ns.length > EXECUTION_SPACE_PREFIX.length
    ? ns.slice(EXECUTION_SPACE_PREFIX.length)
    : undefined;
}

export interface RegionShare {
  /** The slices of this Region's clusters. */
  slices: EndpointSlice[];
  /**
   * Whether this Region serves the object: it has one of its clusters, or (the primary Region)
   * none of the object's clusters is in a configured Region, so that an object whose endpoints
   * have not arrived yet still gets its load balancer where a one-Region provider puts it.
   */
  serves: boolean;
  /** The object's clusters without a configured Region, sorted by name. */
  unknown: UnknownRegion[];
  /** The object's clusters (of its other slices, or named) served in another Region, or in none. */
  elsewhere: Set<string>;
}

/**
 * `named`: clusters the object names besides its slices' (an MCI's Service locations, an MCS's
 * provider clusters), which are elsewhere too when not in this Region.
 */
export function regionShare(
  slices: readonly EndpointSlice[],
  regions: ClusterRegionMap,
  region: string,
  primary: boolean,
  named: readonly string[] = [],
): RegionShare {
  const mine: EndpointSlice[] = [];
  let anyKnown = false;
  const unknown = new Map<string, UnknownRegion>();
  const elsewhere = new Set<string>();
  for (const slice of slices) {
    const cluster = sliceCluster(slice);
    const at = cluster !== undefined ? regions.regionOf(cluster) : undefined;
    if (cluster !== undefined && at !== region) elsewhere.add(cluster);
    if (at === undefined) {
      const why = cluster !== undefined ? regions.unknown(cluster) : undefined;
      if (why) unknown.set(why.cluster, why);
      continue;
    }
    anyKnown = true;
    if (at === region) mine.push(slice);
  }
  for (const cluster of named) if (regions.regionOf(cluster) !== region) elsewhere.add(cluster);
  return {
    slices: mine,
    serves: mine.length > 0 || (primary && !anyKnown),
    unknown: [...unknown.values()].sort((a, b) => a.cluster.localeCompare(b.cluster)),
    elsewhere,
  };
}

/** The Event message for a cluster left out. */
export function unknownRegionMessage(u: UnknownRegion): string {
  const left = `its endpoints are left out of every Region's load balancer`;
  switch (u.why) {
    case 'no-cluster':
      return `cluster ${u.cluster} has no Cluster object, so its Region is unknown: ${left}`;
    case 'no-region':
      return `cluster ${u.cluster} has no spec.region and no clusterRegions entry, so its Region is unknown: ${left}`;
    case 'not-configured':
      return `cluster ${u.cluster} is in Region ${u.region}, which the provider configuration's regions do not list: ${left}`;
  }
}
