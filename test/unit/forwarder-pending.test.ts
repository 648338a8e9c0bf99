import { describe, expect, it } from 'vitest';
import { PendingQueue } from '../../lib/forwarder/pending.js';
import { Resources } from '../../lib/kube/resources.js';
import { note } from './forwarder-fixtures.js';

const slice = (name: string, rv: number, old?: number) =>
  note('modified', name, rv, old, undefined, Resources.EndpointSlice);

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('Class: PendingQueue', () => {
  it('holds a change for the coalescing window, then releases one merged notification', () => {
    // Prepare
    const c = clock();
    const q = new PendingQueue({ windowMs: 100, now: c.now });
    q.add(note('modified', 'a', 2, 1));
    c.advance(50);
    q.add(note('modified', 'a', 3, 2));
    q.add(note('deleted', 'a', 4, 3));
    // Act / Assess
    expect(q.take(10)).toEqual([]);
    expect(q.nextReadyAt()).toBe(100);
    c.advance(50);
    const out = q.take(10);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ change: 'deleted', ref: { resourceVersion: '4' } });
    expect(out[0]?.oldObject?.metadata.resourceVersion).toBe('1');
  });

  it('defer: a delivered notification the target wants again goes out at its own time, not before', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 10, now: c.now });
    q.add(note('added', 'a', 1));
    q.add(note('added', 'b', 1));
    c.advance(10);
    const [a, b] = q.take(10);
    q.done([b!]);
    q.defer([{ notification: a!, afterMs: 2_000 }]);
    // Still the queue's: counted, not lost, and the timer knows when.
    expect(q.size).toBe(1);
    expect(q.nextReadyAt()).toBe(2_010);
    c.advance(1_999);
    expect(q.take(10)).toEqual([]);
    c.advance(1);
    expect(q.take(10)).toEqual([a]);
    q.done([a!]);
    expect(q.size).toBe(0);
  });

  it('defer: a new change to a waiting object goes out after its window, carrying the wait along', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 10, now: c.now });
    q.add(note('added', 'a', 1));
    c.advance(10);
    q.defer(q.take(10).map((notification) => ({ notification, afterMs: 5_000 })));
    q.add(note('modified', 'a', 2, 1));
    expect(q.size).toBe(1);
    c.advance(10);
    const out = q.take(10);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ change: 'added', ref: { resourceVersion: '2' } });
    q.done(out);
    c.advance(5_000);
    expect(q.take(10)).toEqual([]);
  });

  it('take(all) ignores the window (shutdown flush)', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 100, now: c.now });
    q.add(note('added', 'a', 1));
    expect(q.take(10, true)).toHaveLength(1);
  });

  it('does not hand out an object whose earlier notification is still in flight', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 0, now: c.now });
    q.add(note('added', 'a', 1));
    const first = q.take(10);
    q.add(note('modified', 'a', 2, 1));
    q.add(note('added', 'b', 1));
    expect(q.take(10).map((n) => n.ref.name)).toEqual(['b']);
    q.done(first);
    expect(q.take(10).map((n) => n.ref.name)).toEqual(['a']);
  });

  it('merges a failed delivery with newer changes and makes it ready at once', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 100, now: c.now });
    q.add(note('added', 'a', 1));
    c.advance(100);
    const failed = q.take(10);
    q.add(note('modified', 'a', 2, 1)); // arrives while the first is in flight
    q.requeue(failed);
    const out = q.take(10); // no need to wait for the window
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ change: 'added', ref: { resourceVersion: '2' } });
    expect(out[0]?.oldObject).toBeUndefined();
  });

  it('stays bounded by the number of objects: 10,000 objects, 100,000 changes, nothing delivered', () => {
    // Prepare
    const c = clock();
    const q = new PendingQueue({ windowMs: 100, now: c.now });
    const objects = 10_000;
    let maxSize = 0;
    // Act: the sink is down; every batch taken fails and comes back while changes keep arriving.
    for (let i = 0; i < 100_000; i++) {
      q.add(note('modified', `svc-${i % objects}`, i + 2, i + 1));
      if (i % 1000 === 0) {
        c.advance(200);
        q.requeue(q.take(500));
      }
      maxSize = Math.max(maxSize, q.size);
    }
    // Assess: one entry per object, each carrying its latest version.
    expect(maxSize).toBeLessThanOrEqual(objects);
    expect(q.size).toBe(objects);
    c.advance(200);
    const all = q.take(Number.MAX_SAFE_INTEGER);
    expect(all).toHaveLength(objects);
    const latest = new Map(all.map((n) => [n.ref.name, Number(n.ref.resourceVersion)]));
    for (let k = 0; k < objects; k++) expect(latest.get(`svc-${k}`)).toBe(90_000 + k + 2);
  });

  it('clear() forgets everything and reports how many objects it dropped', () => {
    const q = new PendingQueue({ windowMs: 0 });
    q.add(note('added', 'a', 1));
    q.add(note('added', 'b', 1));
    q.take(1);
    expect(q.clear()).toBe(2);
    expect(q.size).toBe(0);
  });

  it('gives EndpointSlices their own window, counted from the first change and never extended', () => {
    // Prepare
    const c = clock();
    const q = new PendingQueue({ windowMs: 100, kindWindowsMs: { EndpointSlice: 1000 }, now: c.now });
    q.add(slice('member1-serve', 2, 1));
    c.advance(10);
    q.add(note('modified', 'svc', 2, 1));
    // Act: the slice keeps changing, every 100 ms, for longer than its window.
    const taken: string[] = [];
    for (let t = 0; t < 1500; t += 100) {
      q.add(slice('member1-serve', 3 + t, 2 + t));
      const out = q.take(10);
      q.done(out);
      taken.push(...out.map((n) => `${c.now()}:${n.ref.kind}`));
      c.advance(100);
    }
    // Assess: the Service left after its 100 ms; the slice after exactly its 1 s, merged into one.
    expect(taken[0]).toBe('110:Service');
    expect(taken[1]).toBe('1010:EndpointSlice');
    expect(q.nextReadyAt()).toBe(2110);
  });

  it('merges lanes in readyAt order, and counts what a full call could carry', () => {
    const c = clock();
    const q = new PendingQueue({ windowMs: 10, kindWindowsMs: { EndpointSlice: 30 }, now: c.now });
    q.add(slice('s1', 2, 1)); // ready at 30
    c.advance(5);
    q.add(note('added', 'a', 1)); // ready at 15
    c.advance(16);
    q.add(note('added', 'b', 1)); // ready at 31
    expect(q.readyAtOf(1)).toBe(15);
    expect(q.readyAtOf(2)).toBe(30);
    expect(q.readyAtOf(3)).toBe(31);
    expect(q.readyAtOf(4)).toBeUndefined();
    expect(q.readyCount(10)).toBe(1);
    c.advance(10);
    expect(q.readyCount(10)).toBe(3);
    expect(q.take(10).map((n) => n.ref.name)).toEqual(['a', 's1', 'b']);
  });
});
