import { ApiError } from './errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v != null && typeof v === 'object' && !Array.isArray(v);

/** RFC 7386. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const patchFailed = (message: string): ApiError => new ApiError(422, 'Invalid', message, {});

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw patchFailed(`invalid JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, path: string[], op: string): [unknown, string] {
  let cur = doc;
  for (const part of path.slice(0, -1)) {
    const next: unknown = Array.isArray(cur) ? cur[Number(part)] : isObj(cur) ? cur[part] : undefined;
    if (next === undefined)
      throw patchFailed(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
    cur = next;
  }
  return [cur, path[path.length - 1] ?? ''];
}

function getAt(doc: unknown, path: string[]): unknown {
  if (path.length === 0) return doc;
  const [parent, last] = parentOf(doc, path, 'get');
  const v = Array.isArray(parent) ? parent[Number(last)] : isObj(parent) ? parent[last] : undefined;
  if (v === undefined) throw patchFailed(`doc is missing path: /${path.join('/')}`);
  return v;
}

function removeAt(doc: unknown, path: string[]): unknown {
  const [parent, last] = parentOf(doc, path, 'remove');
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!(i >= 0 && i < parent.length))
      throw patchFailed(`remove operation does not apply: doc is missing path: /${path.join('/')}`);
    return parent.splice(i, 1)[0];
  }
  if (!isObj(parent) || !(last in parent)) {
    throw patchFailed(`remove operation does not apply: doc is missing path: /${path.join('/')}`);
  }
  const v = parent[last];
  delete parent[last];
  return v;
}

function addAt(doc: unknown, path: string[], value: unknown, replace: boolean): unknown {
  if (path.length === 0) return structuredClone(value);
  const [parent, last] = parentOf(doc, path, replace ? 'replace' : 'add');
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!(i >= 0 && i <= parent.length))
      throw patchFailed(`add operation does not apply: index out of bounds: ${last}`);
    if (replace) parent[i] = structuredClone(value);
    else parent.splice(i, 0, structuredClone(value));
  } else if (isObj(parent)) {
    if (replace && !(last in parent)) {
      throw patchFailed(`replace operation does not apply: doc is missing key: /${path.join('/')}`);
    }
    parent[last] = structuredClone(value);
  } else throw patchFailed(`add operation does not apply: doc is missing path: /${path.join('/')}`);
  return doc;
}

interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** RFC 6902. */
export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new ApiError(400, 'BadRequest', 'json patch must be an array of operations');
  let doc = structuredClone(target);
  for (const raw of ops as JsonPatchOp[]) {
    const path = decodePointer(raw.path);
    switch (raw.op) {
      case 'add':
        doc = addAt(doc, path, raw.value, false);
        break;
      case 'replace':
        doc = addAt(doc, path, raw.value, true);
        break;
      case 'remove':
        removeAt(doc, path);
        break;
      case 'move': {
        const v = removeAt(doc, decodePointer(raw.from ?? ''));
        doc = addAt(doc, path, v, false);
        break;
      }
      case 'copy':
        doc = addAt(doc, path, getAt(doc, decodePointer(raw.from ?? '')), false);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(raw.value)) {
          throw patchFailed(`testing value /${path.join('/')} failed: test failed`);
        }
        break;
      default:
        throw patchFailed(`Unexpected kind: ${String(raw.op)}`);
    }
  }
  return doc;
}

/**
 * Merge keys of the built-in lists kubectl apply touches. Unlisted lists are replaced whole, which
 * is what strategic merge does for atomic lists.
 */
function mergeKeyFor(path: string[], field: string): string | undefined {
  const parent = path[path.length - 1];
  if (field === 'ports')
    return parent === 'containers' || parent === 'initContainers' ? 'containerPort' : 'port';
  const keys: Record<string, string> = {
    containers: 'name',
    initContainers: 'name',
    ephemeralContainers: 'name',
    env: 'name',
    volumes: 'name',
    volumeMounts: 'mountPath',
    imagePullSecrets: 'name',
    conditions: 'type',
    hostAliases: 'ip',
    topologySpreadConstraints: 'topologyKey',
  };
  return keys[field];
}

const PRIMITIVE_MERGE = new Set(['finalizers']);

function mergeList(current: unknown[], patch: unknown[], key: string, path: string[]): unknown[] {
  const out = current.map((c) => structuredClone(c));
  for (const p of patch) {
    if (!isObj(p)) continue;
    const idx = out.findIndex((c) => isObj(c) && c[key] === p[key]);
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = strategicMergePatch(out[idx], p, path);
    else out.push(strategicMergePatch({}, p, path));
  }
  return out;
}

function orderBy(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const pos = (v: unknown): number => {
    const i = order.findIndex((o) => (key && isObj(o) && isObj(v) ? o[key] === v[key] : o === v));
    return i < 0 ? order.length : i;
  };
  return [...list].sort((a, b) => pos(a) - pos(b));
}

/**
 * Strategic merge patch, as far as `kubectl apply` / `kubectl edit` of built-in kinds need it:
 * merge semantics for maps, merge-by-key for the well-known lists, `$patch: delete|replace`,
 * `$setElementOrder/…`, `$deleteFromPrimitiveList/…` and `$retainKeys`.
 */
export function strategicMergePatch(target: unknown, patch: unknown, path: string[] = []): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return structuredClone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isObj(target) ? { ...target } : {};
  const orders: [string, unknown[]][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch') continue;
    if (k === '$retainKeys' && Array.isArray(v)) {
      for (const existing of Object.keys(out))
        if (!v.includes(existing) && !(existing in patch)) delete out[existing];
      continue;
    }
    if (k.startsWith('$setElementOrder/') && Array.isArray(v)) {
      orders.push([k.slice('$setElementOrder/'.length), v]);
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/') && Array.isArray(v)) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[field];
      if (Array.isArray(cur)) out[field] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const key = mergeKeyFor(path, k);
    const cur = out[k];
    if (Array.isArray(v) && key && Array.isArray(cur)) out[k] = mergeList(cur, v, key, [...path, k]);
    else if (Array.isArray(v) && PRIMITIVE_MERGE.has(k) && Array.isArray(cur)) {
      out[k] = [...cur, ...v.filter((x) => !cur.includes(x))];
    } else if (Array.isArray(v))
      out[k] = v
        .filter((x) => !(isObj(x) && x.$patch === 'delete'))
        .map((x) => strategicMergePatch({}, x, [...path, k]));
    else {
      const merged = strategicMergePatch(cur, v, [...path, k]);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    }
  }
  for (const [field, order] of orders) {
    const cur = out[field];
    if (Array.isArray(cur)) out[field] = orderBy(cur, order, mergeKeyFor(path, field));
  }
  return out;
}
