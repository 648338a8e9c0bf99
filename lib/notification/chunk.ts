/**
 * Splits notifications into calls that fit a target's limits (count and bytes). A notification
 * too large on its own is sent without its `object`/`oldObject` copies: they are optional hints,
 * while the ref is what the reconciler needs, so a huge object is never a reason to drop a change.
 */
import type { ChangeNotification } from './types.js';

export interface ChunkLimits {
  maxCount: number;
  /** Bytes of all serialised notifications in one call (envelope overhead excluded). */
  maxBytes: number;
  /** Bytes of one serialised notification. */
  maxItemBytes: number;
}

export interface SerializedNotification {
  notification: ChangeNotification;
  body: string;
  bytes: number;
}

/** The serialised form, slimmed to its ref when it does not fit `maxItemBytes`. */
export function serialize(n: ChangeNotification, maxItemBytes: number): SerializedNotification {
  let body = JSON.stringify(n);
  let bytes = Buffer.byteLength(body);
  if (bytes > maxItemBytes) {
    const { object: _object, oldObject: _oldObject, ...slim } = n;
    body = JSON.stringify(slim);
    bytes = Buffer.byteLength(body);
  }
  return { notification: n, body, bytes };
}

export function chunk(batch: readonly ChangeNotification[], limits: ChunkLimits): SerializedNotification[][] {
  const chunks: SerializedNotification[][] = [];
  let current: SerializedNotification[] = [];
  let bytes = 0;
  for (const n of batch) {
    const s = serialize(n, limits.maxItemBytes);
    if (current.length > 0 && (current.length >= limits.maxCount || bytes + s.bytes > limits.maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(s);
    bytes += s.bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
