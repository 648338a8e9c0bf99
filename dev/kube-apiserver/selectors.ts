import { badRequest } from './errors.js';
import type { KObject } from './types.js';

export type Matcher = (obj: KObject) => boolean;

const KEY = String.raw`([A-Za-z0-9][-A-Za-z0-9_./]*)`;
const VALUE = String.raw`([-A-Za-z0-9_.]*)`;
const NOT_EXISTS = new RegExp(String.raw`^!\s*${KEY}$`);
const EXISTS = new RegExp(`^${KEY}$`);
const SET = new RegExp(String.raw`^${KEY}\s+(in|notin)\s*\(([^)]*)\)$`);
const OP = new RegExp(String.raw`^${KEY}\s*(==|=|!=|>|<)\s*${VALUE}$`);

/** Splits on commas that are not inside `( … )`. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function requirement(req: string): (labels: Record<string, string>) => boolean {
  let m = NOT_EXISTS.exec(req);
  if (m) {
    const key = m[1]!;
    return (l) => !(key in l);
  }
  m = SET.exec(req);
  if (m) {
    const [, key, op, list] = m as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (l) => key in l && values.has(l[key]!) : (l) => !(key in l) || !values.has(l[key]!);
  }
  m = OP.exec(req);
  if (m) {
    const [, key, op, value] = m as unknown as [string, string, string, string];
    switch (op) {
      case '!=':
        return (l) => l[key] !== value;
      case '>':
      case '<': {
        const n = Number(value);
        if (!Number.isInteger(n))
          throw badRequest(
            `unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`,
          );
        return (l) => key in l && (op === '>' ? Number(l[key]) > n : Number(l[key]) < n);
      }
      default:
        return (l) => l[key] === value;
    }
  }
  m = EXISTS.exec(req);
  if (m) {
    const key = m[1]!;
    return (l) => key in l;
  }
  throw badRequest(`unable to parse requirement: found '${req}', expected: identifier`);
}

export function labelSelector(selector: string | null): Matcher {
  if (!selector) return () => true;
  const reqs = splitTopLevel(selector).map(requirement);
  return (obj) => {
    const labels = obj.metadata.labels ?? {};
    return reqs.every((r) => r(labels));
  };
}

function fieldValue(obj: KObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    cur = cur != null && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  }
  return cur == null ? '' : String(cur);
}

/**
 * `metadata.name` and `metadata.namespace` work everywhere; built-in kinds also get any dotted
 * path (kube-apiserver supports a per-kind list, e.g. involvedObject.name for Events), while CRDs
 * reject other fields as kube-apiserver does.
 */
export function fieldSelector(selector: string | null, crd: boolean): Matcher {
  if (!selector) return () => true;
  const reqs = splitTopLevel(selector).map((req) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(req);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${req}'`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    if (crd && field !== 'metadata.name' && field !== 'metadata.namespace') {
      throw badRequest(`field label not supported: ${field}`);
    }
    return (obj: KObject) => (fieldValue(obj, field) === value) === (op !== '!=');
  });
  return (obj) => reqs.every((r) => r(obj));
}
