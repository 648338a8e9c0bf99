import { afterEach, describe, expect, it } from 'vitest';
import {
  INVOCATION_SIGNAL_LISTENERS,
  InvocationTimeoutError,
  withInvocationSignal,
} from '../../lib/runtime/invocation-signal.js';

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);

afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

/** Lets a process 'warning' (emitted on the next tick) arrive. */
const tick = () => new Promise((r) => setImmediate(r));

describe('withInvocationSignal', () => {
  it('holds the listeners of a batch of multi-Region reconciles without a leak warning', async () => {
    process.on('warning', onWarning);
    await withInvocationSignal({ getRemainingTimeInMillis: () => 60_000 }, 1_000, async (signal) => {
      // 8 reconciles × 3 Regions × a few calls each, all in flight at once.
      const listeners = Array.from({ length: 8 * 3 * 4 }, () => () => undefined);
      for (const l of listeners) signal.addEventListener('abort', l);
      await tick();
      for (const l of listeners) signal.removeEventListener('abort', l);
    });
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('still warns of listeners past the bound (a leak)', async () => {
    process.on('warning', onWarning);
    await withInvocationSignal({ getRemainingTimeInMillis: () => 60_000 }, 0, async (signal) => {
      for (let i = 0; i <= INVOCATION_SIGNAL_LISTENERS; i++)
        signal.addEventListener('abort', () => undefined);
      await tick();
    });
    expect(warnings.map((w) => w.name)).toContain('MaxListenersExceededWarning');
  });

  it('aborts at the invocation’s early timeout', async () => {
    const reason = await withInvocationSignal(
      { getRemainingTimeInMillis: () => 5 },
      5,
      (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))),
    );
    expect(reason).toBeInstanceOf(InvocationTimeoutError);
  });
});
