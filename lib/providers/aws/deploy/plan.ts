/**
 * The whole stack's change plan, in LBC's order (pkg/deploy/stack_deployer.go) but for the
 * targets and retired listeners: target groups → registrations → load balancer → listeners →
 * rules → listeners on ports no longer served → deregistrations →
 * orphaned target groups (a load balancer going
 * back to ipv4 does so after the rules, once none routes to an ipv6 group); the fingerprint tag is
 * invalidated first and written last. Pure: discovery (discover.ts) gathers the `ActualStack`.
 */
import { resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { createHash } from 'node:crypto';
import { MANAGED_SECURITY_GROUP_ID, securityGroupRef } from '../model/security-group.js';
import type { LoadBalancerResource } from '../model/types.js';
import {
  FINGERPRINT_PENDING,
  FINGERPRINT_TAG,
  OIDC_SECRETS_TAG,
  recordToTags,
  SECURITY_GROUP_TAG,
} from '../tagging.js';
import { planSecurityGroups } from './security-group.js';
import { decideNlbSecurityGroups } from './nlb-security-groups.js';
import { DNS_NAME_TAG, legacyTargetTags } from './targets-only.js';
import { planListenerRules } from './listener-rule.js';
import type { ActualStack } from './discover.js';
import { planListeners } from './listener.js';
import { planIpAddressType, planLoadBalancer, type PlannedLoadBalancer } from './load-balancer.js';
import type { Operation, PlanContext } from './operations.js';
import { arnRef, dnsRef, type Arn } from './refs.js';
import { planTargetGroups } from './target-group.js';
import { planTargetOps } from './targets.js';
import { planEdge, planProtectionDeletions } from './edge.js';
import { isFrontendNlb, planFrontendNlb } from './frontend-nlb.js';
import { isFrontendResource } from '../model/frontend-nlb.js';
import { LOAD_BALANCER_ID } from '../model/types.js';

/**
 * A stack's plan context: the fingerprint the deploy records when it is done, and the other tags
 * recorded with it on the load balancer (its DNS name; the targets are recorded in
 * Kubernetes, target-records.ts).
 */
export interface StackPlanContext extends PlanContext {
  fingerprint: string;
  record?: Readonly<Record<string, string>>;
}

export function planStack(modelled: Stack, actual: ActualStack, pc: StackPlanContext): Operation[] {
  const { fingerprint } = pc;
  // An NLB created without security groups keeps none (AWS adds none to it).
  const { stack } = decideNlbSecurityGroups(modelled, actual.loadBalancer);
  const modelLb = resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID);
  if (!modelLb) throw new Error(`stack ${stack.id} has no load balancer`);
  // The managed security group first: the load balancer names it by ID (or by the placeholder
  // of the one this plan creates); groups the stack no longer wants go last.
  if (stack.securityGroup && !actual.securityGroups)
    throw new Error(`stack ${stack.id} has a managed security group but its groups were not read`);
  const groups = planSecurityGroups(pc, stack.securityGroup, actual.securityGroups ?? []);
  const lbRes = withManagedGroup(modelLb, groups.groupId);
  // Every group is planned together (one that no resource keeps is an orphan); the frontend
  // NLB's (target type alb) are filled by planFrontendNlb, not from endpoints.
  const allTgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  const desiredTgs = allTgs.filter((r) => !isFrontendResource(r));
  const tgs = planTargetGroups(pc, allTgs, actual.targetGroups);
  const resolve = (id: string) => tgs.kept.get(id)?.tg.TargetGroupArn ?? arnRef(id);

  // A rotated OIDC client secret is invisible in DescribeRules: the Secrets' versions recorded on
  // the load balancer tell whether the rules that authenticate must be given the secret again.
  const secrets = oidcSecretsVersion(stack);
  const rotated = secrets !== undefined && actual.loadBalancer?.tags[OIDC_SECRETS_TAG] !== secrets;
  const lbOps = planLoadBalancer(pc, lbRes, actual.loadBalancer, actual.staleLoadBalancers);
  const ipType = planIpAddressType(lbRes, actual.loadBalancer);
  const lbArn = actual.loadBalancer?.lb.LoadBalancerArn ?? arnRef(lbRes.id);
  const edge = planEdge(lbRes, lbArn, actual.loadBalancer, actual.webAclArn);
  const listeners = planListeners(
    pc,
    lbArn,
    resourcesOf(stack, ResourceTypes.Listener).filter((r) => !isFrontendResource(r)),
    actual.loadBalancer ? actual.listeners : [],
    resolve,
    actual.trustStores,
    rotated,
  );
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
  // A listener with no rules of ours and none described (a TCP listener) plans nothing.
  const ruleOps = [...listeners.deployed].flatMap(([id, l]) =>
    planListenerRules(
      pc,
      l.arn,
      rules.filter((r) => r.spec.listener.$ref === id),
      l.rules,
      resolve,
      l.tags,
      rotated,
    ),
  );
  const targetOps = desiredTgs.map((tg) => {
    const kept = tgs.kept.get(tg.id);
    const arn = kept?.tg.TargetGroupArn;
    return planTargetOps(
      tg.id,
      arn ?? arnRef(tg.id),
      tg.spec.targets,
      arn ? (actual.targets.get(arn) ?? []) : undefined,
    );
  });
  const frontend = planFrontendNlb(
    pc,
    stack,
    actual.frontendNlb,
    {
      albArn: lbArn,
      resolve,
      groupArn: (id) => tgs.kept.get(id)?.tg.TargetGroupArn,
      targets: actual.targets,
      withManagedGroup: (lb) => withManagedGroup(lb, groups.groupId),
    },
    actual.loadBalancer?.tags ?? {},
  );
  // Registrations before the rules, deregistrations after them, groups deleted last: whatever
  // moves (a new group, a mode switch, a drained cluster back), no rule ever forwards to a group
  // that is missing or not yet filled.
  const changes = [
    ...planProtectionDeletions(actual.staleLoadBalancers),
    ...edge.release,
    ...groups.upserts,
    ...tgs.upserts,
    ...targetOps.flatMap((t) => t.register),
    ...lbOps,
    ...edge.ensure,
    ...ipType.early,
    ...listeners.operations,
    ...ruleOps,
    ...frontend.operations,
    // After the frontend NLB points at the listeners that stay.
    ...listeners.retired,
    ...ipType.late,
    ...targetOps.flatMap((t) => t.deregister),
    ...tgs.deletes,
    ...groups.deletes,
  ];

  const current = actual.loadBalancer?.tags[FINGERPRINT_TAG];
  const plan: Operation[] = [];
  if (changes.length > 0 && actual.loadBalancer && current !== undefined && current !== FINGERPRINT_PENDING) {
    plan.push({
      op: 'modify',
      resource: 'LoadBalancer',
      id: lbRes.id,
      detail: 'fingerprint invalidated until this deploy completes',
      calls: [
        {
          action: 'AddTags',
          input: { ResourceArns: [lbArn], Tags: [{ Key: FINGERPRINT_TAG, Value: FINGERPRINT_PENDING }] },
        },
      ],
    });
  }
  plan.push(...changes);
  const record = {
    [DNS_NAME_TAG]: actual.loadBalancer?.lb.DNSName ?? dnsRef(lbRes.id),
    ...pc.record,
    ...(secrets !== undefined ? { [OIDC_SECRETS_TAG]: secrets } : {}),
    ...(groups.groupId !== undefined ? { [SECURITY_GROUP_TAG]: groups.groupId } : {}),
    ...frontend.record,
    [FINGERPRINT_TAG]: fingerprint,
  };
  const tags = actual.loadBalancer?.tags ?? {};
  // The record of a group no longer wanted goes once the plan deleted it (see SECURITY_GROUP_TAG).
  const stale = [
    ...legacyTargetTags(tags),
    ...(secrets === undefined && tags[OIDC_SECRETS_TAG] !== undefined ? [OIDC_SECRETS_TAG] : []),
    ...(groups.groupId === undefined && tags[SECURITY_GROUP_TAG] !== undefined ? [SECURITY_GROUP_TAG] : []),
    ...frontend.staleRecord,
  ];
  if (changes.length > 0 || Object.entries(record).some(([k, v]) => tags[k] !== v) || stale.length > 0) {
    plan.push({
      op: 'modify',
      resource: 'LoadBalancer',
      id: lbRes.id,
      detail: `fingerprint ${fingerprint}`,
      calls: [
        ...(stale.length
          ? [{ action: 'RemoveTags' as const, input: { ResourceArns: [lbArn], TagKeys: stale } }]
          : []),
        { action: 'AddTags', input: { ResourceArns: [lbArn], Tags: recordToTags(record) } },
      ],
    });
  }
  return plan;
}

/**
 * The load balancer naming its managed group by `groupId` (the model names it by its own marker,
 * model/security-group.ts securityGroupRef), or by the placeholder of the group this plan creates.
 */
function withManagedGroup(lb: LoadBalancerResource, groupId: Arn | undefined): PlannedLoadBalancer {
  const ref = securityGroupRef(MANAGED_SECURITY_GROUP_ID);
  const groups = lb.spec.securityGroups;
  if (!groups?.includes(ref)) return lb;
  if (groupId === undefined)
    throw new Error(`load balancer ${lb.spec.name} names a managed group that is not planned`);
  return { ...lb, spec: { ...lb.spec, securityGroups: groups.map((g) => (g === ref ? groupId : g)) } };
}

/**
 * The versions of every OIDC client Secret the stack's actions use, hashed (undefined: none is
 * used). Recorded on the load balancer with the fingerprint.
 */
export function oidcSecretsVersion(stack: Stack): string | undefined {
  const refs = new Set<string>();
  for (const r of stack.resources) {
    const actions =
      r.type === ResourceTypes.Listener
        ? r.spec.defaultActions
        : r.type === ResourceTypes.ListenerRule
          ? r.spec.actions
          : [];
    for (const a of actions) {
      if (a.type === 'authenticate-oidc')
        refs.add(`${a.oidc.clientSecret.secret}@${a.oidc.clientSecret.version}`);
    }
  }
  if (refs.size === 0) return undefined;
  return createHash('sha256')
    .update([...refs].sort().join(','))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Deleting what discovery found of a stack: load balancers first (their listeners and rules go
 * with them), then target groups, then the managed security groups (in use until the load
 * balancers are gone: a DependencyViolation is retried later, apply.ts).
 */
export function planDeletion(
  actual: Pick<ActualStack, 'loadBalancer' | 'staleLoadBalancers' | 'targetGroups' | 'securityGroups'>,
): Operation[] {
  // A frontend NLB before the ALB it forwards to (and its groups after both).
  const loadBalancers = [
    ...(actual.loadBalancer ? [actual.loadBalancer] : []),
    ...actual.staleLoadBalancers,
  ].sort((a, b) => Number(isFrontendNlb(b)) - Number(isFrontendNlb(a)));
  return [
    // Shield keeps a protection whose load balancer is gone: ours go first.
    ...planProtectionDeletions(loadBalancers),
    ...loadBalancers.map((l): Operation => ({
      op: 'delete',
      resource: 'LoadBalancer',
      id: l.lb.LoadBalancerName ?? '',
      detail: 'stack deleted',
      calls: [{ action: 'DeleteLoadBalancer', input: { LoadBalancerArn: l.lb.LoadBalancerArn } }],
    })),
    ...actual.targetGroups.map((t): Operation => ({
      op: 'delete',
      resource: 'TargetGroup',
      id: t.tg.TargetGroupName ?? '',
      detail: 'stack deleted',
      calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: t.tg.TargetGroupArn } }],
    })),
    ...(actual.securityGroups ?? []).map((g): Operation => ({
      op: 'delete',
      resource: 'SecurityGroup',
      id: g.groupName,
      detail: `${g.groupId}: stack deleted`,
      calls: [{ action: 'DeleteSecurityGroup', input: { GroupId: g.groupId } }],
    })),
  ];
}
