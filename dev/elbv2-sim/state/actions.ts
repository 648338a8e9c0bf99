import type { Action, ProtocolEnum } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import { normalizeAuthentication } from './authenticate.js';
import { normalizeForward } from './forward.js';
import type { LoadBalancerRecord } from './model.js';
import { normalizeRedirect } from './redirect.js';
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
export const AUTHENTICATION = new Set(['authenticate-oidc', 'authenticate-cognito', 'jwt-validation']);
const MAX_ACTIONS = 5;

/** Which config member belongs to which action type ("Specify only when Type is ..."). */
const CONFIG_OF: Record<string, keyof Action> = {
  forward: 'ForwardConfig',
  redirect: 'RedirectConfig',
  'fixed-response': 'FixedResponseConfig',
  'authenticate-oidc': 'AuthenticateOidcConfig',
  'authenticate-cognito': 'AuthenticateCognitoConfig',
  'jwt-validation': 'JwtValidationConfig',
};

/** Where the actions go: the listener's protocol decides whether authentication is allowed. */
export interface ActionContext {
  lb: LoadBalancerRecord;
  protocol: ProtocolEnum;
  /** The rule's current actions, for `UseExistingClientSecret` on modify. */
  previous?: readonly Action[];
}

/**
 * Validates actions and returns them in the shape DescribeRules/DescribeListeners report:
 * sorted by Order (filled in when omitted for a single action), a forward to one target group
 * carries both TargetGroupArn and ForwardConfig, redirects and authentication get AWS's defaults.
 */
export function normalizeActions(
  store: Store,
  ctx: ActionContext,
  actions: readonly Action[] | undefined,
): Action[] {
  if (!actions || actions.length === 0) throw required('actions');
  if (actions.length > MAX_ACTIONS)
    throw new SimError('TooManyActions', `You've reached the limit on the number of actions per rule`);
  for (const a of actions) checkRange(a.Order, 'order', 1, 50000);
  if (actions.length > 1 && actions.some((a) => a.Order === undefined)) {
    throw validation(
      'An action order must be specified for each action when a rule has more than one action',
    );
  }
  const orders = actions.map((a) => a.Order).filter((o) => o !== undefined);
  if (new Set(orders).size !== orders.length) throw validation('Action orders must be unique');
  const sorted = actions.map((a, i) => ({ ...a, Order: a.Order ?? i + 1 })).sort((x, y) => x.Order - y.Order);
  for (const a of sorted) checkType(ctx, a);
  const terminals = sorted.filter((a) => TERMINAL.has(a.Type ?? ''));
  if (terminals.length !== 1 || !TERMINAL.has(sorted[sorted.length - 1]?.Type ?? '')) {
    throw new SimError(
      'InvalidLoadBalancerAction',
      'Exactly one forward, redirect or fixed-response action must be specified, and it must be the last action',
    );
  }
  if (sorted.filter((a) => AUTHENTICATION.has(a.Type ?? '')).length > 1) {
    throw new SimError('InvalidLoadBalancerAction', 'A rule can have only one authentication action');
  }
  return sorted.map((action) => normalizeAction(store, ctx, action));
}

function checkType(ctx: ActionContext, action: Action): void {
  if (!action.Type) throw required('actions.member.type');
  checkEnum(action.Type, 'type', ACTION_TYPES);
  if (ctx.lb.type === 'network' && action.Type !== 'forward') {
    throw new SimError(
      'InvalidLoadBalancerAction',
      `Action type '${action.Type}' is not supported for Network Load Balancers`,
    );
  }
  if (AUTHENTICATION.has(action.Type) && ctx.protocol !== 'HTTPS') {
    throw new SimError(
      'InvalidLoadBalancerAction',
      `Action type '${action.Type}' is supported only on HTTPS listeners`,
    );
  }
  for (const [type, member] of Object.entries(CONFIG_OF)) {
    if (type !== action.Type && action[member] !== undefined)
      throw validation(`${member} can be specified only for '${type}' actions`);
  }
  if (action.Type !== 'forward' && action.TargetGroupArn !== undefined)
    throw validation(`TargetGroupArn can be specified only for 'forward' actions`);
}

function normalizeAction(store: Store, ctx: ActionContext, action: Action): Action {
  switch (action.Type) {
    case 'forward':
      return normalizeForward(store, ctx.lb, action, ctx.protocol);
    case 'redirect':
      return normalizeRedirect(ctx.protocol, action);
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
      return normalizeAuthentication(action, ctx.previous ?? []);
  }
}

/** Actions as Describe* report them: an OIDC client secret is write-only. */
export function renderActions(actions: readonly Action[]): Action[] {
  return actions.map((a) => {
    const copy = structuredClone(a);
    if (copy.AuthenticateOidcConfig) delete copy.AuthenticateOidcConfig.ClientSecret;
    return copy;
  });
}
