import { validation } from './errors.js';

/**
 * A tiny description of AWS Query input shapes, just enough to turn the SDK's flattened
 * `Foo.member.1.Bar` parameters back into the nested objects the SDK started from.
 */
export type Shape = 'string' | 'integer' | 'boolean' | ListShape | StructShape | MapShape;
export interface ListShape {
  readonly kind: 'list';
  readonly member: Shape;
}
export interface StructShape {
  readonly kind: 'struct';
  readonly members: Readonly<Record<string, Shape>>;
}
export interface MapShape {
  readonly kind: 'map';
  readonly value: Shape;
}

export const list = (member: Shape): ListShape => ({ kind: 'list', member });
export const struct = (members: Record<string, Shape>): StructShape => ({ kind: 'struct', members });
export const map = (value: Shape): MapShape => ({ kind: 'map', value });

/** Form parameters plus every dotted prefix of every key, so "does Foo.member.3 exist" is O(1). */
export class QueryParams {
  private readonly values = new Map<string, string>();
  private readonly prefixes = new Set<string>();

  constructor(body: string) {
    for (const [key, value] of new URLSearchParams(body)) {
      this.values.set(key, value);
      let dot = key.indexOf('.');
      while (dot !== -1) {
        this.prefixes.add(key.slice(0, dot));
        dot = key.indexOf('.', dot + 1);
      }
      this.prefixes.add(key);
    }
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  has(prefix: string): boolean {
    return this.prefixes.has(prefix);
  }

  /** Decodes the whole request against a top-level input structure. */
  decode<T>(shape: StructShape): T {
    return this.read(shape, '') as T;
  }

  private read(shape: Shape, key: string): unknown {
    if (shape === 'string') return this.values.get(key);
    if (shape === 'integer') {
      const raw = this.values.get(key);
      if (raw === undefined) return undefined;
      if (!/^-?\d+$/.test(raw)) throw validation(`Value '${raw}' at '${key}' must be an integer`);
      return Number(raw);
    }
    if (shape === 'boolean') {
      const raw = this.values.get(key);
      if (raw === undefined) return undefined;
      if (raw !== 'true' && raw !== 'false') throw validation(`Value '${raw}' at '${key}' must be a boolean`);
      return raw === 'true';
    }
    if (key !== '' && !this.prefixes.has(key)) return undefined;
    const dot = key === '' ? '' : `${key}.`;
    switch (shape.kind) {
      case 'list': {
        // serializeEmptyLists: the SDK sends `Foo=` for an explicitly empty list.
        if (this.values.get(key) === '') return [];
        const out: unknown[] = [];
        for (let i = 1; this.prefixes.has(`${dot}member.${i}`); i++)
          out.push(this.read(shape.member, `${dot}member.${i}`));
        return out;
      }
      case 'map': {
        const out: Record<string, unknown> = {};
        for (let i = 1; this.prefixes.has(`${dot}entry.${i}`); i++) {
          const k = this.values.get(`${dot}entry.${i}.key`);
          if (k !== undefined) out[k] = this.read(shape.value, `${dot}entry.${i}.value`);
        }
        return out;
      }
      case 'struct': {
        const out: Record<string, unknown> = {};
        for (const [name, member] of Object.entries(shape.members)) {
          const value = this.read(member, `${dot}${name}`);
          if (value !== undefined) out[name] = value;
        }
        return out;
      }
    }
  }
}
