/**
 * The triggers of the `crd-installation` controller (crd-installation.ts): Cluster create / delete /
 * resync / deletion started (upstream's filter: other updates do not change the set); the policy's
 * deletion (→ recreated with every cluster).
 */
import { SERVICE_EXPORT_CPP_NAME } from '../karmada/constants.js';
import { Resources } from '../kube/resources.js';
import type { NormalizedNotification } from '../notification/types.js';
import { changedBy, isKind } from './filters.js';
import type { ReconcileRequest } from './requests.js';

export const CRD_INSTALLATION_CONTROLLER = 'crd-installation';
const CPP = Resources.ClusterPropagationPolicy;

/** The one key: every trigger reconciles the whole policy. */
export const CRD_INSTALLATION_REQUEST: ReconcileRequest = {
  controller: CRD_INSTALLATION_CONTROLLER,
  namespace: '',
  name: SERVICE_EXPORT_CPP_NAME,
};

export function crdInstallationRequests(n: NormalizedNotification): ReconcileRequest[] {
  if (isKind(n, Resources.Cluster)) {
    const deletionChanged = changedBy(n, (o) => o.metadata.deletionTimestamp != null);
    return deletionChanged ? [CRD_INSTALLATION_REQUEST] : [];
  }
  if (isKind(n, CPP) && n.ref.name === SERVICE_EXPORT_CPP_NAME) {
    return n.change === 'deleted' || n.change === 'resync' ? [CRD_INSTALLATION_REQUEST] : [];
  }
  return [];
}
