/**
 * Why each ignored annotation is ignored, from the table of every key LBC documents
 * (lbc-keys.ts): a chunk of its own in the function bundles, loaded by the first warning about an
 * ignored key (unknown-keys.ts), as a container that never meets one never needs the table.
 */
import type { KeyFamilyName } from './acted-keys.js';
import { INGRESS_KEY_FAMILY, lbcKeyOf, SERVICE_KEY_FAMILY, type KeyFamily } from './lbc-keys.js';
import type { Annotations } from './parse.js';

const FAMILIES: Record<KeyFamilyName, KeyFamily> = {
  ingress: INGRESS_KEY_FAMILY,
  service: SERVICE_KEY_FAMILY,
};

/** One ignored key with its reason: a typo, not applicable here, or not supported yet. */
function explain(key: string, keys: KeyFamily): string | undefined {
  const suffix = key.slice(keys.prefix.length);
  const entry = lbcKeyOf(suffix, keys);
  if (!entry) {
    return keys.claims(suffix)
      ? `${key} (not a key AWS Load Balancer Controller documents: check its spelling)`
      : undefined;
  }
  if (entry.support.status === 'supported') return undefined;
  const kind = entry.support.status === 'not-applicable' ? 'not applicable here' : 'not supported yet';
  return `${key} (${kind}: ${entry.support.why})`;
}

/** `keys` (of `family`, each with its prefix), each with the reason it is ignored. */
export function explainIgnored(keys: readonly string[], family: KeyFamilyName): string[] {
  return keys.map((key) => explain(key, FAMILIES[family]) ?? key);
}

/** Each ignored key of the family with its reason, in key order; empty when every key is acted on. */
export function ignoredKeys(annotations: Annotations, family: KeyFamilyName = 'ingress'): string[] {
  const keys = FAMILIES[family];
  return Object.keys(annotations ?? {})
    .filter((k) => k.startsWith(keys.prefix))
    .sort()
    .flatMap((k) => explain(k, keys) ?? []);
}
