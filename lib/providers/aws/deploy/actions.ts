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
import type {
  Action,
  AuthenticationAction,
  AuthenticationSession,
  RuleCondition,
  RuleTransform,
} from '../model/types.js';
import { secretRef, type Arn, type Planned } from './refs.js';

export type ArnResolver = (resourceId: string) => Arn;

/** An action as a plan holds it: its target groups' ARNs and client secret may be placeholders. */
export type PlannedAction = Planned<SdkAction>;

function toSdkAction(a: Action, order: number, resolve: ArnResolver): PlannedAction {
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
  if (a.type !== 'fixed-response') return toSdkAuthentication(a, order);
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

/**
 * An authentication action. The OIDC client secret is a placeholder (`secretRef`) that only the
 * apply step replaces with the value, so that plans, logs and errors never hold it.
 */
function toSdkAuthentication(a: AuthenticationAction, order: number): PlannedAction {
  if (a.type === 'jwt-validation') {
    const j = a.jwt;
    return {
      Type: 'jwt-validation',
      Order: order,
      JwtValidationConfig: {
        JwksEndpoint: j.jwksEndpoint,
        Issuer: j.issuer,
        ...(j.additionalClaims
          ? {
              AdditionalClaims: j.additionalClaims.map((c) => ({
                Name: c.name,
                Format: c.format,
                Values: [...c.values],
              })),
            }
          : {}),
      },
    };
  }
  const session = (c: AuthenticationSession) => ({
    OnUnauthenticatedRequest: c.onUnauthenticatedRequest,
    Scope: c.scope,
    SessionCookieName: c.sessionCookieName,
    SessionTimeout: c.sessionTimeout,
    ...(c.extraParams ? { AuthenticationRequestExtraParams: { ...c.extraParams } } : {}),
  });
  if (a.type === 'authenticate-cognito') {
    const c = a.cognito;
    return {
      Type: 'authenticate-cognito',
      Order: order,
      AuthenticateCognitoConfig: {
        UserPoolArn: c.userPoolArn,
        UserPoolClientId: c.userPoolClientId,
        UserPoolDomain: c.userPoolDomain,
        ...session(c),
      },
    };
  }
  const o = a.oidc;
  return {
    Type: 'authenticate-oidc',
    Order: order,
    AuthenticateOidcConfig: {
      Issuer: o.issuer,
      AuthorizationEndpoint: o.authorizationEndpoint,
      TokenEndpoint: o.tokenEndpoint,
      UserInfoEndpoint: o.userInfoEndpoint,
      ClientId: o.clientId,
      ClientSecret: secretRef(o.clientSecret.secret),
      ...session(o),
    },
  };
}

/** Whether the actions authenticate with OIDC (their client secret is write-only in ELBv2). */
export function usesOidc(actions: readonly Action[]): boolean {
  return actions.some((a) => a.type === 'authenticate-oidc');
}

export function toSdkActions(actions: readonly Action[], resolve: ArnResolver): PlannedAction[] {
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

/** A placeholder's ARN compares (and prints) as `{{arn:<resource id>}}`: equal to no ARN. */
function forwardKey(a: PlannedAction): unknown[] {
  const groups = a.ForwardConfig?.TargetGroups ?? [];
  const stickiness = a.ForwardConfig?.TargetGroupStickinessConfig;
  const sticky = stickiness?.Enabled === true ? (stickiness.DurationSeconds ?? 0) : 0;
  // One group without stickiness is a plain forward however it is spelled (its weight means nothing).
  const single = a.TargetGroupArn ?? (groups.length === 1 ? groups[0]?.TargetGroupArn : undefined);
  if (single !== undefined && groups.length <= 1 && sticky === 0) return ['forward', single];
  return ['forward', groups.map((g) => `${g.TargetGroupArn ?? ''}=${g.Weight ?? 1}`).sort(), sticky];
}

/** A string that is equal for equal actions, whichever way ELBv2 spells them. */
export function actionsKey(actions: readonly PlannedAction[] | undefined): string {
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
      if (a.Type === 'authenticate-oidc' || a.Type === 'authenticate-cognito') return authenticationKey(a);
      if (a.Type === 'jwt-validation') {
        const j = a.JwtValidationConfig;
        const claims = (j?.AdditionalClaims ?? []).map((c) => [c.Name ?? '', c.Format ?? '', c.Values ?? []]);
        return ['jwt-validation', j?.JwksEndpoint ?? '', j?.Issuer ?? '', claims];
      }
      return [a.Type ?? '', JSON.stringify(a)];
    });
  return JSON.stringify(canon);
}

/**
 * An authenticate action without its client secret (DescribeRules never returns it; the deploy
 * tells a rotated one by the Secret's version, deploy/plan.ts) and with ELBv2's defaults.
 */
function authenticationKey(a: PlannedAction): unknown[] {
  const c = a.AuthenticateOidcConfig ?? a.AuthenticateCognitoConfig;
  const o = a.AuthenticateOidcConfig;
  const g = a.AuthenticateCognitoConfig;
  const extra = Object.entries(c?.AuthenticationRequestExtraParams ?? {}).sort(([x], [y]) =>
    x < y ? -1 : 1,
  );
  return [
    a.Type ?? '',
    o ? [o.Issuer, o.AuthorizationEndpoint, o.TokenEndpoint, o.UserInfoEndpoint, o.ClientId] : [],
    g ? [g.UserPoolArn, g.UserPoolClientId, g.UserPoolDomain] : [],
    c?.OnUnauthenticatedRequest ?? 'authenticate',
    c?.Scope ?? 'openid',
    c?.SessionCookieName ?? 'AWSELBAuthSessionCookie',
    c?.SessionTimeout ?? 604800,
    extra,
  ];
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
