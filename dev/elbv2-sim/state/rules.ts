import type {
  CreateRuleInput,
  CreateRuleOutput,
  DeleteRuleInput,
  DescribeRulesInput,
  DescribeRulesOutput,
  ModifyRuleInput,
  ModifyRuleOutput,
  Rule,
  SetRulePrioritiesInput,
  SetRulePrioritiesOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import type { RuleRecord } from './model.js';
import { normalizeActions, renderActions } from './actions.js';
import { normalizeConditions } from './conditions.js';
import { checkRoutingQuotas, tooManyRules } from './quotas.js';
import { normalizeTransforms } from './transforms.js';
import { paginate } from './store.js';
import type { Store } from './store.js';
import { applyTags, checkTagQuota } from './tags.js';
import { checkRange, checkTags } from './validate.js';

export function renderRule(rule: RuleRecord): Rule {
  return {
    RuleArn: rule.arn,
    Priority: String(rule.priority),
    Conditions: structuredClone(rule.conditions),
    Actions: renderActions(rule.actions),
    IsDefault: rule.priority === 'default',
    Transforms: rule.transforms.length > 0 ? structuredClone(rule.transforms) : undefined,
  };
}

/** Priority order with the default rule last, which is how the console and DescribeRules list them. */
export const byPriority = (a: RuleRecord, b: RuleRecord): number =>
  (a.priority === 'default' ? Infinity : a.priority) - (b.priority === 'default' ? Infinity : b.priority);

function checkPriority(priority: number | undefined): number {
  if (priority === undefined) throw required('priority');
  checkRange(priority, 'priority', 1, 50000);
  return priority;
}

function nonDefaultRuleCount(store: Store, lbArn: string): number {
  return store
    .listenersOf(lbArn)
    .reduce((n, l) => n + store.rulesOf(l.arn).filter((r) => r.priority !== 'default').length, 0);
}

export function createRule(store: Store, input: CreateRuleInput): CreateRuleOutput {
  const listener = store.listener(input.ListenerArn);
  const lb = store.loadBalancer(listener.loadBalancerArn);
  if (lb.type !== 'application')
    throw validation('Rules can only be created on Application Load Balancer listeners');
  const priority = checkPriority(input.Priority);
  const conditions = normalizeConditions(store, input.Conditions);
  const actions = normalizeActions(store, { lb, protocol: listener.protocol }, input.Actions);
  const transforms = normalizeTransforms(input.Transforms);
  const tags = checkTags(input.Tags);
  checkTagQuota(store, tags);
  if (store.rulesOf(listener.arn).some((r) => r.priority === priority)) {
    throw new SimError('PriorityInUse', `Priority '${priority}' is currently in use`);
  }
  if (nonDefaultRuleCount(store, lb.arn) >= store.limits.rulesPerLoadBalancer) throw tooManyRules(store, lb);
  checkRoutingQuotas(store, lb, actions);
  const [, listenerPath] = listener.arn.split(':listener/');
  const rule: RuleRecord = {
    seq: store.nextSeq(),
    arn: store.arn(`listener-rule/${listenerPath}/${store.newHexId()}`),
    listenerArn: listener.arn,
    priority,
    conditions,
    actions,
    transforms,
  };
  store.rules.set(rule.arn, rule);
  if (tags.length > 0) applyTags(store, rule.arn, tags);
  return { Rules: [renderRule(rule)] };
}

export function describeRules(store: Store, input: DescribeRulesInput): DescribeRulesOutput {
  let items: RuleRecord[];
  if (input.RuleArns?.length) {
    if (input.ListenerArn) throw validation('Rule ARNs and a listener ARN cannot be specified together');
    items = [...new Set(input.RuleArns.map((arn) => store.rule(arn)))];
  } else if (input.ListenerArn) {
    items = store.rulesOf(store.listener(input.ListenerArn).arn).sort(byPriority);
  } else {
    throw validation('You must specify either rule ARNs or a listener ARN');
  }
  const { page, nextMarker } = paginate(items, input.Marker, input.PageSize, true);
  return { Rules: page.map(renderRule), NextMarker: nextMarker };
}

export function modifyRule(store: Store, input: ModifyRuleInput): ModifyRuleOutput {
  const rule = store.rule(input.RuleArn);
  const listener = store.listener(rule.listenerArn);
  const lb = store.loadBalancer(listener.loadBalancerArn);
  if (rule.priority === 'default' && (input.Conditions?.length || input.Transforms?.length)) {
    throw new SimError('OperationNotPermitted', 'Conditions and transforms cannot be set on a default rule');
  }
  if (input.Transforms?.length && input.ResetTransforms)
    throw validation('Transforms and ResetTransforms cannot be specified together');
  const conditions = input.Conditions?.length ? normalizeConditions(store, input.Conditions) : undefined;
  const actions = input.Actions?.length
    ? normalizeActions(store, { lb, protocol: listener.protocol, previous: rule.actions }, input.Actions)
    : undefined;
  const transforms = input.Transforms?.length ? normalizeTransforms(input.Transforms) : undefined;
  if (actions) checkRoutingQuotas(store, lb, actions, rule.arn);
  // Everything validated: apply as one step so a failed call changes nothing.
  if (conditions) rule.conditions = conditions;
  if (actions) rule.actions = actions;
  if (transforms) rule.transforms = transforms;
  if (input.ResetTransforms) rule.transforms = [];
  return { Rules: [renderRule(rule)] };
}

export function deleteRule(store: Store, input: DeleteRuleInput): Record<string, never> {
  const rule = store.rule(input.RuleArn);
  if (rule.priority === 'default')
    throw new SimError('OperationNotPermitted', 'Default rules cannot be deleted');
  store.rules.delete(rule.arn);
  store.deleteTags(rule.arn);
  return {};
}

/** All-or-nothing: every pair is validated against the final layout before any priority moves. */
export function setRulePriorities(store: Store, input: SetRulePrioritiesInput): SetRulePrioritiesOutput {
  const pairs = input.RulePriorities ?? [];
  if (pairs.length === 0) throw required('rulePriorities');
  const changes = new Map<RuleRecord, number>();
  for (const pair of pairs) {
    const rule = store.rule(pair.RuleArn);
    if (rule.priority === 'default')
      throw new SimError('OperationNotPermitted', 'The default rule priority cannot be changed');
    if (changes.has(rule)) throw validation(`Rule '${rule.arn}' appears more than once`);
    changes.set(rule, checkPriority(pair.Priority));
  }
  const listeners = new Set([...changes.keys()].map((r) => r.listenerArn));
  for (const listenerArn of listeners) {
    const used = new Map<number, RuleRecord>();
    for (const rule of store.rulesOf(listenerArn)) {
      const priority = changes.get(rule) ?? rule.priority;
      if (priority === 'default') continue;
      if (used.has(priority))
        throw new SimError('PriorityInUse', `Priority '${priority}' is currently in use`);
      used.set(priority, rule);
    }
  }
  for (const [rule, priority] of changes) rule.priority = priority;
  return { Rules: [...changes.keys()].map(renderRule) };
}
