/**
 * Upstream's event handlers, done statelessly: a notification about an object the load balancers
 * depend on becomes the reconcile requests of the objects that depend on it.
 *
 * Cost (API calls) of the mapping itself, before any reconcile:
 *   Service, EndpointSlice, Secret: 1 label-selected LIST of MultiClusterIngresses in the namespace
 *   Cluster (TrafficControl toggled), IngressClass: 1 LIST of MultiClusterIngresses (rare events)
 * The same-named MultiClusterService is requested without a lookup: its reconcile reads it anyway.
 */
import type { KubeObject } from '../kube/types.js';
import { Resources } from '../kube/resources.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL, TRAFFIC_CONTROL_REMEDY } from '../karmada/constants.js';
import { backendLabel, tlsLabel } from '../karmada/index-labels.js';
import type { Cluster, MultiClusterIngress } from '../karmada/types.js';
import type { NormalizedNotification } from '../notification/types.js';
import { semanticEqual } from '../util/equal.js';
import type { ReconcileRequest } from './route.js';
import type { ReconcileDeps } from './types.js';

type Fields = Record<string, unknown>;

function is(n: NormalizedNotification, t: { apiVersion: string; kind: string }): boolean {
  return n.ref.apiVersion === t.apiVersion && n.ref.kind === t.kind;
}

/**
 * Upstream's update filters: with both versions at hand, a change matters only if one of `fields`
 * (or the deletion state) changed. Without them we cannot tell, so it matters (reconciles are idempotent).
 */
export function changed(n: NormalizedNotification, fields: string[]): boolean {
  if (n.change !== 'modified' || !n.object || !n.oldObject) return true;
  const pick = (o: KubeObject) => {
    const f = o as unknown as Fields;
    return {
      deleting: o.metadata.deletionTimestamp != null,
      annotations: o.metadata.annotations,
      ...Object.fromEntries(fields.map((k) => [k, f[k]])),
    };
  };
  return !semanticEqual(pick(n.object), pick(n.oldObject));
}

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

function hasTrafficControl(c: KubeObject | undefined): boolean {
  return ((c as Cluster | undefined)?.status?.remedyActions ?? []).includes(TRAFFIC_CONTROL_REMEDY);
}

async function allMcis(
  deps: ReconcileDeps,
  filter: (m: MultiClusterIngress) => boolean,
): Promise<ReconcileRequest[]> {
  const list = await deps.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress);
  return list.items.filter(filter).map((m) => ({
    controller: 'multiclusteringress',
    namespace: m.metadata.namespace ?? '',
    name: m.metadata.name ?? '',
  }));
}

export async function dependentRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const ns = n.ref.namespace ?? '';
  if (is(n, Resources.Service)) {
    return changed(n, ['spec']) ? forService(deps, ns, n.ref.name) : [];
  }
  if (is(n, Resources.EndpointSlice)) {
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
  if (is(n, Resources.Secret)) {
    // The forwarder never carries Secret data, so any change to a referenced Secret counts.
    return mcisLabelled(deps, ns, tlsLabel(n.ref.name));
  }
  if (is(n, Resources.Cluster)) {
    if (
      n.change === 'modified' &&
      n.object &&
      n.oldObject &&
      hasTrafficControl(n.object) === hasTrafficControl(n.oldObject)
    ) {
      return [];
    }
    const cluster = n.ref.name;
    return allMcis(deps, (m) =>
      (m.status?.serviceLocations ?? []).some((l) => l.clusters?.includes(cluster)),
    );
  }
  if (is(n, Resources.IngressClass)) {
    return changed(n, ['spec']) ? allMcis(deps, () => true) : [];
  }
  return [];
}
