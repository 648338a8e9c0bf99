/**
 * The `serviceexport-propagation` controller (upstream 5.3), keyed by Service: a Service that a
 * MultiClusterIngress of our class routes to, or that has a same-named MultiClusterService of type
 * LoadBalancer, gets a ServiceExport (so Karmada collects its member EndpointSlices) and the
 * PropagationPolicy `propagate-service-<svc>` sending that ServiceExport to the Service's clusters.
 * Both are owned by the Service; when it is no longer needed, both go.
 *
 * Differs from upstream: the class of the MultiClusterIngress counts (upstream exports for every
 * class); objects being deleted no longer count; the binding must be for a v1 Service (bug 7); a
 * policy without clusterAffinity gets one (upstream panics); only exports and policies this
 * Service controls are deleted (upstream deletes same-named ones a user made).
 * Triggers are in service-export-triggers.ts; this module is loaded with the other controllers
 * (lazy-controllers.ts), outside the function bundles' start set.
 */
import { bindingClusters, findServiceBinding } from '../karmada/bindings.js';
import {
  isControlledBy,
  policyClusterNames,
  serviceExportFor,
  servicePolicyFor,
  servicePolicyName,
  withClusterNames,
  type PropagationPolicy,
  type ServiceExport,
} from '../karmada/policies.js';
import { serviceRefs } from '../karmada/refs.js';
import type { MultiClusterIngress, MultiClusterService, ResourceBinding, Service } from '../karmada/types.js';
import { isAlreadyExists } from '../kube/client.js';
import { retryOnConflict } from '../kube/conflict.js';
import { Resources } from '../kube/resources.js';
import { isBeingDeleted } from '../kube/types.js';
import { ingressClassMatches } from './ingress-class.js';
import { wantsLoadBalancer } from './filters.js';
import { SERVICE_EXPORT_CONTROLLER } from './service-export-triggers.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

const PP = Resources.PropagationPolicy;
const SE = Resources.ServiceExport;

/** Why the Service needs exporting, or undefined when nothing needs it. */
export async function exportReason(deps: ReconcileDeps, svc: Readonly<Service>): Promise<string | undefined> {
  const ns = svc.metadata.namespace;
  const name = svc.metadata.name ?? '';
  // A namespace LIST rather than the label index: the index is written by reconciles that may
  // run in parallel with this one, right after the MultiClusterIngress was created.
  const mcis = await deps.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, { namespace: ns });
  for (const mci of mcis.items) {
    if (isBeingDeleted(mci) || !serviceRefs(mci).includes(name)) continue;
    if ((await ingressClassMatches(deps.kube, mci, deps.providerIngressClass)).matches) {
      return `MultiClusterIngress ${mci.metadata.name ?? ''}`;
    }
  }
  const mcs = await deps.kube.get<MultiClusterService>(Resources.MultiClusterService, ns, name);
  if (mcs && !isBeingDeleted(mcs) && wantsLoadBalancer(mcs)) return `MultiClusterService ${name}`;
  return undefined;
}

export async function reconcileServiceExport(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
): Promise<ReconcileResult> {
  const result = (outcome: ReconcileResult['outcome'], detail?: string): ReconcileResult => ({
    controller: SERVICE_EXPORT_CONTROLLER,
    key: `${namespace}/${name}`,
    outcome,
    ...(detail ? { detail } : {}),
  });
  const svc = await deps.kube.get<Service>(Resources.Service, namespace, name);
  // A deleted Service's export and policy go with it: the API server's garbage collector follows the ownerReferences.
  if (!svc) return result('gone');
  if (isBeingDeleted(svc)) return result('ignored', 'being deleted');

  const reason = await exportReason(deps, svc);
  if (!reason) {
    const removed = await removeExport(deps, svc);
    if (removed) {
      await deps.events.record(
        svc,
        'Normal',
        'ServiceExportRemoved',
        'No longer needed by a MultiClusterIngress or MultiClusterService',
      );
    }
    return result(removed ? 'deleted' : 'unchanged', 'not referenced');
  }
  const createdExport = await ensureExport(deps, svc);
  const bindings = await deps.kube.list<ResourceBinding>(Resources.ResourceBinding, { namespace });
  const clusters = bindingClusters(findServiceBinding(bindings.items, name));
  // No clusters yet: an empty clusterNames would mean every cluster to Karmada, so no policy (as upstream).
  const policy = clusters.length ? await ensurePolicy(deps, svc, clusters) : 'unchanged';
  const outcome = createdExport || policy === 'created' ? 'created' : policy;
  const detail = `${reason}; clusters: ${clusters.join(', ') || 'none yet'}`;
  // Upstream's recorder is unused (bug 9): here `kubectl describe service` shows why it is exported.
  if (outcome !== 'unchanged')
    await deps.events.record(svc, 'Normal', 'ServiceExported', `Exported for ${detail}`);
  return result(outcome, detail);
}

async function ensureExport(deps: ReconcileDeps, svc: Readonly<Service>): Promise<boolean> {
  const ns = svc.metadata.namespace;
  if (await deps.kube.get<ServiceExport>(SE, ns, svc.metadata.name ?? '')) return false;
  try {
    await deps.kube.create(SE, serviceExportFor(svc));
  } catch (err) {
    if (isAlreadyExists(err)) return false;
    throw err;
  }
  deps.logger.info('ServiceExport created', { service: `${ns ?? ''}/${svc.metadata.name ?? ''}` });
  return true;
}

async function ensurePolicy(
  deps: ReconcileDeps,
  svc: Readonly<Service>,
  clusters: string[],
): Promise<'created' | 'updated' | 'unchanged'> {
  const ns = svc.metadata.namespace;
  const name = servicePolicyName(svc.metadata.name ?? '');
  return retryOnConflict(async () => {
    const current = await deps.kube.get<PropagationPolicy>(PP, ns, name);
    if (!current) {
      await deps.kube.create(PP, servicePolicyFor(svc, clusters));
      return 'created';
    }
    const have = policyClusterNames(current);
    if (have !== undefined && semanticSet(have, clusters)) return 'unchanged';
    await deps.kube.update(PP, withClusterNames(current, clusters));
    return 'updated';
  });
}

function semanticSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = [...new Set(a)].sort();
  const sb = [...new Set(b)].sort();
  return sa.length === sb.length && sa.every((v, i) => v === sb[i]);
}

/** Deletes the ServiceExport and the policy this Service controls; true if anything was deleted. */
async function removeExport(deps: ReconcileDeps, svc: Readonly<Service>): Promise<boolean> {
  const ns = svc.metadata.namespace;
  let removed = false;
  for (const [type, name] of [
    [SE, svc.metadata.name ?? ''],
    [PP, servicePolicyName(svc.metadata.name ?? '')],
  ] as const) {
    const obj = await deps.kube.get(type, ns, name);
    if (!obj || !isControlledBy(obj, svc)) continue;
    await deps.kube.delete(type, ns, name, { uid: obj.metadata.uid });
    deps.logger.info(`${type.kind} deleted`, { name: `${ns ?? ''}/${name}` });
    removed = true;
  }
  return removed;
}
