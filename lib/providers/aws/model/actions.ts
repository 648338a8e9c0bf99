/**
 * An `actions.${name}` annotation as a model action (LBC's model_build_actions.go
 * buildBackendAction): a forward becomes the target groups of the Services it names, a redirect
 * and a fixed response pass through as they were checked.
 */
import type { ActionConfig, ServiceTargetGroup } from './annotations/routing.js';
import { ref, type Action } from './types.js';

/** LBC's magic port name: the backend's action comes from the `actions.${service.name}` annotation. */
export const USE_ANNOTATION = 'use-annotation';

export function annotationActionToModel(
  config: ActionConfig,
  /** Builds (or reuses) the target group of one Service port; returns its resource ID. */
  targetGroupOf: (g: ServiceTargetGroup) => string,
): Action {
  if (config.type === 'redirect') return { type: 'redirect', redirect: config.redirect };
  if (config.type === 'fixed-response')
    return { type: 'fixed-response', fixedResponse: config.fixedResponse };
  const groups = config.targetGroups.map((g) => ({ id: targetGroupOf(g), weight: g.weight }));
  const [only] = groups;
  // A lone group with neither weight nor stickiness is a plain forward, as ELBv2 reports it.
  if (only && groups.length === 1 && only.weight === undefined && !config.stickiness) {
    return { type: 'forward', targetGroup: ref(only.id) };
  }
  return {
    type: 'forward',
    // ELBv2's default weight is 1.
    targetGroups: groups.map((g) => ({ targetGroup: ref(g.id), weight: g.weight ?? 1 })),
    ...(config.stickiness ? { stickiness: config.stickiness } : {}),
  };
}
