import type { Elbv2Snapshot } from '../../dev/elbv2-sim/index.js';

/** What the ELBv2 simulator holds when nothing is left: every collection present and empty. */
export const EMPTY_SIM_STATE: Readonly<Elbv2Snapshot> = Object.freeze({
  loadBalancers: [],
  targetGroups: [],
  listeners: [],
  rules: [],
  targets: [],
  tags: [],
});

/**
 * Every forward that can take traffic (a listener's default action or a rule's, with a weight
 * above 0) whose target group is missing or has no target registered: what must never be seen
 * between two ELBv2 calls. `name` is the group's name, or its ARN when it is gone.
 */
export function forwardsToMissingOrEmpty(s: Elbv2Snapshot): string[] {
  const groups = new Map(s.targetGroups.map((tg) => [tg.TargetGroupArn, tg.TargetGroupName]));
  const filled = new Set(s.targets.map((t) => t.TargetGroupArn));
  const out: string[] = [];
  const actions = [
    ...s.listeners.map((l) => ({ where: `listener ${l.Port ?? '?'} default`, actions: l.DefaultActions })),
    ...s.rules
      .filter((r) => !r.IsDefault)
      .map((r) => ({ where: `rule ${r.Priority ?? '?'}`, actions: r.Actions })),
  ];
  for (const { where, actions: list } of actions) {
    for (const a of list ?? []) {
      if (a.Type !== 'forward') continue;
      const tuples = a.ForwardConfig?.TargetGroups ?? [{ TargetGroupArn: a.TargetGroupArn, Weight: 1 }];
      for (const t of tuples) {
        if ((t.Weight ?? 1) === 0) continue;
        const name = groups.get(t.TargetGroupArn);
        if (name === undefined)
          out.push(`${where} forwards to a missing target group ${t.TargetGroupArn ?? '?'}`);
        else if (!filled.has(t.TargetGroupArn ?? ''))
          out.push(`${where} forwards to the empty target group ${name}`);
      }
    }
  }
  return out;
}

/** Only forwards to missing groups (a chaos run's endpoints may legitimately leave a group empty). */
export function forwardsToMissing(s: Elbv2Snapshot): string[] {
  return forwardsToMissingOrEmpty(s).filter((f) => f.includes('missing'));
}
