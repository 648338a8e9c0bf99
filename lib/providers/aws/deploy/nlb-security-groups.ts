/**
 * AWS's rule for NLB security groups, which the model (model/nlb-security-group.ts) cannot apply
 * since it does not see AWS: an NLB created without security groups never gets any, and one
 * created with them keeps at least one. So, as LBC does from the existing load balancer
 * (pkg/service/model_build_load_balancer.go): an NLB of ours that has none keeps none, whatever
 * the model asks (never a silent replacement: a new `aws-load-balancer-name` replaces it, announced),
 * and `disable-nlb-sg` on one that has some is refused ("conflicting security groups configuration").
 */
import { InvalidObjectError } from '../../../errors.js';
import { NLB_KEYS } from '../model/annotations/keys.js';
import { resourcesOf, ResourceTypes, type ModelWarning, type Stack } from '../model/types.js';
import type { OwnedLoadBalancer } from './load-balancer.js';
import { asActual, ruleText } from './security-group.js';

export const NLB_KEPT_WITHOUT_SECURITY_GROUPS = 'NlbKeptWithoutSecurityGroups';
export const NLB_SECURITY_GROUPS_REQUIRED = 'NlbSecurityGroupsRequired';

export interface NlbGroupsDecision {
  /** The stack to plan: the one given, or it without security groups (the NLB keeps none). */
  stack: Stack;
  /** Said when the NLB is kept without the security groups the stack asks for. */
  notice?: ModelWarning;
}

export function decideNlbSecurityGroups(
  stack: Stack,
  actual: OwnedLoadBalancer | undefined,
): NlbGroupsDecision {
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  const have = actual?.lb;
  if (!lb || have?.Type !== 'network') return { stack };
  const has = (have.SecurityGroups ?? []).length > 0;
  const wants = (lb.spec.securityGroups ?? []).length > 0;
  if (has && !wants) {
    throw new InvalidObjectError(
      `annotation ${NLB_KEYS.disableNlbSecurityGroups}: NLB ${lb.spec.name} has security groups (${(have.SecurityGroups ?? []).join(', ')}), and AWS never takes the last one from an NLB created with them (as LBC, "conflicting security groups configuration"): remove the annotation, or delete the MultiClusterService to recreate its NLB without`,
      { field: NLB_KEYS.disableNlbSecurityGroups, reason: NLB_SECURITY_GROUPS_REQUIRED },
    );
  }
  if (has || !wants) return { stack };
  const managed = stack.securityGroup;
  const asked = managed
    ? `the managed security group (${managed.ingress.map((r) => ruleText(asActual(r))).join(', ')})`
    : `security groups ${(lb.spec.securityGroups ?? []).join(', ')}`;
  const { securityGroups: _groups, privateLinkInboundRules: _privateLink, ...spec } = lb.spec;
  const { securityGroup: _managed, ...rest } = stack;
  return {
    stack: {
      ...rest,
      resources: stack.resources.map((r) => (r === lb ? { ...lb, spec } : r)),
    },
    notice: {
      reason: NLB_KEPT_WITHOUT_SECURITY_GROUPS,
      message: `NLB ${lb.spec.name} was created without security groups, and AWS never adds any to such an NLB: it is kept without them (as LBC keeps it), so ${asked} and any ${NLB_KEYS.privateLinkInboundRules} do not apply and its listen ports stay open to every source. To give it security groups, set ${NLB_KEYS.name} to a new name: the NLB is replaced (announced; its DNS name changes)`,
    },
  };
}
