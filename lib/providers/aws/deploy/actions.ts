/**
 * Model actions/conditions/transforms ⇄ SDK shapes, and a canonical form for comparing what we
 * want with what DescribeRules/DescribeListeners return (which adds ForwardConfig, legacy
 * `Values`, the redirect defaults it filled in, etc.), so that an unchanged rule is a no-op.
 */
import type {
  Action as SdkAction,
  RuleCondition as SdkCondition,
  RuleTransform as SdkTransform,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Action, RuleCondition, RuleTransform } from '../model/types.js';

export type ArnResolver = (resourceId: string) => string;

function toSdkAction(a: Action, order: number, resolve: ArnResolver): SdkAction {
  if (a.type === 'forward') {
    if ('targetGroup' in a)
      return { Type: 'forward', Order: order, TargetGroupArn: resolve(a.targetGroup.$ref) };
    return {
      Type: 'forward',
      Order: order,
      ForwardConfig: {
        TargetGroups: a.targetGroups.map((g) => ({
          TargetGroupArn: resolve(g.targetGroup.$ref),
          Weight: g.weight,
        })),
        ...(a.stickiness
          ? {
              TargetGroupStickinessConfig: {
                Enabled: a.stickiness.enabled,
                ...(a.stickiness.durationSeconds !== undefined
                  ? { DurationSeconds: a.stickiness.durationSeconds }
                  : {}),
              },
            }
          : {}),
      },
    };
  }
  if (a.type === 'redirect') {
    const r = a.redirect;
    return {
      Type: 'redirect',
      Order: order,
      RedirectConfig: {
        ...(r.protocol !== undefined ? { Protocol: r.protocol } : {}),
        ...(r.port !== undefined ? { Port: r.port } : {}),
        ...(r.host !== undefined ? { Host: r.host } : {}),
        ...(r.path !== undefined ? { Path: r.path } : {}),
        ...(r.query !== undefined ? { Query: r.query } : {}),
        StatusCode: r.statusCode,
      },
    };
  }
  const f = a.fixedResponse;
  return {
    Type: 'fixed-response',
    Order: order,
    FixedResponseConfig: {
      StatusCode: f.statusCode,
      ...(f.contentType !== undefined ? { ContentType: f.contentType } : {}),
      ...(f.messageBody !== undefined ? { MessageBody: f.messageBody } : {}),
    },
  };
}

export function toSdkActions(actions: readonly Action[], resolve: ArnResolver): SdkAction[] {
  return actions.map((a, i) => toSdkAction(a, i + 1, resolve));
}

function toSdkCondition(c: RuleCondition): SdkCondition {
  const match = (values: string[], regex: true | undefined) =>
    regex ? { RegexValues: values } : { Values: values };
  switch (c.field) {
    case 'host-header':
      return { Field: c.field, HostHeaderConfig: match(c.values, c.regex) };
    case 'path-pattern':
      return { Field: c.field, PathPatternConfig: match(c.values, c.regex) };
    case 'http-header':
      return {
        Field: c.field,
        HttpHeaderConfig: { HttpHeaderName: c.httpHeaderName, ...match(c.values, c.regex) },
      };
    case 'http-request-method':
      return { Field: c.field, HttpRequestMethodConfig: { Values: c.values } };
    case 'source-ip':
      return { Field: c.field, SourceIpConfig: { Values: c.values } };
    case 'query-string':
      return {
        Field: c.field,
        QueryStringConfig: {
          Values: c.values.map((p) =>
            p.key !== undefined ? { Key: p.key, Value: p.value } : { Value: p.value },
          ),
        },
      };
  }
}

export function toSdkConditions(conditions: readonly RuleCondition[]): SdkCondition[] {
  return conditions.map(toSdkCondition);
}

export function toSdkTransforms(transforms: readonly RuleTransform[] | undefined): SdkTransform[] {
  return (transforms ?? []).map((t): SdkTransform => {
    const rewrites = { Rewrites: t.rewrites.map((r) => ({ Regex: r.regex, Replace: r.replace })) };
    return t.type === 'host-header-rewrite'
      ? { Type: t.type, HostHeaderRewriteConfig: rewrites }
      : { Type: t.type, UrlRewriteConfig: rewrites };
  });
}

function forwardKey(a: SdkAction): unknown[] {
  const groups = a.ForwardConfig?.TargetGroups ?? [];
  const stickiness = a.ForwardConfig?.TargetGroupStickinessConfig;
  const sticky = stickiness?.Enabled === true ? (stickiness.DurationSeconds ?? 0) : 0;
  // One group without stickiness is a plain forward however it is spelled (its weight means nothing).
  const single = a.TargetGroupArn ?? (groups.length === 1 ? groups[0]?.TargetGroupArn : undefined);
  if (single !== undefined && groups.length <= 1 && sticky === 0) return ['forward', single];
  return ['forward', groups.map((g) => `${g.TargetGroupArn ?? ''}=${g.Weight ?? 1}`).sort(), sticky];
}

/** A string that is equal for equal actions, whichever way ELBv2 spells them. */
export function actionsKey(actions: readonly SdkAction[] | undefined): string {
  const canon = [...(actions ?? [])]
    .sort((a, b) => (a.Order ?? 0) - (b.Order ?? 0))
    .map((a) => {
      if (a.Type === 'forward') return forwardKey(a);
      if (a.Type === 'fixed-response') {
        const f = a.FixedResponseConfig;
        return ['fixed-response', f?.StatusCode ?? '', f?.ContentType ?? '', f?.MessageBody ?? ''];
      }
      if (a.Type === 'redirect') {
        // ELBv2 reports the defaults it filled in for what was left out: compare with them.
        const r = a.RedirectConfig;
        return [
          'redirect',
          r?.Protocol ?? '#{protocol}',
          r?.Port ?? '#{port}',
          r?.Host ?? '#{host}',
          r?.Path ?? '/#{path}',
          r?.Query ?? '#{query}',
          r?.StatusCode ?? '',
        ];
      }
      return [a.Type ?? '', JSON.stringify(a)];
    });
  return JSON.stringify(canon);
}

/** What a condition matches, as sortable text; ELBv2 reports host/path values in two places. */
function conditionKey(c: SdkCondition): string {
  const match = (config: { Values?: string[]; RegexValues?: string[] } | undefined, legacy?: string[]) => {
    const regex = config?.RegexValues ?? [];
    return regex.length > 0
      ? ['regex', [...regex].sort()]
      : ['values', [...(config?.Values ?? legacy ?? [])].sort()];
  };
  switch (c.Field) {
    case 'host-header':
      return JSON.stringify([c.Field, match(c.HostHeaderConfig, c.Values)]);
    case 'path-pattern':
      return JSON.stringify([c.Field, match(c.PathPatternConfig, c.Values)]);
    case 'http-header':
      // Header names are case-insensitive in HTTP and in ELBv2's matching.
      return JSON.stringify([
        c.Field,
        c.HttpHeaderConfig?.HttpHeaderName?.toLowerCase() ?? '',
        match(c.HttpHeaderConfig),
      ]);
    case 'http-request-method':
      return JSON.stringify([c.Field, [...(c.HttpRequestMethodConfig?.Values ?? [])].sort()]);
    case 'source-ip':
      return JSON.stringify([c.Field, [...(c.SourceIpConfig?.Values ?? [])].sort()]);
    case 'query-string':
      return JSON.stringify([
        c.Field,
        (c.QueryStringConfig?.Values ?? []).map((p) => JSON.stringify([p.Key ?? null, p.Value ?? ''])).sort(),
      ]);
    default:
      return JSON.stringify([c.Field ?? '', c]);
  }
}

/** Conditions are ANDed, so their order does not matter: compared as a sorted set. */
export function conditionsKey(conditions: readonly SdkCondition[] | undefined): string {
  return JSON.stringify((conditions ?? []).map(conditionKey).sort());
}

/** Transforms, compared in the order given (a rule has at most one of each type). */
export function transformsKey(transforms: readonly SdkTransform[] | undefined): string {
  const canon = (transforms ?? [])
    .map((t) => {
      const rewrites = (t.Type === 'host-header-rewrite' ? t.HostHeaderRewriteConfig : t.UrlRewriteConfig)
        ?.Rewrites;
      return JSON.stringify([t.Type ?? '', (rewrites ?? []).map((r) => [r.Regex ?? '', r.Replace ?? ''])]);
    })
    .sort();
  return JSON.stringify(canon);
}
