/**
 * Per-cluster traffic control: the weights an MCI gives each member cluster, and the target groups
 * of one backend that carry them.
 *
 * LBC has no equivalent (it serves one cluster), so the keys are this project's:
 *   multicluster.karmada.io/cluster-weights: member1=95,member2=5        every backend of the MCI
 *   multicluster.karmada.io/cluster-weights.<service>: member1=0,*=1     one backend Service only
 * Either one puts the MCI in per-cluster mode: each (backend Service, port, cluster) gets its own
 * target group and each rule forwards to that backend's groups with the clusters' weights. `*`
 * weighs every cluster the list does not name; a cluster that is named nowhere gets weight 0.
 * Without either key the MCI keeps one target group per backend, whose traffic follows pod counts.
 *
 * Karmada's own placement is the third source, opted into with
 *   multicluster.karmada.io/cluster-weights-from: placement
 * Each backend that neither list above covers is then weighed by the replicas the ResourceBindings
 * of the workloads its Service selects assign each cluster, in percent (karmada/placement.ts); a
 * cluster with no replica gets weight 0 (and is drained as below). So the explicit keys win over
 * placement, and can be added and removed again to override it for a while.
 *
 * A cluster's effective weight is its weight, or 0 when Karmada's TrafficControl blocks it
 * (`status.trafficBlockClusters`) or when it has no endpoint for the backend (a group without a
 * target never takes a share). A cluster whose weight is 0 but that still has endpoints is
 * drained: its targets stay registered (the group has `drain`) until the deploy has held the
 * weight at 0 for the group's deregistration delay (deploy/drains.ts).
 *
 * An action forwards to at most 5 target groups (ELBv2's quota). A backend in more than 5 clusters
 * gets one group per weight class instead: the clusters of equal effective weight share a group,
 * whose weight is that weight times their number (so each cluster keeps its own share). More than
 * 5 distinct weights on one backend is refused, naming the limit.
 */
import { InvalidObjectError } from '../../../errors.js';
import {
  CLUSTER_WEIGHTS_FROM_KEY,
  CLUSTER_WEIGHTS_KEY,
  describePlacement,
  FROM_PLACEMENT,
  workloadName,
  type ServicePlacement,
} from '../../../karmada/placement.js';
import { raw, type Annotations } from './annotations/parse.js';

export { CLUSTER_WEIGHTS_FROM_KEY, CLUSTER_WEIGHTS_KEY };
export const INVALID_CLUSTER_WEIGHTS = 'InvalidClusterWeights';
/** Placement cannot weigh a backend (no workload, no binding yet, no replica). */
export const PLACEMENT_WEIGHTS_UNAVAILABLE = 'PlacementWeightsUnavailable';
/** ELBv2: a forward action names at most 5 target groups, each weighed 0-999. */
export const MAX_GROUPS_PER_FORWARD = 5;
export const MAX_WEIGHT = 999;

/** The backend-specific key of one Service. */
export function serviceWeightsKey(service: string): string {
  return `${CLUSTER_WEIGHTS_KEY}.${service}`;
}

export interface WeightList {
  /** The annotation the weights came from (every error names it). */
  key: string;
  weights: ReadonlyMap<string, number>;
  /** `*=N`: the weight of every cluster the list does not name. */
  others?: number;
  /** Where derived weights come from (placement), for the condition and the plan. */
  source?: string;
}

function bad(key: string, value: string, why: string): InvalidObjectError {
  return new InvalidObjectError(`annotation ${key}: ${JSON.stringify(value)} ${why}`, {
    field: key,
    reason: INVALID_CLUSTER_WEIGHTS,
  });
}

// A Cluster's name is a DNS-1123 subdomain.
const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** `name=weight,...` (and `*=weight`), checked entry by entry; undefined when the key is absent. */
export function parseWeightList(annotations: Annotations, key: string): WeightList | undefined {
  const value = raw(annotations, key);
  if (value === undefined) return undefined;
  const weights = new Map<string, number>();
  let others: number | undefined;
  for (const entry of value.split(',')) {
    const item = entry.trim();
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(item);
    if (!m) throw bad(key, value, `has "${item}" where <cluster>=<weight> was expected`);
    const [, name = '', w = ''] = m;
    if (/^-\d+$/.test(w)) throw bad(key, value, `gives cluster ${name} the negative weight ${w}`);
    if (!/^\d+$/.test(w) || Number(w) > MAX_WEIGHT) {
      throw bad(
        key,
        value,
        `gives cluster ${name} the weight "${w}": a weight is an integer from 0 to ${MAX_WEIGHT}`,
      );
    }
    if (name !== '*' && !CLUSTER_NAME.test(name))
      throw bad(key, value, `names "${name}", which is not a cluster name`);
    if ((name === '*' && others !== undefined) || weights.has(name))
      throw bad(key, value, `names ${name} twice`);
    if (name === '*') others = Number(w);
    else weights.set(name, Number(w));
  }
  const sum = [...weights.values()].reduce((a, b) => a + b, others ?? 0);
  if (sum === 0) throw bad(key, value, 'gives every cluster weight 0: at least one weight must be above 0');
  return { key, weights, ...(others !== undefined ? { others } : {}) };
}

/** The weights of the MCI: the MCI-wide list and every backend's own, read and checked up front. */
export interface ClusterWeights {
  all: WeightList | undefined;
  byService: ReadonlyMap<string, WeightList>;
  /** `cluster-weights-from: placement`: the backends neither list covers follow Karmada's placement. */
  placement: boolean;
}

/** `cluster-weights-from`: absent, or `placement` (anything else is refused, naming the key). */
function readWeightsFrom(annotations: Annotations): boolean {
  const value = raw(annotations, CLUSTER_WEIGHTS_FROM_KEY);
  if (value === undefined) return false;
  if (value.trim() !== FROM_PLACEMENT) {
    throw bad(
      CLUSTER_WEIGHTS_FROM_KEY,
      value,
      `is not a source of cluster weights: the one value is "${FROM_PLACEMENT}" (Karmada's replicas per cluster)`,
    );
  }
  return true;
}

/**
 * Every `cluster-weights` key of the object, checked against the clusters it knows of (its
 * Services' locations, its blocked clusters, its EndpointSlices' clusters); undefined when it has
 * none (per-backend mode).
 */
export function readClusterWeights(
  annotations: Annotations,
  knownClusters: ReadonlySet<string>,
): ClusterWeights | undefined {
  const all = parseWeightList(annotations, CLUSTER_WEIGHTS_KEY);
  const placement = readWeightsFrom(annotations);
  const byService = new Map<string, WeightList>();
  const prefix = `${CLUSTER_WEIGHTS_KEY}.`;
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!key.startsWith(prefix)) continue;
    const list = parseWeightList(annotations, key);
    if (list) byService.set(key.slice(prefix.length), list);
  }
  if (!all && byService.size === 0 && !placement) return undefined;
  for (const list of [...(all ? [all] : []), ...byService.values()]) {
    for (const name of list.weights.keys()) {
      if (!knownClusters.has(name)) {
        const known = [...knownClusters].sort();
        throw new InvalidObjectError(
          `annotation ${list.key}: cluster ${name} is unknown: the object's Services are in ${known.length ? known.join(', ') : 'no cluster yet'}`,
          { field: list.key, reason: INVALID_CLUSTER_WEIGHTS },
        );
      }
    }
  }
  return { all, byService, placement };
}

/**
 * The list that weighs one backend Service's clusters: its own, else the MCI's, else (opted in)
 * its placement's; none: per-backend. `where` names the backend in placement's errors.
 */
export function weightsFor(
  weights: ClusterWeights,
  service: string,
  placement?: ServicePlacement,
  where = `backend Service ${service}`,
): WeightList | undefined {
  const explicit = weights.byService.get(service) ?? weights.all;
  if (explicit || !weights.placement) return explicit;
  return placementWeights(placement, where);
}

function unavailable(where: string, why: string): InvalidObjectError {
  return new InvalidObjectError(
    `annotation ${CLUSTER_WEIGHTS_FROM_KEY}: ${FROM_PLACEMENT}: ${where} ${why}; give its weights with ${CLUSTER_WEIGHTS_KEY} meanwhile`,
    { field: CLUSTER_WEIGHTS_FROM_KEY, reason: PLACEMENT_WEIGHTS_UNAVAILABLE },
  );
}

/** A backend's weights from Karmada's placement: each cluster's share of the replicas, in percent. */
export function placementWeights(placement: ServicePlacement | undefined, where: string): WeightList {
  const key = CLUSTER_WEIGHTS_FROM_KEY;
  if (!placement) throw unavailable(where, 'does not exist, so no workload is known to serve it');
  if (placement.state === 'no-workload') {
    const selector = placement.selector;
    const labels = Object.entries(selector ?? {}).map(([k, v]) => `${k}=${v}`);
    throw unavailable(
      where,
      labels.length
        ? `selects no Deployment or StatefulSet in the Karmada control plane (selector ${labels.join(',')})`
        : 'has no selector, so no Deployment or StatefulSet of the Karmada control plane is known to serve it',
    );
  }
  if (placement.state === 'unbound') {
    const unbound = placement.workloads.filter((w) => !w.binding).map(workloadName);
    throw unavailable(
      where,
      `is served by ${unbound.join(', ')}, which has no ResourceBinding yet: no PropagationPolicy selects it, or Karmada has not scheduled it`,
    );
  }
  if (placement.state === 'no-replicas') {
    throw unavailable(
      where,
      `is served by ${placement.workloads.map(workloadName).join(', ')}, whose ResourceBinding places 0 replicas in every cluster`,
    );
  }
  return { key, weights: placement.shares, source: describePlacement(placement) };
}

/** A cluster's configured weight for one backend Service that a list covers. */
export function configuredWeight(list: WeightList, cluster: string): number {
  return list.weights.get(cluster) ?? list.others ?? 0;
}

/** One cluster of a backend as the forward sees it. */
export interface ClusterShare {
  cluster: string;
  /** What the annotations give it. */
  configured: number;
  /** What it gets: 0 when blocked or without endpoints. */
  effective: number;
  blocked: boolean;
  /** Whether it has endpoints for the backend (a drained cluster keeps them registered a while). */
  hasTargets: boolean;
}

/** One target group of a backend in per-cluster mode: its clusters and its weight in the forward. */
export interface ClusterSlice {
  /** `cluster:<name>` (one cluster) or `weight:<n>` (a weight class): part of the group's ID and name. */
  key: string;
  clusters: readonly ClusterShare[];
  weight: number;
  /** Every cluster in it has weight 0 and some still have endpoints: they are drained, not cut. */
  drain: boolean;
}

/** Each cluster's share of one backend: its configured weight, 0 when blocked or without endpoints. */
export function clusterShares(
  clusters: readonly string[],
  list: WeightList,
  blocked: ReadonlySet<string>,
  hasTargets: (cluster: string) => boolean,
): ClusterShare[] {
  return clusters.map((cluster) => {
    const configured = configuredWeight(list, cluster);
    const isBlocked = blocked.has(cluster);
    const filled = hasTargets(cluster);
    return {
      cluster,
      configured,
      effective: isBlocked || !filled ? 0 : configured,
      blocked: isBlocked,
      hasTargets: filled,
    };
  });
}

/**
 * The target groups of one backend: one per cluster up to the forward's limit, else one per
 * weight class. `where` names the backend in the error.
 */
export function sliceClusters(shares: readonly ClusterShare[], where: string, key: string): ClusterSlice[] {
  const drained = (cs: readonly ClusterShare[]) =>
    cs.every((c) => c.effective === 0) && cs.some((c) => c.hasTargets);
  if (shares.length <= MAX_GROUPS_PER_FORWARD) {
    return shares.map((c) => ({
      key: `cluster:${c.cluster}`,
      clusters: [c],
      weight: c.effective,
      drain: drained([c]),
    }));
  }
  const classes = new Map<number, ClusterShare[]>();
  for (const c of shares) classes.set(c.effective, [...(classes.get(c.effective) ?? []), c]);
  if (classes.size > MAX_GROUPS_PER_FORWARD) {
    throw new InvalidObjectError(
      `annotation ${key}: ${where} is in ${shares.length} clusters with ${classes.size} different effective weights (${[...classes.keys()].sort((a, b) => a - b).join(', ')}); a forward action takes at most ${MAX_GROUPS_PER_FORWARD} target groups, and clusters of equal weight share one, so use at most ${MAX_GROUPS_PER_FORWARD} distinct weights`,
      { field: key, reason: INVALID_CLUSTER_WEIGHTS },
    );
  }
  return [...classes.entries()]
    .sort(([a], [b]) => b - a)
    .map(([w, cs]) => {
      const weight = w * cs.length;
      if (weight > MAX_WEIGHT) {
        throw new InvalidObjectError(
          `annotation ${key}: ${where}: the ${cs.length} clusters of weight ${w} share one target group, whose weight would be ${weight}, over ELBv2's ${MAX_WEIGHT}; use smaller weights`,
          { field: key, reason: INVALID_CLUSTER_WEIGHTS },
        );
      }
      return { key: `weight:${w}`, clusters: cs, weight, drain: drained(cs) };
    });
}

/**
 * `member1=95 member2=0 (blocked, configured 5)`: what the condition message and the narration
 * show. A cluster at weight 0 that still has endpoints is `(drained)`, as its ClusterDrained Event,
 * its rule's 0% and the topology page say.
 */
export function describeShares(shares: readonly ClusterShare[]): string {
  return shares
    .map((c) => {
      const why =
        c.effective !== c.configured
          ? ` (${c.blocked ? 'blocked' : 'no endpoints'}, configured ${c.configured})`
          : c.effective === 0 && c.hasTargets
            ? ' (drained)'
            : '';
      return `${c.cluster}=${c.effective}${why}`;
    })
    .join(' ');
}
