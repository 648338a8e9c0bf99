/** Listener rules of one listener: executes the plan from rule-plan.ts in its safe order. */
import {
  AddTagsCommand,
  CreateRuleCommand,
  DeleteRuleCommand,
  DescribeRulesCommand,
  ModifyRuleCommand,
  SetRulePrioritiesCommand,
  type Action as SdkAction,
  type Rule,
  type RuleCondition as SdkCondition,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ListenerRuleResource } from '../model/types.js';
import { recordToTags } from '../tagging.js';
import { actionsKey, conditionsKey, toSdkActions, toSdkConditions, type ArnResolver } from './actions.js';
import { call, checkAborted, isAwsError, type DeployContext } from './context.js';
import { planRules, type DesiredRuleKey } from './rule-plan.js';

interface DesiredRule extends DesiredRuleKey {
  conditions: SdkCondition[];
  actions: SdkAction[];
  tags: Record<string, string>;
}

async function describeRules(ctx: DeployContext, listenerArn: string): Promise<Rule[]> {
  const out: Rule[] = [];
  let marker: string | undefined;
  do {
    const res = await call(ctx, 'DescribeRules', (o) =>
      ctx.client.send(new DescribeRulesCommand({ ListenerArn: listenerArn, Marker: marker }), o),
    );
    out.push(...(res.Rules ?? []));
    marker = res.NextMarker;
  } while (marker);
  return out;
}

const settingsOf = (conditions: SdkCondition[] | undefined, actions: SdkAction[] | undefined) =>
  `${conditionsKey(conditions)}|${actionsKey(actions)}`;

export async function synthesizeListenerRules(
  ctx: DeployContext,
  listener: { arn: string; created: boolean },
  desiredRules: readonly ListenerRuleResource[],
  resolve: ArnResolver,
): Promise<void> {
  const desired: DesiredRule[] = desiredRules.map((r) => {
    const conditions = toSdkConditions(r.spec.conditions);
    const actions = toSdkActions(r.spec.actions, resolve);
    return {
      id: r.id,
      priority: r.spec.priority,
      settings: settingsOf(conditions, actions),
      conditions,
      actions,
      tags: r.spec.tags,
    };
  });
  const actual = listener.created
    ? []
    : (await describeRules(ctx, listener.arn))
        .filter((r) => !r.IsDefault && r.RuleArn)
        .map((r) => ({
          arn: r.RuleArn ?? '',
          priority: Number(r.Priority),
          settings: settingsOf(r.Conditions, r.Actions),
        }));
  const plan = planRules(desired, actual);

  if (plan.setPriorities.length > 0) {
    await call(ctx, 'SetRulePriorities', (o) =>
      ctx.client.send(
        new SetRulePrioritiesCommand({
          RulePriorities: plan.setPriorities.map((p) => ({ RuleArn: p.arn, Priority: p.priority })),
        }),
        o,
      ),
    );
  }
  for (const m of plan.modify) {
    checkAborted(ctx);
    await call(ctx, 'ModifyRule', (o) =>
      ctx.client.send(
        new ModifyRuleCommand({
          RuleArn: m.arn,
          Conditions: m.desired.conditions,
          Actions: m.desired.actions,
        }),
        o,
      ),
    );
    // The rule now serves another host/path: its resource tag must say so.
    await call(ctx, 'AddTags', (o) =>
      ctx.client.send(new AddTagsCommand({ ResourceArns: [m.arn], Tags: recordToTags(m.desired.tags) }), o),
    );
  }
  for (const d of plan.create) {
    checkAborted(ctx);
    await call(ctx, 'CreateRule', (o) =>
      ctx.client.send(
        new CreateRuleCommand({
          ListenerArn: listener.arn,
          Priority: d.priority,
          Conditions: d.conditions,
          Actions: d.actions,
          Tags: recordToTags(d.tags),
        }),
        o,
      ),
    );
  }
  for (const arn of plan.delete) {
    checkAborted(ctx);
    try {
      await call(ctx, 'DeleteRule', (o) => ctx.client.send(new DeleteRuleCommand({ RuleArn: arn }), o));
    } catch (err) {
      if (!isAwsError(err, 'RuleNotFound')) throw err;
    }
  }
  if (plan.setPriorities.length + plan.modify.length + plan.create.length + plan.delete.length > 0) {
    ctx.logger.info('reconciled listener rules', {
      listener: listener.arn,
      moved: plan.setPriorities.length,
      modified: plan.modify.length,
      created: plan.create.length,
      deleted: plan.delete.length,
      unchanged: plan.unchanged,
    });
  }
}
