import { describe, expect, it } from 'vitest';
import type { Condition } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import {
  annotationCondition,
  CONDITION_ANNOTATION,
  nextCondition,
  statusConditions,
} from '../../lib/reconcile/conditions.js';

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

describe('Function: nextCondition, what counts as unchanged', () => {
  const same = {
    status: 'True',
    reason: 'LoadBalancerCreated',
    message: 'Load balancer ready: 1.2.3.4',
  } as const;

  it.each<[string, Parameters<typeof nextCondition>[1], number | undefined]>([
    ['only the status flips', { ...same, status: 'False' }, 1],
    ['only the reason differs', { ...same, reason: 'LoadBalancerUpdated' }, 1],
    ['only the message differs', { ...same, message: 'Load balancer ready: 5.6.7.8' }, 1],
    ['only the generation differs', same, 2],
    ['the generation is no longer known', same, undefined],
  ])('%s: a new condition', (_name, update, generation) => {
    expect(nextCondition(ready, update, generation, now)).toBeDefined();
  });

  it('the same status keeps its transition time, a flip takes the time of the change', () => {
    expect(nextCondition(ready, { ...same, message: 'other' }, 1, now)?.lastTransitionTime).toBe(
      '2026-11-28T00:00:00Z',
    );
    expect(nextCondition(ready, { ...same, status: 'False' }, 1, now)?.lastTransitionTime).toBe(
      '2026-11-29T10:00:00Z',
    );
  });

  it('writes the whole condition, with no observedGeneration when the object has no generation', () => {
    expect(nextCondition(undefined, same, undefined, now)).toEqual({
      type: 'LoadBalancerReady',
      ...same,
      lastTransitionTime: '2026-11-29T10:00:00Z',
    });
    expect(nextCondition(undefined, same, 3, now)).toEqual({
      type: 'LoadBalancerReady',
      ...same,
      observedGeneration: 3,
      lastTransitionTime: '2026-11-29T10:00:00Z',
    });
  });

  it('drops only the milliseconds of the time (RFC 3339 seconds, as metav1.Time)', () => {
    const at = new Date('2026-11-29T10:00:07.000Z');
    expect(nextCondition(undefined, same, 1, at)?.lastTransitionTime).toBe('2026-11-29T10:00:07Z');
  });
});

describe('Function: nextCondition, message and reason limits', () => {
  const update = (message: string, reason = 'R') => ({ status: 'False', reason, message }) as const;

  it('keeps a message of exactly 1024 characters whole', () => {
    const message = 'y'.repeat(1024);
    expect(nextCondition(undefined, update(message), 1, now)?.message).toBe(message);
  });

  it('cuts a longer message to 1021 characters and an ellipsis', () => {
    const message = `${'a'.repeat(1021)}bcde`;
    expect(nextCondition(undefined, update(message), 1, now)?.message).toBe(`${'a'.repeat(1021)}...`);
  });

  it('compares the cut message, so repeating a long failure writes nothing', () => {
    const long = 'z'.repeat(3000);
    const first = nextCondition(undefined, update(long), 1, now);
    expect(nextCondition(first, update(long), 1, now)).toBeUndefined();
  });

  it.each([
    ['A', 'A'],
    ['Throttled', 'Throttled'],
    ['Sync_Failed:2,x9', 'Sync_Failed:2,x9'],
    ['!Bad', 'Unknown'],
    ['Bad!', 'Unknown'],
    ['9Lives', 'Unknown'],
    ['Trailing,', 'Unknown'],
    ['Trailing:', 'Unknown'],
    ['', 'Unknown'],
    ['with space', 'Unknown'],
  ])('reason %j is stored as %j (metav1.Condition reason pattern)', (reason, stored) => {
    expect(nextCondition(undefined, update('m', reason), 1, now)?.reason).toBe(stored);
  });

  it('compares the stored reason, so repeating an invalid reason writes nothing', () => {
    const first = nextCondition(undefined, update('m', 'not valid!'), 1, now);
    expect(nextCondition(first, update('m', 'also not valid'), 1, now)).toBeUndefined();
  });
});

describe('Condition stores', () => {
  type Obj = KubeObject & { status?: { conditions?: Condition[]; loadBalancer?: unknown } };
  const karmada: Condition = {
    type: 'ServiceAppliedSuccessfully',
    status: 'True',
    reason: 'Applied',
    message: 'ok',
    lastTransitionTime: '2026-11-01T00:00:00Z',
  };
  const base = (status?: Obj['status'], annotations?: Record<string, string>): Obj => ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name: 'web', namespace: 'shop', ...(annotations ? { annotations } : {}) },
    ...(status ? { status } : {}),
  });

  describe('statusConditions', () => {
    const store = statusConditions<Obj>();

    it('is written through the status subresource', () => {
      expect(store.target).toBe('status');
    });

    it('reads our condition among Karmada’s, and none when there is none', () => {
      expect(store.get(base())).toBeUndefined();
      expect(store.get(base({ conditions: [karmada] }))).toBeUndefined();
      expect(store.get(base({ conditions: [karmada, ready] }))).toEqual(ready);
    });

    it('replaces our condition, keeps the others and the rest of status', () => {
      const next = { ...ready, status: 'False' as const, reason: 'SyncLoadBalancerFailed' };
      const obj = base({ conditions: [ready, karmada], loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } });
      expect(store.set(obj, next).status).toEqual({
        conditions: [karmada, next],
        loadBalancer: { ingress: [{ ip: '1.2.3.4' }] },
      });
      expect(store.set(base(), next).status).toEqual({ conditions: [next] });
      expect(obj.status?.conditions).toEqual([ready, karmada]);
    });
  });

  describe('annotationCondition', () => {
    const store = annotationCondition<Obj>();

    it('is written as a main-resource update', () => {
      expect(store.target).toBe('update');
    });

    it('reads the condition from the annotation; a missing, empty or unreadable one is none', () => {
      expect(store.get(base())).toBeUndefined();
      expect(store.get(base(undefined, { other: 'x' }))).toBeUndefined();
      expect(store.get(base(undefined, { [CONDITION_ANNOTATION]: '' }))).toBeUndefined();
      expect(store.get(base(undefined, { [CONDITION_ANNOTATION]: '{not json' }))).toBeUndefined();
      expect(store.get(base(undefined, { [CONDITION_ANNOTATION]: JSON.stringify(ready) }))).toEqual(ready);
    });

    it('writes the condition as JSON and keeps the other annotations and metadata', () => {
      const obj = base(undefined, { other: 'x', [CONDITION_ANNOTATION]: '{}' });
      const written = store.set(obj, ready);
      expect(written.metadata).toEqual({
        name: 'web',
        namespace: 'shop',
        annotations: { other: 'x', [CONDITION_ANNOTATION]: JSON.stringify(ready) },
      });
      expect(store.get(written)).toEqual(ready);
      expect(store.set(base(), ready).metadata.annotations).toEqual({
        [CONDITION_ANNOTATION]: JSON.stringify(ready),
      });
    });
  });
});
