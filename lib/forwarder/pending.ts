/**
 * The notifications waiting for delivery: one entry per object key, never one per event. While the
 * sink is down, changes to an object merge into its entry, so memory is bounded by the number of
 * objects however many events arrive. It is also the coalescer: an entry becomes ready only after
 * the coalescing window since its first change, and later changes merge into it meanwhile.
 */
import type { ChangeNotification } from '../notification/types.js';
import { coalesce } from './merge.js';
import { notificationKey } from './notify.js';

interface Entry {
  notification: ChangeNotification;
  /** Monotonic time (ms) after which the entry may be sent. */
  readyAt: number;
}

export interface PendingQueueOptions {
  windowMs: number;
  /** Monotonic clock in ms; performance.now unless given (tests pass a fake). */
  now?: () => number;
  /** Called when an entry is added, so the dispatcher can arm its timer. */
  onAdd?: () => void;
}

export class PendingQueue {
  // Map iteration order is insertion order, and readyAt = insertion time + a constant window, so
  // entries are ordered by readyAt: a scan can stop at the first entry that is not ready yet.
  private readonly entries = new Map<string, Entry>();
  /** Keys that are ready regardless of position (failed deliveries put back). */
  private readonly retry = new Set<string>();
  /** Keys with a delivery in progress: not taken again until it ends, to keep per-object order. */
  private readonly inFlight = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: PendingQueueOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Objects with a notification waiting or in delivery. */
  get size(): number {
    let extra = 0;
    for (const key of this.inFlight) if (!this.entries.has(key)) extra++;
    return this.entries.size + extra;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  add(notification: ChangeNotification): void {
    const key = notificationKey(notification);
    const entry = this.entries.get(key);
    if (entry) entry.notification = coalesce(entry.notification, notification);
    else this.entries.set(key, { notification, readyAt: this.now() + this.options.windowMs });
    this.options.onAdd?.();
  }

  /**
   * Up to `max` notifications that may be sent now, marked in flight. `all` ignores the
   * coalescing window (shutdown flush).
   */
  take(max: number, all = false): ChangeNotification[] {
    const out: ChangeNotification[] = [];
    for (const key of this.retry) {
      if (out.length >= max) return out;
      if (this.inFlight.has(key)) continue;
      this.takeKey(key, out);
    }
    // Entries due within a fraction of the window go along, so a burst fills batches instead of
    // trickling out one timer tick at a time.
    const horizon = this.now() + Math.min(this.options.windowMs / 4, 25);
    for (const [key, entry] of this.entries) {
      if (out.length >= max) break;
      if (this.inFlight.has(key)) continue;
      if (!all && entry.readyAt > horizon) break;
      this.takeKey(key, out);
    }
    return out;
  }

  private takeKey(key: string, out: ChangeNotification[]): void {
    const entry = this.entries.get(key);
    this.retry.delete(key);
    if (!entry) return;
    this.entries.delete(key);
    this.inFlight.add(key);
    out.push(entry.notification);
  }

  /** Delivery succeeded. */
  done(notifications: readonly ChangeNotification[]): void {
    for (const n of notifications) this.inFlight.delete(notificationKey(n));
  }

  /**
   * Delivery failed: put back, merged with anything newer for the same object (the failed one is
   * the older), and ready at once.
   */
  requeue(notifications: readonly ChangeNotification[]): void {
    for (const failed of notifications) {
      const key = notificationKey(failed);
      this.inFlight.delete(key);
      const newer = this.entries.get(key);
      if (newer) newer.notification = coalesce(failed, newer.notification);
      else this.entries.set(key, { notification: failed, readyAt: Number.NEGATIVE_INFINITY });
      this.retry.add(key);
    }
  }

  /**
   * Monotonic time at which `take` will next return something, or undefined when nothing is
   * waiting (or everything waiting has a delivery in flight).
   */
  nextReadyAt(): number | undefined {
    for (const key of this.retry) if (!this.inFlight.has(key)) return Number.NEGATIVE_INFINITY;
    for (const [key, entry] of this.entries) if (!this.inFlight.has(key)) return entry.readyAt;
    return undefined;
  }

  /** Forgets everything (leadership lost: the next leader re-lists). Returns how many were dropped. */
  clear(): number {
    const n = this.size;
    this.entries.clear();
    this.retry.clear();
    this.inFlight.clear();
    return n;
  }
}
