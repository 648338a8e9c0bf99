/**
 * Listener rule conditions and order, as LBC builds them (pkg/ingress/model_build_listener_rules.go:
 * `sortIngressPaths`, `buildRuleConditions`, `buildPathPatternsFor*PathType`).
 */
import { InvalidObjectError } from '../../../errors.js';
import type { HTTPIngressPath, PathType } from '../../../karmada/types.js';
import { annotationError } from './annotations/parse.js';
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

/** What a rule's backend adds to its host and path (LBC's EnhancedBackend), from the annotations. */
export interface RuleExtras {
  /** `conditions.${service.name}`, and its key for errors. */
  conditions: readonly RuleCondition[];
  conditionsKey: string;
  /**
   * `use-regex-path-match`: ImplementationSpecific paths are regular expressions, each checked by
   * this (why ELBv2 would refuse it, or undefined); absent, paths are patterns.
   */
  regexPaths?: (regex: string, max: number) => string | undefined;
}

const NO_EXTRAS: RuleExtras = { conditions: [], conditionsKey: '' };

/** ELBv2: "up to one of each of host-header, http-request-method, path-pattern and source-ip". */
const ONCE_PER_RULE = new Set(['http-request-method', 'source-ip']);

interface Match {
  values: string[];
  regex: string[];
}

function mergeMatch(m: Match, c: { values: string[]; regex?: true }): void {
  (c.regex ? m.regex : m.values).push(...c.values);
}

/**
 * LBC's buildRuleConditions: the annotation's other conditions in their order, then one
 * host-header (the rule's host OR the annotation's hosts), then one path-pattern (the path's
 * patterns OR the annotation's); a rule with none matches everything (`/*`). A host or path
 * condition takes plain values or regular expressions, never both.
 */
export function ruleConditions(
  host: string | undefined,
  path: HTTPIngressPath,
  field: string,
  extras: RuleExtras = NO_EXTRAS,
): RuleCondition[] {
  const hosts: Match = { values: host ? [host] : [], regex: [] };
  const paths: Match = { values: [], regex: [] };
  if (path.path) {
    if (extras.regexPaths && pathTypeOf(path) === 'ImplementationSpecific') {
      // LBC strips the leading "/" Kubernetes requires: "/^/api/(.+)$" is the regex "^/api/(.+)$".
      const regex = path.path.slice(1);
      if (!regex) {
        throw new InvalidObjectError(
          `${field}.path: with use-regex-path-match the path is "/" + a regular expression, and "/" has none`,
          {
            field: `${field}.path`,
            reason: 'InvalidPath',
          },
        );
      }
      const why = extras.regexPaths(regex, 128);
      if (why) {
        throw new InvalidObjectError(`${field}.path: with use-regex-path-match, "${regex}" ${why}`, {
          field: `${field}.path`,
          reason: 'InvalidPath',
        });
      }
      paths.regex.push(regex);
    } else {
      paths.values.push(...pathPatterns(path.path, pathTypeOf(path), `${field}.path`));
    }
  }
  const conditions: RuleCondition[] = [];
  const seen = new Set<string>();
  for (const c of extras.conditions) {
    if (c.field === 'host-header') mergeMatch(hosts, c);
    else if (c.field === 'path-pattern') mergeMatch(paths, c);
    else {
      if (ONCE_PER_RULE.has(c.field) && seen.has(c.field)) {
        throw annotationError(
          extras.conditionsKey,
          '',
          `a rule takes one ${c.field} condition; list its values in one`,
        );
      }
      seen.add(c.field);
      conditions.push(c);
    }
  }
  for (const [name, m] of [
    ['host-header', hosts],
    ['path-pattern', paths],
  ] as const) {
    if (m.values.length > 0 && m.regex.length > 0) {
      throw annotationError(
        extras.conditionsKey,
        '',
        `the ${name} condition of ${field} would mix values (${m.values.join(', ')}) with regexValues (${m.regex.join(', ')}); ELBv2 takes one or the other`,
      );
    }
    if (m.values.length > 0) conditions.push({ field: name, values: m.values });
    if (m.regex.length > 0) conditions.push({ field: name, values: m.regex, regex: true });
  }
  if (conditions.length === 0) conditions.push({ field: 'path-pattern', values: ['/*'] });
  return conditions;
}
