/**
 * A fault-injecting Sink between the forwarder and the function: notifications are dropped,
 * duplicated, delayed and reordered on the way, as a real queue or network may do. A dropped
 * notification is reported as delivered (the forwarder believes it was sent), so only the final
 * resync can recover it; a delayed one is held and delivered later by this sink, retrying until
 * the function accepts it, like a queue's redelivery.
 */
import type { ChangeNotification } from '../../lib/notification/types.js';
import type { SendResult, Sink } from '../../lib/forwarder/sinks/types.js';
import type { Rng } from './prng.js';

export interface NotificationFaultRates {
  drop: number;
  duplicate: number;
  delay: number;
  /** Per batch: shuffle its order. */
  reorder: number;
  maxDelayMs: number;
}

export interface NotificationFaultCounts {
  dropped: number;
  duplicated: number;
  delayed: number;
  reordered: number;
}

export class FaultySink implements Sink {
  readonly name = 'chaos';
  readonly maxBatch: number;
  readonly counts: NotificationFaultCounts = { dropped: 0, duplicated: 0, delayed: 0, reordered: 0 };
  private rates: NotificationFaultRates | undefined;
  private readonly held = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly inner: Sink,
    private readonly rng: Rng,
    rates: NotificationFaultRates,
  ) {
    this.maxBatch = inner.maxBatch;
    this.rates = rates;
  }

  /** Stops injecting (quiesce): from now on notifications pass through untouched. */
  calm(): void {
    this.rates = undefined;
  }

  /** Notifications held for late delivery. */
  get pending(): number {
    return this.held.size;
  }

  async send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SendResult> {
    const r = this.rates;
    if (!r) return this.inner.send(batch, signal);
    let now: ChangeNotification[] = [];
    for (const n of batch) {
      if (this.rng.chance(r.drop)) {
        this.counts.dropped++;
        continue;
      }
      if (this.rng.chance(r.duplicate)) {
        this.counts.duplicated++;
        now.push(n);
      }
      if (this.rng.chance(r.delay)) {
        this.counts.delayed++;
        this.hold(n, this.rng.int(50, r.maxDelayMs));
        continue;
      }
      now.push(n);
    }
    if (now.length > 1 && this.rng.chance(r.reorder)) {
      this.counts.reordered++;
      now = this.rng.shuffle(now);
    }
    if (!now.length) return { failed: [], calls: 0, errors: 0 };
    const result = await this.inner.send(now, signal);
    // A duplicate that failed is one notification, not two: the forwarder must not see it twice;
    // one that failed once and waited once has failed.
    const failed = [...new Set(result.failed)];
    const seen = new Set<ChangeNotification>(failed);
    const later = (result.later ?? []).filter((l) => !seen.has(l.notification) && seen.add(l.notification));
    return { ...result, failed, ...(result.later ? { later } : {}) };
  }

  /** Delivers `n` after `ms`, retrying until the function takes it or the sink is closed. */
  private hold(n: ChangeNotification, ms: number): void {
    const task = (async () => {
      await sleep(ms);
      for (let attempt = 0; !this.closed; attempt++) {
        const result = await this.inner.send([n]);
        const wait = result.later?.[0];
        // Taken but wanted again later: as the forwarder's queue would, send it again then.
        if (wait) {
          attempt = -1;
          await sleep(wait.afterMs);
          continue;
        }
        if (!result.failed.length) return;
        await sleep(Math.min(1000, 50 * 2 ** attempt));
      }
    })().finally(() => this.held.delete(task));
    this.held.add(task);
  }

  close(): void {
    this.closed = true;
    this.inner.close?.();
  }
}

/** Per `change`: reconciled, taken to wait, or not accepted (sent again). */
export interface ChangeCounts {
  delivered: number;
  waited: number;
  redelivered: number;
}

/** Counts what reaches the function and how often it had to be sent again. */
export class CountingSink implements Sink {
  readonly name: string;
  readonly maxBatch: number;
  inFlight = 0;
  delivered = 0;
  /** Notifications the function did not accept (error, kill, throttled object): sent again later. */
  redelivered = 0;
  /** Notifications the function took but wants again later (their objects wait): not failures. */
  waiting = 0;
  private readonly changes = new Map<string, ChangeCounts>();

  /** What happened to notifications of one `change` (e.g. `resync`), since `since` when given. */
  byChange(change: string, since?: ChangeCounts): ChangeCounts {
    const c = this.changes.get(change) ?? { delivered: 0, waited: 0, redelivered: 0 };
    return since
      ? {
          delivered: c.delivered - since.delivered,
          waited: c.waited - since.waited,
          redelivered: c.redelivered - since.redelivered,
        }
      : { ...c };
  }

  constructor(private readonly inner: Sink) {
    this.name = inner.name;
    this.maxBatch = inner.maxBatch;
  }

  async send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SendResult> {
    this.inFlight++;
    try {
      const result = await this.inner.send(batch, signal);
      this.delivered += batch.length - result.failed.length;
      this.redelivered += result.failed.length;
      this.waiting += result.later?.length ?? 0;
      const failed = new Set(result.failed);
      const later = new Set(result.later?.map((l) => l.notification));
      for (const n of batch) {
        const c = this.changes.get(n.change) ?? { delivered: 0, waited: 0, redelivered: 0 };
        if (failed.has(n)) c.redelivered++;
        else if (later.has(n)) c.waited++;
        else c.delivered++;
        this.changes.set(n.change, c);
      }
      return result;
    } finally {
      this.inFlight--;
    }
  }

  close(): void {
    this.inner.close?.();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
