/**
 * The Kubernetes operations the controllers need, over any resource type. `lib/` code depends on
 * this interface; `createKubeClient` (kube/client-node.ts) implements it with @kubernetes/client-node.
 */
import type { KubeList, KubeObject, ResourceType } from './types.js';

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export type PatchType = 'merge' | 'json' | 'strategic';

export interface DeleteOptions {
  /** Delete only if the object still has this uid (guards against deleting a recreated object). */
  uid?: string;
  resourceVersion?: string;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

export interface KubeClient {
  /** The object, or `undefined` when it does not exist. */
  get<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined>;
  /** One page, or every page when `limit` is not set. */
  list<T extends KubeObject>(type: ResourceType, options?: ListOptions): Promise<KubeList<T>>;
  create<T extends KubeObject>(type: ResourceType, obj: T): Promise<T>;
  /** Replaces the object; a stale `metadata.resourceVersion` fails with 409 Conflict. */
  update<T extends KubeObject>(type: ResourceType, obj: T): Promise<T>;
  /** Replaces the status subresource; a stale `metadata.resourceVersion` fails with 409 Conflict. */
  updateStatus<T extends KubeObject>(type: ResourceType, obj: T): Promise<T>;
  patch<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    patchType?: PatchType,
  ): Promise<T>;
  /** Deletes the object; a missing object is not an error. */
  delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<void>;
}

/** A failed API call, with kube-apiserver's status code and reason (`NotFound`, `Conflict`...). */
export class KubeApiError extends Error {
  override name = 'KubeApiError';
  constructor(
    message: string,
    readonly code: number,
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof KubeApiError && err.code === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof KubeApiError && err.code === 409;
}

export function isAlreadyExists(err: unknown): boolean {
  return err instanceof KubeApiError && err.code === 409 && err.reason === 'AlreadyExists';
}
