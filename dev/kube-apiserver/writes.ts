import { randomUUID } from 'node:crypto';
import { admit, asObject, deepEqual, forbidden, keepServerMetadata, specOf, timestamp } from './admission.js';
import type { ServerContext, WriteOptions } from './context.js';
import {
  toApiError,
  alreadyExists,
  badRequest,
  conflict,
  invalid,
  namespaceNotFound,
  notFound,
  unsupportedMediaType,
} from './errors.js';
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import { removeObject } from './deletion.js';
import { resourceKeyOf, type KObject, type ResourceDef } from './types.js';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const randomSuffix = (): string =>
  Array.from({ length: 5 }, () => NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)]).join('');

function checkNamespace(ctx: ServerContext, def: ResourceDef, obj: KObject, ns: string | undefined): void {
  if (!def.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (obj.metadata.namespace && ns && obj.metadata.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const target = ns ?? obj.metadata.namespace;
  if (!target) throw badRequest('an empty namespace may not be set during creation');
  obj.metadata.namespace = target;
  const nsObj = ctx.store.get('/namespaces', undefined, target);
  if (!nsObj) throw namespaceNotFound(target);
  if (nsObj.metadata.deletionTimestamp) {
    throw forbidden(
      `${def.plural} "${obj.metadata.name ?? ''}" is forbidden: unable to create new content in namespace ${target} because it is being terminated`,
      {
        name: obj.metadata.name ?? '',
        kind: def.plural,
      },
    );
  }
}

export function createObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  body: unknown,
  opts: WriteOptions,
): KObject {
  const obj = asObject(def, body);
  const m = obj.metadata;
  const key = resourceKeyOf(def);
  checkNamespace(ctx, def, obj, ns);
  if (!m.name && m.generateName) {
    do m.name = `${m.generateName}${randomSuffix()}`;
    while (ctx.store.get(key, m.namespace, m.name));
  }
  if (!m.name) {
    throw invalid(def, '', [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ]);
  }
  if (ctx.store.get(key, m.namespace, m.name)) throw alreadyExists(def, m.name);
  // etcd3's store refuses this with a plain (500) error; copying a read object back into a create is a client bug.
  if (m.resourceVersion)
    throw toApiError(new Error('resourceVersion should not be set on objects to be created'));
  m.uid = randomUUID();
  m.creationTimestamp = timestamp();
  m.generation = 1;
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  // As kube-apiserver's PrepareForCreate: status is owned by the status subresource.
  if (def.statusSubresource) delete obj.status;
  if (key === '/namespaces') {
    // kube-apiserver's namespace strategy always sets this label (since 1.21).
    m.labels = { ...m.labels, 'kubernetes.io/metadata.name': m.name };
    obj.spec = { finalizers: ['kubernetes'] };
    obj.status = { phase: 'Active' };
  }
  admit(def, obj, opts);
  return opts.dryRun ? obj : ctx.store.put(key, obj, 'ADDED');
}

/** Shared tail of PUT and PATCH on the object or its status. */
function commitUpdate(
  ctx: ServerContext,
  def: ResourceDef,
  old: KObject,
  incoming: KObject,
  subresource: string | undefined,
  opts: WriteOptions,
): KObject {
  const name = old.metadata.name ?? '';
  if (
    incoming.metadata.resourceVersion &&
    incoming.metadata.resourceVersion !== old.metadata.resourceVersion
  ) {
    throw conflict(def, name);
  }
  let next: KObject;
  if (subresource === 'status') {
    next = structuredClone(old);
    if (incoming.status === undefined) delete next.status;
    else next.status = incoming.status;
  } else {
    next = structuredClone(incoming);
    keepServerMetadata(def, old, next);
    if (def.statusSubresource) {
      if (old.status === undefined) delete next.status;
      else next.status = structuredClone(old.status);
    }
  }
  next.metadata.resourceVersion = old.metadata.resourceVersion;
  admit(def, next, opts);
  if (!deepEqual(specOf(def, old), specOf(def, next)))
    next.metadata.generation = (old.metadata.generation ?? 1) + 1;
  // kube-apiserver skips no-op writes: same resourceVersion, no watch event.
  if (deepEqual(old, next) || opts.dryRun) return deepEqual(old, next) ? old : next;
  if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length)
    return removeObject(ctx, def, next);
  return ctx.store.put(resourceKeyOf(def), next, 'MODIFIED');
}

function current(ctx: ServerContext, def: ResourceDef, ns: string | undefined, name: string): KObject {
  const old = ctx.store.get(resourceKeyOf(def), ns, name);
  if (!old) throw notFound(def, name);
  return old;
}

export function updateObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  subresource: string | undefined,
  body: unknown,
  opts: WriteOptions,
): KObject {
  const obj = asObject(def, body);
  if (obj.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`,
    );
  }
  if (def.namespaced && obj.metadata.namespace && obj.metadata.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  return commitUpdate(ctx, def, current(ctx, def, ns, name), obj, subresource, opts);
}

export type PatchType = 'merge' | 'json' | 'strategic';

export function patchTypeOf(contentType: string): PatchType {
  const type = contentType.split(';')[0]?.trim();
  if (type === 'application/merge-patch+json') return 'merge';
  if (type === 'application/json-patch+json') return 'json';
  if (type === 'application/strategic-merge-patch+json') return 'strategic';
  throw unsupportedMediaType(contentType);
}

export function patchObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  subresource: string | undefined,
  patch: unknown,
  type: PatchType,
  opts: WriteOptions,
): KObject {
  // Custom resources have no patch strategies; kube-apiserver refuses before looking the object up.
  if (type === 'strategic' && def.crd) {
    throw unsupportedMediaType(
      'application/strategic-merge-patch+json',
      'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  }
  const old = current(ctx, def, ns, name);
  const patched =
    type === 'json'
      ? jsonPatch(old, patch)
      : type === 'merge'
        ? mergePatch(old, patch)
        : strategicMergePatch(old, patch);
  return commitUpdate(ctx, def, old, asObject(def, patched), subresource, opts);
}
