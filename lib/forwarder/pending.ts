/**
 * The notifications waiting for delivery: one entry per object key, never one per event. While the
 * sink is down, changes to an object merge into its entry, so memory is bounded by the number of
 * objects however many events arrive. It is also the coalescer: an entry becomes ready only after
 * the coalescing window since its first change, and later changes merge into it meanwhile. The
 * window is counted from the first change and never extended, so it is also the most latency
 * coalescing can add. Kinds may have their own, longer window (EndpointSlices: a rollout's burst).
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
  /** Per-kind windows (by `ref.kind`) that differ from `windowMs`. */
  kindWindowsMs?: Readonly<Record<string, number>>;
  /** Monotonic clock in ms; performance.now unless given (tests pass a fake). */
  now?: () => number;
  /** Called when an entry is added, so the dispatcher can arm its timer. */
  onAdd?: () => void;
}

/** Entries sharing one window. */
interface Lane {
  windowMs: number;
  // Map iteration order is insertion order, and readyAt = insertion time + the lane's constant
  // window, so a lane is ordered by readyAt: a scan can stop at its first entry not ready yet.
  entries: Map<string, Entry>;
}

export class PendingQueue {
  private readonly lanes = new Map<number, Lane>();
  /** Which lane holds a key (a key's kind never changes, so neither does its lane). */
  private readonly laneOf = new Map<string, Lane>();
  /** Keys that are ready regardless of position (failed deliveries put back). */
  private readonly retry = new Set<string>();
  /** Keys with a delivery in progress: not taken again until it ends, to keep per-object order. */
  private readonly inFlight = new Set<string>();
  /**
   * Delivered notifications the target wants again later (its objects wait on the cloud): each
   * ready at its own time, so kept apart from the lanes, whose order is their fixed window's.
   */
  private readonly deferred = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly options: PendingQueueOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Objects with a notification waiting or in delivery. */
  get size(): number {
    let extra = 0;
    for (const key of this.inFlight) if (!this.laneOf.has(key) && !this.deferred.has(key)) extra++;
    for (const key of this.deferred.keys()) if (!this.laneOf.has(key)) extra++;
    return this.laneOf.size + extra;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private laneFor(notification: ChangeNotification): Lane {
    const windowMs = this.options.kindWindowsMs?.[notification.ref.kind] ?? this.options.windowMs;
    let lane = this.lanes.get(windowMs);
    if (!lane) {
      lane = { windowMs, entries: new Map() };
      this.lanes.set(windowMs, lane);
    }
    return lane;
  }

  add(notification: ChangeNotification): void {
    const key = notificationKey(notification);
    const lane = this.laneOf.get(key);
    const entry = lane?.entries.get(key);
    // A new change to an object that waits goes out with the change, not at the wait's end.
    const waiting = this.deferred.get(key);
    this.deferred.delete(key);
    const merged = waiting ? coalesce(waiting.notification, notification) : notification;
    if (entry) entry.notification = coalesce(entry.notification, merged);
    else this.put(key, merged, this.now() + this.laneFor(notification).windowMs);
    this.options.onAdd?.();
  }

  private put(key: string, notification: ChangeNotification, readyAt: number): void {
    const lane = this.laneFor(notification);
    lane.entries.set(key, { notification, readyAt });
    this.laneOf.set(key, lane);
  }

  /** Entries due within a fraction of their window go along, so a burst fills batches. */
  private horizon(lane: Lane, now: number): number {
    return now + Math.min(lane.windowMs / 4, 25);
  }

  /**
   * Keys that may be taken (not in flight), earliest first: retries, then every lane's entries
   * merged by readyAt. Each comes with the time it may be sent and whether it is due by now.
   */
  private *takeable(now: number): Generator<{ key: string; readyAt: number; due: boolean }> {
    for (const key of this.retry) {
      if (!this.inFlight.has(key)) yield { key, readyAt: Number.NEGATIVE_INFINITY, due: true };
    }
    const waits = [...this.deferred.entries()]
      .filter(([key]) => !this.inFlight.has(key))
      .sort((a, b) => a[1].readyAt - b[1].readyAt);
    for (const [key, entry] of waits) {
      if (entry.readyAt > now) break;
      yield { key, readyAt: entry.readyAt, due: true };
    }
    const nextWait = waits.find(([, e]) => e.readyAt > now);
    const cursors = [...this.lanes.values()].map((lane) => ({
      lane,
      horizon: this.horizon(lane, now),
      it: lane.entries.entries(),
      head: undefined as [string, Entry] | undefined,
    }));
    const advance = (c: (typeof cursors)[number]) => {
      for (let r = c.it.next(); !r.done; r = c.it.next()) {
        const [key] = r.value;
        if (!this.inFlight.has(key) && !this.retry.has(key)) return (c.head = r.value);
      }
      return (c.head = undefined);
    };
    cursors.forEach(advance);
    let pendingWait = nextWait;
    for (;;) {
      let best: (typeof cursors)[number] | undefined;
      for (const c of cursors) if (c.head && (!best || c.head[1].readyAt < best.head![1].readyAt)) best = c;
      // The earliest wait not over yet, in readyAt order with the lanes (for the timer).
      if (pendingWait && (!best?.head || pendingWait[1].readyAt < best.head[1].readyAt)) {
        yield { key: pendingWait[0], readyAt: pendingWait[1].readyAt, due: false };
        pendingWait = undefined;
        continue;
      }
      if (!best?.head) return;
      const [key, entry] = best.head;
      yield { key, readyAt: entry.readyAt, due: entry.readyAt <= best.horizon };
      advance(best);
    }
  }

  /**
   * Up to `max` notifications that may be sent now, marked in flight. `all` ignores the
   * coalescing window (shutdown flush).
   */
  take(max: number, all = false): ChangeNotification[] {
    const keys: string[] = [];
    for (const t of this.takeable(this.now())) {
      if (keys.length >= max || (!all && !t.due)) break;
      keys.push(t.key);
    }
    const out: ChangeNotification[] = [];
    for (const key of keys) this.takeKey(key, out);
    return out;
  }

  /** How many notifications `take` would return now, counting no further than `limit`. */
  readyCount(limit: number): number {
    let n = 0;
    for (const t of this.takeable(this.now())) {
      if (n >= limit || !t.due) break;
      n++;
    }
    return n;
  }

  /**
   * When the `n`-th notification in line (1-based) becomes ready, or undefined when fewer than
   * `n` are waiting: the moment a full call could go out.
   */
  readyAtOf(n: number): number | undefined {
    let i = 0;
    for (const t of this.takeable(this.now())) if (++i >= n) return t.readyAt;
    return undefined;
  }

  private takeKey(key: string, out: ChangeNotification[]): void {
    const waiting = this.deferred.get(key);
    if (waiting) {
      this.deferred.delete(key);
      this.inFlight.add(key);
      out.push(waiting.notification);
      return;
    }
    const lane = this.laneOf.get(key);
    const entry = lane?.entries.get(key);
    this.retry.delete(key);
    if (!lane || !entry) return;
    lane.entries.delete(key);
    this.laneOf.delete(key);
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
      const newer = this.laneOf.get(key)?.entries.get(key);
      if (newer) newer.notification = coalesce(failed, newer.notification);
      else this.put(key, failed, Number.NEGATIVE_INFINITY);
      this.retry.add(key);
    }
  }

  /**
   * Delivered, and wanted again after `afterMs`: put back to be sent then, unless a newer change
   * for the object is already waiting (it goes out sooner and carries this one along).
   */
  defer(items: ReadonlyArray<{ notification: ChangeNotification; afterMs: number }>): void {
    const now = this.now();
    for (const { notification, afterMs } of items) {
      const key = notificationKey(notification);
      this.inFlight.delete(key);
      const newer = this.laneOf.get(key)?.entries.get(key);
      if (newer) newer.notification = coalesce(notification, newer.notification);
      else this.deferred.set(key, { notification, readyAt: now + afterMs });
    }
  }

  /**
   * Monotonic time at which `take` will next return something, or undefined when nothing is
   * waiting (or everything waiting has a delivery in flight).
   */
  nextReadyAt(): number | undefined {
    return this.readyAtOf(1);
  }

  /** Forgets everything (leadership lost: the next leader re-lists). Returns how many were dropped. */
  clear(): number {
    const n = this.size;
    for (const lane of this.lanes.values()) lane.entries.clear();
    this.laneOf.clear();
    this.retry.clear();
    this.inFlight.clear();
    this.deferred.clear();
    return n;
  }
}
