/**
 * How several notifications for one object become one. Used both for bursts inside the coalescing
 * window and for a failed delivery meeting newer changes, so the pending set never holds more than
 * one notification per object.
 */
import type { ChangeNotification, ChangeType } from '../notification/types.js';

// A deletion must never be hidden by a later resync, and an addition says more than a modification.
const SIGNIFICANCE: Record<ChangeType, number> = { resync: 0, modified: 1, added: 2, deleted: 3 };

export function moreSignificant(a: ChangeType, b: ChangeType): ChangeType {
  return SIGNIFICANCE[a] >= SIGNIFICANCE[b] ? a : b;
}

/**
 * Merges `older` and `newer` (same object): the latest object, the earliest previous version, the
 * most significant change type, the earliest observation time (so the latency metric counts
 * from the first change of a burst) and the latest (so the function knows which reconciles have
 * seen all of them).
 */
export function coalesce(older: ChangeNotification, newer: ChangeNotification): ChangeNotification {
  // An addition without a previous version means "did not exist before the burst": keep that.
  const oldObject =
    older.change === 'added' && !older.oldObject ? undefined : (older.oldObject ?? newer.oldObject);
  const object = newer.object ?? older.object;
  const observedAt = earliest(older.observedAt, newer.observedAt);
  const [before, after] = [
    older.lastObservedAt ?? older.observedAt,
    newer.lastObservedAt ?? newer.observedAt,
  ];
  // Unknown when either change's time is: nothing can be said to have seen it.
  const lastObservedAt = before !== undefined && after !== undefined ? latest(before, after) : undefined;
  return {
    apiVersion: newer.apiVersion,
    kind: newer.kind,
    change: moreSignificant(older.change, newer.change),
    ref: newer.ref,
    ...(object ? { object } : {}),
    ...(oldObject ? { oldObject } : {}),
    ...(observedAt ? { observedAt } : {}),
    ...(lastObservedAt ? { lastObservedAt } : {}),
  };
}

function latest(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}
