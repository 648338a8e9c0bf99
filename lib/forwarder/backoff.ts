/** Exponential backoff with jitter, shared by delivery retries, re-lists and lease retries. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Growth per attempt; 2 unless given. */
  factor?: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 200, maxMs: 30_000, factor: 2 };

/**
 * Delay before retry number `attempt` (0-based). "Equal jitter": half the capped exponential is
 * fixed and half random, so replicas and watches spread out yet a retry is never immediate.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const factor = options.factor ?? 2;
  const exp = options.initialMs * Math.pow(factor, Math.max(0, Math.min(attempt, 64)));
  const cap = Math.min(options.maxMs, exp);
  return cap / 2 + (random() * cap) / 2;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
