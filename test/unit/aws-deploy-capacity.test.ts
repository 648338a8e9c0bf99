/** The reserved-capacity planner and how ModifyCapacityReservation's refusals are acted on. */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError, RetryLaterError } from '../../lib/errors.js';
import {
  capacityFailure,
  capacityOf,
  desiredCapacity,
  planCapacity,
  secondsUntilUtcMidnight,
} from '../../lib/providers/aws/deploy/capacity.js';

const KEY = 'alb.ingress.kubernetes.io/minimum-load-balancer-capacity';
const awsError = (name: string) => Object.assign(new Error(`${name} happened`), { name: `${name}Exception` });

describe('reserved capacity', () => {
  it('what DescribeCapacityReservation reports: units (0 when none) and whether a zone is pending', () => {
    expect(capacityOf({})).toStrictEqual({ units: 0, pending: false });
    expect(
      capacityOf({
        MinimumLoadBalancerCapacity: { CapacityUnits: 600 },
        CapacityReservationState: [
          { AvailabilityZone: 'us-east-1a', State: { Code: 'provisioned' } },
          { AvailabilityZone: 'us-east-1b', State: { Code: 'pending' } },
        ],
      }),
    ).toStrictEqual({ units: 600, pending: true });
  });

  it('the annotation wins; without it a recorded reservation of ours is reset; else nothing is asked', () => {
    expect(desiredCapacity({ minimumCapacityUnits: 300 }, {})).toBe(300);
    expect(desiredCapacity({ minimumCapacityUnits: 0 }, undefined)).toBe(0);
    expect(desiredCapacity({}, { 'multicluster.karmada.io/capacity-units': '300' })).toBe(0);
    expect(desiredCapacity({}, { other: 'x' })).toBeUndefined();
  });

  it('one call when the units differ: set, or reset for 0; none when equal or not asked', () => {
    expect(planCapacity('arn:lb', 500, { units: 100, pending: false })).toStrictEqual({
      changes: ['minimum capacity 100 → 500 units'],
      calls: [
        {
          action: 'ModifyCapacityReservation',
          input: { LoadBalancerArn: 'arn:lb', MinimumLoadBalancerCapacity: { CapacityUnits: 500 } },
        },
      ],
    });
    expect(planCapacity('arn:lb', 0, { units: 100, pending: true })).toStrictEqual({
      changes: ['capacity reservation reset (was 100 units)'],
      calls: [
        {
          action: 'ModifyCapacityReservation',
          input: { LoadBalancerArn: 'arn:lb', ResetCapacityReservation: true },
        },
      ],
    });
    expect(planCapacity('arn:lb', 500, { units: 500, pending: true })).toStrictEqual({
      calls: [],
      changes: [],
    });
    expect(planCapacity('arn:lb', 0, undefined)).toStrictEqual({ calls: [], changes: [] });
    expect(planCapacity('arn:lb', undefined, { units: 500, pending: false })).toStrictEqual({
      calls: [],
      changes: [],
    });
  });

  it('seconds until the next 00:00 UTC', () => {
    expect(secondsUntilUtcMidnight(new Date('2026-12-01T23:00:00Z'))).toBe(3600);
    expect(secondsUntilUtcMidnight(new Date('2026-12-31T23:59:59.500Z'))).toBe(1);
    expect(secondsUntilUtcMidnight(new Date('2026-12-01T00:00:00Z'))).toBe(86400);
  });

  it('pending and the day’s decreases are RetryLaterErrors; over the quota names the annotation', () => {
    const at = new Date('2026-12-01T22:00:00Z');
    const pending = capacityFailure(awsError('CapacityReservationPending'), at);
    expect(pending).toBeInstanceOf(RetryLaterError);
    expect(pending).toMatchObject({ retryAfterSeconds: 60 });
    const decreases = capacityFailure(awsError('CapacityDecreaseRequestLimitExceeded'), at);
    expect(decreases).toBeInstanceOf(RetryLaterError);
    expect(decreases).toMatchObject({
      retryAfterSeconds: 7200,
      message: `ELBv2 allows 4 capacity decreases per load balancer per UTC day and they are used up (CapacityDecreaseRequestLimitExceeded): ${KEY} is lowered after 00:00 UTC, in about 2 h`,
    });
    const quota = capacityFailure(awsError('CapacityUnitsLimitExceeded'), at);
    expect(quota).toBeInstanceOf(InvalidObjectError);
    expect(quota).toMatchObject({ field: KEY, reason: 'InvalidAnnotation' });
    expect(capacityFailure(awsError('ValidationError'), at)).toBeUndefined();
  });
});
