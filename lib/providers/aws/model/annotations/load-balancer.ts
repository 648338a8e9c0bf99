/** Load-balancer-level annotations: scheme, subnets, security groups, explicit name, tags. */
import { InvalidObjectError } from '../../../../errors.js';
import { reservedTagOwner } from '../../reserved-tags.js';
import { MAX_NAME_LENGTH } from '../../naming.js';
import type { CommonKeys } from './keys.js';
import { invalid, keyValues, oneOf, raw, resourceIds, subnetIdsOrNames, type Annotations } from './parse.js';

export type Scheme = 'internal' | 'internet-facing';

export interface LoadBalancerAnnotations {
  scheme?: Scheme;
  /** IDs or names (model/subnets.ts resolves them). */
  subnets?: string[];
  securityGroups?: string[];
  /** The explicit name (LBC: immutable; here a change replaces the load balancer, announced). */
  name?: string;
  tags?: Record<string, string>;
}

/** ELBv2 name rules: 1-32 alphanumerics or hyphens, no leading/trailing hyphen, no `internal-` prefix. */
export function checkLoadBalancerName(key: string, name: string): string {
  if (name.length > MAX_NAME_LENGTH) {
    throw new InvalidObjectError(
      `annotation ${key}: "${name}" is ${name.length} characters; ELBv2 names allow at most ${MAX_NAME_LENGTH}`,
      { field: key, reason: 'LimitExceeded' },
    );
  }
  if (!/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(name) || name.toLowerCase().startsWith('internal-')) {
    throw invalid(
      key,
      name,
      'must be alphanumerics and hyphens, not start or end with "-", not start with "internal-"',
    );
  }
  return name;
}

/** Tags from an annotation: reserved keys (ours, AWS's, other controllers' ownership) cannot be set this way. */
export function userTags(annotations: Annotations, key: string): Record<string, string> | undefined {
  const tags = keyValues(annotations, key);
  if (tags === undefined) return undefined;
  for (const [k, v] of Object.entries(tags)) {
    const owner = reservedTagOwner(k);
    if (owner) throw invalid(key, k, `is a reserved tag key (${owner})`);
    if (k.length > 128 || v.length > 256)
      throw invalid(key, k, 'exceeds the tag length limits (key 128, value 256)');
  }
  return tags;
}

/**
 * The user tags of every resource of a stack: the configured defaults, overridden by the
 * annotation's. A key another tool manages (`externalManagedTags`) is refused, as LBC does: we
 * would overwrite its value on one resync and it would put its own back on the next.
 */
export function stackUserTags(
  defaultTags: Readonly<Record<string, string>>,
  annotationTags: Readonly<Record<string, string>> | undefined,
  externalManagedTags: readonly string[] | undefined,
  key: string,
): Record<string, string> {
  for (const k of Object.keys(annotationTags ?? {})) {
    if (externalManagedTags?.includes(k)) throw invalid(key, k, 'is an external managed tag key');
  }
  return { ...defaultTags, ...annotationTags };
}

export function parseLoadBalancerAnnotations(
  annotations: Annotations,
  keys: CommonKeys,
): LoadBalancerAnnotations {
  const scheme = oneOf(annotations, keys.scheme, ['internal', 'internet-facing'] as const);
  const subnets = subnetIdsOrNames(annotations, keys.subnets);
  const securityGroups = resourceIds(annotations, keys.securityGroups, 'sg');
  const name = raw(annotations, keys.name);
  const tags = userTags(annotations, keys.tags);
  return {
    ...(scheme ? { scheme } : {}),
    ...(subnets ? { subnets } : {}),
    ...(securityGroups ? { securityGroups } : {}),
    ...(name !== undefined ? { name: checkLoadBalancerName(keys.name, name) } : {}),
    ...(tags ? { tags } : {}),
  };
}
