/**
 * Which Region each member cluster is in: its Karmada Cluster object's `spec.region` (Karmada's
 * Cluster API: `spec.provider`, `spec.region`, `spec.zones`), overridden by the configuration's
 * `clusterRegions`. A cluster whose Region is unknown (no Cluster object, no `spec.region` and no
 * override) or not configured is never guessed into one: its endpoints are left out and the
 * object is told (regions/provider.ts).
 *
 * The Clusters are read with one LIST per reconcile (memoised on its ProviderContext, which the
 * Regions of one reconcile share), so a cluster moving Region is seen by the reconcile its
 * Cluster notification triggers (reconcile/dependents.ts); without a reconcile (fingerprints,
 * target group names) by the Kubernetes client read through, a resync's snapshot or a few
 * seconds' memo of the live client.
 */
import type { Cluster } from '../../../karmada/types.js';
import type { KubeClient } from '../../../kube/client.js';
import { Resources } from '../../../kube/resources.js';
import type { ProviderContext } from '../../../provider/contract.js';

/** Why a cluster has no Region we serve. */
export type UnknownRegion =
  | { cluster: string; why: 'no-cluster' }
  | { cluster: string; why: 'no-region' }
  | { cluster: string; why: 'not-configured'; region: string };

export class ClusterRegionMap {
  constructor(
    private readonly regions: ReadonlyMap<string, string>,
    private readonly configured: ReadonlySet<string>,
    private readonly registered: ReadonlySet<string>,
  ) {}

  /** The cluster's Region when it is one of the configured ones. */
  regionOf(cluster: string): string | undefined {
    const region = this.regions.get(cluster);
    return region !== undefined && this.configured.has(region) ? region : undefined;
  }

  /** Why the cluster has no configured Region (undefined: it has one). */
  unknown(cluster: string): UnknownRegion | undefined {
    if (this.regionOf(cluster) !== undefined) return undefined;
    const region = this.regions.get(cluster);
    if (region !== undefined) return { cluster, why: 'not-configured', region };
    return { cluster, why: this.registered.has(cluster) ? 'no-region' : 'no-cluster' };
  }
}

/** Each cluster's Region: the override, else `spec.region`. Pure. */
export function resolveClusterRegions(
  clusters: readonly Readonly<Cluster>[],
  overrides: Readonly<Record<string, string>> | undefined,
  configured: readonly string[],
): ClusterRegionMap {
  const regions = new Map<string, string>();
  const registered = new Set<string>();
  for (const c of clusters) {
    const name = c.metadata.name ?? '';
    registered.add(name);
    const region = c.spec?.region;
    if (typeof region === 'string' && region !== '') regions.set(name, region);
  }
  for (const [cluster, region] of Object.entries(overrides ?? {})) regions.set(cluster, region);
  return new ClusterRegionMap(regions, new Set(configured), registered);
}

/** How long the live client's answer is kept for reads outside a reconcile. */
const LIVE_MEMO_MS = 5_000;

/** Reads the Clusters at most once per reconcile (see the module's comment). */
export class ClusterRegionSource {
  private readonly byReconcile = new WeakMap<ProviderContext, Promise<ClusterRegionMap>>();
  private readonly byClient = new WeakMap<KubeClient, { at: number; map: Promise<ClusterRegionMap> }>();

  constructor(
    private readonly kube: KubeClient,
    private readonly overrides: Readonly<Record<string, string>> | undefined,
    private readonly configured: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** The map for this reconcile (`ctx`), or read through `kube` (the provider's client by default). */
  read(ctx: ProviderContext | undefined, kube: KubeClient = this.kube): Promise<ClusterRegionMap> {
    if (ctx) {
      let map = this.byReconcile.get(ctx);
      if (!map) {
        map = this.list(kube);
        this.byReconcile.set(ctx, map);
        map.catch(() => this.byReconcile.delete(ctx));
      }
      return map;
    }
    const kept = this.byClient.get(kube);
    // A snapshot (the resync's) never changes: only the live client's answer expires.
    if (kept && (kube !== this.kube || this.now() - kept.at < LIVE_MEMO_MS)) return kept.map;
    const map = this.list(kube);
    this.byClient.set(kube, { at: this.now(), map });
    map.catch(() => this.byClient.delete(kube));
    return map;
  }

  private async list(kube: KubeClient): Promise<ClusterRegionMap> {
    const clusters = await kube.list<Cluster>(Resources.Cluster);
    return resolveClusterRegions(clusters.items, this.overrides, this.configured);
  }
}
