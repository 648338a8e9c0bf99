/**
 * EC2 filter semantics (the Describe* API reference): filters AND together, a filter's values
 * OR together, values may hold the wildcards `*` (any run) and `?` (one character), `tag:<key>`
 * matches the value of that tag and `tag-key` any tag's key. An unknown filter name is an error.
 */
import { invalidParameter } from './errors.js';
import type { Filter } from './query.js';
import type { Ec2Resource } from './resources.js';

function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

function valuesFor(resource: Ec2Resource, name: string): readonly string[] | undefined {
  if (name.startsWith('tag:')) {
    const value = resource.tags[name.slice(4)];
    return value === undefined ? [] : [value];
  }
  if (name === 'tag-key') return Object.keys(resource.tags);
  return resource.filters.get(name);
}

/** Checks every filter name against what the resource kind knows, before anything is matched. */
export function checkFilters(filters: readonly Filter[], known: ReadonlySet<string>): void {
  for (const f of filters) {
    if (!f.name.startsWith('tag:') && f.name !== 'tag-key' && !known.has(f.name))
      throw invalidParameter(`The filter '${f.name}' is invalid`);
    if (f.values.length === 0) throw invalidParameter(`The filter '${f.name}' has no values`);
  }
}

export function matches(resource: Ec2Resource, filters: readonly Filter[]): boolean {
  return filters.every((f) => {
    const have = valuesFor(resource, f.name) ?? [];
    const wanted = f.values.map(wildcard);
    return have.some((v) => wanted.some((w) => w.test(v)));
  });
}
