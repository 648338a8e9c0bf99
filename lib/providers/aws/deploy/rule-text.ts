/**
 * A listener rule in words, for the change plan: what it matches, what it does, and how it
 * rewrites the request, e.g. `host-header app.example.com; path-pattern /api /api/* → forward
 * default/web-a:80 80%, default/web-b:80 20% (sticky 300 s)`. Target groups are named by their
 * resource IDs (the Service and port they serve), which say more than an ARN.
 */
import type { Action, ListenerRuleSpec, RuleCondition, RuleTransform } from '../model/types.js';

const list = (values: readonly string[]) => values.join(' ');

export function conditionText(c: RuleCondition): string {
  switch (c.field) {
    case 'query-string':
      return `${c.field} ${list(c.values.map((p) => (p.key !== undefined ? `${p.key}=${p.value}` : p.value)))}`;
    case 'http-header':
      return `${c.field} ${c.httpHeaderName}${c.regex ? ' ~' : ':'} ${list(c.values)}`;
    case 'host-header':
    case 'path-pattern':
      return `${c.field}${c.regex ? ' ~' : ''} ${list(c.values)}`;
    default:
      return `${c.field} ${list(c.values)}`;
  }
}

export function actionText(a: Action): string {
  if (a.type === 'forward') {
    if ('targetGroup' in a) return `forward ${a.targetGroup.$ref}`;
    const total = a.targetGroups.reduce((n, g) => n + g.weight, 0);
    const groups = a.targetGroups.map(
      (g) => `${g.targetGroup.$ref} ${total > 0 ? Math.round((g.weight * 100) / total) : 0}%`,
    );
    const sticky = a.stickiness?.enabled ? ` (sticky ${a.stickiness.durationSeconds ?? 0} s)` : '';
    return `forward ${groups.join(', ')}${sticky}`;
  }
  if (a.type === 'redirect') {
    const r = a.redirect;
    const target = `${r.protocol ?? '#{protocol}'}://${r.host ?? '#{host}'}:${r.port ?? '#{port}'}${r.path ?? '/#{path}'}?${r.query ?? '#{query}'}`;
    return `redirect ${r.statusCode.replace('HTTP_', '')} to ${target}`;
  }
  if (a.type === 'authenticate-oidc') return `authenticate-oidc ${a.oidc.issuer} (client ${a.oidc.clientId})`;
  if (a.type === 'authenticate-cognito') return `authenticate-cognito ${a.cognito.userPoolArn}`;
  if (a.type === 'jwt-validation') return `jwt-validation ${a.jwt.issuer}`;
  const f = a.fixedResponse;
  return `fixed-response ${f.statusCode}${f.contentType ? ` ${f.contentType}` : ''}${
    f.messageBody !== undefined ? ` ${JSON.stringify(f.messageBody)}` : ''
  }`;
}

export function transformText(t: RuleTransform): string {
  const what = t.type === 'url-rewrite' ? 'rewrite URL' : 'rewrite host';
  return t.rewrites.map((r) => `${what} ${r.regex} → ${r.replace}`).join(', ');
}

export function ruleText(spec: Pick<ListenerRuleSpec, 'conditions' | 'actions' | 'transforms'>): string {
  const transforms = (spec.transforms ?? []).map(transformText);
  return [
    `${spec.conditions.map(conditionText).join('; ')} → ${spec.actions.map(actionText).join(', then ')}`,
    ...transforms,
  ].join('; ');
}
