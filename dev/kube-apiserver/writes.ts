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
import { changedFields, nextManagedFields, type FieldSet } from './managed-fields.js';
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

/** Who writes, and what that does to field ownership (see managed-fields.ts). */
export interface ManagedWrite {
  writer: { manager: string; operation: 'Apply' | 'Update'; subresource?: string };
  /** Apply: exactly the fields the applied configuration sets. */
  applied?: FieldSet;
  /** Fields taken over from other managers (Update: what it changed; Apply: forced conflicts). */
  taken: FieldSet;
}

/** A plain write (create, update, patch) by the request's field manager. */
function updateBy(
  def: ResourceDef,
  old: KObject | undefined,
  next: KObject,
  subresource: string | undefined,
  opts: WriteOptions,
): ManagedWrite {
  return {
    writer: {
      manager: opts.fieldManager ?? 'unknown',
      operation: 'Update',
      ...(subresource === 'status' ? { subresource } : {}),
    },
    taken: changedFields(def, old, next, subresource),
  };
}

const withoutManagedFields = (obj: KObject): KObject => {
  const { managedFields: _, ...metadata } = obj.metadata as KObject['metadata'] & { managedFields?: unknown };
  return { ...obj, metadata };
};

export function createObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  body: unknown,
  opts: WriteOptions,
  managed?: ManagedWrite,
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
  // kube-apiserver's defaulting for Secrets (`kubectl create secret generic` sends no type).
  if (key === '/secrets') (obj as { type?: string }).type ??= 'Opaque';
  admit(def, obj, opts);
  const write = managed ?? updateBy(def, undefined, obj, undefined, opts);
  (obj.metadata as { managedFields?: unknown }).managedFields = nextManagedFields(
    def,
    undefined,
    obj,
    write.writer,
    write,
  );
  return opts.dryRun ? obj : ctx.store.put(key, obj, 'ADDED');
}

/** Shared tail of PUT, PATCH and apply on the object or its status. */
export function commitWrite(
  ctx: ServerContext,
  def: ResourceDef,
  old: KObject,
  incoming: KObject,
  subresource: string | undefined,
  opts: WriteOptions,
  managed?: ManagedWrite,
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
  // kube-apiserver skips no-op writes: same resourceVersion, no watch event. An apply that changes
  // nothing but who owns what still writes its managed fields.
  const write = managed ?? updateBy(def, old, next, subresource, opts);
  if (!managed && deepEqual(withoutManagedFields(old), next)) return old;
  (next.metadata as { managedFields?: unknown }).managedFields = nextManagedFields(
    def,
    old,
    next,
    write.writer,
    write,
  );
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
  return commitWrite(ctx, def, current(ctx, def, ns, name), obj, subresource, opts);
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export function patchTypeOf(contentType: string): PatchType {
  const type = contentType.split(';')[0]?.trim();
  if (type === 'application/apply-patch+yaml') return 'apply';
  if (type === 'application/merge-patch+json') return 'merge';
  if (type === 'application/json-patch+json') return 'json';
  if (type === 'application/strategic-merge-patch+json') return 'strategic';
  throw unsupportedMediaType(
    contentType,
    'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
  );
}

export function patchObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  subresource: string | undefined,
  patch: unknown,
  type: Exclude<PatchType, 'apply'>,
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
  return commitWrite(ctx, def, old, asObject(def, patched), subresource, opts);
}
