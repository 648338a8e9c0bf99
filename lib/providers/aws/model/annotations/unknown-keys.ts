/**
 * The `alb.ingress.kubernetes.io/*` annotations of a MultiClusterIngress that this provider does
 * not act on, as one model warning: a manifest written for LBC must not lose part of its meaning
 * without its owner being told.
 */
import type { ModelWarning } from '../types.js';
import { ALB_PREFIX, lbcKeyOf } from './lbc-keys.js';
import type { Annotations } from './parse.js';

export const UNSUPPORTED_ANNOTATION = 'UnsupportedAnnotation';

/** Each ignored key with the reason, in key order; empty when every key is acted on. */
export function ignoredAlbKeys(annotations: Annotations): string[] {
  const ignored: string[] = [];
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!key.startsWith(ALB_PREFIX)) continue;
    const entry = lbcKeyOf(key.slice(ALB_PREFIX.length));
    if (!entry) {
      ignored.push(`${key} (not a key AWS Load Balancer Controller documents: check its spelling)`);
    } else if (entry.support.status !== 'supported') {
      const kind = entry.support.status === 'not-applicable' ? 'not applicable here' : 'not supported yet';
      ignored.push(`${key} (${kind}: ${entry.support.why})`);
    }
  }
  return ignored;
}

/** The warning for one object's ignored keys, or none. */
export function ignoredAlbKeysWarning(annotations: Annotations): ModelWarning[] {
  const ignored = ignoredAlbKeys(annotations);
  if (ignored.length === 0) return [];
  return [
    {
      reason: UNSUPPORTED_ANNOTATION,
      message: `${ignored.length === 1 ? 'annotation' : 'annotations'} ignored by the aws provider: ${ignored.join('; ')}`,
    },
  ];
}
