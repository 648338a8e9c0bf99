/**
 * Karmada's placement of the workloads behind a Service: which Deployments and StatefulSets of the
 * Karmada control plane the Service selects (its `spec.selector` against each workload's pod
 * template labels, as the member clusters' endpoints controllers will match their pods), and how
 * many replicas each workload's ResourceBinding assigns each member cluster
 * (`spec.clusters[].replicas`). Pure; placement-reads.ts reads the objects.
 *
 * A backend whose traffic follows placement (`multicluster.karmada.io/cluster-weights-from:
 * placement`) gets each cluster's share of the replicas in percent (placementShares): what a
 * load balancer's weights can say whatever their range (ELBv2's is 0-999).
 */
import { bindingName } from './bindings.js';
import type { ResourceBinding, Service } from './types.js';

/** The opt-in key: its one value is `placement`. */
export const CLUSTER_WEIGHTS_FROM_KEY = 'multicluster.karmada.io/cluster-weights-from';
export const FROM_PLACEMENT = 'placement';
/** Explicit weights (the AWS model's cluster-weights.ts) win over placement: MCI-wide, then `.<service>`. */
export const CLUSTER_WEIGHTS_KEY = 'multicluster.karmada.io/cluster-weights';

/** The workload kinds Karmada divides replicas of, whose pods a Service selects. */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];
export const WORKLOAD_API_VERSION = 'apps/v1';

/** A Deployment or StatefulSet as far as placement reads it. */
export interface Workload {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; deletionTimestamp?: string | null };
  spec?: { replicas?: number; template?: { metadata?: { labels?: Record<string, string> } } };
}

/** One workload the Service selects, and its binding (undefined: Karmada has not bound it yet). */
export interface PlacedWorkload {
  kind: WorkloadKind;
  name: string;
  binding: ResourceBinding | undefined;
}

/** What placement says about one backend Service. */
export type ServicePlacement =
  | {
      state: 'placed';
      workloads: readonly PlacedWorkload[];
      /** Replicas per cluster, summed over the workloads. */
      replicas: ReadonlyMap<string, number>;
      /** Each cluster's share in percent (placementShares). */
      shares: ReadonlyMap<string, number>;
    }
  /** The Service has no selector, or it selects no Deployment or StatefulSet. */
  | { state: 'no-workload'; selector: Readonly<Record<string, string>> | undefined }
  /** A selected workload has no ResourceBinding yet (no PropagationPolicy matched, or not yet). */
  | { state: 'unbound'; workloads: readonly PlacedWorkload[] }
  /** Every selected workload is bound with 0 replicas in every cluster. */
  | { state: 'no-replicas'; workloads: readonly PlacedWorkload[] };

/** `Deployment web`: how errors and the plan name a workload. */
export function workloadName(w: Pick<PlacedWorkload, 'kind' | 'name'>): string {
  return `${w.kind} ${w.name}`;
}

/** Whether the MCI or MCS asks for placement-derived weights (any other value is the model's error). */
export function wantsPlacementWeights(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations?.[CLUSTER_WEIGHTS_FROM_KEY] !== undefined;
}

/**
 * Whether the Service's selector selects the workload's pods: every selector label equal. A Service
 * without a selector selects nothing (its endpoints are managed by hand), as in Kubernetes.
 */
export function selects(service: Readonly<Service>, workload: Readonly<Workload>): boolean {
  const selector = service.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) return false;
  const labels = workload.spec?.template?.metadata?.labels ?? {};
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** The ResourceBinding name Karmada gives a workload (names.GenerateBindingName). */
export function workloadBindingName(kind: WorkloadKind, name: string): string {
  return bindingName(kind, name);
}

/** Whether the binding is the one of this workload (another API's same-named kind is not). */
export function isWorkloadBinding(rb: Readonly<ResourceBinding>, kind: WorkloadKind, name: string): boolean {
  const r = rb.spec?.resource;
  return r?.apiVersion === WORKLOAD_API_VERSION && r.kind === kind && r.name === name;
}

/** The workload a binding is for, when it is a Deployment's or a StatefulSet's. */
export function workloadOfBinding(
  rb: Readonly<ResourceBinding>,
): { kind: WorkloadKind; name: string } | undefined {
  const r = rb.spec?.resource;
  if (r?.apiVersion !== WORKLOAD_API_VERSION || !r.name) return undefined;
  const kind = WORKLOAD_KINDS.find((k) => k === r.kind);
  return kind ? { kind, name: r.name } : undefined;
}

/** Replicas per cluster a binding assigns (a cluster listed without replicas has none). */
export function bindingReplicas(rb: Readonly<ResourceBinding> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of rb?.spec?.clusters ?? []) {
    if (!c.name) continue;
    const n = Number.isInteger(c.replicas) && (c.replicas ?? 0) > 0 ? (c.replicas ?? 0) : 0;
    out.set(c.name, (out.get(c.name) ?? 0) + n);
  }
  return out;
}

/**
 * Each cluster's share of `replicas` in whole percent: the largest-remainder method (floors first,
 * then the leftover points to the largest fractions, ties to the first cluster by name), so the
 * shares sum to 100; a cluster with any replica keeps at least 1, so a small share is never read
 * as a drain. Equal splits give equal shares (3/1 and 6/2 both give 75/25), so a scale-up that
 * keeps the split changes nothing downstream. Empty when there is no replica at all.
 */
export function placementShares(replicas: ReadonlyMap<string, number>): Map<string, number> {
  const names = [...replicas.keys()].sort();
  const total = names.reduce((n, c) => n + (replicas.get(c) ?? 0), 0);
  const shares = new Map<string, number>();
  if (total === 0) return shares;
  const exact = names.map((c) => ({ c, v: ((replicas.get(c) ?? 0) * 100) / total }));
  for (const { c, v } of exact) shares.set(c, Math.floor(v));
  let left = 100 - [...shares.values()].reduce((a, b) => a + b, 0);
  const byRemainder = [...exact].sort((a, b) => b.v - Math.floor(b.v) - (a.v - Math.floor(a.v)));
  for (const { c } of byRemainder) {
    if (left === 0) break;
    shares.set(c, (shares.get(c) ?? 0) + 1);
    left--;
  }
  for (const c of names) if ((replicas.get(c) ?? 0) > 0 && shares.get(c) === 0) shares.set(c, 1);
  return shares;
}

/** What placement says about a Service, from the workloads it selects and their bindings. */
export function servicePlacement(
  service: Readonly<Service>,
  workloads: readonly PlacedWorkload[],
): ServicePlacement {
  if (workloads.length === 0) return { state: 'no-workload', selector: service.spec?.selector };
  if (workloads.some((w) => !w.binding)) return { state: 'unbound', workloads };
  const replicas = new Map<string, number>();
  for (const w of workloads) {
    for (const [c, n] of bindingReplicas(w.binding)) replicas.set(c, (replicas.get(c) ?? 0) + n);
  }
  const shares = placementShares(replicas);
  if (shares.size === 0) return { state: 'no-replicas', workloads };
  return { state: 'placed', workloads, replicas, shares };
}

/**
 * `Karmada placement of Deployment web`: where the shares come from, for the plan and the
 * condition. Replica counts stay out: a scale that keeps the split changes no weight, so nothing
 * is redeployed and a count shown would go stale.
 */
export function describePlacement(p: Extract<ServicePlacement, { state: 'placed' }>): string {
  return `Karmada placement of ${p.workloads.map(workloadName).join(' + ')}`;
}

/** Whether the two placements give the backend different weights (or different errors). */
export function placementDiffers(a: ServicePlacement, b: ServicePlacement): boolean {
  if (a.state !== b.state) return true;
  if (a.state !== 'placed' || b.state !== 'placed') {
    // The error names the workloads: a different set is a different message.
    const names = (p: ServicePlacement) =>
      'workloads' in p ? p.workloads.map(workloadName).sort().join(',') : '';
    return names(a) !== names(b);
  }
  const keys = new Set([...a.shares.keys(), ...b.shares.keys()]);
  for (const k of keys) if ((a.shares.get(k) ?? 0) !== (b.shares.get(k) ?? 0)) return true;
  return false;
}
