/**
 * The ALB's reserved capacity (LBC pkg/deploy/elbv2/load_balancer_capacity_reservation_reconciler.go),
 * planned: one ModifyCapacityReservation when the units differ, read with DescribeCapacityReservation
 * only on a full deploy of a stack that asks for a reservation or had one of ours (CAPACITY_TAG).
 * What ELBv2 answers "later" to (a change still provisioning, the day's decreases used up) becomes
 * a RetryLaterError, never a wait in the function.
 */
import type { DescribeCapacityReservationCommandOutput } from '@aws-sdk/client-elastic-load-balancing-v2';
import { InvalidObjectError, RetryLaterError, errorMessage } from '../../../errors.js';
import { ALB_KEYS } from '../model/annotations/keys.js';
import type { LoadBalancerSpec } from '../model/types.js';
import { CAPACITY_TAG } from '../tagging.js';
import { isAwsError } from './context.js';
import type { PlannedCall } from './operations.js';
import type { Arn } from './refs.js';

export interface ActualCapacity {
  /** The reserved units (0: none). */
  units: number;
  /** A zone's reservation is still being provisioned. */
  pending: boolean;
}

export function capacityOf(
  res: Pick<
    DescribeCapacityReservationCommandOutput,
    'MinimumLoadBalancerCapacity' | 'CapacityReservationState'
  >,
): ActualCapacity {
  return {
    units: res.MinimumLoadBalancerCapacity?.CapacityUnits ?? 0,
    pending: (res.CapacityReservationState ?? []).some((z) => z.State?.Code === 'pending'),
  };
}

/** The units the stack wants: the annotation's, else 0 when a reservation of ours is recorded. */
export function desiredCapacity(
  spec: Pick<LoadBalancerSpec, 'minimumCapacityUnits'>,
  actualTags: Readonly<Record<string, string>> | undefined,
): number | undefined {
  if (spec.minimumCapacityUnits !== undefined) return spec.minimumCapacityUnits;
  return actualTags?.[CAPACITY_TAG] !== undefined ? 0 : undefined;
}

/**
 * The call that makes the reservation `desired` (none when it already is, or nothing is asked),
 * and its words. `actual` undefined: a new load balancer, which has no reservation.
 */
export function planCapacity(
  lbArn: Arn,
  desired: number | undefined,
  actual: ActualCapacity | undefined,
): { calls: PlannedCall[]; changes: string[] } {
  const have = actual?.units ?? 0;
  if (desired === undefined || desired === have) return { calls: [], changes: [] };
  return desired === 0
    ? {
        changes: [`capacity reservation reset (was ${have} units)`],
        calls: [
          {
            action: 'ModifyCapacityReservation',
            input: { LoadBalancerArn: lbArn, ResetCapacityReservation: true },
          },
        ],
      }
    : {
        changes: [`minimum capacity ${have} → ${desired} units`],
        calls: [
          {
            action: 'ModifyCapacityReservation',
            input: { LoadBalancerArn: lbArn, MinimumLoadBalancerCapacity: { CapacityUnits: desired } },
          },
        ],
      };
}

/** Seconds until 00:00 UTC, when ELBv2's count of the day's capacity decreases starts again. */
export function secondsUntilUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** ModifyCapacityReservation's refusals, as the lifecycle acts on them; undefined: not one of them. */
export function capacityFailure(err: unknown, now: Date): Error | undefined {
  const key = ALB_KEYS.minimumCapacity;
  if (isAwsError(err, 'CapacityReservationPending')) {
    return new RetryLaterError(
      `the load balancer's previous capacity change is still being provisioned (CapacityReservationPending); ${key} is applied once it is done`,
      { cause: err, retryAfterSeconds: 60 },
    );
  }
  if (isAwsError(err, 'CapacityDecreaseRequestLimitExceeded')) {
    const retryAfterSeconds = secondsUntilUtcMidnight(now);
    return new RetryLaterError(
      `ELBv2 allows 4 capacity decreases per load balancer per UTC day and they are used up (CapacityDecreaseRequestLimitExceeded): ${key} is lowered after 00:00 UTC, in about ${Math.ceil(retryAfterSeconds / 3600)} h`,
      { cause: err, retryAfterSeconds },
    );
  }
  if (isAwsError(err, 'CapacityUnitsLimitExceeded')) {
    return new InvalidObjectError(
      `annotation ${key}: more capacity than the account's quota allows: ${errorMessage(err)}`,
      {
        field: key,
        reason: 'InvalidAnnotation',
        cause: err,
      },
    );
  }
  return undefined;
}
