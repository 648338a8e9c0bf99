/**
 * Whether two rules of one ALB can match one request by host and path: what makes the earlier
 * one take the later one's traffic. An IngressGroup shared by several namespaces refuses a
 * member whose route overlaps a route of another namespace's member ahead of it
 * (model/ingress-group.ts), because ELBv2 sends each request to the first rule that matches.
 *
 * ELBv2's host and path patterns know two wildcards, `*` (any run of characters) and `?` (one
 * character); hosts compare case-insensitively, paths case-sensitively. Two patterns overlap when
 * some string matches both. A rule without a host (or path) condition matches every host (or
 * path); a regular expression (regexValues) cannot be compared, so it counts as matching every
 * value: the check may refuse a route that would not have collided, never let one through that does.
 */
import type { RuleCondition } from './types.js';

/** One route's host and path patterns; undefined: every host (or path). */
export interface RouteMatch {
  hosts: readonly string[] | undefined;
  paths: readonly string[] | undefined;
}

function patternsOf(
  conditions: readonly RuleCondition[],
  field: 'host-header' | 'path-pattern',
): string[] | undefined {
  const c = conditions.find((x) => x.field === field);
  if (!c || c.field !== field || c.regex) return undefined;
  return field === 'host-header' ? c.values.map((v) => v.toLowerCase()) : [...c.values];
}

export function routeMatch(conditions: readonly RuleCondition[]): RouteMatch {
  return { hosts: patternsOf(conditions, 'host-header'), paths: patternsOf(conditions, 'path-pattern') };
}

/** Whether some string matches both patterns (`*`: any run, `?`: one character). */
export function patternsOverlap(a: string, b: string): boolean {
  // seen[i][j]: the suffixes a[i..] and b[j..] were tried (and share no string).
  const seen = new Set<number>();
  const width = b.length + 1;
  const walk = (i: number, j: number): boolean => {
    if (i === a.length && j === b.length) return true;
    const at = i * width + j;
    if (seen.has(at)) return false;
    seen.add(at);
    const x = a[i];
    const y = b[j];
    // A star matches nothing, or takes one more character (or wildcard) of the other side.
    if (x === '*' && (walk(i + 1, j) || (j < b.length && walk(i, j + 1)))) return true;
    if (y === '*' && (walk(i, j + 1) || (i < a.length && walk(i + 1, j)))) return true;
    if (x === undefined || y === undefined || x === '*' || y === '*') return false;
    return (x === '?' || y === '?' || x === y) && walk(i + 1, j + 1);
  };
  return walk(0, 0);
}

function listsOverlap(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return a.some((x) => b.some((y) => patternsOverlap(x, y)));
}

/** Whether a request can match both routes by host and path. */
export function routesOverlap(a: RouteMatch, b: RouteMatch): boolean {
  return listsOverlap(a.hosts, b.hosts) && listsOverlap(a.paths, b.paths);
}

/** `host "a.example.com" and path "/api"`, as a message names a route (its own values only). */
export function describeRoute(m: RouteMatch): string {
  const host =
    m.hosts === undefined ? 'any host' : `host ${m.hosts.map((h) => JSON.stringify(h)).join(' or ')}`;
  const path =
    m.paths === undefined ? 'any path' : `path ${m.paths.map((p) => JSON.stringify(p)).join(' or ')}`;
  return `${host} and ${path}`;
}
