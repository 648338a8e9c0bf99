/**
 * Listener rule conditions and order, as LBC builds them (pkg/ingress/model_build_listener_rules.go:
 * `sortIngressPaths`, `buildRuleConditions`, `buildPathPatternsFor*PathType`).
 */
import { InvalidObjectError } from '../../../errors.js';
import type { HTTPIngressPath, PathType } from '../../../karmada/types.js';
import type { RuleCondition } from './types.js';

export interface IndexedPath {
  /** Index in `spec.rules[i].http.paths`, kept for field paths in errors. */
  index: number;
  path: HTTPIngressPath;
}

function pathTypeOf(p: HTTPIngressPath): PathType {
  return p.pathType ?? 'ImplementationSpecific';
}

/**
 * Exact paths first (original order), then Prefix paths by descending length (stable), then
 * ImplementationSpecific in original order: the most specific match gets the lowest priority number.
 */
export function sortPaths(paths: readonly HTTPIngressPath[]): IndexedPath[] {
  const indexed = paths.map((path, index) => ({ index, path }));
  const exact = indexed.filter((p) => pathTypeOf(p.path) === 'Exact');
  const prefix = indexed
    .filter((p) => pathTypeOf(p.path) === 'Prefix')
    // Array.prototype.sort is stable: equal lengths keep their order.
    .sort((a, b) => (b.path.path ?? '').length - (a.path.path ?? '').length);
  const other = indexed.filter((p) => pathTypeOf(p.path) === 'ImplementationSpecific');
  return [...exact, ...prefix, ...other];
}

/** ELBv2 path patterns for one Ingress path. */
export function pathPatterns(path: string, pathType: PathType, field: string): string[] {
  switch (pathType) {
    case 'Exact':
      if (/[*?]/.test(path)) {
        throw new InvalidObjectError(`${field}: exact path shouldn't contain wildcards: ${path}`, {
          field,
          reason: 'InvalidPath',
        });
      }
      return [path];
    case 'Prefix': {
      if (path === '/') return ['/*'];
      if (/[*?]/.test(path)) {
        throw new InvalidObjectError(`${field}: prefix path shouldn't contain wildcards: ${path}`, {
          field,
          reason: 'InvalidPath',
        });
      }
      // "/foo" and "/foo/" both match "/foo", "/foo/" and "/foo/bar".
      const normalized = path.replace(/\/$/, '');
      return [normalized, `${normalized}/*`];
    }
    default:
      return [path];
  }
}

/** host-header then path-pattern; a rule with neither matches everything (`/*`), like LBC. */
export function ruleConditions(
  host: string | undefined,
  path: HTTPIngressPath,
  field: string,
): RuleCondition[] {
  const conditions: RuleCondition[] = [];
  if (host) conditions.push({ field: 'host-header', values: [host] });
  if (path.path) {
    conditions.push({
      field: 'path-pattern',
      values: pathPatterns(path.path, pathTypeOf(path), `${field}.path`),
    });
  }
  if (conditions.length === 0) conditions.push({ field: 'path-pattern', values: ['/*'] });
  return conditions;
}
