/**
 * Cluster weights over several Regions. Each Region's load balancer is built from its own
 * clusters' endpoints (partition.ts), so a weight list splits the traffic that reaches a Region
 * among that Region's clusters; which Region a client reaches is Global Accelerator's (the
 * nearest healthy Region, then each Region's traffic dial) or, without an accelerator, whatever
 * sends clients to each Region's hostname. Deriving dials from the weights would not give the
 * split either (a dial lowers the share a Region keeps of the clients near it; the rest go to the
 * next Region), so the weights are not turned into dials: an object whose weights are in effect
 * in two Regions or more is told once per reconcile, a Warning Event naming the Regions and the
 * lever, `multicluster.karmada.io/global-accelerator-traffic-dials` (which, when set, is taken as
 * the answer: no warning). A Region whose every cluster is at weight 0 is drained, and its dial
 * goes to 0 (accelerator/drained.ts): weights do move that Region's traffic, and it is not counted.
 */
import type { KubeObject } from '../../../kube/types.js';
import { GA_KEYS } from '../accelerator/keys.js';
import { CLUSTER_WEIGHTS_FROM_KEY, CLUSTER_WEIGHTS_KEY } from '../model/cluster-weights.js';
import { resourcesOf, ResourceTypes, type ModelWarning } from '../model/types.js';
import type { RegionalDeploy } from './accelerator-seam.js';

/** The reason of the Warning Event (lib/reconcile/next-steps.ts). */
export const CLUSTER_WEIGHTS_PER_REGION = 'ClusterWeightsPerRegion';

/** Each served Region's clusters that take traffic by weight (per-cluster groups not drained). */
export function weightedClusters(deploys: Iterable<readonly RegionalDeploy[]>): Map<string, string[]> {
  const byRegion = new Map<string, Set<string>>();
  for (const list of deploys) {
    for (const d of list) {
      if (!d.served) continue;
      for (const tg of resourcesOf(d.stack, ResourceTypes.TargetGroup)) {
        if (!tg.spec.clusters?.length || tg.spec.drain) continue;
        const here = byRegion.get(d.region) ?? new Set<string>();
        for (const c of tg.spec.clusters) here.add(c);
        byRegion.set(d.region, here);
      }
    }
  }
  return new Map([...byRegion].map(([region, clusters]) => [region, [...clusters].sort()]));
}

/**
 * The warning for an object whose cluster weights are in effect in several Regions, or undefined
 * (one Region weighs, or its traffic dials say how Regions split). `regions`: the configuration's
 * order; `accelerated`: an accelerator is in front.
 */
export function weightsAcrossRegions(
  obj: Readonly<KubeObject>,
  weighted: ReadonlyMap<string, readonly string[]>,
  regions: readonly string[],
  accelerated: boolean,
): ModelWarning | undefined {
  const annotations = obj.metadata.annotations ?? {};
  if (weighted.size < 2 || annotations[GA_KEYS.trafficDials] !== undefined) return undefined;
  const keys = Object.keys(annotations)
    .filter(
      (k) =>
        k === CLUSTER_WEIGHTS_KEY ||
        k.startsWith(`${CLUSTER_WEIGHTS_KEY}.`) ||
        k === CLUSTER_WEIGHTS_FROM_KEY,
    )
    .sort();
  const where = regions
    .filter((r) => weighted.has(r))
    .map((r) => `${r}: ${weighted.get(r)!.join(', ')}`)
    .join('; ');
  const between = accelerated
    ? `which Region a client reaches is Global Accelerator's (the nearest healthy Region, then each Region's traffic dial: set ${GA_KEYS.trafficDials}, e.g. ${regions
        .filter((r) => weighted.has(r))
        .map((r, i) => `${r}=${i === 0 ? 100 : 10}`)
        .join(',')})`
    : "which Region a client reaches is up to what sends it to each Region's hostname in the status (a DNS policy)";
  return {
    reason: CLUSTER_WEIGHTS_PER_REGION,
    message: `${keys.length === 1 ? `annotation ${keys[0]} weighs` : keys.length > 1 ? `annotations ${keys.join(', ')} weigh` : 'the cluster weights weigh'} clusters in several Regions (${where}): each Region's load balancer splits only the traffic that reaches it among its own clusters, and ${between}, not the weights`,
  };
}
