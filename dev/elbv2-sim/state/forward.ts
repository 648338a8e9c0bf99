import type { Action, TargetGroupTuple } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import type { LoadBalancerRecord } from './model.js';
import type { Store } from './store.js';
import { checkRange } from './validate.js';
import { nlbsFronting, NLBS_PER_ALB_TARGET } from './targets.js';

const ALB_TG_PROTOCOLS = new Set(['HTTP', 'HTTPS']);

/** The target groups a forward names, from ForwardConfig or the single-group TargetGroupArn. */
function tuplesOf(action: Action): TargetGroupTuple[] {
  const tuples = action.ForwardConfig?.TargetGroups ?? [];
  if (action.TargetGroupArn && tuples.length > 0) {
    // "you can specify only one target group using ForwardConfig and it must be the same
    // target group specified in TargetGroupArn" (API_Action).
    if (tuples.length !== 1 || tuples[0]?.TargetGroupArn !== action.TargetGroupArn) {
      throw validation(
        'You cannot specify multiple target groups in ForwardConfig when TargetGroupArn is specified, ' +
          'and the target group in ForwardConfig must be the same as TargetGroupArn',
      );
    }
  }
  if (tuples.length > 0) return tuples;
  return action.TargetGroupArn ? [{ TargetGroupArn: action.TargetGroupArn }] : [];
}

/**
 * What an NLB listener may forward to, by its protocol (API_CreateListener / CreateTargetGroup):
 * a TLS listener terminates TLS and forwards over TCP or TLS again; TCP_UDP needs TCP_UDP.
 */
const NLB_TG_PROTOCOLS: Readonly<Record<string, readonly string[]>> = {
  TCP: ['TCP', 'TCP_UDP'],
  TLS: ['TCP', 'TLS'],
  UDP: ['UDP', 'TCP_UDP'],
  TCP_UDP: ['TCP_UDP'],
};

function checkTargetGroup(
  store: Store,
  lb: LoadBalancerRecord,
  arn: string | undefined,
  listenerProtocol: string | undefined,
): void {
  const tg = store.targetGroup(arn, 'targetGroupArn');
  const nlbAllowed = listenerProtocol ? NLB_TG_PROTOCOLS[listenerProtocol] : undefined;
  const compatible =
    lb.type === 'application'
      ? ALB_TG_PROTOCOLS.has(tg.protocol ?? 'HTTP')
      : !ALB_TG_PROTOCOLS.has(tg.protocol ?? '') && (!nlbAllowed || nlbAllowed.includes(tg.protocol ?? ''));
  if (!compatible) {
    throw new SimError(
      'IncompatibleProtocols',
      `Target group '${tg.arn}' uses protocol ${tg.protocol}, incompatible with a ${lb.type} load balancer${lb.type === 'network' && listenerProtocol ? ` listener of protocol ${listenerProtocol}` : ''}`,
    );
  }
  if (
    tg.targetType === 'alb' &&
    (lb.type !== 'network' || (listenerProtocol && listenerProtocol !== 'TCP'))
  ) {
    throw new SimError(
      'IncompatibleProtocols',
      `Target group '${tg.arn}' has target type 'alb': only a TCP listener of a Network Load Balancer can forward to it`,
    );
  }
  if (tg.targetType === 'alb') {
    for (const t of tg.targets.values()) {
      if (nlbsFronting(store, t.id, { tg: tg.arn, lb: lb.arn }).size > NLBS_PER_ALB_TARGET)
        throw new SimError(
          'TooManyRegistrationsForTargetId',
          `The Application Load Balancer '${t.id}' is already the target of ${NLBS_PER_ALB_TARGET} Network Load Balancers`,
        );
    }
  }
  if (tg.ipAddressType === 'ipv6' && lb.ipAddressType === 'ipv4') {
    throw validation(
      `Target group '${tg.arn}' has IP address type 'ipv6' and can only be used with a dualstack load balancer`,
    );
  }
  if (store.loadBalancersOfTargetGroup(tg.arn).some((other) => other !== lb.arn)) {
    throw new SimError(
      'TargetGroupAssociationLimit',
      `The following target groups cannot be associated with more than one load balancer: ${tg.arn}`,
    );
  }
}

/**
 * An NLB forward across several groups, as LBC's documentation of `actions.${protocol}-${port}`
 * states AWS's rules: a TLS listener's groups use one protocol, and every NLB forward's groups
 * one IP address type (a dualstack NLB's could differ).
 */
function checkNlbGroupsAgree(
  store: Store,
  groups: readonly TargetGroupTuple[],
  listenerProtocol: string | undefined,
): void {
  const tgs = groups.map((g) => store.targetGroup(g.TargetGroupArn, 'targetGroupArn'));
  if (listenerProtocol === 'TLS' && new Set(tgs.map((t) => t.protocol)).size > 1) {
    throw validation('All target groups in the default action must use the same protocol');
  }
  if (new Set(tgs.map((t) => t.ipAddressType ?? 'ipv4')).size > 1) {
    throw validation('All target groups in the default action must use the same IP address type');
  }
}

export function normalizeForward(
  store: Store,
  lb: LoadBalancerRecord,
  action: Action,
  /** The listener's protocol (an NLB listener forwards only to some protocols). */
  listenerProtocol?: string,
): Action {
  const groups = tuplesOf(action);
  if (groups.length === 0) throw required('targetGroupArn');
  // NLB listeners take weighted target groups too (what LBC's `actions.${protocol}-${port}`
  // Service annotation builds), within the same per-action quota as ALB rules.
  const maxGroups = store.limits.targetGroupsPerAction;
  if (groups.length > maxGroups) {
    throw validation(`A forward action can have at most ${maxGroups} target groups`);
  }
  const seen = new Set<string>();
  for (const g of groups) {
    checkRange(g.Weight, 'weight', 0, 999);
    if (!g.TargetGroupArn) throw required('forwardConfig.targetGroups.member.targetGroupArn');
    if (seen.has(g.TargetGroupArn))
      throw validation(
        `Target group '${g.TargetGroupArn}' is specified more than once in the forward action`,
      );
    seen.add(g.TargetGroupArn);
    checkTargetGroup(store, lb, g.TargetGroupArn, listenerProtocol);
  }
  if (lb.type === 'network' && groups.length > 1) checkNlbGroupsAgree(store, groups, listenerProtocol);
  const stickiness = action.ForwardConfig?.TargetGroupStickinessConfig;
  checkRange(stickiness?.DurationSeconds, 'durationSeconds', 1, 604800);
  if (stickiness?.Enabled && stickiness.DurationSeconds === undefined)
    throw validation('A duration must be specified when target group stickiness is enabled');
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
