/**
 * Which reconciles a notification asks for. A notification names one object; the answer is the
 * controllers and keys whose result may depend on it. Kinds that trigger nothing are an error, so
 * a misrouted stream shows up in the dead-letter queue instead of vanishing.
 */
import type { NormalizedNotification } from '../notification/types.js';
import { NotificationError } from '../notification/parse.js';
import { Resources } from '../kube/resources.js';
import { MCS_FINALIZER } from '../karmada/constants.js';
import type { MultiClusterIngress, MultiClusterService } from '../karmada/types.js';
import { hasFinalizer } from '../kube/finalizers.js';
import type { KubeObject } from '../kube/types.js';
import { dependentRequests } from './dependents.js';
import { groupMemberRequests } from './ingress-group-triggers.js';
import { changed, changedBy, wantsLoadBalancer } from './filters.js';
import { dedupe, type ReconcileRequest } from './requests.js';
import type { ReconcileDeps } from './types.js';

/**
 * Every controller's requests for the notification: the load-balancer controller's for the object
 * itself, and every trigger on other objects (dependents.ts), always both.
 */
export async function routeNotification(
  deps: ReconcileDeps,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const { apiVersion, kind, namespace, name } = n.ref;
  const is = (t: { apiVersion: string; kind: string }) => apiVersion === t.apiVersion && kind === t.kind;
  if (is(Resources.MultiClusterIngress) || is(Resources.MultiClusterService)) {
    if (!namespace) throw new NotificationError(`${kind} ${name} has no namespace`);
    const controller = is(Resources.MultiClusterIngress) ? 'multiclusteringress' : 'multiclusterservice';
    const matters = controller === 'multiclusteringress' ? mciChangeMatters(n) : mcsChangeMatters(n);
    const own: ReconcileRequest[] = matters ? [{ controller, namespace, name }] : [];
    const group = controller === 'multiclusteringress' ? await groupMemberRequests(deps, n) : [];
    return dedupe([...own, ...group, ...(await dependentRequests(deps, n))]);
  }
  const mapped = await dependentRequests(deps, n);
  if (mapped.length || isWatchedDependent(apiVersion, kind)) return dedupe(mapped);
  throw new NotificationError(`notifications about ${apiVersion} ${kind} are not handled`);
}

/**
 * Upstream's MCI update filter (a status-only or metadata-only change, such as our own writes, is
 * not a reason to run), plus one reason upstream lacks: new `status.serviceLocations` change which
 * clusters' traffic is blocked, so the load balancer is reconciled again.
 */
export function mciChangeMatters(n: NormalizedNotification): boolean {
  return changed(n, ['spec']) || changedBy(n, (o) => (o as MultiClusterIngress).status?.serviceLocations);
}

/** Upstream's MCS filter: only MCSs that have (or had) type LoadBalancer, or still carry our finalizer. */
export function mcsChangeMatters(n: NormalizedNotification): boolean {
  const carried = [n.object, n.oldObject].filter((o): o is KubeObject => o !== undefined);
  const ours = (o: KubeObject) =>
    wantsLoadBalancer(o as MultiClusterService) || hasFinalizer(o, MCS_FINALIZER);
  if (carried.length && !carried.some(ours)) return false;
  return changed(n, ['spec']);
}

const DEPENDENT_KINDS = [
  Resources.Service,
  Resources.EndpointSlice,
  Resources.Secret,
  Resources.Cluster,
  Resources.ResourceBinding,
  Resources.IngressClass,
  Resources.ClusterPropagationPolicy,
];

export function isWatchedDependent(apiVersion: string, kind: string): boolean {
  return DEPENDENT_KINDS.some((t) => t.apiVersion === apiVersion && t.kind === kind);
}
