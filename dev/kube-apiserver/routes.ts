import type { ResourceRegistry } from './registry.js';
import type { ResourceDef } from './types.js';

export interface ResourceRoute {
  def: ResourceDef;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The legacy `/apis/g/v/watch/...` form. */
  watchPath: boolean;
}

export type Route =
  | { kind: 'resource'; route: ResourceRoute }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'group'; group: string }
  | { kind: 'other' };

/**
 * `/api/v1/...` and `/apis/<group>/<version>/...`. `namespaces/<ns>/<plural>` is a namespaced path
 * only when <plural> is a namespaced resource; otherwise it addresses the Namespace object itself
 * (e.g. `/api/v1/namespaces/default/status`).
 */
export function parseRoute(registry: ResourceRegistry, path: string): Route {
  const segs = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segs[0] === 'api' && segs[1]) {
    group = '';
    version = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs[1]) {
    if (!segs[2]) return { kind: 'group', group: segs[1] };
    group = segs[1];
    version = segs[2];
    rest = segs.slice(3);
  } else return { kind: 'other' };
  const watchPath = rest[0] === 'watch';
  if (watchPath) rest = rest.slice(1);
  if (rest.length === 0) return watchPath ? { kind: 'other' } : { kind: 'groupVersion', group, version };
  let namespace: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    registry.lookup(group, version, rest[2] ?? '')?.namespaced
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural = '', name, subresource, ...extra] = rest;
  const def = registry.lookup(group, version, plural);
  if (!def || extra.length > 0) return { kind: 'other' };
  if (namespace != null && !def.namespaced) return { kind: 'other' };
  if (def.namespaced && namespace == null && name != null) return { kind: 'other' };
  const known =
    (subresource === 'status' && def.statusSubresource) ||
    (subresource === 'scale' && def.scaleSubresource) ||
    (subresource === 'token' && def.group === '' && def.plural === 'serviceaccounts');
  if (subresource != null && !known) return { kind: 'other' };
  return {
    kind: 'resource',
    route: {
      def,
      watchPath,
      ...(namespace != null ? { namespace } : {}),
      ...(name != null ? { name } : {}),
      ...(subresource != null ? { subresource } : {}),
    },
  };
}
