/**
 * Moves ready notifications from the pending queue to the sink: a few batches in flight at once,
 * exponential backoff with jitter after failures, and nothing dropped. Failed notifications go
 * back into the queue (merged with newer changes), so an outage costs memory per object, not per
 * event.
 */
import type { Logger } from '../log/logger.js';
import type { ChangeNotification } from '../notification/types.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import type { ForwarderMetrics } from './metrics.js';
import type { PendingQueue } from './pending.js';
import type { Sink } from './sinks/types.js';

const NOT_ALLOWED_RECHECK_MS = 250;

export interface DispatcherOptions {
  queue: PendingQueue;
  sink: Sink;
  logger: Logger;
  metrics: ForwarderMetrics;
  /** Batches in flight at once. */
  concurrency?: number;
  /**
   * Under load (a call started within the last two intervals), a call goes out as soon as it is
   * full, or when the oldest ready notification has waited this long, so that calls carry full
   * batches instead of whatever became ready that millisecond. Adds at most this much latency.
   * 0 = send as soon as anything is ready.
   */
  batchIntervalMs?: number;
  backoff?: BackoffOptions;
  /** Checked before every call: a replica that lost its lease must not send. */
  canSend?: () => boolean;
  /** Monotonic clock (ms), as the queue's. */
  now?: () => number;
}

export class Dispatcher {
  private readonly concurrency: number;
  private readonly batchIntervalMs: number;
  private readonly backoff: BackoffOptions;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  private inFlight = 0;
  /** When the last call started: a call that recent means we are under load. */
  private lastSendAt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private backoffUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private stopped = false;
  private flushing = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? 4;
    this.batchIntervalMs = options.batchIntervalMs ?? 0;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.now = options.now ?? (() => performance.now());
  }

  /** A notification was queued: make sure a timer will pick it up. */
  wake(): void {
    if (this.stopped) return;
    const at = this.nextSendAt();
    if (at !== undefined) this.schedule(at);
  }

  /** A call started recently: batch rather than send each notification the moment it is ready. */
  private busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastSendAt < 2 * this.batchIntervalMs;
  }

  private batching(): boolean {
    return !this.flushing && this.batchIntervalMs > 0 && this.busy();
  }

  /** Notifications one call to the sink carries at most. */
  private get perCall(): number {
    const { sink } = this.options;
    return Math.min(sink.perCall ?? sink.maxBatch, sink.maxBatch);
  }

  /**
   * When the next call should go out: as soon as something is ready, or, while batching, when a
   * full call is ready or the oldest ready notification has waited a batch interval.
   */
  private nextSendAt(): number | undefined {
    const { queue } = this.options;
    const first = queue.nextReadyAt();
    if (first === undefined) return undefined;
    if (this.flushing) return this.now();
    if (!this.batching()) return first;
    const full = queue.readyAtOf(this.perCall);
    const linger = first + this.batchIntervalMs;
    return full === undefined ? linger : Math.min(full, linger);
  }

  /** Sends everything now, ignoring the coalescing window; resolves true when all was delivered. */
  async flush(timeoutMs: number): Promise<boolean> {
    this.flushing = true;
    const deadline = Date.now() + timeoutMs;
    this.pump();
    while (!this.stopped && this.options.queue.size > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.idleWaiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.options.queue.size === 0;
  }

  /** Stops at once: no further call is made and calls in progress are aborted. */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private schedule(at: number): void {
    if (this.stopped) return;
    const when = Math.max(at, this.backoffUntil);
    if (this.timer !== undefined && this.timerAt <= when) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = when;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, Math.ceil(when - this.now())),
    );
  }

  private pump(): void {
    if (this.stopped) return;
    const { queue, sink } = this.options;
    if (this.now() < this.backoffUntil) return this.schedule(this.backoffUntil);
    // Not allowed to send (lease not renewed in time): look again shortly, without busy-looping.
    if (this.options.canSend && !this.options.canSend())
      return this.schedule(this.now() + NOT_ALLOWED_RECHECK_MS);
    while (this.inFlight < this.concurrency) {
      let max = sink.maxBatch;
      if (this.batching()) {
        const ready = queue.readyCount(sink.maxBatch);
        if (ready >= this.perCall)
          max = ready - (ready % this.perCall); // full calls only
        else if (ready === 0 || this.now() < (queue.nextReadyAt() ?? 0) + this.batchIntervalMs) break;
      }
      const batch = queue.take(max, this.flushing);
      if (batch.length === 0) break;
      this.inFlight++;
      this.lastSendAt = this.now();
      void this.deliver(batch).finally(() => {
        this.inFlight--;
        this.options.metrics.pendingObjects.set(queue.size);
        for (const w of this.idleWaiters.splice(0)) w();
        this.pump();
      });
    }
    const next = this.nextSendAt();
    if (next !== undefined && this.inFlight < this.concurrency) this.schedule(next);
  }

  private async deliver(batch: ChangeNotification[]): Promise<void> {
    const { queue, sink, metrics, logger } = this.options;
    if (this.options.canSend && !this.options.canSend()) {
      queue.requeue(batch);
      this.backoffUntil = Math.max(this.backoffUntil, this.now() + NOT_ALLOWED_RECHECK_MS);
      return;
    }
    const result = await sink.send(batch, this.abort.signal);
    if (this.stopped) return;
    metrics.sinkCalls.inc({ sink: sink.name }, result.calls);
    if (result.errors > 0) metrics.sinkErrors.inc({ sink: sink.name }, result.errors);
    const failed = new Set(result.failed);
    const later = result.later ?? [];
    const waiting = new Set(later.map((l) => l.notification));
    const delivered = batch.filter((n) => !failed.has(n));
    queue.done(delivered.filter((n) => !waiting.has(n)));
    // Taken, and wanted again after a while: not a failure, so no backoff.
    if (later.length) {
      queue.defer(later);
      metrics.notificationsWaiting.inc({ sink: sink.name }, later.length);
    }
    const now = Date.now();
    for (const n of delivered) {
      metrics.notificationsSent.inc({ sink: sink.name, change: n.change });
      if (n.observedAt)
        metrics.deliveryLatency.observe({ sink: sink.name }, (now - Date.parse(n.observedAt)) / 1000);
    }
    if (result.failed.length === 0) {
      this.failures = 0;
      logger.debug('delivered', { sink: sink.name, notifications: delivered.length, calls: result.calls });
      return;
    }
    queue.requeue(result.failed);
    const delay = backoffDelay(this.failures++, this.backoff);
    this.backoffUntil = Math.max(this.backoffUntil, this.now() + delay);
    logger.warn('sink delivery failed; will retry', {
      sink: sink.name,
      failed: result.failed.length,
      delivered: delivered.length,
      retryInMs: Math.round(delay),
      pendingObjects: queue.size,
      error: result.lastError,
    });
  }
}
