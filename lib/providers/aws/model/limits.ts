/**
 * ELBv2 quotas checked on the model (anchors §4.5), so that a stack AWS would refuse half-way
 * through is refused before the first call: LBC's #1856 "Too many rules results in an uncleanable
 * state" is what happens otherwise.
 */
import { InvalidObjectError } from '../../../errors.js';
import { MAX_NAME_LENGTH } from '../naming.js';
import { resourcesOf, ResourceTypes, type Stack } from './types.js';

export const LIMITS = {
  /** rules-per-application-load-balancer (default rules excluded). */
  rulesPerLoadBalancer: 100,
  /** Condition values per rule (host-header + path-pattern values together). */
  conditionValuesPerRule: 5,
  /** target-groups-per-application-load-balancer (not adjustable). */
  targetGroupsPerLoadBalancer: 100,
  /** listeners-per-{application,network}-load-balancer. */
  listenersPerLoadBalancer: 50,
} as const;

const LIMIT_EXCEEDED = 'LimitExceeded';

export interface LimitFields {
  /** Field reported when there are too many rules (e.g. `spec.rules`). */
  rules: string;
  /** Field reported when there are too many target groups or listeners (e.g. `spec.ports`). */
  targetGroups: string;
  /** Rule resource ID → field path of the rule in the object (else `rules`). */
  ruleField?: (ruleId: string) => string | undefined;
}

export function checkLimits(stack: Stack, fields: LimitFields): void {
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
  if (rules.length > LIMITS.rulesPerLoadBalancer) {
    throw new InvalidObjectError(
      `${fields.rules}: ${rules.length} listener rules exceed the quota of ${LIMITS.rulesPerLoadBalancer} rules per load balancer`,
      { field: fields.rules, reason: LIMIT_EXCEEDED },
    );
  }
  for (const r of rules) {
    const values = r.spec.conditions.reduce((n, c) => n + c.values.length, 0);
    if (values > LIMITS.conditionValuesPerRule) {
      const field = fields.ruleField?.(r.id) ?? fields.rules;
      throw new InvalidObjectError(
        `${field}: rule ${r.id} has ${values} condition values; ELBv2 allows ${LIMITS.conditionValuesPerRule} per rule`,
        { field, reason: LIMIT_EXCEEDED },
      );
    }
  }
  const tgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  if (tgs.length > LIMITS.targetGroupsPerLoadBalancer) {
    throw new InvalidObjectError(
      `${fields.targetGroups}: ${tgs.length} target groups exceed the quota of ${LIMITS.targetGroupsPerLoadBalancer} per load balancer`,
      { field: fields.targetGroups, reason: LIMIT_EXCEEDED },
    );
  }
  const listeners = resourcesOf(stack, ResourceTypes.Listener);
  if (listeners.length > LIMITS.listenersPerLoadBalancer) {
    throw new InvalidObjectError(
      `${fields.targetGroups}: ${listeners.length} listeners exceed the quota of ${LIMITS.listenersPerLoadBalancer} per load balancer`,
      { field: fields.targetGroups, reason: LIMIT_EXCEEDED },
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
