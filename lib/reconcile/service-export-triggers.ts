/**
 * The triggers of the `serviceexport-propagation` controller (upstream 5.3's event handlers): which
 * Services a notification may change the export of.
 *
 *   Service           create (the reconcile decides whether it is referenced; upstream checks first)
 *   MultiClusterIngress create / delete → its Services; update → the symmetric difference of its
 *                     Service references, or all of them when its class or deletion state changed
 *   MultiClusterService create / delete / change of annotations, spec.types, spec.ports or deletion
 *   ResourceBinding   of a v1 Service: create, or a change of its cluster set
 *   IngressClass      a change may move MultiClusterIngresses into or out of our class (upstream
 *                     ignores classes here): every Service any MultiClusterIngress routes to
 *
 * Without both versions of an update we cannot compute a difference, so the Services the object
 * references now and, for a MultiClusterIngress, those that have an export we made are reconciled.
 */
import { bindingClusters, serviceOfBinding } from '../karmada/bindings.js';
import { serviceRefs } from '../karmada/refs.js';
import type { MultiClusterIngress, MultiClusterService, ResourceBinding } from '../karmada/types.js';
import { Resources } from '../kube/resources.js';
import type { KubeObject } from '../kube/types.js';
import type { NormalizedNotification } from '../notification/types.js';
import { changed, changedBy, isKind, subject, versions } from './filters.js';
import type { ReconcileRequest } from './requests.js';
import { listInScope } from './scope.js';
import type { ReconcileDeps } from './types.js';

export const SERVICE_EXPORT_CONTROLLER = 'serviceexport-propagation';

/** The Service controlling `obj`, if any: which Service to reconcile when all we have is its export. */
export function controllingService(obj: Readonly<KubeObject>): string | undefined {
  return obj.metadata.ownerReferences?.find(
    (r) => r.controller && r.apiVersion === 'v1' && r.kind === 'Service',
  )?.name;
}

const request = (namespace: string, name: string): ReconcileRequest => ({
  controller: SERVICE_EXPORT_CONTROLLER,
  namespace,
  name,
});

/** Sorted services in exactly one of the two lists. */
export function symmetricDifference(a: readonly string[], b: readonly string[]): string[] {
  const sa = new Set(a);
  const sb = new Set(b);
  return [...new Set([...a.filter((x) => !sb.has(x)), ...b.filter((x) => !sa.has(x))])].sort();
}

/** The Services whose export an update of a MultiClusterIngress may change. */
export function mciUpdateServices(
  old: Readonly<MultiClusterIngress>,
  now: Readonly<MultiClusterIngress>,
): string[] {
  const classOrDeletion = (m: Readonly<MultiClusterIngress>) =>
    `${m.spec?.ingressClassName ?? ''}|${m.metadata.deletionTimestamp != null}`;
  if (classOrDeletion(old) !== classOrDeletion(now)) {
    return [...new Set([...serviceRefs(old), ...serviceRefs(now)])].sort();
  }
  return symmetricDifference(serviceRefs(old), serviceRefs(now));
}

async function forMci(deps: ReconcileDeps, n: NormalizedNotification, ns: string): Promise<string[]> {
  const both = versions<MultiClusterIngress>(n);
  if (both) return mciUpdateServices(both.old, both.now);
  const mci = await subject<MultiClusterIngress>(deps.kube, Resources.MultiClusterIngress, n);
  const refs = mci ? serviceRefs(mci) : [];
  if (n.change === 'added' || n.change === 'resync' || (n.change === 'deleted' && mci)) return refs;
  // An update or deletion we cannot diff: references it may have dropped show as exports we made.
  const exports = await deps.kube.list<KubeObject>(Resources.ServiceExport, { namespace: ns });
  const exported = exports.items.map(controllingService).filter((s): s is string => s !== undefined);
  return [...new Set([...refs, ...exported])].sort();
}

function mcsChanged(n: NormalizedNotification): boolean {
  return changedBy(n, (o) => ({
    deleting: o.metadata.deletionTimestamp != null,
    annotations: o.metadata.annotations,
    types: (o as MultiClusterService).spec?.types,
    ports: (o as MultiClusterService).spec?.ports,
  }));
}

async function forBinding(deps: ReconcileDeps, n: NormalizedNotification): Promise<ReconcileRequest[]> {
  // Deletion is left alone, as upstream: the Service's clusters are unknown until it is bound again.
  if (n.change === 'deleted') return [];
  const rb = await subject<ResourceBinding>(deps.kube, Resources.ResourceBinding, n);
  const service = rb && serviceOfBinding(rb);
  if (!service) return [];
  const clustersChanged = changedBy(n, (o) => bindingClusters(o as ResourceBinding));
  return clustersChanged ? [request(service.namespace, service.name)] : [];
}

async function forIngressClass(deps: ReconcileDeps, n: NormalizedNotification): Promise<ReconcileRequest[]> {
  if (!changed(n, ['spec'])) return [];
  const mcis = await listInScope<MultiClusterIngress>(deps, Resources.MultiClusterIngress);
  return mcis.items.flatMap((m) => serviceRefs(m).map((svc) => request(m.metadata.namespace ?? '', svc)));
}

export async function serviceExportRequests(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const ns = n.ref.namespace ?? '';
  if (isKind(n, Resources.Service)) {
    return n.change === 'added' || n.change === 'resync' ? [request(ns, n.ref.name)] : [];
  }
  if (isKind(n, Resources.MultiClusterIngress)) {
    return (await forMci(deps, n, ns)).map((svc) => request(ns, svc));
  }
  if (isKind(n, Resources.MultiClusterService)) {
    return mcsChanged(n) ? [request(ns, n.ref.name)] : [];
  }
  if (isKind(n, Resources.ResourceBinding)) return forBinding(deps, n);
  if (isKind(n, Resources.IngressClass)) return forIngressClass(deps, n);
  return [];
}
