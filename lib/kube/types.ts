/**
 * The slice of Kubernetes object shape this project reads and writes. Kept structural (not
 * client-node's generated classes) so that objects read over JSON, from a notification or from a
 * test fixture all have the same type.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface KubeList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

/** What the API needs to know to address a resource type. */
export interface ResourceType {
  /** `v1` for the core group, `group/version` otherwise. */
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Whether the type has a `/status` subresource. */
  statusSubresource?: boolean;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the key a workqueue would use. */
export function objectKey(meta: Pick<ObjectMeta, 'namespace' | 'name'>): string {
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp != null;
}
