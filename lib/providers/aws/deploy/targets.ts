/**
 * Target registration as a diff against DescribeTargetHealth (what LBC's TargetGroupBinding
 * controller does per cluster; here one control plane sees every cluster's endpoints at once).
 */
import {
  DeregisterTargetsCommand,
  DescribeTargetHealthCommand,
  RegisterTargetsCommand,
  type TargetDescription,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TargetSpec } from '../model/types.js';
import { call, chunks, type DeployContext } from './context.js';

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
    const zoneOk = a !== undefined && (d.availabilityZone === 'all') === (a.AvailabilityZone === 'all');
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

export async function synthesizeTargets(
  ctx: DeployContext,
  targetGroupArn: string,
  desired: readonly TargetSpec[],
  created: boolean,
): Promise<TargetDiff> {
  let actual: TargetDescription[] = [];
  if (!created) {
    const res = await call(ctx, 'DescribeTargetHealth', (o) =>
      ctx.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: targetGroupArn }), o),
    );
    // Draining targets are already on their way out; a desired one is simply registered again.
    actual = (res.TargetHealthDescriptions ?? [])
      .filter((h) => h.TargetHealth?.State !== 'draining' && h.Target?.Id)
      .map((h) => h.Target as TargetDescription);
  }
  const diff = diffTargets(desired, actual);
  for (const batch of chunks(diff.rezone, TARGETS_PER_CALL)) {
    await call(ctx, 'DeregisterTargets', (o) =>
      ctx.client.send(new DeregisterTargetsCommand({ TargetGroupArn: targetGroupArn, Targets: batch }), o),
    );
  }
  // Register first: while both sets are in place the group never runs dry during a swap.
  for (const batch of chunks(diff.register, TARGETS_PER_CALL)) {
    await call(ctx, 'RegisterTargets', (o) =>
      ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: targetGroupArn, Targets: batch }), o),
    );
  }
  for (const batch of chunks(diff.deregister, TARGETS_PER_CALL)) {
    await call(ctx, 'DeregisterTargets', (o) =>
      ctx.client.send(new DeregisterTargetsCommand({ TargetGroupArn: targetGroupArn, Targets: batch }), o),
    );
  }
  return diff;
}
