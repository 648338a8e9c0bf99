import { ApiError, badRequest, invalid, type StatusCause } from './errors.js';
import { prune, validate, validateName } from './schema.js';
import { apiVersionOf, type KObject, type ResourceDef } from './types.js';
import type { WriteOptions } from './context.js';

export const timestamp = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

const isObj = (v: unknown): v is Record<string, unknown> =>
  v != null && typeof v === 'object' && !Array.isArray(v);

/** Order-insensitive structural equality; clients do not preserve key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** Everything but metadata (and status, when it lives in its own subresource): what bumps generation. */
export function specOf(def: ResourceDef, obj: KObject): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  if (def.statusSubresource) delete rest.status;
  return rest;
}

/** The body must be an object of this resource's kind; apiVersion/kind default to the URL's. */
export function asObject(def: ResourceDef, body: unknown): KObject {
  if (!isObj(body)) throw badRequest('the body of the request was not a JSON object');
  const obj = body as KObject;
  const apiVersion = apiVersionOf(def);
  if (obj.apiVersion != null && obj.apiVersion !== apiVersion) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
    );
  }
  if (obj.kind != null && obj.kind !== def.kind) {
    throw badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${def.kind})`,
    );
  }
  obj.apiVersion = apiVersion;
  obj.kind = def.kind;
  if (!isObj(obj.metadata)) obj.metadata = {};
  return obj;
}

/**
 * Structural-schema pruning, strict field validation and schema validation, in kube-apiserver's
 * order (decoding rejects unknown fields before the schema is checked).
 */
export function admit(def: ResourceDef, obj: KObject, opts: WriteOptions): void {
  const name = obj.metadata.name ?? '';
  const causes: StatusCause[] = validateName(name);
  if (def.schema) {
    const unknown = prune(obj, def.schema);
    if (unknown.length > 0 && opts.fieldValidation === 'Strict') {
      throw badRequest(`strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`);
    }
    if (opts.fieldValidation === 'Warn') opts.warnings.push(...unknown.map((u) => `unknown field "${u}"`));
    causes.push(...validate(obj, def.schema));
  }
  if (causes.length > 0) throw invalid(def, name, causes);
  if (obj.metadata.finalizers?.length === 0) delete obj.metadata.finalizers;
  delete obj.metadata.managedFields;
  delete obj.metadata.selfLink;
}

/** Server-owned metadata survives any client write. */
export function keepServerMetadata(def: ResourceDef, old: KObject, next: KObject): void {
  const o = old.metadata;
  const m = next.metadata;
  for (const k of [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
  ] as const) {
    if (o[k] === undefined) delete m[k];
    else m[k] = o[k] as never;
  }
  if (o.deletionTimestamp) {
    const added = (m.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f));
    if (added.length > 0) {
      throw invalid(def, o.name ?? '', [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: no new finalizers can be added if the object is being deleted',
          field: 'metadata.finalizers',
        },
      ]);
    }
  }
}

export const forbidden = (message: string, details: Record<string, unknown>): ApiError =>
  new ApiError(403, 'Forbidden', message, details);
