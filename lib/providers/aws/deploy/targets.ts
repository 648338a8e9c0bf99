/**
 * Target registration as a diff against DescribeTargetHealth (what LBC's TargetGroupBinding
 * controller does per cluster; here one control plane sees every cluster's endpoints at once).
 */
import type { TargetDescription, TargetHealthDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TargetSpec } from '../model/types.js';
import { chunks } from './context.js';
import type { Operation, PlannedCall } from './operations.js';
import type { Arn } from './refs.js';

/** LBC registers in chunks of 200 targets per call. */
const TARGETS_PER_CALL = 200;

export interface TargetDiff {
  /** Registered with the wrong zone: deregistered first, then registered again (same Id:Port). */
  rezone: TargetDescription[];
  register: TargetDescription[];
  deregister: TargetDescription[];
}

const keyOf = (id: string | undefined, port: number | undefined) => `${id ?? ''}:${port ?? ''}`;

/**
 * An off-VPC target AWS made us register in its endpoint's zone instead of `all` (see
 * zonedRetryOf): as wanted, or every reconcile would move it back to `all` and fail again.
 */
function registeredInOwnZone(d: TargetSpec, a: TargetDescription): boolean {
  return (
    d.availabilityZone === 'all' && d.endpointZone !== undefined && a.AvailabilityZone === d.endpointZone
  );
}

/**
 * The same registrations with each off-VPC target in its endpoint's zone instead of `all`: what
 * is sent again when AWS answers that an Availability Zone must be specified (an ALB target group
 * with cross-zone load balancing off), as LBC's `registerPodEndpoints` retries with the pods'
 * zones. Undefined when no target of the batch has a zone to offer.
 */
export function zonedRetryOf(
  batch: readonly TargetDescription[],
  desired: ReadonlyMap<string, TargetSpec>,
): TargetDescription[] | undefined {
  let changed = false;
  const zoned = batch.map((t) => {
    const zone = desired.get(keyOf(t.Id, t.Port))?.endpointZone;
    if (t.AvailabilityZone !== 'all' || zone === undefined) return t;
    changed = true;
    return { ...t, AvailabilityZone: zone };
  });
  return changed ? zoned : undefined;
}

/**
 * What to register and deregister. An in-VPC target matches whatever zone AWS assigned it; an
 * off-VPC one must be registered with zone `all`, so a zone mismatch means re-registering.
 */
export function diffTargets(
  desired: readonly TargetSpec[],
  actual: readonly TargetDescription[],
): TargetDiff {
  const actualByKey = new Map(actual.map((t) => [keyOf(t.Id, t.Port), t]));
  const desiredKeys = new Set<string>();
  const rezone: TargetDescription[] = [];
  const register: TargetDescription[] = [];
  const deregister: TargetDescription[] = [];
  for (const d of desired) {
    const key = keyOf(d.id, d.port);
    desiredKeys.add(key);
    const a = actualByKey.get(key);
    const zoneOk =
      a !== undefined &&
      ((d.availabilityZone === 'all') === (a.AvailabilityZone === 'all') || registeredInOwnZone(d, a));
    if (a && !zoneOk) rezone.push({ Id: a.Id, Port: a.Port, AvailabilityZone: a.AvailabilityZone });
    if (!zoneOk) {
      register.push({
        Id: d.id,
        Port: d.port,
        ...(d.availabilityZone ? { AvailabilityZone: d.availabilityZone } : {}),
      });
    }
  }
  for (const [key, a] of actualByKey) {
    if (!desiredKeys.has(key))
      deregister.push({ Id: a.Id, Port: a.Port, AvailabilityZone: a.AvailabilityZone });
  }
  return { rezone, register, deregister };
}

/** A group's target changes in two halves: registrations and the rest. */
export interface TargetOps {
  /** Re-zoned targets out, then the registrations: planned before any rule forwards to the group. */
  register: Operation[];
  /** Deregistrations: planned after the rules, so no rule forwards to a group emptied meanwhile. */
  deregister: Operation[];
}

function targetCalls(
  targetGroupArn: Arn,
  desired: readonly TargetSpec[],
  actual: readonly TargetDescription[] | undefined,
) {
  const diff = diffTargets(desired, actual ?? []);
  const byKey = new Map(desired.map((d) => [keyOf(d.id, d.port), d]));
  const register: PlannedCall[] = [
    ...chunks(diff.rezone, TARGETS_PER_CALL).map((batch): PlannedCall => ({
      action: 'DeregisterTargets',
      input: { TargetGroupArn: targetGroupArn, Targets: batch },
    })),
    ...chunks(diff.register, TARGETS_PER_CALL).map((batch): PlannedCall => {
      const zoned = zonedRetryOf(batch, byKey);
      return {
        action: 'RegisterTargets',
        input: { TargetGroupArn: targetGroupArn, Targets: batch },
        ...(zoned ? { ifZoneRequired: zoned } : {}),
      };
    }),
  ];
  const deregister = chunks(diff.deregister, TARGETS_PER_CALL).map((batch): PlannedCall => ({
    action: 'DeregisterTargets',
    input: { TargetGroupArn: targetGroupArn, Targets: batch },
  }));
  return { diff, register, deregister };
}

function targetsOp(resourceId: string, calls: PlannedCall[], diff: Partial<TargetDiff>): Operation[] {
  if (calls.length === 0) return [];
  const parts = [
    diff.register?.length ? `+${diff.register.length}` : '',
    diff.deregister?.length ? `-${diff.deregister.length}` : '',
    diff.rezone?.length ? `${diff.rezone.length} re-zoned` : '',
  ].filter(Boolean);
  return [{ op: 'modify', resource: 'Targets', id: resourceId, detail: `targets ${parts.join(' ')}`, calls }];
}

/**
 * A group's target changes for the full plan. Registrations come before the listeners and rules
 * (a new group, or a drained cluster's group coming back, holds its targets before it takes
 * traffic), deregistrations after them.
 */
export function planTargetOps(
  resourceId: string,
  targetGroupArn: Arn,
  desired: readonly TargetSpec[],
  actual: readonly TargetDescription[] | undefined,
): TargetOps {
  const { diff, register, deregister } = targetCalls(targetGroupArn, desired, actual);
  return {
    register: targetsOp(resourceId, register, { register: diff.register, rezone: diff.rezone }),
    deregister: targetsOp(resourceId, deregister, { deregister: diff.deregister }),
  };
}

/**
 * Registration calls for one group in one operation (the targets-only path, where no rule
 * changes). `actual` undefined: the group is created by this plan. Order: re-zoned targets out,
 * then register, then deregister, so the group never runs dry.
 */
export function planTargets(
  resourceId: string,
  targetGroupArn: Arn,
  desired: readonly TargetSpec[],
  actual: readonly TargetDescription[] | undefined,
): Operation[] {
  const { diff, register, deregister } = targetCalls(targetGroupArn, desired, actual);
  return targetsOp(resourceId, [...register, ...deregister], diff);
}

/** Draining targets are already on their way out; a desired one is simply registered again. */
export function liveTargets(health: readonly TargetHealthDescription[]): TargetDescription[] {
  return health
    .filter((h) => h.TargetHealth?.State !== 'draining' && h.Target?.Id)
    .map((h) => h.Target as TargetDescription);
}
