import { isConflict } from './client.js';

/**
 * Runs `attempt` again when it fails with 409 Conflict, like client-go's RetryOnConflict with
 * DefaultRetry (5 steps, ~10 ms apart). `attempt` must re-read what it writes.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, steps = 5, delayMs = 10): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isConflict(err) || i >= steps) throw err;
      await new Promise((r) => setTimeout(r, delayMs * (0.9 + Math.random() * 0.2)));
    }
  }
}
