/**
 * The LBC annotations of a MultiClusterIngress (`alb.ingress.kubernetes.io/*`) or of a
 * MultiClusterService (`service.beta.kubernetes.io/aws-load-balancer-*`) that this provider does
 * not act on, as one model warning: a manifest written for LBC must not lose part of its meaning
 * without its owner being told.
 *
 * The model finds them from the keys it reads (acted-keys.ts) and names them; the reason for each
 * (a typo, not applicable here, not supported yet) comes from the table of every key LBC documents,
 * a chunk of its own (ignored-keys.ts) that `wordWarnings` loads only when there is one to word.
 */
import type { KubeObject } from '../../../../kube/types.js';
import { lazy } from '../../../../util/lazy.js';
import type { ModelWarning } from '../types.js';
import { ACTED_INGRESS_KEYS, unactedKeys, type ActedKeys } from './acted-keys.js';

export const UNSUPPORTED_ANNOTATION = 'UnsupportedAnnotation';

/** `annotation(s) ignored by the aws provider: …`, each item a key with or without its reason. */
export function ignoredMessage(items: readonly string[]): string {
  return `${items.length === 1 ? 'annotation' : 'annotations'} ignored by the aws provider: ${items.join('; ')}`;
}

/** The warning about one object's ignored keys (named, their reasons worded later), or none. */
export function ignoredKeysWarning(
  obj: Readonly<KubeObject>,
  keys: ActedKeys = ACTED_INGRESS_KEYS,
): ModelWarning[] {
  const ignored = unactedKeys(obj.metadata.annotations, keys);
  if (ignored.length === 0) return [];
  return [
    {
      reason: UNSUPPORTED_ANNOTATION,
      message: ignoredMessage(ignored),
      object: { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' },
      ignored: { family: keys.family, keys: ignored },
    },
  ];
}

const loadWording = lazy(
  () => import('./ignored-keys.js'),
  'the table of LBC annotation keys (model/annotations/ignored-keys.ts)',
);

/**
 * The warnings as they are reported: ignored keys each with the reason it is ignored. Without the
 * table (its chunk failed to load) the keys are still named, and the log says why.
 */
export async function wordWarnings(
  warnings: readonly ModelWarning[],
  onError: (err: unknown) => void,
): Promise<ModelWarning[]> {
  if (!warnings.some((w) => w.ignored)) return [...warnings];
  let wording: Awaited<ReturnType<typeof loadWording>> | undefined;
  try {
    wording = await loadWording();
  } catch (err) {
    onError(err);
  }
  return warnings.map(({ ignored, ...warning }) =>
    ignored && wording
      ? { ...warning, message: ignoredMessage(wording.explainIgnored(ignored.keys, ignored.family)) }
      : warning,
  );
}
