/**
 * One AbortSignal per invocation. @middy/core hands every invocation in the process the same
 * signal (one module-level AbortController, "because it's slow", replaced only after it fired), so
 * every per-call listener of every invocation (each SDK request, each lock wait) lands on that one
 * signal: concurrent invocations in one process (the local function server, the chaos suite) pile
 * them up past Node's warning threshold, a listener anyone forgets to remove stays for the
 * container's lifetime, and one invocation's early timeout would abort all the others. This
 * signal belongs to one invocation and fires at that invocation's own early timeout.
 */
import { setMaxListeners } from 'node:events';
import type { Context } from 'aws-lambda';

/**
 * The listeners one invocation may hold on its signal at once, each removed when its call ends:
 * a batch's reconciles (8 at a time) × each reconcile's Regions, deployed concurrently, × the
 * calls one Region's deploy makes at once. Node warns past 10 by default, which a batch of
 * multi-Region objects passes in normal work; past this, the warning still tells of a leak.
 */
export const INVOCATION_SIGNAL_LISTENERS = 256;

export class InvocationTimeoutError extends Error {
  override name = 'TimeoutError';
}

export async function withInvocationSignal<R>(
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  earlyTimeoutMs: number,
  run: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const controller = new AbortController();
  setMaxListeners(INVOCATION_SIGNAL_LISTENERS, controller.signal);
  // Tests and `osls invoke local` may pass a context without a clock: then nothing times out.
  const remaining =
    typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  const timer =
    remaining === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(new InvocationTimeoutError('invocation is about to time out')),
          Math.max(0, remaining - earlyTimeoutMs),
        );
  try {
    return await run(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
