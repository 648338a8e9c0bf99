/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`): what `kubectl apply
 * --server-side`, Argo CD and Flux send. The body is the applier's whole intent for the fields it
 * manages. Fields it set before and leaves out now are removed (unless another manager also owns
 * them); fields another manager owns with a different value are a 409 Conflict naming them, unless
 * `force=true`, which takes them over. A missing object is created.
 */
import { asObject, deepEqual } from './admission.js';
import type { ServerContext, WriteOptions } from './context.js';
import { ApiError, badRequest } from './errors.js';
import {
  entriesOf,
  fieldsOf,
  formatPath,
  fromFieldsV1,
  listKeyOf,
  overlaps,
  pathOf,
  removeAt,
  sameEntry,
  valueAt,
  type FieldPath,
  type FieldSet,
} from './managed-fields.js';
import { resourceKeyOf, type KObject, type ResourceDef } from './types.js';
import { commitWrite, createObject } from './writes.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v != null && typeof v === 'object' && !Array.isArray(v);

interface Conflict {
  manager: string;
  apiVersion: string;
  field: string;
}

function conflictError(def: ResourceDef, name: string, conflicts: Conflict[]): ApiError {
  const described = conflicts.map(
    (c) => `conflict with "${c.manager}" using ${c.apiVersion}: ${formatPath(c.field)}`,
  );
  const message =
    conflicts.length === 1
      ? `Apply failed with 1 conflict: ${described[0] ?? ''}`
      : `Apply failed with ${conflicts.length} conflicts: ${described.join('\n')}`;
  return new ApiError(409, 'Conflict', message, {
    name,
    group: def.group,
    kind: def.plural,
    causes: conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with "${c.manager}" using ${c.apiVersion}`,
      field: formatPath(c.field),
    })),
  });
}

/** The applied configuration merged into the live object: maps by key, associative lists by item key. */
function merge(def: ResourceDef, live: unknown, applied: unknown, path: FieldPath): unknown {
  if (isObj(applied) && isObj(live)) {
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(applied)) out[k] = merge(def, live[k], v, [...path, { f: k }]);
    return out;
  }
  const last = path[path.length - 1];
  const key = last && 'f' in last ? listKeyOf(def, path.slice(0, -1), last.f) : undefined;
  if (Array.isArray(applied) && Array.isArray(live) && key === 'set') {
    return [...live, ...applied.filter((a) => !live.some((l) => deepEqual(l, a)))];
  }
  if (Array.isArray(applied) && Array.isArray(live) && Array.isArray(key)) {
    const out = live.map((l) => structuredClone(l) as unknown);
    for (const item of applied) {
      const i = out.findIndex((l) => isObj(l) && isObj(item) && key.every((k) => deepEqual(l[k], item[k])));
      if (i >= 0) out[i] = merge(def, out[i], item, [...path, { k: {} }]);
      else out.push(structuredClone(item));
    }
    return out;
  }
  return structuredClone(applied);
}

export function applyObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  body: unknown,
  opts: WriteOptions,
  force: boolean,
): { obj: KObject; created: boolean } {
  if (!opts.fieldManager) throw badRequest('PATCH ... fieldManager is required for apply requests');
  const applied = asObject(def, body);
  if (applied.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${applied.metadata.name ?? ''}) does not match the name on the URL (${name})`,
    );
  }
  const writer = { manager: opts.fieldManager, operation: 'Apply' as const };
  const appliedFields = fieldsOf(def, applied);
  const old = ctx.store.get(resourceKeyOf(def), ns, name);
  if (!old) {
    return {
      obj: createObject(ctx, def, ns, applied, opts, { writer, applied: appliedFields, taken: new Set() }),
      created: true,
    };
  }

  const entries = entriesOf(old).filter((e) => (e.subresource ?? '') === '');
  const mine = entries.find((e) => sameEntry(e, writer.manager, 'Apply'));
  const others = entries
    .filter((e) => e !== mine)
    .map((e) => ({ entry: e, fields: fromFieldsV1(e.fieldsV1) }));
  const conflicts: Conflict[] = [];
  const taken: FieldSet = new Set();
  for (const f of appliedFields) {
    for (const { entry, fields } of others) {
      const clash = [...fields].find((g) => overlaps(f, g));
      if (clash === undefined) continue;
      const at = pathOf(clash.length < f.length ? clash : f);
      if (deepEqual(valueAt(old, at), valueAt(applied, at))) continue;
      conflicts.push({ manager: entry.manager, apiVersion: entry.apiVersion, field: f });
      taken.add(f);
    }
  }
  if (conflicts.length > 0 && !force) throw conflictError(def, name, conflicts);

  const next = structuredClone(old) as KObject;
  // What this applier set before and leaves out now goes, unless someone else also owns it.
  const before = mine ? fromFieldsV1(mine.fieldsV1) : new Set<string>();
  for (const f of before) {
    if (appliedFields.has(f)) continue;
    if (others.some(({ fields }) => [...fields].some((g) => overlaps(f, g)))) continue;
    removeAt(next as unknown as Obj, pathOf(f));
  }
  const merged = merge(def, next, applied, []) as KObject;
  return {
    obj: commitWrite(ctx, def, old, merged, undefined, opts, { writer, applied: appliedFields, taken }),
    created: false,
  };
}
