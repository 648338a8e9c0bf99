import { describe, expect, it } from 'vitest';
import { LeaderElector } from '../../lib/forwarder/leader.js';
import type { LeaseRecord, LeaseStore } from '../../lib/forwarder/lease-store.js';
import { MemoryLogger } from '../../lib/log/logger.js';

/** An in-memory Lease with the API server's optimistic concurrency (409 on a stale resourceVersion). */
class MemoryLease implements LeaseStore {
  record: LeaseRecord | undefined;
  rv = 0;
  down = false;
  private conflict(): Error {
    return Object.assign(new Error('Conflict'), { code: 409 });
  }
  async get(): Promise<LeaseRecord | undefined> {
    if (this.down) throw new Error('unreachable');
    return this.record && { ...this.record };
  }
  async create(r: LeaseRecord): Promise<LeaseRecord> {
    if (this.down) throw new Error('unreachable');
    if (this.record) throw this.conflict();
    this.record = { ...r, resourceVersion: String(++this.rv) };
    return { ...this.record };
  }
  async update(r: LeaseRecord): Promise<LeaseRecord> {
    if (this.down) throw new Error('unreachable');
    if (!this.record || r.resourceVersion !== this.record.resourceVersion) throw this.conflict();
    this.record = { ...r, resourceVersion: String(++this.rv) };
    return { ...this.record };
  }
}

const fast = { leaseDurationMs: 600, renewDeadlineMs: 400, retryPeriodMs: 50 };

function elector(store: LeaseStore, identity: string, log: string[]): LeaderElector {
  return new LeaderElector({
    store,
    identity,
    logger: new MemoryLogger(),
    ...fast,
    onStartedLeading: () => log.push(`${identity}:start`),
    onStoppedLeading: () => log.push(`${identity}:stop`),
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Class: LeaderElector', () => {
  it('exactly one of two replicas leads; the other takes over after a release', async () => {
    // Prepare
    const store = new MemoryLease();
    const log: string[] = [];
    const a = elector(store, 'a', log);
    const b = elector(store, 'b', log);
    // Act
    a.start();
    b.start();
    let both = 0;
    for (let i = 0; i < 40; i++) {
      await sleep(10);
      if (a.isLeader() && b.isLeader()) both++;
    }
    // Assess
    expect(both).toBe(0);
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    const [leader, standby] = a.isLeader() ? [a, b] : [b, a];
    await leader.stop(true);
    expect(store.record?.holderIdentity).not.toBe(leader === a ? 'a' : 'b');
    const t0 = Date.now();
    while (!standby.isLeader() && Date.now() - t0 < 2_000) await sleep(10);
    expect(standby.isLeader()).toBe(true);
    await standby.stop();
  });

  it('a standby waits a full lease duration before taking an abandoned lease', async () => {
    const store = new MemoryLease();
    const log: string[] = [];
    const a = elector(store, 'a', log);
    a.start();
    while (!a.isLeader()) await sleep(5);
    await a.stop(false); // crashed: no release
    const b = elector(store, 'b', log);
    const t0 = Date.now();
    b.start();
    while (!b.isLeader()) await sleep(5);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(fast.leaseDurationMs - 50);
    await b.stop();
  });

  it('stops leading within the renew deadline when the API server is unreachable', async () => {
    const store = new MemoryLease();
    const log: string[] = [];
    const a = elector(store, 'a', log);
    a.start();
    while (!a.isLeader()) await sleep(5);
    store.down = true;
    const t0 = Date.now();
    while (a.isLeader()) await sleep(5);
    // isLeader() checks the deadline itself; the margin is only for a busy test machine.
    expect(Date.now() - t0).toBeLessThanOrEqual(fast.renewDeadlineMs + 300);
    await sleep(300);
    expect(log).toEqual(['a:start', 'a:stop']);
    await a.stop();
  });
});
