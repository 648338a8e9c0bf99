/**
 * Reading LBC's JSON annotations the way LBC's Go decoder reads them: object keys match field
 * names case-insensitively (so `"Values"`, `"sourceIpConfig"` and `"TargetGroupStickinessConfig"`
 * from LBC's own examples work) and `null` means absent. Unlike Go, a key that names no field is
 * refused rather than dropped, so a typo never silently loses a condition or a weight. Every
 * failure names the annotation and the JSON path within it.
 */
import type { InvalidObjectError } from '../../../../errors.js';
import { annotationError } from './parse.js';

export { annotationError };

/** The annotation's value as JSON. */
export function parseJson(key: string, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch (err) {
    throw annotationError(key, '', `is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** One JSON object with its known fields, read by name whatever their case. */
export class JsonObject {
  private readonly byName = new Map<string, unknown>();
  private readonly unknown: string[] = [];

  private constructor(
    readonly key: string,
    readonly path: string,
    value: Record<string, unknown>,
    private readonly fields: readonly string[],
  ) {
    for (const [k, v] of Object.entries(value)) {
      // Go's encoding/json: an exact match wins, else the first case-insensitive one.
      const name = fields.includes(k) ? k : fields.find((f) => f.toLowerCase() === k.toLowerCase());
      if (name === undefined) {
        this.unknown.push(k);
        continue;
      }
      if (v !== null && (!this.byName.has(name) || name === k)) this.byName.set(name, v);
    }
  }

  /** `lenient`: unknown fields are refused only when `refuseUnknown` is called (after the type is checked). */
  static of(
    key: string,
    path: string,
    value: unknown,
    fields: readonly string[],
    lenient = false,
  ): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw annotationError(key, path, 'must be a JSON object');
    }
    const o = new JsonObject(key, path, value as Record<string, unknown>, fields);
    if (!lenient) o.refuseUnknown();
    return o;
  }

  refuseUnknown(): void {
    const [first] = this.unknown;
    if (first !== undefined) {
      throw annotationError(
        this.key,
        this.path,
        `unknown field "${first}" (known: ${this.fields.join(', ')})`,
      );
    }
  }

  at(name: string): string {
    return this.path ? `${this.path}.${name}` : name;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  error(name: string, why: string): InvalidObjectError {
    return annotationError(this.key, this.at(name), why);
  }

  raw(name: string): unknown {
    return this.byName.get(name);
  }

  string(name: string): string | undefined {
    const v = this.byName.get(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw this.error(name, 'must be a string');
    return v;
  }

  requiredString(name: string): string {
    const v = this.string(name);
    if (v === undefined || v === '') throw this.error(name, 'is required');
    return v;
  }

  integer(name: string): number | undefined {
    const v = this.byName.get(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw this.error(name, 'must be an integer');
    return v;
  }

  boolean(name: string): boolean | undefined {
    const v = this.byName.get(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw this.error(name, 'must be true or false');
    return v;
  }

  object(name: string, fields: readonly string[]): JsonObject | undefined {
    const v = this.byName.get(name);
    return v === undefined ? undefined : JsonObject.of(this.key, this.at(name), v, fields);
  }

  array(name: string): unknown[] | undefined {
    const v = this.byName.get(name);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) throw this.error(name, 'must be a JSON array');
    return v;
  }

  strings(name: string): string[] | undefined {
    const v = this.array(name);
    if (v === undefined) return undefined;
    return v.map((s, i) => {
      if (typeof s !== 'string' || s === '')
        throw annotationError(this.key, `${this.at(name)}[${i}]`, 'must be a non-empty string');
      return s;
    });
  }
}
