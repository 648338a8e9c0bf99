/**
 * Semantic equality of API values: key order does not matter, and an absent field, `null`, an
 * empty list and an empty object are the same (the API server drops empty values, so comparing
 * them strictly makes a controller rewrite status forever, upstream bug 8).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isEmpty);
  return false;
}

export function canonical(v: unknown): string {
  return JSON.stringify(normalise(v)) ?? 'null';
}

function normalise(v: unknown): unknown {
  if (isEmpty(v)) return null;
  if (Array.isArray(v)) return v.map(normalise);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const val = (v as Record<string, unknown>)[k];
      if (!isEmpty(val)) out[k] = normalise(val);
    }
    return out;
  }
  return v;
}
