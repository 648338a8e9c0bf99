/**
 * What a caller of the http and invoke functions is told. Results name each object and its
 * outcome; a failure says only whether the notification itself was refused (with the reason, which
 * is about the caller's own input) or that reconciling failed, with the request ID to find the
 * details in the function's logs. Error text from the API server or AWS (ARNs, account IDs,
 * policy names, internal state) stays in the logs.
 */
import { safeErrorLine } from '../log/redact.js';
import type { Outcome } from '../reconcile/types.js';
import type { ItemResult } from './process.js';

export interface PublicItemResult {
  id: string;
  ok: boolean;
  error?: string;
  retryAfterSeconds?: number;
  /** Not a failure: the objects wait (on the cloud, or on another invocation); deliver it again after `retryAfterSeconds`. */
  waiting?: boolean;
  results: Array<{ controller: string; key: string; outcome: Outcome }>;
}

export function publicError(item: ItemResult, requestId: string): string {
  if (item.rejected) return `notification rejected: ${safeErrorLine(item.error ?? '')}`;
  if (item.waiting) return `waiting: deliver again in ${item.retryAfterSeconds ?? 1} s`;
  if (item.retryAfterSeconds !== undefined) return `deferred: retry in ${item.retryAfterSeconds} s`;
  return `reconcile failed; see the function's logs for request ${requestId}`;
}

export function publicResults(items: readonly ItemResult[], requestId: string): PublicItemResult[] {
  return items.map((item) => ({
    id: item.id,
    ok: item.ok,
    ...(item.ok ? {} : { error: publicError(item, requestId) }),
    ...(item.retryAfterSeconds !== undefined ? { retryAfterSeconds: item.retryAfterSeconds } : {}),
    ...(item.waiting ? { waiting: true } : {}),
    results: item.results.map(({ controller, key, outcome }) => ({ controller, key, outcome })),
  }));
}

/** The HTTP answer to a batch: 200 all reconciled, 202 nothing failed but some wait, 500 some failed. */
export function httpStatusOf(items: readonly ItemResult[]): 200 | 202 | 500 {
  if (items.every((r) => r.ok)) return 200;
  return items.every((r) => r.ok || r.waiting) ? 202 : 500;
}
