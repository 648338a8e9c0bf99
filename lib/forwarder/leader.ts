/**
 * Leader election over a coordination.k8s.io/v1 Lease, following client-go's rules: a lease held
 * by another replica counts as valid until leaseDuration has passed since *we* last saw it change
 * (so clock skew between replicas does not matter); the leader renews every retry period and
 * considers itself deposed once renewDeadline passes without a successful renewal, which is
 * shorter than leaseDuration so it stops before anyone else may start.
 */
import type { Logger } from '../log/logger.js';
import { sleep } from './backoff.js';
import { statusCode, type LeaseRecord, type LeaseStore } from './lease-store.js';

export interface LeaderElectorOptions {
  store: LeaseStore;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  logger: Logger;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
}

/** A hung API call must not stall the election loop: give up on it (it may still land; the next read sees it). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`lease call timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly abort = new AbortController();
  private leading = false;
  private lastRenew = 0;
  private observed: { holder: string; renewTime?: string; at: number } | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: LeaderElectorOptions) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
  }

  /** True only while the lease is held and was renewed within the renew deadline. */
  isLeader(): boolean {
    return this.leading && performance.now() - this.lastRenew < this.renewDeadlineMs;
  }

  start(): void {
    // A renewal call that hangs must not keep us leading: check the deadline on our own timer.
    this.watchdog = setInterval(() => {
      if (this.leading && !this.isLeader()) this.lose('renew deadline passed');
    }, 250);
    this.loop = this.run();
  }

  /** Stops competing; if leading, stops leading and hands the lease back so a standby takes over at once. */
  async stop(release = true): Promise<void> {
    this.abort.abort();
    if (this.watchdog) clearInterval(this.watchdog);
    await this.loop;
    const wasLeader = this.isLeader();
    if (this.leading) this.lose('shutting down');
    if (release && wasLeader) await this.release();
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      let renewed = false;
      try {
        renewed = await withTimeout(this.tryAcquireOrRenew(), this.renewDeadlineMs);
      } catch (err) {
        if (statusCode(err) !== 409) this.options.logger.warn('lease update failed', { error: err });
      }
      if (this.abort.signal.aborted) return;
      if (renewed) {
        this.lastRenew = performance.now();
        if (!this.leading) {
          this.leading = true;
          this.options.logger.info('became leader', { identity: this.options.identity });
          this.options.onStartedLeading();
        }
      } else if (this.leading && !this.isLeader()) {
        this.lose('renew deadline passed');
      }
      await sleep(this.retryPeriodMs * (this.leading ? 1 : 1 + Math.random() * 0.2), this.abort.signal);
    }
  }

  private lose(reason: string): void {
    if (!this.leading) return;
    this.leading = false;
    this.options.logger.warn('stopped leading', { identity: this.options.identity, reason });
    this.options.onStoppedLeading();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { store, identity } = this.options;
    const now = new Date().toISOString();
    const current = await store.get();
    const leaseDurationSeconds = Math.ceil(this.leaseDurationMs / 1000);
    if (!current) {
      await store.create({
        holderIdentity: identity,
        leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      });
      return true;
    }
    this.observe(current);
    const mine = current.holderIdentity === identity;
    if (!mine && this.leading) {
      this.lose(`lease taken by ${current.holderIdentity || 'nobody'}`);
    }
    if (!mine && current.holderIdentity && !this.expired(current)) return false;
    const next: LeaseRecord = {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: mine ? current.acquireTime : now,
      renewTime: now,
      leaseTransitions: mine ? current.leaseTransitions : current.leaseTransitions + 1,
      resourceVersion: current.resourceVersion,
    };
    const written = await store.update(next);
    this.observe(written);
    return true;
  }

  private observe(record: LeaseRecord): void {
    const o = this.observed;
    if (!o || o.holder !== record.holderIdentity || o.renewTime !== record.renewTime) {
      this.observed = { holder: record.holderIdentity, renewTime: record.renewTime, at: performance.now() };
    }
  }

  private expired(record: LeaseRecord): boolean {
    const duration = (record.leaseDurationSeconds || this.leaseDurationMs / 1000) * 1000;
    return this.observed === undefined || this.observed.at + duration <= performance.now();
  }

  private async release(): Promise<void> {
    try {
      await withTimeout(this.releaseOnce(), this.renewDeadlineMs);
    } catch (err) {
      this.options.logger.warn('could not release lease', { error: err });
    }
  }

  private async releaseOnce(): Promise<void> {
    const current = await this.options.store.get();
    if (!current || current.holderIdentity !== this.options.identity) return;
    const now = new Date().toISOString();
    await this.options.store.update({
      ...current,
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
    });
    this.options.logger.info('released lease', { identity: this.options.identity });
  }
}
