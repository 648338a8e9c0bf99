/**
 * When this container last finished each object's reconcile, by the time that reconcile started.
 * A notification the forwarder observed before such a start asks for nothing that reconcile missed:
 * the change was committed before the forwarder saw it, and the reconcile read the object and its
 * inputs afresh after it began. So a redelivered or duplicated notification does not redo the
 * objects it fans out to that have been reconciled since. Under lock contention each redelivery of
 * a fan-out used to reconcile all of its objects again, and they queued for the same locks.
 */
export class RecentReconciles {
  private readonly startedAt = new Map<string, number>();
  /** The same for deep checks (a resync's), which only a deep check covers. */
  private readonly deepStartedAt = new Map<string, number>();

  constructor(
    /** How far the forwarder's clock may be ahead of this one. */
    private readonly skewMs = 1_000,
    /** Objects remembered; the least recently reconciled are forgotten first. */
    private readonly max = 10_000,
  ) {}

  /**
   * Whether a reconcile of `key` that started after `seenBy` (ms since the epoch) has finished; for
   * a `deep` check, a deep one.
   */
  covers(key: string, seenBy: number | undefined, deep = false): boolean {
    if (seenBy === undefined) return false;
    const started = (deep ? this.deepStartedAt : this.startedAt).get(key);
    return started !== undefined && started > seenBy + this.skewMs;
  }

  /** A reconcile of `key` that started at `startedAt` (ms since the epoch) finished; `deep`: a deep check. */
  record(key: string, startedAt: number, deep = false): void {
    for (const map of deep ? [this.startedAt, this.deepStartedAt] : [this.startedAt]) {
      const known = map.get(key);
      if (known !== undefined && known >= startedAt) continue;
      map.delete(key);
      map.set(key, startedAt);
      if (map.size > this.max) {
        const oldest = map.keys().next().value;
        if (oldest !== undefined) map.delete(oldest);
      }
    }
  }
}

/**
 * When the forwarder had seen every change `notifications` carry (the latest of them), in ms since
 * the epoch; undefined when one of them carries no time (nothing is known to cover it).
 */
export function changesSeenBy(
  notifications: ReadonlyArray<{ observedAt?: string; lastObservedAt?: string }>,
): number | undefined {
  let seen: number | undefined;
  for (const n of notifications) {
    const text = n.lastObservedAt ?? n.observedAt;
    const at = text === undefined ? NaN : Date.parse(text);
    if (!Number.isFinite(at)) return undefined;
    seen = seen === undefined ? at : Math.max(seen, at);
  }
  return seen;
}
