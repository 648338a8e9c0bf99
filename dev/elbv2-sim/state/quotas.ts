import type {
  Action,
  DescribeAccountLimitsInput,
  DescribeAccountLimitsOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { ACCOUNT_LIMITS } from '../config.js';
import { SimError, quotaReached } from '../errors.js';
import { vpcSubnet } from '../network.js';
import type { LoadBalancerRecord, TargetRecord } from './model.js';
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
function liveTargets(store: Store, tgArns: Iterable<string>): TargetRecord[] {
  const out: TargetRecord[] = [];
  for (const arn of tgArns) {
    for (const t of store.targetGroups.get(arn)?.targets.values() ?? [])
      if (t.drainingSince === undefined) out.push(t);
  }
  return out;
}

/** The target groups a load balancer routes to now. */
export const routedTargetGroups = (store: Store, lb: LoadBalancerRecord): Set<string> =>
  targetGroupsOf(store, lb);

/**
 * Whether the load balancer's targets (in `tgArns`, plus `extra` about to be registered) fit its
 * quotas: targets per ALB or NLB, and for an NLB targets per zone (an `all` target counts in every
 * zone), which with cross-zone load balancing on caps the whole NLB.
 */
export function checkTargetsFit(
  store: Store,
  lb: LoadBalancerRecord,
  tgArns: Iterable<string>,
  extra: readonly TargetRecord[] = [],
): void {
  const targets = [...liveTargets(store, tgArns), ...extra];
  const limit =
    lb.type === 'application'
      ? store.limits.targetsPerApplicationLoadBalancer
      : store.limits.targetsPerNetworkLoadBalancer;
  if (targets.length > limit) throw quotaReached('TooManyTargets', 'targets per load balancer', limit);
  if (lb.type !== 'network') return;
  const perZone = store.limits.targetsPerAvailabilityZonePerNetworkLoadBalancer;
  if (lb.attributes.get('load_balancing.cross_zone.enabled') === 'true') {
    if (targets.length > perZone)
      throw quotaReached(
        'TooManyTargets',
        'targets per load balancer with cross-zone load balancing',
        perZone,
      );
    return;
  }
  const zones = new Set(lb.subnets.map((id) => vpcSubnet(store.network, id)?.availabilityZone));
  for (const zone of zones) {
    const n = targets.filter((t) => t.availabilityZone === zone || t.availabilityZone === 'all').length;
    if (n > perZone)
      throw quotaReached('TooManyTargets', 'targets per Availability Zone per load balancer', perZone);
  }
}

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
  if ([...groups].some((arn) => !before.has(arn))) checkTargetsFit(store, lb, groups);
}

export function tooManyRules(store: Store, lb: LoadBalancerRecord): SimError {
  return new SimError(
    'TooManyRules',
    `The maximum number of rules on load balancer ${lb.arn} has been reached (${store.limits.rulesPerLoadBalancer})`,
  );
}
