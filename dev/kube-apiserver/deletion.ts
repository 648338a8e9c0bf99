import { timestamp } from './admission.js';
import type { ServerContext } from './context.js';
import { conflict, notFound } from './errors.js';
import { resourceKeyOf, type KObject, type ResourceDef } from './types.js';

export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
  dryRun?: string[];
}

const NAMESPACES = '/namespaces';

/** Removes the object for good and, if it was the last thing in a terminating namespace, the namespace too. */
export function removeObject(ctx: ServerContext, def: ResourceDef, obj: KObject): KObject {
  const gone = ctx.store.remove(resourceKeyOf(def), obj);
  const ns = obj.metadata.namespace;
  if (ns) {
    const nsObj = ctx.store.get(NAMESPACES, undefined, ns);
    if (nsObj?.metadata.deletionTimestamp && isEmpty(ctx, ns)) ctx.store.remove(NAMESPACES, nsObj);
  }
  return gone;
}

function isEmpty(ctx: ServerContext, ns: string): boolean {
  return ctx.store.resources().every((r) => r === NAMESPACES || ctx.store.list(r, ns).length === 0);
}

function checkPreconditions(def: ResourceDef, obj: KObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  const m = obj.metadata;
  const name = m.name ?? '';
  if (p?.uid && p.uid !== m.uid) {
    throw conflict(
      def,
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${m.uid ?? ''}`,
    );
  }
  if (p?.resourceVersion && p.resourceVersion !== m.resourceVersion) {
    throw conflict(
      def,
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion ?? ''}`,
    );
  }
}

/**
 * Finalizers make deletion two-phase: the first DELETE only stamps deletionTimestamp; the object
 * goes when an update removes its last finalizer. A namespace first deletes what it contains.
 */
export function deleteObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  opts: DeleteOptions,
  dryRun: boolean,
): KObject {
  const key = resourceKeyOf(def);
  const obj = ctx.store.get(key, ns, name);
  if (!obj) throw notFound(def, name);
  checkPreconditions(def, obj, opts);
  if (dryRun) return obj;
  if (key === NAMESPACES) return deleteNamespace(ctx, def, obj);
  if (!obj.metadata.finalizers?.length) return removeObject(ctx, def, obj);
  if (obj.metadata.deletionTimestamp) return obj;
  obj.metadata.deletionTimestamp = timestamp();
  obj.metadata.deletionGracePeriodSeconds = 0;
  return ctx.store.put(key, obj, 'MODIFIED');
}

function deleteNamespace(ctx: ServerContext, def: ResourceDef, nsObj: KObject): KObject {
  const ns = nsObj.metadata.name ?? '';
  let result = nsObj;
  if (!nsObj.metadata.deletionTimestamp) {
    nsObj.metadata.deletionTimestamp = timestamp();
    nsObj.metadata.deletionGracePeriodSeconds = 0;
    nsObj.status = { phase: 'Terminating' };
    result = ctx.store.put(NAMESPACES, nsObj, 'MODIFIED');
  }
  const seen = new Set<string>();
  for (const d of ctx.registry.all()) {
    const key = resourceKeyOf(d);
    if (!d.namespaced || seen.has(key)) continue;
    seen.add(key);
    for (const o of ctx.store.list(key, ns)) {
      if (!o.metadata.deletionTimestamp) deleteObject(ctx, d, ns, o.metadata.name ?? '', {}, false);
    }
  }
  if (isEmpty(ctx, ns) && ctx.store.get(NAMESPACES, undefined, ns))
    return ctx.store.remove(NAMESPACES, result);
  return result;
}

export function deleteCollection(
  ctx: ServerContext,
  def: ResourceDef,
  items: KObject[],
  opts: DeleteOptions,
  dryRun: boolean,
): KObject[] {
  return items.map((o) => deleteObject(ctx, def, o.metadata.namespace, o.metadata.name ?? '', opts, dryRun));
}
