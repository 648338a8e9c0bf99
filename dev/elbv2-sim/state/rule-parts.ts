import type { Action, RuleCondition } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import type { LoadBalancerRecord } from './model.js';
import type { Store } from './store.js';
import { checkEnum, checkRange } from './validate.js';

const ACTION_TYPES = [
  'forward',
  'redirect',
  'fixed-response',
  'authenticate-oidc',
  'authenticate-cognito',
  'jwt-validation',
];
const TERMINAL = new Set(['forward', 'redirect', 'fixed-response']);
const ALB_TG_PROTOCOLS = new Set(['HTTP', 'HTTPS']);

/**
 * Validates actions and returns them in the shape DescribeRules/DescribeListeners report:
 * sorted by Order (filled in when omitted), a forward to one target group carries both
 * TargetGroupArn and ForwardConfig, redirects get AWS's `#{...}` defaults.
 */
export function normalizeActions(
  store: Store,
  lb: LoadBalancerRecord,
  actions: readonly Action[] | undefined,
): Action[] {
  if (!actions || actions.length === 0) throw required('actions');
  if (actions.length > 5) throw new SimError('TooManyActions', 'A rule can have at most 5 actions');
  const orders = actions.map((a) => a.Order);
  for (const order of orders) checkRange(order, 'order', 1, 50000);
  if (new Set(orders.filter((o) => o !== undefined)).size !== orders.filter((o) => o !== undefined).length) {
    throw validation('Action orders must be unique');
  }
  const sorted = actions
    .map((a, i) => ({ a, order: a.Order ?? i + 1 }))
    .sort((x, y) => x.order - y.order)
    .map(({ a, order }) => ({ ...a, Order: order }));
  const terminals = sorted.filter((a) => TERMINAL.has(a.Type ?? ''));
  if (terminals.length !== 1 || !TERMINAL.has(sorted[sorted.length - 1]?.Type ?? '')) {
    throw new SimError(
      'InvalidLoadBalancerAction',
      'Exactly one forward, redirect or fixed-response action must be last',
    );
  }
  return sorted.map((action) => normalizeAction(store, lb, action));
}

function normalizeAction(store: Store, lb: LoadBalancerRecord, action: Action): Action {
  if (!action.Type) throw required('actions.member.type');
  checkEnum(action.Type, 'type', ACTION_TYPES);
  if (lb.type === 'network' && action.Type !== 'forward') {
    throw new SimError(
      'InvalidLoadBalancerAction',
      `Action type '${action.Type}' is not supported for Network Load Balancers`,
    );
  }
  switch (action.Type) {
    case 'forward':
      return normalizeForward(store, lb, action);
    case 'redirect': {
      const c = action.RedirectConfig;
      if (!c?.StatusCode) throw required('redirectConfig.statusCode');
      checkEnum(c.StatusCode, 'redirectConfig.statusCode', ['HTTP_301', 'HTTP_302']);
      return {
        Type: 'redirect',
        Order: action.Order,
        RedirectConfig: {
          Protocol: c.Protocol ?? '#{protocol}',
          Port: c.Port ?? '#{port}',
          Host: c.Host ?? '#{host}',
          Path: c.Path ?? '/#{path}',
          Query: c.Query ?? '#{query}',
          StatusCode: c.StatusCode,
        },
      };
    }
    case 'fixed-response': {
      const c = action.FixedResponseConfig;
      if (!c?.StatusCode) throw required('fixedResponseConfig.statusCode');
      if (!/^[245]\d\d$/.test(c.StatusCode))
        throw validation(`Status code '${c.StatusCode}' must be 2XX, 4XX or 5XX`);
      checkEnum(c.ContentType, 'contentType', [
        'text/plain',
        'text/css',
        'text/html',
        'application/javascript',
        'application/json',
      ]);
      if ((c.MessageBody ?? '').length > 1024)
        throw validation('Fixed response message body is limited to 1024 characters');
      return { Type: 'fixed-response', Order: action.Order, FixedResponseConfig: { ...c } };
    }
    default:
      return { ...action };
  }
}

function normalizeForward(store: Store, lb: LoadBalancerRecord, action: Action): Action {
  const tuples = action.ForwardConfig?.TargetGroups ?? [];
  if (action.TargetGroupArn && tuples.length > 0) {
    if (tuples.length !== 1 || tuples[0]?.TargetGroupArn !== action.TargetGroupArn) {
      throw validation(
        'TargetGroupArn and ForwardConfig must name the same single target group when both are given',
      );
    }
  }
  const groups =
    tuples.length > 0 ? tuples : action.TargetGroupArn ? [{ TargetGroupArn: action.TargetGroupArn }] : [];
  if (groups.length === 0) throw required('targetGroupArn');
  if (groups.length > store.limits.targetGroupsPerAction) {
    throw validation(`A forward action can have at most ${store.limits.targetGroupsPerAction} target groups`);
  }
  if (lb.type === 'network' && groups.length > 1)
    throw validation('Network Load Balancer listeners forward to one target group');
  const seen = new Set<string>();
  for (const g of groups) {
    checkRange(g.Weight, 'weight', 0, 999);
    const tg = store.targetGroup(g.TargetGroupArn, 'targetGroupArn');
    if (seen.has(tg.arn)) throw validation(`Target group '${tg.arn}' is listed more than once`);
    seen.add(tg.arn);
    const compatible =
      lb.type === 'application'
        ? ALB_TG_PROTOCOLS.has(tg.protocol ?? 'HTTP')
        : !ALB_TG_PROTOCOLS.has(tg.protocol ?? '');
    if (!compatible) {
      throw new SimError(
        'IncompatibleProtocols',
        `Target group '${tg.arn}' uses protocol ${tg.protocol}, incompatible with a ${lb.type} load balancer`,
      );
    }
    if (store.loadBalancersOfTargetGroup(tg.arn).some((other) => other !== lb.arn)) {
      throw new SimError(
        'TargetGroupAssociationLimit',
        `The following target groups cannot be associated with more than one load balancer: ${tg.arn}`,
      );
    }
  }
  const stickiness = action.ForwardConfig?.TargetGroupStickinessConfig;
  checkRange(stickiness?.DurationSeconds, 'durationSeconds', 1, 604800);
  return {
    Type: 'forward',
    TargetGroupArn: groups.length === 1 ? groups[0]!.TargetGroupArn : undefined,
    Order: action.Order,
    ForwardConfig: {
      TargetGroups: groups.map((g) => ({ TargetGroupArn: g.TargetGroupArn, Weight: g.Weight ?? 1 })),
      TargetGroupStickinessConfig: stickiness?.Enabled
        ? { Enabled: true, DurationSeconds: stickiness.DurationSeconds }
        : { Enabled: false },
    },
  };
}

const CONDITION_FIELDS = [
  'host-header',
  'path-pattern',
  'http-header',
  'http-request-method',
  'query-string',
  'source-ip',
];
const ONCE_ONLY = new Set(['host-header', 'path-pattern', 'http-request-method', 'source-ip']);

function pickValues(field: string, legacy: string[] | undefined, config: string[] | undefined): string[] {
  if (legacy?.length && config?.length && legacy.join('\n') !== config.join('\n')) {
    throw validation(`Condition '${field}' has different Values and ${field} config values`);
  }
  const values = legacy?.length ? legacy : (config ?? []);
  if (values.length === 0) throw validation(`Condition '${field}' must have at least one value`);
  for (const v of values)
    if (v.length > 128) throw validation(`Condition value '${v}' is longer than 128 characters`);
  return [...values];
}

/** Validates conditions (fields, once-only fields, the per-rule value quota) and fills both spellings. */
export function normalizeConditions(
  store: Store,
  conditions: readonly RuleCondition[] | undefined,
): RuleCondition[] {
  if (!conditions || conditions.length === 0) throw required('conditions');
  let valueCount = 0;
  const seen = new Set<string>();
  const out = conditions.map((c): RuleCondition => {
    if (!c.Field) throw required('conditions.member.field');
    checkEnum(c.Field, 'field', CONDITION_FIELDS);
    if (ONCE_ONLY.has(c.Field) && seen.has(c.Field))
      throw validation(`A rule can have only one '${c.Field}' condition`);
    seen.add(c.Field);
    switch (c.Field) {
      case 'host-header': {
        const values = pickValues(c.Field, c.Values, c.HostHeaderConfig?.Values);
        valueCount += values.length;
        return { Field: c.Field, Values: values, HostHeaderConfig: { Values: [...values] } };
      }
      case 'path-pattern': {
        const values = pickValues(c.Field, c.Values, c.PathPatternConfig?.Values);
        valueCount += values.length;
        return { Field: c.Field, Values: values, PathPatternConfig: { Values: [...values] } };
      }
      case 'http-header': {
        const cfg = c.HttpHeaderConfig;
        if (!cfg?.HttpHeaderName) throw required('httpHeaderConfig.httpHeaderName');
        const values = pickValues(c.Field, undefined, cfg.Values);
        valueCount += values.length;
        return { Field: c.Field, HttpHeaderConfig: { HttpHeaderName: cfg.HttpHeaderName, Values: values } };
      }
      case 'http-request-method': {
        const values = pickValues(c.Field, c.Values, c.HttpRequestMethodConfig?.Values);
        valueCount += values.length;
        return { Field: c.Field, HttpRequestMethodConfig: { Values: values } };
      }
      case 'query-string': {
        const values = c.QueryStringConfig?.Values ?? [];
        if (values.length === 0) throw validation(`Condition 'query-string' must have at least one value`);
        valueCount += values.length;
        return { Field: c.Field, QueryStringConfig: { Values: values.map((v) => ({ ...v })) } };
      }
      default: {
        const values = pickValues(c.Field, c.Values, c.SourceIpConfig?.Values);
        valueCount += values.length;
        return { Field: c.Field, SourceIpConfig: { Values: values } };
      }
    }
  });
  if (valueCount > store.limits.conditionValuesPerRule) {
    throw validation(`A rule can only have '${store.limits.conditionValuesPerRule}' condition values`);
  }
  return out;
}
