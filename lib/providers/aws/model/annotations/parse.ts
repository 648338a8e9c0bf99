/**
 * Primitive annotation parsers. Every failure is an InvalidObjectError whose `field` is the
 * annotation key, thrown while the model is built, i.e. before any AWS call.
 */
import { InvalidObjectError } from '../../../../errors.js';

export type Annotations = Readonly<Record<string, string>> | undefined;

export const INVALID_ANNOTATION = 'InvalidAnnotation';

export function invalid(key: string, value: string, why: string): InvalidObjectError {
  return new InvalidObjectError(`annotation ${key}: ${JSON.stringify(value)} ${why}`, {
    field: key,
    reason: INVALID_ANNOTATION,
  });
}

/**
 * Refuses an annotation under one of `prefixes` (the key families the model reads) whose value
 * holds `{{`. Plans print their placeholders so (`{{arn:…}}`, `{{secret:<namespace>/<name>}}`,
 * deploy/refs.ts): a value spelled like one would read as one in a printed plan or a log, though
 * it could never become one (placeholders are typed values, never text). `of`: whose annotations
 * they are when not the object's own (a backend Service's).
 */
export function refuseReservedText(annotations: Annotations, prefixes: readonly string[], of?: string): void {
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!prefixes.some((p) => key.startsWith(p)) || !annotations?.[key]?.includes('{{')) continue;
    throw new InvalidObjectError(
      `annotation ${key}${of ? ` of ${of}` : ''}: the value holds "{{", which no annotation value may hold (plans print their placeholders so: {{arn:…}}, {{secret:…}}): remove it`,
      { field: key, reason: INVALID_ANNOTATION },
    );
  }
}

/** The trimmed value, or undefined when the annotation is absent or blank. */
export function raw(annotations: Annotations, key: string): string | undefined {
  const v = annotations?.[key]?.trim();
  return v ? v : undefined;
}

/** A comma-separated list (LBC's stringSlice): blanks dropped, order kept, duplicates removed. */
export function list(annotations: Annotations, key: string): string[] | undefined {
  const v = raw(annotations, key);
  return v === undefined ? undefined : splitList(v);
}

function splitList(v: string): string[] {
  return [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export function integer(annotations: Annotations, key: string, min: number, max: number): number | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw invalid(key, v, `must be an integer from ${min} to ${max}`);
  }
  return Number(v);
}

/** A boolean as LBC's ParseBoolAnnotation reads it (Go's strconv.ParseBool spellings). */
export function bool(annotations: Annotations, key: string): boolean | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw invalid(key, v, 'must be true or false');
}

export function oneOf<T extends string>(
  annotations: Annotations,
  key: string,
  values: readonly T[],
): T | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  const found = values.find((x) => x.toLowerCase() === v.toLowerCase());
  if (found === undefined) throw invalid(key, v, `must be one of ${values.join(', ')}`);
  return found;
}

/** `k1=v1,k2=v2` (LBC's stringMap). */
export function keyValues(annotations: Annotations, key: string): Record<string, string> | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const pair of v.split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    // No "=" (eq -1) or nothing before it: no key.
    const k = pair.slice(0, Math.max(eq, 0)).trim();
    if (!k) throw invalid(key, v, 'must be a comma-separated list of key=value pairs');
    out[k] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** A list of IDs that must all look like `<prefix>-<hex>`: names would need EC2 look-ups we do not make. */
/**
 * Subnets as LBC takes them: IDs (`subnet-<hex>`), or names (the subnets' `Name` tag, resolved
 * among the VPC's subnets by model/subnets.ts). A value that starts like an ID must be one.
 */
export function subnetIdsOrNames(annotations: Annotations, key: string): string[] | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  const values = splitList(v);
  for (const value of values) {
    if (value.startsWith('subnet-') && !/^subnet-[0-9a-f]{8,17}$/.test(value))
      throw invalid(key, value, 'is not a subnet ID (subnet-<hex>) nor a name');
    // EC2's longest tag value.
    if (value.length > 256) throw invalid(key, value, 'is longer than a subnet name can be (256)');
  }
  if (values.length === 0) throw invalid(key, v, 'lists no subnets');
  return values;
}

export function resourceIds(
  annotations: Annotations,
  key: string,
  prefix: 'subnet' | 'sg',
): string[] | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  const ids = splitList(v);
  const pattern = new RegExp(`^${prefix}-[0-9a-f]{8,17}$`);
  for (const id of ids) {
    if (!pattern.test(id)) {
      throw invalid(
        key,
        id,
        `is not a ${prefix} ID (${prefix}-<hex>); names are not resolved by this provider`,
      );
    }
  }
  if (ids.length === 0) throw invalid(key, v, 'lists no IDs');
  return ids;
}

/** An error about a structured annotation, naming the key and the path within its value. */
export function annotationError(key: string, path: string, why: string): InvalidObjectError {
  return new InvalidObjectError(`annotation ${key}: ${path ? `${path}: ` : ''}${why}`, {
    field: key,
    reason: INVALID_ANNOTATION,
  });
}
