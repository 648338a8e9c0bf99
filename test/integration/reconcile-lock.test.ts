/**
 * The per-object lock (lib/reconcile/lock.ts) against the Kubernetes API stand-in: the Lease it
 * writes, a held lock refused or waited for, an expired one taken over, the release guarded by
 * preconditions so a taken-over Lease is never deleted, and the races between the steps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RetryLaterError } from '../../lib/errors.js';
import { isConflict, type KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { acquireLock, lockName, type LockOptions } from '../../lib/reconcile/lock.js';
import { startHarness, type Harness } from '../support/harness.js';

interface Lease extends KubeObject {
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string };
}

const NS = 'karmada-system';
const KEY = 'multiclusteringress/default/web';
const T0 = new Date('2026-12-01T10:00:00.123Z');
const at = (d: Date) => () => d;
const opts = (holder: string, extra: Partial<LockOptions> = {}): LockOptions => ({
  namespace: NS,
  holder,
  durationSeconds: 30,
  now: at(T0),
  ...extra,
});

let h: Harness;
const lease = () => h.kube.get<Lease>(Resources.Lease, NS, lockName(KEY));

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
});
afterEach(async () => h.close());

describe('lockName', () => {
  it.each([
    ['multiclusteringress/default/web', /^mcp-multiclusteringress-default-web-[0-9a-f]{12}$/],
    ['Crd-Installation//', /^mcp-crd-installation-[0-9a-f]{12}$/],
    ['--a..b__c--', /^mcp-a-b-c-[0-9a-f]{12}$/],
    ['', /^mcp-[0-9a-f]{12}$/],
  ])('%j → a valid Lease name', (key, pattern) => {
    expect(lockName(key)).toMatch(pattern);
  });

  it('keeps 40 readable characters and tells long keys apart by their hash', () => {
    const a = `multiclusteringress/default/${'x'.repeat(100)}a`;
    const b = `multiclusteringress/default/${'x'.repeat(100)}b`;
    expect(lockName(a)).toMatch(/^mcp-multiclusteringress-default-xxxxxxxxxxxx-[0-9a-f]{12}$/);
    expect(lockName(a).length).toBe('mcp-'.length + 40 + 1 + 12);
    expect(lockName(a)).not.toBe(lockName(b));
    expect(lockName(KEY)).toBe(lockName(KEY));
    expect(lockName('A/b')).not.toBe(lockName('a/b'));
  });
});

describe('acquireLock', () => {
  it('writes a labelled Lease naming the holder, with microsecond times, and release deletes it', async () => {
    const lock = await acquireLock(h.kube, KEY, opts('inv-1'));
    const held = await lease();
    expect(held?.metadata.labels).toEqual({ 'multicluster.karmada.io/lock': 'true' });
    expect(held?.spec).toEqual({
      holderIdentity: 'inv-1',
      leaseDurationSeconds: 30,
      acquireTime: '2026-12-01T10:00:00.123000Z',
      renewTime: '2026-12-01T10:00:00.123000Z',
    });
    await lock.release();
    expect(await lease()).toBeUndefined();
  });

  it('a held lock → RetryLaterError naming the holder, retry after 2 s; the Lease is untouched', async () => {
    await acquireLock(h.kube, KEY, opts('inv-1'));
    const before = await lease();
    const err = await acquireLock(
      h.kube,
      KEY,
      opts('inv-2', { now: at(new Date(T0.getTime() + 29_000)) }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toMatchObject({
      message: `${KEY} is being reconciled by inv-1`,
      retryAfterSeconds: 2,
    });
    expect((await lease())?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  it('a held Lease without a holder is refused as "another invocation"', async () => {
    await h.kube.create<Lease>(Resources.Lease, {
      metadata: { name: lockName(KEY), namespace: NS },
      spec: { leaseDurationSeconds: 30, renewTime: '2026-12-01T10:00:00.000000Z' },
    });
    await expect(acquireLock(h.kube, KEY, opts('inv-2'))).rejects.toThrow(
      `${KEY} is being reconciled by another invocation`,
    );
  });

  it.each<[string, Lease['spec'], boolean]>([
    [
      'renewed 31 s ago for 30 s',
      { renewTime: '2026-12-01T09:59:29.000000Z', leaseDurationSeconds: 30 },
      true,
    ],
    [
      'renewed exactly 30 s ago for 30 s',
      { renewTime: '2026-12-01T09:59:30.123000Z', leaseDurationSeconds: 30 },
      false,
    ],
    [
      'acquired 31 s ago, never renewed',
      { acquireTime: '2026-12-01T09:59:29.000000Z', leaseDurationSeconds: 30 },
      true,
    ],
    [
      'acquired 5 s ago, never renewed',
      { acquireTime: '2026-12-01T09:59:55.000000Z', leaseDurationSeconds: 30 },
      false,
    ],
    [
      'renewed recently though acquired long ago',
      {
        acquireTime: '2026-12-01T09:00:00.000000Z',
        renewTime: '2026-12-01T09:59:55.000000Z',
        leaseDurationSeconds: 30,
      },
      false,
    ],
    ['renewed 1 s ago without a duration', { renewTime: '2026-12-01T09:59:59.000000Z' }, true],
    ['with no time at all', { holderIdentity: 'ghost', leaseDurationSeconds: 3600 }, true],
  ])('a Lease %s → taken over: %s', async (_name, spec, takenOver) => {
    await h.kube.create<Lease>(Resources.Lease, {
      metadata: { name: lockName(KEY), namespace: NS },
      spec: { holderIdentity: 'old', ...spec },
    });
    const got = await acquireLock(h.kube, KEY, opts('inv-2')).then(
      () => true,
      (e: unknown) => {
        if (!(e instanceof RetryLaterError)) throw e;
        return false;
      },
    );
    expect(got).toBe(takenOver);
    expect((await lease())?.spec.holderIdentity).toBe(takenOver ? 'inv-2' : 'old');
  });

  it('an expired Lease is taken over by an update; the old holder’s release then leaves it alone', async () => {
    const old = await acquireLock(h.kube, KEY, opts('inv-1'));
    const later = new Date(T0.getTime() + 31_000);
    const fresh = await acquireLock(h.kube, KEY, opts('inv-2', { now: at(later) }));
    expect((await lease())?.spec).toEqual({
      holderIdentity: 'inv-2',
      leaseDurationSeconds: 30,
      acquireTime: '2026-12-01T10:00:31.123000Z',
      renewTime: '2026-12-01T10:00:31.123000Z',
    });
    const err = await old.release().catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
    expect((await lease())?.spec.holderIdentity).toBe('inv-2');
    await fresh.release();
    expect(await lease()).toBeUndefined();
  });

  it('waits for a holder that finishes within waitMs', async () => {
    const first = await acquireLock(h.kube, KEY, opts('inv-1', { now: undefined }));
    const waiting = acquireLock(h.kube, KEY, opts('inv-2', { now: undefined, waitMs: 10_000 }));
    await new Promise((r) => setTimeout(r, 200));
    await first.release();
    await waiting;
    expect((await lease())?.spec.holderIdentity).toBe('inv-2');
  });

  it('gives up once waitMs has passed, and at once when the signal is aborted', async () => {
    await acquireLock(h.kube, KEY, opts('inv-1', { now: undefined }));
    const posts = () => h.api.requests.count('POST', `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`);
    for (const kube of [h.kube, Object.create(h.kube) as KubeClient]) {
      // h.kube: a holder in this process; a client of its own: another process's, met at the Lease.
      const started = Date.now();
      await expect(acquireLock(kube, KEY, opts('inv-2', { now: undefined, waitMs: 300 }))).rejects.toThrow(
        RetryLaterError,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      const aborted = new AbortController();
      aborted.abort();
      const tries = posts();
      await expect(
        acquireLock(kube, KEY, opts('inv-3', { now: undefined, waitMs: 60_000, signal: aborted.signal })),
      ).rejects.toThrow(RetryLaterError);
      // In this process the refusal needs no API call; elsewhere one look at the Lease.
      expect(posts()).toBe(tries + (kube === h.kube ? 0 : 1));
    }
  });

  it('a holder in this process is waited for without polling the Lease, and a waiter past its expiry takes over', async () => {
    const first = await acquireLock(h.kube, KEY, opts('inv-1', { now: undefined }));
    const posts = () => h.api.requests.count('POST', `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`);
    const before = posts();
    const waiting = acquireLock(h.kube, KEY, opts('inv-2', { now: undefined, waitMs: 10_000 }));
    await new Promise((r) => setTimeout(r, 400));
    expect(posts()).toBe(before);
    await first.release();
    const second = await waiting;
    expect(posts()).toBe(before + 1);
    expect((await lease())?.spec.holderIdentity).toBe('inv-2');
    // A hold past its Lease's expiry does not stop another reconcile (its holder may be gone).
    const later = new Date(Date.now() + 120_000);
    const third = await acquireLock(h.kube, KEY, opts('inv-3', { now: () => later }));
    expect((await lease())?.spec.holderIdentity).toBe('inv-3');
    // The taken-over Lease is not the old holder's to delete (run.ts ignores that conflict).
    expect(isConflict(await second.release().catch((e: unknown) => e))).toBe(true);
    await third.release();
    expect(await lease()).toBeUndefined();
  });

  it('other API errors are not retried as a held lock', async () => {
    const failing: KubeClient = Object.create(h.kube);
    failing.create = () => Promise.reject(new Error('connection refused'));
    await expect(acquireLock(failing, KEY, opts('inv-1', { waitMs: 60_000 }))).rejects.toThrow(
      'connection refused',
    );
  });

  it('a Lease that vanishes between AlreadyExists and the read is created again, as the first one', async () => {
    await acquireLock(h.kube, KEY, opts('inv-1'));
    const racing: KubeClient = Object.create(h.kube);
    racing.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      await h.kube.delete(Resources.Lease, NS, lockName(KEY));
      return h.kube.get<T>(...args);
    };
    await acquireLock(racing, KEY, opts('inv-2'));
    const taken = await lease();
    expect(taken?.spec.holderIdentity).toBe('inv-2');
    expect(taken?.metadata.labels).toEqual({ 'multicluster.karmada.io/lock': 'true' });
  });

  it('losing the takeover race (409 on the update) → RetryLaterError', async () => {
    await acquireLock(h.kube, KEY, opts('inv-1'));
    const later = { now: at(new Date(T0.getTime() + 60_000)) };
    const racing: KubeClient = Object.create(h.kube);
    racing.update = async <T extends KubeObject>(...args: Parameters<KubeClient['update']>) => {
      // another invocation takes the expired Lease over first
      await acquireLock(h.kube, KEY, opts('inv-3', later));
      return h.kube.update<T>(args[0], args[1] as T);
    };
    const err = await acquireLock(racing, KEY, opts('inv-2', later)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toMatchObject({ message: `${KEY} was locked by another invocation`, retryAfterSeconds: 2 });
    expect((await lease())?.spec.holderIdentity).toBe('inv-3');
  });

  it('a failing takeover write that is not a conflict is passed on', async () => {
    await acquireLock(h.kube, KEY, opts('inv-1'));
    const failing: KubeClient = Object.create(h.kube);
    failing.update = () => Promise.reject(new Error('etcd unavailable'));
    await expect(
      acquireLock(failing, KEY, opts('inv-2', { now: at(new Date(T0.getTime() + 60_000)), waitMs: 60_000 })),
    ).rejects.toThrow('etcd unavailable');
  });
});
