/**
 * One Region at a time, per reconcile and stack, for what the Regions of one reconcile share and
 * would otherwise race on: the accelerator's record, which each Region's `before` phase reads and
 * rewrites (accelerator/reconcile.ts). The rest of each Region's deploy runs concurrently.
 */
import type { ProviderContext } from '../../../provider/contract.js';
import { perReconcile } from '../../../provider/per-reconcile.js';

export class Turns {
  private readonly tails = perReconcile(() => new Map<string, Promise<unknown>>());

  /** Runs `work` once every earlier turn of `key` in this reconcile has settled. */
  take<T>(ctx: ProviderContext, key: string, work: () => Promise<T>): Promise<T> {
    const byKey = this.tails(ctx);
    const previous = byKey.get(key) ?? Promise.resolve();
    // A failed turn is its own Region's outcome; the next Region still takes its turn.
    const turn = previous.then(work, work);
    byKey.set(
      key,
      turn.catch(() => undefined),
    );
    return turn;
  }
}
