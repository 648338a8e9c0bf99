/**
 * ELBv2 quotas checked on the model (anchors §4.5), so that a stack AWS would refuse half-way
 * through is refused before the first call: LBC's #1856 "Too many rules results in an uncleanable
 * state" is what happens otherwise. Most quotas are adjustable: a stack is checked against AWS's
 * defaults, and only one over a default makes the provider read the account's own
 * (account-quotas.ts, DescribeAccountLimits once per container) and check again.
 */
import { InvalidObjectError } from '../../../errors.js';
import { MAX_NAME_LENGTH } from '../naming.js';
import {
  resourcesOf,
  ResourceTypes,
  type Action,
  type ElbQuotas,
  type RuleCondition,
  type Stack,
} from './types.js';

export type { ElbQuotas } from './types.js';

/** AWS's defaults (the ALB and NLB quota pages): what a stack is checked against first. */
export const DEFAULT_QUOTAS: Readonly<ElbQuotas> = {
  rulesPerLoadBalancer: 100,
  conditionValuesPerRule: 5,
  conditionWildcardsPerRule: 5,
  matchEvaluationsPerRule: 5,
  targetGroupsPerAction: 5,
  targetGroupsPerLoadBalancer: 100,
  listenersPerApplicationLoadBalancer: 50,
  listenersPerNetworkLoadBalancer: 50,
  targetsPerApplicationLoadBalancer: 1000,
  targetsPerNetworkLoadBalancer: 3000,
  targetsPerTargetGroup: 1000,
};

/** DescribeAccountLimits' names (API_Limit) of the quotas it reports. */
export const ACCOUNT_LIMIT_NAMES: Readonly<Partial<Record<keyof ElbQuotas, string>>> = {
  rulesPerLoadBalancer: 'rules-per-application-load-balancer',
  conditionValuesPerRule: 'condition-values-per-alb-rule',
  conditionWildcardsPerRule: 'condition-wildcards-per-alb-rule',
  targetGroupsPerAction: 'target-groups-per-action-on-application-load-balancer',
  targetGroupsPerLoadBalancer: 'target-groups-per-application-load-balancer',
  listenersPerApplicationLoadBalancer: 'listeners-per-application-load-balancer',
  listenersPerNetworkLoadBalancer: 'listeners-per-network-load-balancer',
  targetsPerApplicationLoadBalancer: 'targets-per-application-load-balancer',
  targetsPerNetworkLoadBalancer: 'targets-per-network-load-balancer',
};

const LIMIT_EXCEEDED = 'LimitExceeded';

/** Where a rule comes from: its path's field, and the annotations that shaped it (named in errors). */
export interface RuleSource {
  field: string;
  annotations?: readonly string[];
}

export interface LimitFields {
  /** Field reported when there are too many rules (e.g. `spec.rules`). */
  rules: string;
  /** Field reported when there are too many target groups, listeners or targets (e.g. `spec.ports`). */
  targetGroups: string;
  /** Rule resource ID → where the rule comes from in the object (else `rules`). */
  ruleField?: (ruleId: string) => RuleSource | undefined;
}

/** A stack over one of the quotas: the account's may be higher than the defaults it was checked on. */
export class QuotaExceededError extends InvalidObjectError {
  override name = 'QuotaExceededError';
  constructor(
    message: string,
    field: string,
    readonly quota: keyof ElbQuotas,
  ) {
    super(message, { field, reason: LIMIT_EXCEEDED });
  }
}

/**
 * Refuses a stack over the account's quotas if they were read, else over AWS's defaults, naming
 * the field, the count and the quota, and whether the quota is the account's or the default.
 */
export function checkLimits(stack: Stack, fields: LimitFields, accountQuotas?: Readonly<ElbQuotas>): void {
  const quotas = accountQuotas ?? DEFAULT_QUOTAS;
  const quota = (n: number) => (accountQuotas ? `the account's quota of ${n}` : `the quota of ${n}`);
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
  if (rules.length > quotas.rulesPerLoadBalancer) {
    throw new QuotaExceededError(
      `${fields.rules}: ${rules.length} listener rules exceed ${quota(quotas.rulesPerLoadBalancer)} rules per load balancer`,
      fields.rules,
      'rulesPerLoadBalancer',
    );
  }
  for (const r of rules) {
    const source = fields.ruleField?.(r.id);
    const field = source?.field ?? fields.rules;
    const at = source?.annotations ? `${field} (annotation ${source.annotations.join(', ')})` : field;
    const values = r.spec.conditions.reduce((n, c) => n + c.values.length, 0);
    if (values > quotas.conditionValuesPerRule) {
      throw new QuotaExceededError(
        `${at}: rule ${r.id} has ${values} condition values; ELBv2 allows ${quotas.conditionValuesPerRule} per rule`,
        field,
        'conditionValuesPerRule',
      );
    }
    if (values > quotas.matchEvaluationsPerRule) {
      throw new QuotaExceededError(
        `${at}: rule ${r.id} has ${values} match evaluations (one per condition value); ELBv2 allows ${quotas.matchEvaluationsPerRule} per rule`,
        field,
        'matchEvaluationsPerRule',
      );
    }
    const wildcards = r.spec.conditions.reduce((n, c) => n + conditionWildcards(c), 0);
    if (wildcards > quotas.conditionWildcardsPerRule) {
      throw new QuotaExceededError(
        `${at}: rule ${r.id} has ${wildcards} wildcards (* and ?) in its conditions; ELBv2 allows ${quotas.conditionWildcardsPerRule} per rule`,
        field,
        'conditionWildcardsPerRule',
      );
    }
    checkTargetGroupsPerAction(r.spec.actions, field, `${at}: rule ${r.id}`, quotas);
  }
  for (const l of resourcesOf(stack, ResourceTypes.Listener)) {
    checkTargetGroupsPerAction(
      l.spec.defaultActions,
      fields.targetGroups,
      `${fields.targetGroups}: listener ${l.id}`,
      quotas,
    );
  }
  const tgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  if (tgs.length > quotas.targetGroupsPerLoadBalancer) {
    throw new QuotaExceededError(
      `${fields.targetGroups}: ${tgs.length} target groups exceed ${quota(quotas.targetGroupsPerLoadBalancer)} per load balancer`,
      fields.targetGroups,
      'targetGroupsPerLoadBalancer',
    );
  }
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  const network = lb?.spec.type === 'network';
  const listeners = resourcesOf(stack, ResourceTypes.Listener);
  const listenerQuota = network ? 'listenersPerNetworkLoadBalancer' : 'listenersPerApplicationLoadBalancer';
  if (listeners.length > quotas[listenerQuota]) {
    throw new QuotaExceededError(
      `${fields.targetGroups}: ${listeners.length} listeners exceed ${quota(quotas[listenerQuota])} per load balancer`,
      fields.targetGroups,
      listenerQuota,
    );
  }
  for (const tg of tgs) {
    if (tg.spec.targets.length > quotas.targetsPerTargetGroup) {
      throw new QuotaExceededError(
        `${fields.targetGroups}: target group ${tg.id} has ${tg.spec.targets.length} targets; ELBv2 allows ${quotas.targetsPerTargetGroup} per target group`,
        fields.targetGroups,
        'targetsPerTargetGroup',
      );
    }
  }
  // A target counts once per group it is registered in.
  const targets = tgs.reduce((n, tg) => n + tg.spec.targets.length, 0);
  const targetQuota = network ? 'targetsPerNetworkLoadBalancer' : 'targetsPerApplicationLoadBalancer';
  if (targets > quotas[targetQuota]) {
    throw new QuotaExceededError(
      `${fields.targetGroups}: ${targets} targets across the load balancer's target groups exceed ${quota(quotas[targetQuota])} per load balancer`,
      fields.targetGroups,
      targetQuota,
    );
  }
  for (const r of stack.resources) {
    if (
      (r.type === ResourceTypes.LoadBalancer || r.type === ResourceTypes.TargetGroup) &&
      r.spec.name.length > MAX_NAME_LENGTH
    ) {
      throw new InvalidObjectError(
        `${r.id}: name "${r.spec.name}" is longer than ${MAX_NAME_LENGTH} characters`,
        {
          field: r.id,
          reason: LIMIT_EXCEEDED,
        },
      );
    }
  }
}

/** `*` and `?` not escaped with a backslash; a regular expression has none (its `*` is no wildcard). */
function wildcardsIn(value: string): number {
  return (value.replace(/\\[*?]/g, '').match(/[*?]/g) ?? []).length;
}

export function conditionWildcards(c: RuleCondition): number {
  switch (c.field) {
    case 'host-header':
    case 'path-pattern':
    case 'http-header':
      return c.regex ? 0 : c.values.reduce((n, v) => n + wildcardsIn(v), 0);
    case 'query-string':
      return c.values.reduce((n, p) => n + wildcardsIn(p.value) + wildcardsIn(p.key ?? ''), 0);
    default:
      return 0;
  }
}

/** `owner`: how the message names what has the actions (with its field). */
function checkTargetGroupsPerAction(
  actions: readonly Action[],
  field: string,
  owner: string,
  quotas: Readonly<ElbQuotas>,
): void {
  for (const a of actions) {
    if (a.type !== 'forward' || 'targetGroup' in a) continue;
    if (a.targetGroups.length > quotas.targetGroupsPerAction) {
      throw new QuotaExceededError(
        `${owner} forwards to ${a.targetGroups.length} target groups; ELBv2 allows ${quotas.targetGroupsPerAction} per action`,
        field,
        'targetGroupsPerAction',
      );
    }
  }
}
