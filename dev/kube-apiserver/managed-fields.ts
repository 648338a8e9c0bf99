/**
 * Field ownership, as kube-apiserver's structured-merge-diff keeps it in `metadata.managedFields`:
 * which manager (`kubectl`, `argocd-controller`, `kustomize-controller`, `node-fetch`…) set which
 * fields, with an `Apply` entry per server-side applier and an `Update` entry per other writer.
 *
 * A field is a path of elements: a map key (`f:name`), an item of an associative list by its key
 * fields (`k:{"name":"web"}`, built-in kinds' strategic-merge keys), or an item of a set-like list
 * of scalars (`v:"finalizer"`). Lists without a key are atomic: the list is one field. Custom
 * resources' lists are atomic (none of the served CRDs declares `x-kubernetes-list-type: map`).
 */
import { deepEqual } from './admission.js';
import type { KObject, ResourceDef } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v != null && typeof v === 'object' && !Array.isArray(v);

export type PathElement = { f: string } | { k: Obj } | { v: unknown };
export type FieldPath = PathElement[];

/** A set of fields, each the JSON text of its path (so paths compare as strings). */
export type FieldSet = Set<string>;

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

/** Lists of built-in kinds merged by key (the strategic-merge keys `kubectl apply` relies on too). */
export function listKeyOf(def: ResourceDef, path: FieldPath, field: string): string[] | 'set' | undefined {
  const last = path[path.length - 1];
  const parent = last && 'f' in last ? last.f : undefined;
  if (field === 'finalizers' && parent === 'metadata') return 'set';
  if (def.crd) return undefined;
  if (field === 'ports') {
    if (parent === 'containers' || parent === 'initContainers') return ['containerPort', 'protocol'];
    if (parent === 'spec') return ['port', 'protocol'];
  }
  const keys: Record<string, string[]> = {
    containers: ['name'],
    initContainers: ['name'],
    ephemeralContainers: ['name'],
    env: ['name'],
    volumes: ['name'],
    volumeMounts: ['mountPath'],
    imagePullSecrets: ['name'],
    ownerReferences: ['uid'],
    conditions: ['type'],
  };
  return keys[field];
}

/** Fields no manager owns: identity and server-kept metadata, and status on the main resource. */
function ignored(def: ResourceDef, path: FieldPath, subresource: string | undefined): boolean {
  const [first, second] = path;
  if (!first || !('f' in first)) return false;
  if (path.length === 1 && (first.f === 'apiVersion' || first.f === 'kind')) return true;
  if (subresource === 'status') return first.f !== 'status';
  if (first.f === 'status' && def.statusSubresource) return true;
  if (first.f === 'metadata' && second && 'f' in second) {
    return [
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'managedFields',
      'selfLink',
    ].includes(second.f);
  }
  return false;
}

const keyOf = (path: FieldPath): string => JSON.stringify(path);
export const pathOf = (key: string): FieldPath => JSON.parse(key) as FieldPath;

/** The leaf fields `value` sets, as an applier or a writer of it would own them. */
export function fieldsOf(def: ResourceDef, value: unknown, subresource?: string): FieldSet {
  const out: FieldSet = new Set();
  const walk = (v: unknown, path: FieldPath): void => {
    if (path.length > 0 && ignored(def, path, subresource)) return;
    if (isObj(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) walk(child, [...path, { f: k }]);
      return;
    }
    const last = path[path.length - 1];
    const key =
      Array.isArray(v) && last && 'f' in last ? listKeyOf(def, path.slice(0, -1), last.f) : undefined;
    if (Array.isArray(v) && key === 'set') {
      for (const item of v) out.add(keyOf([...path, { v: item }]));
      return;
    }
    if (Array.isArray(v) && Array.isArray(key)) {
      const names: string[] = key;
      for (const item of v) {
        if (!isObj(item)) continue;
        const itemPath = [
          ...path,
          { k: Object.fromEntries(names.filter((k) => k in item).map((k) => [k, item[k]])) },
        ];
        out.add(keyOf([...itemPath, { f: '.' }]));
        for (const [k, child] of Object.entries(item)) walk(child, [...itemPath, { f: k }]);
      }
      return;
    }
    if (path.length > 0) out.add(keyOf(path));
  };
  walk(value, []);
  return out;
}

const matchesKey = (item: unknown, key: Obj): boolean =>
  isObj(item) && Object.entries(key).every(([k, v]) => deepEqual(item[k], v));

/** The value at a field, or undefined. */
export function valueAt(obj: unknown, path: FieldPath): unknown {
  let cur: unknown = obj;
  for (const el of path) {
    if ('f' in el) {
      if (el.f === '.') continue;
      cur = isObj(cur) ? cur[el.f] : undefined;
    } else if ('k' in el) cur = Array.isArray(cur) ? cur.find((i) => matchesKey(i, el.k)) : undefined;
    else cur = Array.isArray(cur) && cur.some((i) => deepEqual(i, el.v)) ? el.v : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Removes a field from `obj` in place, then map parents it left empty (below the top level). */
export function removeAt(obj: Obj, path: FieldPath): void {
  const p =
    path[path.length - 1] &&
    'f' in path[path.length - 1]! &&
    (path[path.length - 1] as { f: string }).f === '.'
      ? path.slice(0, -1)
      : path;
  const parents: unknown[] = [obj];
  let cur: unknown = obj;
  for (const el of p.slice(0, -1)) {
    cur = valueAt(cur, [el]);
    if (cur === undefined) return;
    parents.push(cur);
  }
  const last = p[p.length - 1];
  const parent = parents[parents.length - 1];
  if (!last) return;
  if ('f' in last && isObj(parent)) delete parent[last.f];
  else if ('k' in last && Array.isArray(parent)) {
    const i = parent.findIndex((item) => matchesKey(item, last.k));
    if (i >= 0) parent.splice(i, 1);
  } else if ('v' in last && Array.isArray(parent)) {
    const i = parent.findIndex((item) => deepEqual(item, last.v));
    if (i >= 0) parent.splice(i, 1);
  }
  for (let depth = parents.length - 1; depth >= 2; depth--) {
    const node = parents[depth];
    const el = p[depth - 1];
    const holder = parents[depth - 1];
    if (!isObj(node) || Object.keys(node).length > 0 || !el || !('f' in el) || !isObj(holder)) break;
    delete holder[el.f];
  }
}

/** One of two fields contains the other (or they are the same). */
export function overlaps(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short.slice(0, -1) + ',');
}

/** `.spec.rules`, `.spec.containers[name="web"].image`, `.metadata.finalizers[="x"]`. */
export function formatPath(key: string): string {
  return pathOf(key)
    .map((el) => {
      if ('f' in el) return el.f === '.' ? '' : `.${el.f}`;
      if ('k' in el)
        return `[${Object.entries(el.k)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      return `[=${JSON.stringify(el.v)}]`;
    })
    .join('');
}

/** FieldsV1 (the wire form) ⇄ a FieldSet. */
export function toFieldsV1(set: FieldSet): Obj {
  const root: Obj = {};
  for (const key of [...set].sort()) {
    let node = root;
    for (const el of pathOf(key)) {
      const name =
        'f' in el
          ? el.f === '.'
            ? '.'
            : `f:${el.f}`
          : 'k' in el
            ? `k:${JSON.stringify(el.k)}`
            : `v:${JSON.stringify(el.v)}`;
      node[name] ??= {};
      node = node[name] as Obj;
    }
  }
  return root;
}

export function fromFieldsV1(fields: unknown): FieldSet {
  const out: FieldSet = new Set();
  const walk = (node: unknown, path: FieldPath): void => {
    if (!isObj(node)) return;
    const children = Object.entries(node);
    if (children.length === 0 && path.length > 0) out.add(keyOf(path));
    for (const [name, child] of children) {
      if (name === '.') out.add(keyOf([...path, { f: '.' }]));
      else if (name.startsWith('f:')) walk(child, [...path, { f: name.slice(2) }]);
      else if (name.startsWith('k:')) walk(child, [...path, { k: JSON.parse(name.slice(2)) as Obj }]);
      else if (name.startsWith('v:')) walk(child, [...path, { v: JSON.parse(name.slice(2)) as unknown }]);
    }
  };
  walk(fields, []);
  return out;
}

export function entriesOf(obj: KObject): ManagedFieldsEntry[] {
  const raw = (obj.metadata as { managedFields?: unknown }).managedFields;
  return Array.isArray(raw) ? (raw as ManagedFieldsEntry[]) : [];
}

export const sameEntry = (
  e: ManagedFieldsEntry,
  manager: string,
  operation: string,
  subresource?: string,
): boolean =>
  e.manager === manager && e.operation === operation && (e.subresource ?? '') === (subresource ?? '');

const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * The managed fields after a write: `writer`'s entry owns what it set (Apply: exactly `applied`;
 * Update: what it changed, added to what it had), others lose what `writer` took over (`taken`),
 * and every entry forgets fields the object no longer has. An entry whose fields did not change
 * keeps its time; an empty one is dropped.
 */
export function nextManagedFields(
  def: ResourceDef,
  old: KObject | undefined,
  next: KObject,
  writer: { manager: string; operation: 'Apply' | 'Update'; subresource?: string },
  owned: { applied?: FieldSet; taken: FieldSet },
): ManagedFieldsEntry[] {
  const present = new Set([...fieldsOf(def, next), ...fieldsOf(def, next, 'status')]);
  const entries = old ? entriesOf(old) : [];
  const out: ManagedFieldsEntry[] = [];
  let mine: FieldSet | undefined;
  let mineBefore: ManagedFieldsEntry | undefined;
  for (const e of entries) {
    const fields = fromFieldsV1(e.fieldsV1);
    if (sameEntry(e, writer.manager, writer.operation, writer.subresource)) {
      mineBefore = e;
      mine = fields;
      continue;
    }
    const kept = new Set(
      [...fields].filter((f) => present.has(f) && ![...owned.taken].some((t) => overlaps(t, f))),
    );
    if (kept.size === 0) continue;
    out.push(kept.size === fields.size ? e : { ...e, fieldsV1: toFieldsV1(kept) });
  }
  const mineAfter = new Set(
    [...(owned.applied ?? new Set([...(mine ?? []), ...owned.taken]))].filter((f) => present.has(f)),
  );
  if (mineAfter.size > 0) {
    const unchanged =
      mineBefore && mine && mine.size === mineAfter.size && [...mine].every((f) => mineAfter.has(f));
    out.push(
      unchanged && mineBefore
        ? mineBefore
        : {
            manager: writer.manager,
            operation: writer.operation,
            apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
            time: now(),
            fieldsType: 'FieldsV1',
            fieldsV1: toFieldsV1(mineAfter),
            ...(writer.subresource ? { subresource: writer.subresource } : {}),
          },
    );
  }
  return out;
}

/** The fields an update changed: those it sets to a new value, and those it removed. */
export function changedFields(
  def: ResourceDef,
  old: KObject | undefined,
  next: KObject,
  subresource?: string,
): FieldSet {
  const after = fieldsOf(def, next, subresource);
  const changed: FieldSet = new Set();
  for (const f of after)
    if (!old || !deepEqual(valueAt(old, pathOf(f)), valueAt(next, pathOf(f)))) changed.add(f);
  return changed;
}
