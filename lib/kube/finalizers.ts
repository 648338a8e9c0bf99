import type { KubeObject } from './types.js';

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

/** A copy of `obj` with the finalizer added (unchanged copy if present). */
export function withFinalizer<T extends KubeObject>(obj: T, finalizer: string): T {
  const finalizers = obj.metadata.finalizers ?? [];
  if (finalizers.includes(finalizer)) return obj;
  return { ...obj, metadata: { ...obj.metadata, finalizers: [...finalizers, finalizer] } };
}

/** A copy of `obj` without the finalizer. */
export function withoutFinalizer<T extends KubeObject>(obj: T, finalizer: string): T {
  const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  return { ...obj, metadata: { ...obj.metadata, finalizers } };
}
