/**
 * The triggers of the `mci-service-locations` controller (service-locations.ts): MCI create /
 * resync / change of spec.defaultBackend or spec.rules; ResourceBinding of a v1 Service create /
 * delete / change of spec.clusters or spec.requiredBy → MCIs routing to it.
 */
import { isServiceBinding, SERVICE_KIND } from '../karmada/bindings.js';
import { backendLabel } from '../karmada/index-labels.js';
import type { MultiClusterIngress, ResourceBinding } from '../karmada/types.js';
import { Resources } from '../kube/resources.js';
import type { NormalizedNotification } from '../notification/types.js';
import { changedBy, isKind, subject } from './filters.js';
import type { ReconcileRequest } from './requests.js';
import type { ReconcileDeps } from './types.js';

export const SERVICE_LOCATIONS_CONTROLLER = 'mci-service-locations';
const MCI = Resources.MultiClusterIngress;

const request = (namespace: string, name: string): ReconcileRequest => ({
  controller: SERVICE_LOCATIONS_CONTROLLER,
  namespace,
  name,
});

const backends = (o: MultiClusterIngress) => ({
  defaultBackend: o.spec?.defaultBackend,
  rules: o.spec?.rules,
});

/** Upstream compares these in full (replicas included), not only the cluster names. */
const placement = (rb: ResourceBinding) => ({ clusters: rb.spec?.clusters, requiredBy: rb.spec?.requiredBy });

/** Which MultiClusterIngresses' service locations a notification may change. */
export async function serviceLocationRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const ns = n.ref.namespace ?? '';
  if (isKind(n, MCI)) {
    if (n.change === 'deleted') return [];
    return changedBy(n, (o) => backends(o as MultiClusterIngress)) ? [request(ns, n.ref.name)] : [];
  }
  if (!isKind(n, Resources.ResourceBinding)) return [];
  const rb = await subject<ResourceBinding>(deps.kube, Resources.ResourceBinding, n);
  const service = rb ? serviceBindingTarget(rb) : serviceFromBindingName(n.ref.name);
  if (!service) return [];
  if (!changedBy(n, (o) => placement(o as ResourceBinding))) return [];
  const list = await deps.kube.list<MultiClusterIngress>(MCI, {
    namespace: ns,
    labelSelector: backendLabel(service),
  });
  return list.items.map((m) => request(ns, m.metadata.name ?? ''));
}

function serviceBindingTarget(rb: ResourceBinding): string | undefined {
  return isServiceBinding(rb) ? rb.spec?.resource?.name : undefined;
}

/** A deleted binding we know only by name: a Service's binding is `<service>-service`. */
export function serviceFromBindingName(name: string): string | undefined {
  const suffix = `-${SERVICE_KIND.toLowerCase()}`;
  return name.endsWith(suffix) && name.length > suffix.length ? name.slice(0, -suffix.length) : undefined;
}
