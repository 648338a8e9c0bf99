import { describe, expect, it } from 'vitest';
import type { Condition } from '../../lib/karmada/types.js';
import { nextCondition } from '../../lib/reconcile/conditions.js';

const now = new Date('2026-11-29T10:00:00.123Z');
const ready: Condition = {
  type: 'LoadBalancerReady',
  status: 'True',
  reason: 'LoadBalancerCreated',
  message: 'Load balancer ready: 1.2.3.4',
  observedGeneration: 1,
  lastTransitionTime: '2026-11-28T00:00:00Z',
};

describe('Function: nextCondition', () => {
  it.each<
    [
      string,
      Condition | undefined,
      Parameters<typeof nextCondition>[1],
      number,
      Partial<Condition> | undefined,
    ]
  >([
    [
      'a first condition',
      undefined,
      { status: 'True', reason: 'R', message: 'm' },
      1,
      { lastTransitionTime: '2026-11-29T10:00:00Z' },
    ],
    [
      'nothing changed',
      ready,
      { status: 'True', reason: 'LoadBalancerCreated', message: 'Load balancer ready: 1.2.3.4' },
      1,
      undefined,
    ],
    [
      'a new message, same status: time kept',
      ready,
      { status: 'True', reason: 'LoadBalancerUpdated', message: 'x' },
      1,
      { lastTransitionTime: '2026-11-28T00:00:00Z', reason: 'LoadBalancerUpdated' },
    ],
    [
      'a flip: time moves',
      ready,
      { status: 'False', reason: 'InvalidAnnotation', message: 'bad key' },
      1,
      { lastTransitionTime: '2026-11-29T10:00:00Z', status: 'False' },
    ],
    [
      'a new generation',
      ready,
      { status: 'True', reason: 'LoadBalancerCreated', message: 'Load balancer ready: 1.2.3.4' },
      2,
      { observedGeneration: 2 },
    ],
    [
      'a reason the API would reject becomes Unknown',
      undefined,
      { status: 'False', reason: 'not valid!', message: 'm' },
      1,
      { reason: 'Unknown' },
    ],
  ])('%s', (_name, current, update, generation, expected) => {
    const next = nextCondition(current, update, generation, now);
    if (expected === undefined) expect(next).toBeUndefined();
    else expect(next).toMatchObject({ type: 'LoadBalancerReady', ...expected });
  });

  it('caps the message at 1024 characters', () => {
    const next = nextCondition(
      undefined,
      { status: 'False', reason: 'R', message: 'x'.repeat(5000) },
      1,
      now,
    );
    expect(next?.message).toHaveLength(1024);
  });
});
