/**
 * Listing "every" object of a namespaced type within the namespaces this deployment serves. With
 * ALLOWED_NAMESPACES set, the functions' Kubernetes identity is bound per namespace (a RoleBinding
 * in each, infra/functions-rbac/per-namespace) and may not list cluster-wide: a cluster-scoped
 * change (an IngressClass, a Cluster) fans out by one list per allowed namespace instead.
 */
import type { KubeList, KubeObject, ResourceType } from '../kube/types.js';
import type { ReconcileDeps } from './types.js';

export async function listInScope<T extends KubeObject>(
  deps: Pick<ReconcileDeps, 'kube' | 'namespaces'>,
  type: ResourceType,
): Promise<Pick<KubeList<T>, 'items'>> {
  if (!deps.namespaces?.length) return deps.kube.list<T>(type);
  const items: T[] = [];
  for (const namespace of deps.namespaces)
    items.push(...(await deps.kube.list<T>(type, { namespace })).items);
  return { items };
}
