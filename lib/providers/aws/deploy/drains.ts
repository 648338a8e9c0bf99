/**
 * Drain instead of cut (per-cluster mode, model/cluster-weights.ts): a cluster blocked by
 * TrafficControl, or whose weight went to 0, is first held at weight 0 with its targets still
 * registered, so that requests in flight finish; once the deploy has held it there for its target
 * group's deregistration delay, its targets are deregistered.
 *
 * Stateless: when each drain began is kept in the stack's targets record (target-records.ts),
 * beside the targets it explains, and the desired stack is settled against it before it is
 * fingerprinted. A drain whose delay has not passed yet is settled again by the next reconcile
 * after it; the resync's fingerprint pass finds it (its desired state, settled with the time of
 * the pass, then differs from the recorded one), so no invocation ever waits. A lost record (an
 * interrupted deploy forgets it) restarts the drain: it is never cut short.
 */
import {
  resourcesOf,
  ResourceTypes,
  type ModelWarning,
  type Stack,
  type TargetGroupResource,
} from '../model/types.js';
import type { TargetRecord } from './target-records.js';

/** ELBv2's default deregistration delay (target group attribute `deregistration_delay.timeout_seconds`). */
export const DEFAULT_DEREGISTRATION_DELAY_SECONDS = 300;
export const CLUSTER_DRAINED = 'ClusterDrained';
export const CLUSTER_RESTORED = 'ClusterRestored';

export function deregistrationDelaySeconds(tg: TargetGroupResource): number {
  const v = tg.spec.attributes?.['deregistration_delay.timeout_seconds'];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : DEFAULT_DEREGISTRATION_DELAY_SECONDS;
}

/**
 * Announced once the deploy applied it: a drain like a ModelWarning (a Warning Event with its next
 * step, since a cluster stopped taking traffic), a restore as a Normal Event (nothing to do).
 */
export type DrainEvent = Pick<ModelWarning, 'message'> & {
  reason: typeof CLUSTER_DRAINED | typeof CLUSTER_RESTORED;
};

export const drainEventType = (e: DrainEvent): 'Normal' | 'Warning' =>
  e.reason === CLUSTER_RESTORED ? 'Normal' : 'Warning';

export interface SettledStack {
  /** The stack with `drains` set and every drain whose delay has passed emptied of targets. */
  stack: Stack;
  /** What to announce once the deploy has applied it. */
  events: DrainEvent[];
  /** The earliest time (ms) a drain of this stack is due to let its targets go, if one is pending. */
  dueAt?: number;
}

const clustersOf = (tg: TargetGroupResource) => (tg.spec.clusters ?? []).join(', ');

/** Whether the stack has anything to settle (a drained group, or a drain on record). */
export function hasDrains(stack: Stack, record: TargetRecord | undefined): boolean {
  return (
    Object.keys(record?.drains ?? {}).length > 0 ||
    resourcesOf(stack, ResourceTypes.TargetGroup).some((tg) => tg.spec.drain)
  );
}

/** The desired stack at `now`, given the drains `record` holds (see the module comment). */
export function settleDrains(stack: Stack, record: TargetRecord | undefined, now: number): SettledStack {
  if (!hasDrains(stack, record)) return { stack, events: [] };
  const recorded = record?.drains ?? {};
  const drains: Record<string, number> = {};
  const events: DrainEvent[] = [];
  let dueAt: number | undefined;
  const resources = stack.resources.map((r) => {
    if (r.type !== ResourceTypes.TargetGroup) return r;
    const name = r.spec.name;
    const delay = deregistrationDelaySeconds(r);
    if (!r.spec.drain) {
      if (recorded[name] !== undefined) {
        events.push({
          reason: CLUSTER_RESTORED,
          message: `cluster ${clustersOf(r)} restored on ${r.id} (target group ${name}): weight back, ${r.spec.targets.length} targets registered`,
        });
      }
      return r;
    }
    const since = recorded[name] ?? now;
    drains[name] = since;
    const until = since + delay * 1000;
    if (now >= until) {
      if (recorded[name] === undefined) {
        // A delay of 0: held at weight 0 and let go by this one deploy (rule first, targets after).
        events.push({
          reason: CLUSTER_DRAINED,
          message: `cluster ${clustersOf(r)} drained from ${r.id} (target group ${name}): weight 0, and its ${r.spec.targets.length} targets deregistered right after (the deregistration delay is ${delay} s)`,
        });
      } else if ((record?.groups[name]?.targets.length ?? 0) > 0) {
        // Let go: recorded with targets still registered (this deploy deregisters them).
        events.push({
          reason: CLUSTER_DRAINED,
          message: `cluster ${clustersOf(r)} drained from ${r.id} (target group ${name}): held at weight 0 for the deregistration delay (${delay} s), its targets are deregistered`,
        });
      }
      return { ...r, spec: { ...r.spec, targets: [] } };
    }
    if (recorded[name] === undefined) {
      events.push({
        reason: CLUSTER_DRAINED,
        message: `cluster ${clustersOf(r)} drained from ${r.id} (target group ${name}): weight 0, its ${r.spec.targets.length} targets stay registered until ${new Date(until).toISOString()} (the deregistration delay, ${delay} s) so requests in flight finish, then are deregistered`,
      });
    }
    dueAt = dueAt === undefined ? until : Math.min(dueAt, until);
    return r;
  });
  return {
    stack: { ...stack, resources, ...(Object.keys(drains).length > 0 ? { drains } : {}) },
    events,
    ...(dueAt !== undefined ? { dueAt } : {}),
  };
}
