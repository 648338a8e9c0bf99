/**
 * A notification whose changes an earlier reconcile has already seen is not reconciled again
 * (runtime/recent-reconciles.ts): a redelivery or a duplicate costs no second reconcile, and
 * anything that reconcile might not have seen (a later change merged in, an unknown time, a
 * resync's deep check) is reconciled as always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingressClass, minimalIngress, serveService } from '../../dev/local/scenario.js';
import { coalesce } from '../../lib/forwarder/merge.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { Resources } from '../../lib/kube/resources.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';
import { processBatch } from '../../lib/runtime/process.js';
import { changesSeenBy, RecentReconciles } from '../../lib/runtime/recent-reconciles.js';
import { notifyChange, startHarness, type Harness } from '../support/harness.js';

const SKIPPED = 'reconciled since this change was seen';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.seed([ingressClass(), serveService(), minimalIngress('a'), minimalIngress('b')]);
});
afterAll(() => h?.close());

async function deliver(...notifications: NormalizedNotification[]) {
  const [item] = await processBatch(h.runtime, [{ id: '0', notifications: () => notifications }], {
    signal: new AbortController().signal,
    holder: 'me',
  });
  // The MultiClusterIngress controller's outcome for each object: skipped or reconciled.
  return Object.fromEntries(
    item!.results
      .filter((r) => r.controller === 'multiclusteringress')
      .map((r) => [r.key, r.detail === SKIPPED]),
  );
}

const seen = (name: string, times: { observedAt?: string; lastObservedAt?: string }) => ({
  ...notifyChange('modified', minimalIngress(name)),
  ...times,
});

describe('a change an earlier reconcile has seen', () => {
  it('is not reconciled again when delivered again', async () => {
    const old = seen('a', { observedAt: ago(10_000) });
    expect(await deliver(old)).toEqual({ 'default/a': false });
    expect(await deliver(old)).toEqual({ 'default/a': true });
    // Another object named by the same delivery is not covered by a's reconcile.
    expect(await deliver(old, seen('b', { observedAt: ago(10_000) }))).toEqual({
      'default/a': true,
      'default/b': false,
    });
  });

  it('a change seen after that reconcile started, or within the clocks’ margin, is reconciled', async () => {
    expect(await deliver(seen('a', { observedAt: ago(10_000) }))).toEqual({ 'default/a': true });
    expect(await deliver(seen('a', { observedAt: ago(0) }))).toEqual({ 'default/a': false });
    expect(await deliver(seen('a', { observedAt: ago(500) }))).toEqual({ 'default/a': false });
  });

  it('a merged notification counts from its latest change, not its first', async () => {
    // A reconcile that starts now, well after an old change.
    expect(await deliver(seen('b', { observedAt: ago(0) }))).toEqual({ 'default/b': false });
    const first = makeNotification('modified', Resources.MultiClusterIngress, minimalIngress('b'));
    const [early, late] = [ago(20_000), new Date(Date.now() + 5_000).toISOString()];
    const merged = coalesce({ ...first, observedAt: early }, { ...first, observedAt: late });
    expect([merged.observedAt, merged.lastObservedAt]).toEqual([early, late]);
    // Its first change alone would be covered; the later one is not.
    expect(await deliver(seen('b', { observedAt: early }))).toEqual({ 'default/b': true });
    expect(await deliver(seen('b', merged))).toEqual({ 'default/b': false });
  });

  it('a notification without a time is always reconciled', async () => {
    expect(await deliver(seen('a', { observedAt: ago(10_000) }))).toEqual({ 'default/a': true });
    expect(await deliver(notifyChange('modified', minimalIngress('a')))).toEqual({ 'default/a': false });
  });

  it('a resync (a deep check) is covered only by a deep check since, which covers any change', async () => {
    const resync = { ...notifyChange('resync', minimalIngress('b')), observedAt: ago(60_000) };
    expect(await deliver(seen('b', { observedAt: ago(60_000) }))).toEqual({ 'default/b': true });
    expect(await deliver(resync)).toEqual({ 'default/b': false });
    expect(await deliver(resync)).toEqual({ 'default/b': true });
    expect(await deliver(seen('b', { observedAt: ago(10_000) }))).toEqual({ 'default/b': true });
  });
});

describe('RecentReconciles', () => {
  it('keeps the latest start per object and forgets the least recently reconciled past its size', () => {
    const recent = new RecentReconciles(1_000, 2);
    recent.record('x', 10_000);
    recent.record('x', 5_000);
    // Covered only by a start more than the margin after the change.
    expect(recent.covers('x', 9_000)).toBe(false);
    expect(recent.covers('x', 8_999)).toBe(true);
    recent.record('y', 10_000);
    recent.record('z', 10_000);
    expect(recent.covers('x', 0)).toBe(false);
    expect(recent.covers('y', 0)).toBe(true);
    expect(recent.covers('z', undefined)).toBe(false);
    // Only a deep check covers a deep check; it covers an ordinary one too.
    expect(recent.covers('z', 0, true)).toBe(false);
    recent.record('z', 20_000, true);
    expect([recent.covers('z', 15_000, true), recent.covers('z', 15_000)]).toEqual([true, true]);
  });

  it('changesSeenBy: the latest change of a batch item, unknown when any is', () => {
    const t = (s: string) => Date.parse(s);
    expect(
      changesSeenBy([
        { observedAt: '2026-12-01T00:00:01Z' },
        { observedAt: '2026-12-01T00:00:00Z', lastObservedAt: '2026-12-01T00:00:05Z' },
      ]),
    ).toBe(t('2026-12-01T00:00:05Z'));
    expect(changesSeenBy([{ observedAt: '2026-12-01T00:00:01Z' }, {}])).toBeUndefined();
    expect(changesSeenBy([{ observedAt: 'yesterday' }])).toBeUndefined();
  });
});
