/**
 * Parts of the model that only objects carrying certain annotations need: each is a chunk of its
 * own in the function bundles, outside what a container loads at its start (bench/bundles.ts), so
 * a fleet of plain MultiClusterIngresses never reads LBC's JSON routing language.
 *
 * The model stays synchronous and pure: whoever reads an object's inputs loads the parts it needs
 * with them (`modelPartsFor`, called by inputs.ts) and hands them to the model in the member's
 * `parts`. A member whose annotations need a part it was not given is a programming error, which
 * the model reports naming the part, rather than silently building without it.
 */
import type { KubeObject } from '../../../kube/types.js';
import { lazy } from '../../../util/lazy.js';
import { ALB_KEYS } from './annotations/keys.js';
import type { Annotations } from './annotations/parse.js';
import type * as Routing from './annotations/routing.js';

/** `actions.*`, `conditions.*`, `transforms.*` and `use-regex-path-match` (annotations/routing.ts). */
export type RoutingPart = Pick<
  typeof Routing,
  | 'annotationAction'
  | 'annotationConditions'
  | 'annotationTransforms'
  | 'useRegexPathMatch'
  | 'unusedRoutingAnnotations'
  | 'unsupportedRegex'
  | 'UNUSED_ROUTING_ANNOTATION'
>;

export interface ModelParts {
  routing?: RoutingPart;
}

const ROUTING_PREFIXES = [ALB_KEYS.actions, ALB_KEYS.conditions, ALB_KEYS.transforms];

/** Whether the annotations use LBC's routing language. */
export function needsRouting(annotations: Annotations): boolean {
  return Object.keys(annotations ?? {}).some(
    (k) => k === ALB_KEYS.useRegexPathMatch || ROUTING_PREFIXES.some((p) => k.startsWith(p)),
  );
}

const loadRouting = lazy(
  () => import('./annotations/routing.js'),
  "the model's routing annotations (model/annotations/routing.ts)",
);

/** The parts `obj`'s annotations need, loaded (each once per container). */
export async function modelPartsFor(obj: Readonly<KubeObject>): Promise<ModelParts> {
  return needsRouting(obj.metadata.annotations) ? { routing: await loadRouting() } : {};
}

/** Every part: for callers that build models of objects they have not looked at (tests, tools). */
export async function allModelParts(): Promise<Required<ModelParts>> {
  return { routing: await loadRouting() };
}

/** The part, which the member's annotations need: an error naming it when it was not loaded. */
export function requirePart<K extends keyof ModelParts>(
  parts: ModelParts | undefined,
  name: K,
  obj: Readonly<KubeObject>,
): NonNullable<ModelParts[K]> {
  const part = parts?.[name];
  if (!part) {
    throw new Error(
      `the model part "${name}" that ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''} needs was not loaded (load it with modelPartsFor before building)`,
    );
  }
  return part as NonNullable<ModelParts[K]>;
}
