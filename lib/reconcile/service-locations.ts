/**
 * The `mci-service-locations` controller (upstream 5.5): `status.serviceLocations` of every
 * MultiClusterIngress (any class, as upstream) lists, for each Service it routes to, the clusters
 * its ResourceBinding places it in. It also keeps the MCI's reverse-index labels, so that a
 * ResourceBinding change finds the MultiClusterIngresses of any class with one label-selected LIST;
 * the labels are written before the bindings are read, so a binding change after the read finds it.
 *
 * Triggers are in service-locations-triggers.ts; this module is loaded with the other
 * controllers (lazy-controllers.ts), outside the function bundles' start set.
 */
import { bindingClusters, bindingName, isServiceBinding, SERVICE_KIND } from '../karmada/bindings.js';
import { indexedLabels, withIndexLabels } from '../karmada/index-labels.js';
import { serviceRefs } from '../karmada/refs.js';
import type { MultiClusterIngress, ResourceBinding, ServiceLocation } from '../karmada/types.js';
import { retryOnConflict } from '../kube/conflict.js';
import { Resources } from '../kube/resources.js';
import { isBeingDeleted } from '../kube/types.js';
import { semanticEqual } from '../util/equal.js';
import { SERVICE_LOCATIONS_CONTROLLER } from './service-locations-triggers.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

const MCI = Resources.MultiClusterIngress;

/** The location of one Service; `clusters` omitted when empty, so nothing reads back differently. */
export function serviceLocation(name: string, rb: Readonly<ResourceBinding>): ServiceLocation {
  const clusters = bindingClusters(rb);
  return clusters.length ? { name, clusters } : { name };
}

async function write(
  deps: ReconcileDeps,
  mci: MultiClusterIngress,
  change: (m: MultiClusterIngress) => MultiClusterIngress | undefined,
  target: 'update' | 'status',
): Promise<MultiClusterIngress | undefined> {
  let first: MultiClusterIngress | undefined = mci;
  return retryOnConflict(async () => {
    const current =
      first ??
      (await deps.kube.get<MultiClusterIngress>(MCI, mci.metadata.namespace, mci.metadata.name ?? ''));
    first = undefined;
    const next = current && change(current);
    if (!current || !next) return current;
    return target === 'update' ? deps.kube.update(MCI, next) : deps.kube.updateStatus(MCI, next);
  });
}

export async function reconcileServiceLocations(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
): Promise<ReconcileResult> {
  const result = (outcome: ReconcileResult['outcome'], detail?: string): ReconcileResult => ({
    controller: SERVICE_LOCATIONS_CONTROLLER,
    key: `${namespace}/${name}`,
    outcome,
    ...(detail ? { detail } : {}),
  });
  let mci = await deps.kube.get<MultiClusterIngress>(MCI, namespace, name);
  if (!mci) return result('gone');
  if (isBeingDeleted(mci)) return result('ignored', 'being deleted');

  const labelled = (m: MultiClusterIngress) => {
    const labels = indexedLabels(m);
    return semanticEqual(labels, m.metadata.labels) ? undefined : withIndexLabels(m, labels);
  };
  if (labelled(mci)) mci = await write(deps, mci, labelled, 'update');
  if (!mci) return result('gone');

  const locations: ServiceLocation[] = [];
  for (const svc of serviceRefs(mci)) {
    const rb = await deps.kube.get<ResourceBinding>(
      Resources.ResourceBinding,
      namespace,
      bindingName(SERVICE_KIND, svc),
    );
    if (rb && isServiceBinding(rb, svc)) locations.push(serviceLocation(svc, rb));
  }
  // An empty list and an absent one are the same: no rewrite loop (upstream bug 8).
  if (semanticEqual(locations, mci.status?.serviceLocations)) return result('unchanged');
  const located = (m: MultiClusterIngress) =>
    semanticEqual(locations, m.status?.serviceLocations)
      ? undefined
      : { ...m, status: withLocations(m.status, locations) };
  const written = await write(deps, mci, located, 'status');
  deps.logger.info('service locations updated', { serviceLocations: locations });
  return written ? result('updated', `${locations.length} service location(s)`) : result('gone');
}

function withLocations(
  status: MultiClusterIngress['status'],
  locations: ServiceLocation[],
): MultiClusterIngress['status'] {
  const { serviceLocations: _old, ...rest } = status ?? {};
  return locations.length ? { ...rest, serviceLocations: locations } : rest;
}
