/**
 * Drift made by hand, as an operator in the console makes it: a registered target deregistered, a
 * listener rule deleted, a target group's health check changed. None of it touches the load
 * balancer's fingerprint or targets record, so the fingerprint pass and the endpoint path cannot
 * see it: only the deep drift check (a `resync` reconcile) finds and repairs it. The suite's
 * resync phase runs one for every object, and the invariants then require the stacks to be exactly
 * as modelled again.
 */
import type { Ec2State } from '../../dev/ec2-sim/index.js';
import type { Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import type { Rng } from './prng.js';

export interface HandEdit {
  kind: 'deregister-target' | 'delete-rule' | 'health-check';
  arn: string;
}

function pick<T>(rng: Rng, items: readonly T[]): T | undefined {
  return items.length ? items[rng.int(0, items.length - 1)] : undefined;
}

/** One edit of each kind, each on a resource of ours picked by `rng`; fewer when none is there. */
export function driftByHand(sim: Elbv2Simulator, rng: Rng): HandEdit[] {
  const snap = sim.snapshot();
  const ours = new Set(snap.tags.filter((t) => t.Tags[OWNER_TAG] !== undefined).map((t) => t.ResourceArn));
  const edits: HandEdit[] = [];

  const target = pick(
    rng,
    snap.targets.filter((t) => ours.has(t.TargetGroupArn) && t.State !== 'draining'),
  );
  if (target) {
    sim.state.deregisterTargets({
      TargetGroupArn: target.TargetGroupArn,
      Targets: [{ Id: target.Id, Port: target.Port }],
    });
    edits.push({ kind: 'deregister-target', arn: target.TargetGroupArn });
  }

  const rule = pick(
    rng,
    snap.rules.filter((r) => !r.IsDefault && r.RuleArn && ours.has(r.RuleArn)),
  );
  if (rule?.RuleArn) {
    sim.state.deleteRule({ RuleArn: rule.RuleArn });
    edits.push({ kind: 'delete-rule', arn: rule.RuleArn });
  }

  const group = pick(
    rng,
    snap.targetGroups.filter((g) => g.TargetGroupArn && ours.has(g.TargetGroupArn) && g.HealthCheckPath),
  );
  if (group?.TargetGroupArn) {
    sim.state.modifyTargetGroup({
      TargetGroupArn: group.TargetGroupArn,
      HealthCheckPath: '/changed-by-hand',
    });
    edits.push({ kind: 'health-check', arn: group.TargetGroupArn });
  }
  return edits;
}

/**
 * One inbound rule of one of our managed security groups revoked, as in the console; false when
 * there is no such rule. The group's tags and the load balancer's fingerprint are unchanged.
 */
export function revokeSecurityGroupRuleByHand(groups: Ec2State['securityGroups'], rng: Rng): boolean {
  const ours = groups.all().filter((g) => g.tags[OWNER_TAG] !== undefined && g.ingress.length > 0);
  const group = pick(rng, ours);
  const rule = group && pick(rng, group.ingress);
  // all() hands out copies: the rule is found again by its ID.
  return !!group && !!rule && groups.revokeByHand(group.groupId, (r) => r.ruleId === rule.ruleId) === 1;
}
