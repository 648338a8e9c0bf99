/**
 * Which annotations of LBC's two key families the model acts on, from the keys it reads (ALB_KEYS,
 * NLB_KEYS): enough to tell, on every reconcile, whether an object carries a key that is ignored.
 * Saying why each such key is ignored takes the table of every key LBC documents (lbc-keys.ts),
 * which is read only then (ignored-keys.ts); test/unit/lbc-keys.test.ts checks that both agree.
 */
import { ALB_KEYS, NLB_KEYS } from './keys.js';
import type { Annotations } from './parse.js';

export type KeyFamilyName = 'ingress' | 'service';

export interface ActedKeys {
  family: KeyFamilyName;
  prefix: string;
  /**
   * Whether an annotation under the prefix is meant for LBC: every `alb.ingress.kubernetes.io/` key
   * is; under `service.beta.kubernetes.io/` only the `aws-load-balancer-` ones and the two others
   * LBC documents are (the rest belong to other clouds' controllers).
   */
  claims(suffix: string): boolean;
  actedOn(suffix: string): boolean;
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Object.values(value as Record<string, unknown>).flatMap(leaves);
}

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/**
 * A key the model reads as a pattern over the suffix: `${…}` parts, and the name a key ending in
 * `.` is followed by (`actions.<service>`), match one or more characters other than `/`.
 */
function readPattern(suffix: string): RegExp {
  const templated = suffix.endsWith('.') ? `${suffix}\${name}` : suffix;
  return new RegExp(
    `^${templated
      .split(/\$\{[^}]+\}/)
      .map(escape)
      .join('[^/]+')}$`,
  );
}

function acted(
  family: KeyFamilyName,
  prefix: string,
  keys: object,
  claims: (suffix: string) => boolean,
): ActedKeys {
  const patterns = leaves(keys).map((k) => readPattern(k.slice(prefix.length)));
  return { family, prefix, claims, actedOn: (suffix) => patterns.some((p) => p.test(suffix)) };
}

export const ACTED_INGRESS_KEYS = acted('ingress', 'alb.ingress.kubernetes.io/', ALB_KEYS, () => true);
/** The two keys LBC documents under `service.beta.kubernetes.io/` without `aws-load-balancer-`. */
const OTHER_LBC_SERVICE_KEYS = /^(load-balancer-source-ranges|actions\.[^/]+)$/;

export const ACTED_SERVICE_KEYS = acted(
  'service',
  'service.beta.kubernetes.io/',
  NLB_KEYS,
  (s) => s.startsWith('aws-load-balancer-') || OTHER_LBC_SERVICE_KEYS.test(s),
);

/** The family's annotations the model does not act on, in key order; empty when it acts on all. */
export function unactedKeys(annotations: Annotations, keys: ActedKeys = ACTED_INGRESS_KEYS): string[] {
  return Object.keys(annotations ?? {})
    .sort()
    .filter((key) => {
      if (!key.startsWith(keys.prefix)) return false;
      const suffix = key.slice(keys.prefix.length);
      return keys.claims(suffix) && !keys.actedOn(suffix);
    });
}
