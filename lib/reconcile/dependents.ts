/**
 * Upstream's event handlers, done statelessly: a notification about an object becomes the reconcile
 * requests of every controller whose result may depend on it. The load-balancer controllers'
 * triggers are here; each other controller's are in its own module.
 *
 * Cost (API calls) of the load-balancer mapping, before any reconcile:
 *   Service, EndpointSlice, Secret: 1 label-selected LIST of MultiClusterIngresses in the namespace
 *   (+1 GET of the EndpointSlice when the notification does not carry it)
 *   Cluster (TrafficControl toggled), IngressClass: 1 LIST of MultiClusterIngresses (rare events)
 *   Cluster (spec.region changed): 1 LIST of MultiClusterIngresses and 1 of MultiClusterServices
 *   ResourceBinding of a Deployment or StatefulSet whose spec.clusters changed: placement-triggers.ts
 * The same-named MultiClusterService is requested without a lookup: its reconcile reads it anyway.
 */
import type { KubeObject } from '../kube/types.js';
import { Resources } from '../kube/resources.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../karmada/constants.js';
import { backendLabel, tlsLabel } from '../karmada/index-labels.js';
import type { Cluster, MultiClusterIngress } from '../karmada/types.js';
import type { NormalizedNotification } from '../notification/types.js';
import { crdInstallationRequests } from './crd-installation-triggers.js';
import { changed, isKind, versions } from './filters.js';
import { dedupe, type ReconcileRequest } from './requests.js';
import { placementRequests } from './placement-triggers.js';
import { listInScope } from './scope.js';
import { serviceExportRequests } from './service-export-triggers.js';
import { serviceLocationRequests } from './service-locations-triggers.js';
import { hasTrafficControl } from './traffic-block.js';
import type { ReconcileDeps } from './types.js';

async function mcisLabelled(
  deps: ReconcileDeps,
  namespace: string,
  label: string,
): Promise<ReconcileRequest[]> {
  const list = await deps.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, {
    namespace,
    labelSelector: label,
  });
  return list.items.map((m) => ({
    controller: 'multiclusteringress',
    namespace,
    name: m.metadata.name ?? '',
  }));
}

/** MultiClusterIngresses routing to the Service, and the MultiClusterService of the same name. */
async function forService(
  deps: ReconcileDeps,
  namespace: string,
  service: string,
): Promise<ReconcileRequest[]> {
  return [
    ...(await mcisLabelled(deps, namespace, backendLabel(service))),
    { controller: 'multiclusterservice', namespace, name: service },
  ];
}

/** `derived-serve` → `serve`: Karmada labels collected EndpointSlices with the derived Service's name. */
export function serviceOfEndpointSlice(slice: KubeObject | undefined): string | undefined {
  const label = slice?.metadata.labels?.[SERVICE_NAME_LABEL];
  if (!label) return undefined;
  return label.startsWith(DERIVED_SERVICE_PREFIX) ? label.slice(DERIVED_SERVICE_PREFIX.length) : label;
}

async function allMcis(
  deps: ReconcileDeps,
  filter: (m: MultiClusterIngress) => boolean,
): Promise<ReconcileRequest[]> {
  const list = await listInScope<MultiClusterIngress>(deps, Resources.MultiClusterIngress);
  return list.items.filter(filter).map((m) => ({
    controller: 'multiclusteringress',
    namespace: m.metadata.namespace ?? '',
    name: m.metadata.name ?? '',
  }));
}

/** Every MultiClusterService in scope (a Cluster's Region changed: rare). */
async function allMcss(deps: ReconcileDeps): Promise<ReconcileRequest[]> {
  const list = await listInScope<KubeObject>(deps, Resources.MultiClusterService);
  return list.items.map((m) => ({
    controller: 'multiclusterservice',
    namespace: m.metadata.namespace ?? '',
    name: m.metadata.name ?? '',
  }));
}

/**
 * Whether a Cluster update changed its `spec.region` (the multi-Region AWS provider's placement of
 * its endpoints: providers/aws/regions/). Only an update that carries both versions can tell;
 * creations and deletions bring or take the cluster's EndpointSlices, which trigger on their own.
 */
export function regionChanged(n: NormalizedNotification): boolean {
  const both = versions<Cluster>(n);
  return both !== undefined && both.now.spec?.region !== both.old.spec?.region;
}

/**
 * Upstream only reacts to a Cluster update that toggles TrafficControl. Changes we cannot diff
 * count, and so do a Cluster's creation and deletion (upstream ignores them; a deleted blocked
 * cluster would otherwise stay in trafficBlockClusters).
 */
export function trafficControlToggled(n: NormalizedNotification): boolean {
  const both = versions<Cluster>(n);
  return both ? hasTrafficControl(both.now) !== hasTrafficControl(both.old) : true;
}

/** The `multiclusteringress` and `multiclusterservice` triggers on objects other than their own. */
export async function loadBalancerRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const ns = n.ref.namespace ?? '';
  if (isKind(n, Resources.Service)) {
    return changed(n, ['spec']) ? forService(deps, ns, n.ref.name) : [];
  }
  if (isKind(n, Resources.EndpointSlice)) {
    // The notification may not carry the slice (a reference-mode CloudEvent, a deletion): read it.
    const slice = n.object ?? (await deps.kube.get(Resources.EndpointSlice, ns, n.ref.name));
    const service = serviceOfEndpointSlice(slice ?? n.oldObject);
    if (!service) {
      deps.logger.warn('EndpointSlice has no kubernetes.io/service-name label; ignored', {
        slice: `${ns}/${n.ref.name}`,
      });
      return [];
    }
    return forService(deps, ns, service);
  }
  if (isKind(n, Resources.Secret)) {
    // The forwarder never carries Secret data, so any change to a referenced Secret counts.
    return mcisLabelled(deps, ns, tlsLabel(n.ref.name));
  }
  if (isKind(n, Resources.Cluster)) {
    const moved = regionChanged(n);
    if (!trafficControlToggled(n) && !moved) return [];
    const cluster = n.ref.name;
    const mcis = await allMcis(deps, (m) =>
      (m.status?.serviceLocations ?? []).some((l) => l.clusters?.includes(cluster)),
    );
    // A multi-Region provider serves a cluster's endpoints in its Region: moving it moves them.
    return moved ? [...mcis, ...(await allMcss(deps))] : mcis;
  }
  if (isKind(n, Resources.IngressClass)) {
    return changed(n, ['spec']) ? allMcis(deps, () => true) : [];
  }
  return [];
}

/** Every controller's triggers on objects other than its own (route.ts adds them to every notification). */
export async function dependentRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const mapped = await Promise.all([
    loadBalancerRequests(deps, n),
    placementRequests(deps, n),
    serviceLocationRequests(deps, n),
    serviceExportRequests(deps, n),
    crdInstallationRequests(n),
  ]);
  return dedupe(mapped.flat());
}
