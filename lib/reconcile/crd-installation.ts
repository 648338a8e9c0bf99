/**
 * The `crd-installation` controller (upstream 5.4): the ClusterPropagationPolicy
 * `serviceexportpropagation-policy` keeps the ServiceExport CRD on every member cluster.
 *
 * Upstream reconciles one cluster name at a time and, for a cluster that is already gone, uses an
 * empty name, so a vanished cluster is never removed (upstream bug 6). This reconcile is
 * level-triggered instead: one key, and the policy's list is made to match the full Cluster list
 * (clusters being deleted left out), whichever cluster changed.
 *
 * Triggers are in crd-installation-triggers.ts; this module is loaded with the other
 * controllers (lazy-controllers.ts), outside the function bundles' start set.
 */
import { SERVICE_EXPORT_CPP_NAME, SERVICE_EXPORT_CRD_NAME } from '../karmada/constants.js';
import {
  crdPolicyFor,
  policyClusterNames,
  reconcileClusterNames,
  withClusterNames,
  type ClusterPropagationPolicy,
} from '../karmada/policies.js';
import type { Cluster } from '../karmada/types.js';
import { retryOnConflict } from '../kube/conflict.js';
import { Resources } from '../kube/resources.js';
import { isBeingDeleted } from '../kube/types.js';
import { semanticEqual } from '../util/equal.js';
import { CRD_INSTALLATION_CONTROLLER } from './crd-installation-triggers.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

const CPP = Resources.ClusterPropagationPolicy;

/** Sorted names of the clusters the CRD should be on: all but those being deleted. */
export function memberClusters(clusters: ReadonlyArray<Cluster>): string[] {
  return clusters
    .filter((c) => !isBeingDeleted(c) && c.metadata.name)
    .map((c) => c.metadata.name ?? '')
    .sort();
}

export async function reconcileCrdInstallation(deps: ReconcileDeps): Promise<ReconcileResult> {
  const result = (outcome: ReconcileResult['outcome'], detail?: string): ReconcileResult => ({
    controller: CRD_INSTALLATION_CONTROLLER,
    key: SERVICE_EXPORT_CPP_NAME,
    outcome,
    ...(detail ? { detail } : {}),
  });
  return retryOnConflict(async () => {
    const [policy, clusters] = await Promise.all([
      deps.kube.get<ClusterPropagationPolicy>(CPP, undefined, SERVICE_EXPORT_CPP_NAME),
      deps.kube.list<Cluster>(Resources.Cluster),
    ]);
    const wanted = memberClusters(clusters.items);
    if (!policy) {
      // AlreadyExists is a 409: another invocation created it first, so compare against theirs next attempt.
      const created = await deps.kube.create(CPP, crdPolicyFor(wanted));
      deps.logger.info('ServiceExport CRD policy created', { clusters: wanted });
      await deps.events.record(
        created,
        'Normal',
        'PolicyCreated',
        `Propagating ${SERVICE_EXPORT_CRD_NAME} to ${wanted.length} cluster(s)`,
      );
      return result('created', `clusters: ${wanted.join(', ') || 'none'}`);
    }
    // Its deletion will notify us once it is gone, and it is recreated then.
    if (isBeingDeleted(policy)) return result('ignored', 'being deleted');
    const next = reconcileClusterNames(policyClusterNames(policy), wanted);
    if (semanticEqual(next, policyClusterNames(policy))) return result('unchanged');
    const updated = await deps.kube.update(CPP, withClusterNames(policy, next));
    deps.logger.info('ServiceExport CRD policy clusters updated', { clusters: next });
    await deps.events.record(
      updated,
      'Normal',
      'PolicyUpdated',
      `Propagating ${SERVICE_EXPORT_CRD_NAME} to: ${next.join(', ') || 'no cluster'}`,
    );
    return result('updated', `clusters: ${next.join(', ') || 'none'}`);
  });
}
