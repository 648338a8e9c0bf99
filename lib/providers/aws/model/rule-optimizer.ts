/**
 * LBC's rule optimiser (pkg/ingress/rule_optimizer.go), per listener: a redirect rule that would
 * send a request back to the same listener, host and path (an endless loop, e.g. an
 * `actions.ssl-redirect` to HTTPS on the HTTPS listener) is dropped, and so is every rule after a
 * redirect whose host/path conditions cover it (it could never match, and it costs a rule).
 */
import type { Action, RedirectSpec, RuleCondition } from './types.js';

export interface OptimizableRule {
  conditions: readonly RuleCondition[];
  actions: readonly Action[];
}

function redirectOf(actions: readonly Action[]): RedirectSpec | undefined {
  for (const a of actions) if (a.type === 'redirect') return a.redirect;
  return undefined;
}

/** Whether the rule's redirect leads to where it was (LBC's isInfiniteRedirectRule). */
export function isInfiniteRedirect(port: number, protocol: string, rule: OptimizableRule): boolean {
  const r = redirectOf(rule.actions);
  if (!r) return false;
  const hosts = new Set<string>();
  const paths = new Set<string>();
  for (const c of rule.conditions) {
    if (c.field === 'host-header') c.values.forEach((v) => hosts.add(v));
    if (c.field === 'path-pattern') {
      // Regex paths are not compared, as LBC.
      if (c.regex) return false;
      c.values.forEach((v) => paths.add(v));
    }
  }
  if (r.host !== undefined && r.host !== '#{host}' && !hosts.has(r.host)) return false;
  if (r.path !== undefined && r.path !== '/#{path}' && !paths.has(r.path)) return false;
  if (r.port !== undefined && r.port !== '#{port}' && r.port !== String(port)) return false;
  if (r.protocol !== undefined && r.protocol !== '#{protocol}' && r.protocol !== protocol) return false;
  if (r.query !== undefined && r.query !== '#{query}') return false;
  return true;
}

/** Whether every request `rhs` matches is matched by `lhs` (LBC's isSupersetConditions). */
export function coversConditions(lhs: readonly RuleCondition[], rhs: readonly RuleCondition[]): boolean {
  const lhsHosts = new Set<string>();
  const lhsPaths = new Set<string>();
  for (const c of lhs) {
    if (c.field === 'host-header') c.values.forEach((v) => lhsHosts.add(v));
    else if (c.field === 'path-pattern') c.values.forEach((v) => lhsPaths.add(v));
    // Any other condition narrows lhs in a way not compared here: not a superset.
    else return false;
  }
  const rhsHosts = new Set<string>();
  const rhsPaths = new Set<string>();
  for (const c of rhs) {
    if (c.field === 'host-header') c.values.forEach((v) => rhsHosts.add(v));
    else if (c.field === 'path-pattern') c.values.forEach((v) => rhsPaths.add(v));
  }
  const superset = (a: Set<string>, b: Set<string>) => b.size > 0 && [...b].every((v) => a.has(v));
  const hostsCover = lhsHosts.size === 0 || superset(lhsHosts, rhsHosts);
  const pathsCover = lhsPaths.size === 0 || lhsPaths.has('/*') || superset(lhsPaths, rhsPaths);
  return hostsCover && pathsCover;
}

/** The rules one listener keeps, in order. */
export function optimizeRules<R extends OptimizableRule>(
  port: number,
  protocol: string,
  rules: readonly R[],
): R[] {
  const kept: R[] = [];
  for (const rule of rules) {
    if (isInfiniteRedirect(port, protocol, rule)) continue;
    if (kept.some((k) => redirectOf(k.actions) && coversConditions(k.conditions, rule.conditions))) continue;
    kept.push(rule);
  }
  return kept;
}
