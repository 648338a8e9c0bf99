/**
 * The rescheduling trigger of placement-derived weights (`multicluster.karmada.io/cluster-weights-from:
 * placement`, karmada/placement.ts): when Karmada reschedules a Deployment or StatefulSet (its
 * ResourceBinding's `spec.clusters` changes, or the binding appears or goes), the
 * MultiClusterIngresses and MultiClusterServices whose weights follow that placement, and whose
 * backend Services select the workload, are reconciled; but only when the weights the backend gets
 * differ before and after the change (the shares in percent, or the error): a scale that keeps the
 * split (3/1 to 6/2) asks for nothing, so it costs no AWS call at all.
 *
 * Cost, before any reconcile: a binding change that leaves `spec.clusters` alone (status, the
 * resource's version), or a binding of another kind, costs no call. Otherwise 1 LIST of the
 * namespace's MultiClusterIngresses and 1 of its MultiClusterServices; none asking for placement
 * ends there. Else 1 GET of the workload, 1 GET per candidate backend Service, and for each one
 * that selects the workload the namespace's Deployments and StatefulSets (1 LIST each, once) and
 * 1 GET per selected workload's binding.
 */
import { serviceRefs } from '../karmada/refs.js';
import {
  CLUSTER_WEIGHTS_KEY,
  placementDiffers,
  selects,
  servicePlacement,
  wantsPlacementWeights,
  workloadBindingName,
  workloadOfBinding,
  WORKLOAD_KINDS,
  type PlacedWorkload,
  type Workload,
  type WorkloadKind,
} from '../karmada/placement.js';
import { readPlacedWorkloads, type WorkloadReads } from '../karmada/placement-reads.js';
import type { MultiClusterIngress, MultiClusterService, ResourceBinding, Service } from '../karmada/types.js';
import { Resources } from '../kube/resources.js';
import type { NormalizedNotification } from '../notification/types.js';
import { changedBy, isKind, subject } from './filters.js';
import type { ReconcileRequest } from './requests.js';
import type { ReconcileDeps } from './types.js';

const TYPES = { Deployment: Resources.Deployment, StatefulSet: Resources.StatefulSet } as const;

/** A deleted binding we know only by name: a workload's is `<name>-deployment` / `<name>-statefulset`. */
export function workloadFromBindingName(name: string): { kind: WorkloadKind; name: string } | undefined {
  for (const kind of WORKLOAD_KINDS) {
    const suffix = `-${kind.toLowerCase()}`;
    if (name.endsWith(suffix) && name.length > suffix.length) {
      const workload = name.slice(0, -suffix.length);
      if (workloadBindingName(kind, workload) === name) return { kind, name: workload };
    }
  }
  return undefined;
}

/** An object whose weights follow placement, and the backend Services placement weighs. */
interface Candidate {
  request: ReconcileRequest;
  services: string[];
}

/** The backends of an MCI that no explicit weight list covers (those win over placement). */
function placementBackends(mci: Readonly<MultiClusterIngress>): string[] {
  const annotations = mci.metadata.annotations ?? {};
  if (annotations[CLUSTER_WEIGHTS_KEY] !== undefined) return [];
  return serviceRefs(mci).filter((s) => annotations[`${CLUSTER_WEIGHTS_KEY}.${s}`] === undefined);
}

async function candidates(deps: ReconcileDeps, namespace: string): Promise<Candidate[]> {
  const [mcis, mcss] = await Promise.all([
    deps.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, { namespace }),
    deps.kube.list<MultiClusterService>(Resources.MultiClusterService, { namespace }),
  ]);
  const out: Candidate[] = [];
  for (const m of mcis.items) {
    if (!wantsPlacementWeights(m.metadata.annotations)) continue;
    const services = placementBackends(m);
    const name = m.metadata.name ?? '';
    if (services.length)
      out.push({ request: { controller: 'multiclusteringress', namespace, name }, services });
  }
  for (const m of mcss.items) {
    const annotations = m.metadata.annotations ?? {};
    const name = m.metadata.name ?? '';
    if (!wantsPlacementWeights(annotations)) continue;
    if (annotations[CLUSTER_WEIGHTS_KEY] !== undefined) continue;
    if (annotations[`${CLUSTER_WEIGHTS_KEY}.${name}`] !== undefined) continue;
    out.push({ request: { controller: 'multiclusterservice', namespace, name }, services: [name] });
  }
  return out;
}

/** The MultiClusterIngresses and MultiClusterServices a rescheduling changes the weights of. */
export async function placementRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  if (!isKind(n, Resources.ResourceBinding)) return [];
  const namespace = n.ref.namespace ?? '';
  const rb = await subject<ResourceBinding>(deps.kube, Resources.ResourceBinding, n);
  const workload = rb ? workloadOfBinding(rb) : workloadFromBindingName(n.ref.name);
  if (!workload) return [];
  if (!changedBy(n, (o) => (o as ResourceBinding).spec?.clusters)) return [];
  const found = await candidates(deps, namespace);
  if (found.length === 0) return [];

  const template = await deps.kube.get<Workload & { metadata: { name?: string } }>(
    TYPES[workload.kind],
    namespace,
    workload.name,
  );
  // Without the workload its labels are unknown: every object placement weighs may have used it.
  if (!template) return found.map((c) => c.request);

  // The binding before the change: what the notification carried (none before a creation).
  const before: ResourceBinding | undefined | 'unknown' =
    n.change === 'added'
      ? undefined
      : n.oldObject
        ? (n.oldObject as ResourceBinding)
        : n.change === 'deleted'
          ? (n.object as ResourceBinding | undefined)
          : 'unknown';
  const reads: WorkloadReads = new Map();
  const affected = new Map<string, boolean>();
  const isAffected = async (name: string): Promise<boolean> => {
    const known = affected.get(name);
    if (known !== undefined) return known;
    const service = await deps.kube.get<Service>(Resources.Service, namespace, name);
    let result = false;
    if (service && selects(service, template)) {
      if (before === 'unknown') result = true;
      else {
        const now = await readPlacedWorkloads(deps.kube, service, reads);
        const then: PlacedWorkload[] = now.map((w) =>
          w.kind === workload.kind && w.name === workload.name ? { ...w, binding: before } : w,
        );
        result = placementDiffers(servicePlacement(service, now), servicePlacement(service, then));
      }
    }
    affected.set(name, result);
    return result;
  };
  const out: ReconcileRequest[] = [];
  for (const c of found) {
    for (const s of c.services) {
      if (await isAffected(s)) {
        out.push(c.request);
        break;
      }
    }
  }
  return out;
}
