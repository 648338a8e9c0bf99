/**
 * A KubeClient that never lists cluster-wide: with ALLOWED_NAMESPACES set, the functions' identity
 * is bound per namespace (infra/functions-rbac/per-namespace) and a cluster-wide LIST of a
 * namespaced kind is refused with 403. Code written for the whole cluster (the provider's
 * IngressGroup membership, which must see every namespace naming a group) gets the same answer
 * from one LIST per allowed namespace, which is everything the deployment may see anyway.
 */
import type { KubeClient, ListOptions } from './client.js';
import type { KubeList, KubeObject, ResourceType } from './types.js';

export function namespaceScoped(kube: KubeClient, namespaces: readonly string[]): KubeClient {
  return {
    get: (type, namespace, name) => kube.get(type, namespace, name),
    async list<T extends KubeObject>(type: ResourceType, options: ListOptions = {}): Promise<KubeList<T>> {
      if (!type.namespaced || options.namespace !== undefined) return kube.list<T>(type, options);
      if (options.limit !== undefined || options.continue !== undefined) {
        throw new Error(`a paged LIST of ${type.kind} across the allowed namespaces is not supported`);
      }
      const items: T[] = [];
      for (const namespace of namespaces)
        items.push(...(await kube.list<T>(type, { ...options, namespace })).items);
      return { metadata: {}, items };
    },
    create: (type, obj) => kube.create(type, obj),
    update: (type, obj) => kube.update(type, obj),
    updateStatus: (type, obj) => kube.updateStatus(type, obj),
    patch: (type, namespace, name, patch, patchType) => kube.patch(type, namespace, name, patch, patchType),
    delete: (type, namespace, name, options) => kube.delete(type, namespace, name, options),
  };
}
