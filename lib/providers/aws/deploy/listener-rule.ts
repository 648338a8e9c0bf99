/** Listener rules of one listener, planned with rule-plan.ts's 404-free ordering. */
import type {
  Rule,
  RuleCondition as SdkCondition,
  RuleTransform as SdkTransform,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ListenerRuleResource } from '../model/types.js';
import { recordToTags, tagsToRemove } from '../tagging.js';
import {
  actionsKey,
  conditionsKey,
  toSdkActions,
  toSdkConditions,
  toSdkTransforms,
  transformsKey,
  usesOidc,
  type ArnResolver,
  type PlannedAction,
} from './actions.js';
import { ruleText } from './rule-text.js';
import { planTags, type Operation, type PlanContext, type PlannedCall } from './operations.js';
import type { Arn } from './refs.js';
import { planRules, type DesiredRuleKey } from './rule-plan.js';

interface DesiredRule extends DesiredRuleKey {
  conditions: SdkCondition[];
  actions: PlannedAction[];
  transforms: SdkTransform[];
  /** What the rule does, for the change plan. */
  text: string;
  tags: Record<string, string>;
}

const settingsOf = (
  conditions: SdkCondition[] | undefined,
  actions: PlannedAction[] | undefined,
  transforms: SdkTransform[] | undefined,
) => `${conditionsKey(conditions)}|${actionsKey(actions)}|${transformsKey(transforms)}`;

/** `actual` undefined: the listener is created by this plan, so it has no rules yet. */
export function planListenerRules(
  pc: PlanContext,
  listenerArn: Arn,
  desiredRules: readonly ListenerRuleResource[],
  actual: readonly Rule[] | undefined,
  resolve: ArnResolver,
  /** Actual tags by rule ARN, when described (resync): kept rules get theirs repaired. */
  actualTags?: ReadonlyMap<string, Record<string, string>>,
  /** An OIDC client Secret changed: rules that authenticate with OIDC are modified in place. */
  secretsRotated = false,
): Operation[] {
  const desired: DesiredRule[] = desiredRules.map((r) => {
    const conditions = toSdkConditions(r.spec.conditions);
    const actions = toSdkActions(r.spec.actions, resolve);
    const transforms = toSdkTransforms(r.spec.transforms);
    // No actual rule has these settings, so the rule is given its (new) client secret.
    const rotated = secretsRotated && usesOidc(r.spec.actions) ? '|oidc client secret changed' : '';
    return {
      id: r.id,
      priority: r.spec.priority,
      settings: settingsOf(conditions, actions, transforms) + rotated,
      conditions,
      actions,
      transforms,
      text: ruleText(r.spec),
      tags: r.spec.tags,
    };
  });
  const plan = planRules(
    desired,
    (actual ?? [])
      .filter((r) => !r.IsDefault && r.RuleArn)
      .map((r) => ({
        arn: r.RuleArn ?? '',
        priority: Number(r.Priority),
        settings: settingsOf(r.Conditions, r.Actions, r.Transforms),
      })),
  );
  const actualTransforms = new Map((actual ?? []).map((r) => [r.RuleArn, r.Transforms ?? []]));
  const ops: Operation[] = [];
  if (plan.setPriorities.length > 0) {
    ops.push({
      op: 'modify',
      resource: 'ListenerRule',
      id: `${listenerArn} priorities`,
      detail: `${plan.setPriorities.length} rule(s) re-prioritised atomically`,
      calls: [
        {
          action: 'SetRulePriorities',
          input: {
            RulePriorities: plan.setPriorities.map((p) => ({ RuleArn: p.arn, Priority: p.priority })),
          },
        },
      ],
    });
  }
  for (const m of plan.modify) {
    const calls: PlannedCall[] = [
      {
        action: 'ModifyRule',
        input: {
          RuleArn: m.arn,
          Conditions: m.desired.conditions,
          Actions: m.desired.actions,
          // ModifyRule keeps the rule's transforms unless told: replace them, or clear them.
          ...(m.desired.transforms.length > 0
            ? { Transforms: m.desired.transforms }
            : (actualTransforms.get(m.arn) ?? []).length > 0
              ? { ResetTransforms: true }
              : {}),
        },
      },
    ];
    // Only a resync describes rule tags: without them, stale keys wait for the next one.
    const remove = actualTags
      ? tagsToRemove(m.desired.tags, actualTags.get(m.arn) ?? {}, pc.externalManagedTags)
      : [];
    if (remove.length > 0) {
      calls.push({ action: 'RemoveTags', input: { ResourceArns: [m.arn], TagKeys: remove } });
    }
    // The rule now serves another host/path: its resource tag must say so.
    calls.push({ action: 'AddTags', input: { ResourceArns: [m.arn], Tags: recordToTags(m.desired.tags) } });
    ops.push({
      op: 'modify',
      resource: 'ListenerRule',
      id: m.desired.id,
      detail: `rule at priority ${m.desired.priority} switched in place: ${m.desired.text}`,
      calls,
    });
  }
  for (const d of plan.create) {
    ops.push({
      op: 'create',
      resource: 'ListenerRule',
      id: d.id,
      detail: `priority ${d.priority}: ${d.text}`,
      calls: [
        {
          action: 'CreateRule',
          input: {
            ListenerArn: listenerArn,
            Priority: d.priority,
            Conditions: d.conditions,
            Actions: d.actions,
            ...(d.transforms.length > 0 ? { Transforms: d.transforms } : {}),
            Tags: recordToTags(d.tags),
          },
        },
      ],
    });
  }
  if (actualTags) {
    // Rules kept as they are (or only moved) still carry the tags of the content they serve.
    for (const k of plan.keep) {
      const tags = planTags(pc, k.arn, k.desired.tags, actualTags.get(k.arn) ?? {});
      if (tags.calls.length === 0) continue;
      ops.push({
        op: 'modify',
        resource: 'ListenerRule',
        id: k.desired.id,
        detail: tags.changes.join('; '),
        calls: tags.calls,
      });
    }
  }
  for (const arn of plan.delete) {
    ops.push({
      op: 'delete',
      resource: 'ListenerRule',
      id: arn,
      detail: 'stale rule',
      calls: [{ action: 'DeleteRule', input: { RuleArn: arn } }],
    });
  }
  return ops;
}
