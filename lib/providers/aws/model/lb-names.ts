/** The names under which an object's load balancer may exist: for look-up, replacement and deletion. */
import { loadBalancerNameFromHostname } from '../naming.js';
import type { CommonKeys } from './annotations/keys.js';
import { parseLoadBalancerAnnotations } from './annotations/load-balancer.js';
import type { Annotations } from './annotations/parse.js';

type Scheme = 'internal' | 'internet-facing';

export interface NameSources {
  annotations: Annotations;
  keys: CommonKeys;
  /** The status we wrote last (`loadBalancer.ingress[].hostname`). */
  hostnames: ReadonlyArray<string | undefined>;
  defaultScheme: Scheme;
  /** The deterministic name for a scheme. */
  derived: (scheme: Scheme) => string;
}

/**
 * The wanted name first, then the derived name of either scheme and the one the status names, so a
 * replacement or a deletion finds the previous load balancer. Never throws: deletion must work
 * when the annotations are invalid.
 */
export function candidateLoadBalancerNames(s: NameSources): string[] {
  let explicit: string | undefined;
  let scheme = s.defaultScheme;
  try {
    const ann = parseLoadBalancerAnnotations(s.annotations, s.keys);
    explicit = ann.name;
    scheme = ann.scheme ?? scheme;
  } catch {
    // Invalid annotations: fall back to the derived names.
  }
  const other = scheme === 'internal' ? 'internet-facing' : 'internal';
  // The status names the previous load balancer (lower-cased: capitals in an explicit name are lost).
  const fromStatus = s.hostnames.flatMap((h) => {
    const n = loadBalancerNameFromHostname(h);
    return n ? [n] : [];
  });
  return [...new Set([explicit ?? s.derived(scheme), s.derived(scheme), s.derived(other), ...fromStatus])];
}
