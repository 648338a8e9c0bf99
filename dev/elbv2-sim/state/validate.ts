import type { Tag } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$/;

/** The shared 32-character rule for load balancer and target group names. */
export function checkName(
  name: string | undefined,
  what: 'load balancer' | 'target group' | 'trust store',
): string {
  if (name === undefined || name === '') throw required('name');
  if (!NAME.test(name)) {
    throw validation(
      `${what.charAt(0).toUpperCase()}${what.slice(1)} name '${name}' can have a maximum of 32 characters, ` +
        'can contain only alphanumeric characters and hyphens, and cannot begin or end with a hyphen',
    );
  }
  if (what === 'load balancer' && name.toLowerCase().startsWith('internal-')) {
    throw validation(`Load balancer name '${name}' cannot begin with 'internal-'`);
  }
  return name;
}

export function checkPort(port: number | undefined, field = 'port'): number {
  if (port === undefined) throw required(field);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw validation(
      `Value '${port}' at '${field}' failed to satisfy constraint: Member must be between 1 and 65535`,
    );
  }
  return port;
}

export function checkRange(value: number | undefined, field: string, min: number, max: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
    throw validation(
      `Value '${value}' at '${field}' failed to satisfy constraint: Member must be between ${min} and ${max}`,
    );
  }
}

export function checkEnum(value: string | undefined, field: string, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw validation(
      `Value '${value}' at '${field}' failed to satisfy constraint: Member must satisfy enum value set: [${allowed.join(', ')}]`,
    );
  }
}

/** Tag keys: 1..128 chars, not `aws:`; values up to 256; no key twice in one request. */
export function checkTags(tags: readonly Tag[] | undefined): Tag[] {
  const seen = new Set<string>();
  for (const tag of tags ?? []) {
    if (tag.Key === undefined || tag.Key === '') throw required('tags.member.key');
    if (tag.Key.length > 128) throw validation(`Tag key '${tag.Key}' is longer than 128 characters`);
    if (tag.Key.toLowerCase().startsWith('aws:'))
      throw validation(`Tag keys starting with 'aws:' are reserved`);
    if ((tag.Value ?? '').length > 256)
      throw validation(`Tag value for key '${tag.Key}' is longer than 256 characters`);
    if (seen.has(tag.Key)) throw new SimError('DuplicateTagKeys', `Tag key '${tag.Key}' is duplicated`);
    seen.add(tag.Key);
  }
  return [...(tags ?? [])];
}

export const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
