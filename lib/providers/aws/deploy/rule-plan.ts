/**
 * Planning listener-rule changes without a 404 window (LBC pkg/deploy/elbv2/listener_rule_synthesizer.go,
 * issue #3816). Pure, so its three-way matching is testable on its own.
 *
 * 1. Rules whose conditions and actions already match are kept; if only their priority differs
 *    they are moved — all moves in ONE atomic SetRulePriorities (a series of ModifyRule calls would
 *    leave moments where a path matches nothing and the listener answers 404).
 * 2. Remaining desired rules take over a remaining actual rule at the same priority (ModifyRule
 *    in place: the path is served by the old or the new action at every moment).
 * 3. Everything else desired is created before anything stale is deleted; stale rules that sit on
 *    a priority we need are first pushed to 50000, 49999, ... in the same SetRulePriorities call.
 */

export interface DesiredRuleKey {
  id: string;
  priority: number;
  /** Canonical conditions + actions (see actions.ts). */
  settings: string;
}

export interface ActualRuleKey {
  arn: string;
  priority: number;
  settings: string;
}

export interface RulePlan<D extends DesiredRuleKey> {
  setPriorities: Array<{ arn: string; priority: number }>;
  modify: Array<{ arn: string; desired: D }>;
  create: D[];
  delete: string[];
  /** Rules kept (moved or not), each with the desired rule it serves: whose tags it must carry. */
  keep: Array<{ arn: string; desired: D }>;
  /** Rules left exactly as they are. */
  unchanged: number;
}

export const STALE_PRIORITY_CEILING = 50000;

export function planRules<D extends DesiredRuleKey>(
  desired: readonly D[],
  actual: readonly ActualRuleKey[],
): RulePlan<D> {
  const remaining = new Map(actual.map((a) => [a.arn, a]));
  const matched: Array<{ d: D; a: ActualRuleKey }> = [];
  let open: D[] = [...desired];
  const take = (pred: (d: D, a: ActualRuleKey) => boolean) => {
    const still: D[] = [];
    for (const d of open) {
      const a = [...remaining.values()].find((x) => pred(d, x));
      if (a) {
        remaining.delete(a.arn);
        matched.push({ d, a });
      } else still.push(d);
    }
    open = still;
  };
  // Same settings at the same priority first, so that a rule that did not move is never chosen
  // to fill in for another one with identical settings.
  take((d, a) => d.settings === a.settings && d.priority === a.priority);
  take((d, a) => d.settings === a.settings);

  const modify: Array<{ arn: string; desired: D }> = [];
  const create: D[] = [];
  for (const d of open) {
    const a = [...remaining.values()].find((x) => x.priority === d.priority);
    if (a) {
      remaining.delete(a.arn);
      modify.push({ arn: a.arn, desired: d });
    } else create.push(d);
  }
  const stale = [...remaining.values()];

  const moves = matched
    .filter((m) => m.a.priority !== m.d.priority)
    .map((m) => ({ arn: m.a.arn, priority: m.d.priority }));
  const needed = new Set([...moves.map((m) => m.priority), ...create.map((c) => c.priority)]);
  const toPush = stale.filter((s) => needed.has(s.priority));
  const pushed = new Set(toPush.map((s) => s.arn));
  const movedArns = new Set(moves.map((m) => m.arn));
  const occupied = new Set([
    ...actual.filter((a) => !movedArns.has(a.arn) && !pushed.has(a.arn)).map((a) => a.priority),
    ...needed,
  ]);
  let next = STALE_PRIORITY_CEILING;
  const pushes: Array<{ arn: string; priority: number }> = [];
  for (const s of toPush) {
    while (occupied.has(next)) next--;
    pushes.push({ arn: s.arn, priority: next });
    occupied.add(next);
  }
  return {
    setPriorities: [...moves, ...pushes],
    modify,
    create,
    delete: stale.map((s) => s.arn),
    keep: matched.map((m) => ({ arn: m.a.arn, desired: m.d })),
    unchanged: matched.length - moves.length,
  };
}
