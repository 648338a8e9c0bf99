import type {
  Action,
  DescribeAccountLimitsInput,
  DescribeAccountLimitsOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { ACCOUNT_LIMITS } from '../config.js';
import { SimError, quotaReached } from '../errors.js';
import type { LoadBalancerRecord } from './model.js';
import { forwardTargetGroups, paginate } from './store.js';
import type { Store } from './store.js';

/** The account's quotas as DescribeAccountLimits lists them (sorted by name, values as strings). */
export function describeAccountLimits(
  store: Store,
  input: DescribeAccountLimitsInput,
): DescribeAccountLimitsOutput {
  const all = ACCOUNT_LIMITS.map(([Name, source], i) => ({
    seq: i + 1,
    Name,
    Max: String(typeof source === 'number' ? source : store.limits[source]),
  }));
  const { page, nextMarker } = paginate(all, input.Marker, input.PageSize);
  return { Limits: page.map(({ Name, Max }) => ({ Name, Max })), NextMarker: nextMarker };
}

/** Every target group a load balancer routes to, optionally as if one rule had other actions. */
function targetGroupsOf(
  store: Store,
  lb: LoadBalancerRecord,
  replace?: { ruleArn?: string; actions: readonly Action[] },
) {
  const out = new Set<string>(replace ? forwardTargetGroups(replace.actions) : []);
  for (const listener of store.listenersOf(lb.arn)) {
    for (const rule of store.rulesOf(listener.arn)) {
      if (rule.arn !== replace?.ruleArn) forwardTargetGroups(rule.actions).forEach((arn) => out.add(arn));
    }
  }
  return out;
}

/** Live registrations (draining ones have left) in a set of target groups. */
export function registrations(store: Store, tgArns: Iterable<string>): number {
  let n = 0;
  for (const arn of tgArns) {
    for (const t of store.targetGroups.get(arn)?.targets.values() ?? [])
      if (t.drainingSince === undefined) n++;
  }
  return n;
}

export function targetsPerLoadBalancer(store: Store, lb: LoadBalancerRecord): number {
  return lb.type === 'application'
    ? store.limits.targetsPerApplicationLoadBalancer
    : store.limits.targetsPerNetworkLoadBalancer;
}

export const tooManyTargetsForLoadBalancer = (limit: number): SimError =>
  quotaReached('TooManyTargets', 'targets per load balancer', limit);

/**
 * What adding `actions` (to a new rule, or replacing a rule's or listener's actions) does to the
 * load balancer's unique target groups and its targets; checked before anything changes.
 */
export function checkRoutingQuotas(
  store: Store,
  lb: LoadBalancerRecord,
  actions: readonly Action[],
  replacingRuleArn?: string,
): void {
  const groups = targetGroupsOf(store, lb, { ruleArn: replacingRuleArn, actions });
  const before = targetGroupsOf(store, lb);
  if (
    lb.type === 'application' &&
    groups.size > before.size &&
    groups.size > store.limits.targetGroupsPerLoadBalancer
  ) {
    throw quotaReached(
      'TooManyUniqueTargetGroupsPerLoadBalancer',
      'unique target groups per load balancer',
      store.limits.targetGroupsPerLoadBalancer,
    );
  }
  const limit = targetsPerLoadBalancer(store, lb);
  const added = [...groups].filter((arn) => !before.has(arn));
  if (added.length > 0 && registrations(store, groups) > limit) throw tooManyTargetsForLoadBalancer(limit);
}

export function tooManyRules(store: Store, lb: LoadBalancerRecord): SimError {
  return new SimError(
    'TooManyRules',
    `The maximum number of rules on load balancer ${lb.arn} has been reached (${store.limits.rulesPerLoadBalancer})`,
  );
}
