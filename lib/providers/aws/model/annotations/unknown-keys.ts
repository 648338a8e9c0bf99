/**
 * The LBC annotations of a MultiClusterIngress (`alb.ingress.kubernetes.io/*`) or of a
 * MultiClusterService (`service.beta.kubernetes.io/aws-load-balancer-*`) that this provider does
 * not act on, as one model warning: a manifest written for LBC must not lose part of its meaning
 * without its owner being told.
 */
import type { KubeObject } from '../../../../kube/types.js';
import type { ModelWarning } from '../types.js';
import { INGRESS_KEY_FAMILY, lbcKeyOf, type KeyFamily } from './lbc-keys.js';
import type { Annotations } from './parse.js';

export const UNSUPPORTED_ANNOTATION = 'UnsupportedAnnotation';

/** Each ignored key of the family with the reason, in key order; empty when every key is acted on. */
export function ignoredKeys(annotations: Annotations, keys: KeyFamily = INGRESS_KEY_FAMILY): string[] {
  const ignored: string[] = [];
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!key.startsWith(keys.prefix)) continue;
    const suffix = key.slice(keys.prefix.length);
    const entry = lbcKeyOf(suffix, keys);
    if (!entry) {
      if (keys.claims(suffix)) {
        ignored.push(`${key} (not a key AWS Load Balancer Controller documents: check its spelling)`);
      }
    } else if (entry.support.status !== 'supported') {
      const kind = entry.support.status === 'not-applicable' ? 'not applicable here' : 'not supported yet';
      ignored.push(`${key} (${kind}: ${entry.support.why})`);
    }
  }
  return ignored;
}

/** The warning about one object's ignored keys, or none. */
export function ignoredKeysWarning(
  obj: Readonly<KubeObject>,
  keys: KeyFamily = INGRESS_KEY_FAMILY,
): ModelWarning[] {
  const ignored = ignoredKeys(obj.metadata.annotations, keys);
  if (ignored.length === 0) return [];
  return [
    {
      reason: UNSUPPORTED_ANNOTATION,
      message: `${ignored.length === 1 ? 'annotation' : 'annotations'} ignored by the aws provider: ${ignored.join('; ')}`,
      object: { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' },
    },
  ];
}
