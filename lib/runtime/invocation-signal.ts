/**
 * One AbortSignal per invocation. @middy/core hands every invocation in the process the same
 * signal (one module-level AbortController, "because it's slow", replaced only after it fired), so
 * every per-call listener of every invocation (each SDK request, each lock wait) lands on that one
 * signal: concurrent invocations in one process (the local function server, the chaos suite) pile
 * them up past Node's warning threshold, a listener anyone forgets to remove stays for the
 * container's lifetime, and one invocation's early timeout would abort all the others. This
 * signal belongs to one invocation and fires at that invocation's own early timeout.
 */
import type { Context } from 'aws-lambda';

export class InvocationTimeoutError extends Error {
  override name = 'TimeoutError';
}

export async function withInvocationSignal<R>(
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  earlyTimeoutMs: number,
  run: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const controller = new AbortController();
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
