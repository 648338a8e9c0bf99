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
  results: Array<{ controller: string; key: string; outcome: Outcome }>;
}

export function publicError(item: ItemResult, requestId: string): string {
  if (item.rejected) return `notification rejected: ${safeErrorLine(item.error ?? '')}`;
  if (item.retryAfterSeconds !== undefined) return `deferred: retry in ${item.retryAfterSeconds} s`;
  return `reconcile failed; see the function's logs for request ${requestId}`;
}

export function publicResults(items: readonly ItemResult[], requestId: string): PublicItemResult[] {
  return items.map((item) => ({
    id: item.id,
    ok: item.ok,
    ...(item.ok ? {} : { error: publicError(item, requestId) }),
    ...(item.retryAfterSeconds !== undefined ? { retryAfterSeconds: item.retryAfterSeconds } : {}),
    results: item.results.map(({ controller, key, outcome }) => ({ controller, key, outcome })),
  }));
}
