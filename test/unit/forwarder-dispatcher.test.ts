import { describe, expect, it, vi } from 'vitest';
import { Dispatcher } from '../../lib/forwarder/dispatcher.js';
import { createMetrics } from '../../lib/forwarder/metrics.js';
import { PendingQueue } from '../../lib/forwarder/pending.js';
import type { SendResult, Sink } from '../../lib/forwarder/sinks/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { note } from './forwarder-fixtures.js';

class FlakySink implements Sink {
  readonly name = 'fake';
  readonly maxBatch = 10;
  down = false;
  /** Fail every other entry of each call (partial failure). */
  partial = false;
  delivered: ChangeNotification[] = [];
  calls = 0;
  async send(batch: readonly ChangeNotification[]): Promise<SendResult> {
    this.calls++;
    await new Promise((r) => setTimeout(r, 1));
    if (this.down) return { failed: [...batch], calls: 1, errors: 1, lastError: new Error('down') };
    const failed = this.partial ? batch.filter((_, i) => i % 2 === 1) : [];
    this.delivered.push(...batch.filter((n) => !failed.includes(n)));
    return { failed, calls: 1, errors: failed.length ? 1 : 0 };
  }
}

function setup(sink: FlakySink, windowMs = 10) {
  const metrics = createMetrics();
  const queue = new PendingQueue({ windowMs, onAdd: () => dispatcher.wake() });
  const dispatcher: Dispatcher = new Dispatcher({
    queue,
    sink,
    logger: new MemoryLogger(),
    metrics,
    backoff: { initialMs: 5, maxMs: 20 },
  });
  return { queue, dispatcher, metrics };
}

describe('Class: Dispatcher', () => {
  it('delivers in batches of the sink size after the coalescing window', async () => {
    const sink = new FlakySink();
    const { queue } = setup(sink);
    for (let i = 0; i < 35; i++) queue.add(note('added', `o${i}`, 1));
    await vi.waitFor(() => expect(sink.delivered.length).toBe(35), { timeout: 10_000, interval: 5 });
    expect(sink.calls).toBe(4);
    expect(queue.size).toBe(0);
  });

  it('loses nothing while the sink is down and delivers only the latest per object when it returns', async () => {
    // Prepare
    const sink = new FlakySink();
    sink.down = true;
    const { queue, metrics, dispatcher } = setup(sink, 1);
    // Act: 50 objects × 40 changes while failing.
    let maxPending = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 50; i++) queue.add(note('modified', `o${i}`, round + 2, round + 1));
      maxPending = Math.max(maxPending, queue.size);
      await new Promise((r) => setTimeout(r, 2));
    }
    await vi.waitFor(() => expect(sink.calls).toBeGreaterThan(20), { timeout: 10_000, interval: 5 });
    sink.down = false;
    await vi.waitFor(() => expect(queue.size === 0 && sink.delivered.length >= 50).toBe(true), {
      timeout: 10_000,
      interval: 5,
    });
    // Assess
    expect(maxPending).toBeLessThanOrEqual(50);
    const last = new Map<string, string | undefined>();
    for (const n of sink.delivered) last.set(n.ref.name, n.ref.resourceVersion);
    expect(last.size).toBe(50);
    for (const rv of last.values()) expect(rv).toBe('41');
    expect(
      (await metrics.registry.getSingleMetric('forwarder_sink_errors_total')?.get())?.values[0]?.value,
    ).toBeGreaterThan(0);
    dispatcher.stop();
  });

  it('re-queues only the failed entries of a partial failure', async () => {
    const sink = new FlakySink();
    sink.partial = true;
    const { queue } = setup(sink, 0);
    for (let i = 0; i < 10; i++) queue.add(note('added', `o${i}`, 1));
    await vi.waitFor(() => expect(new Set(sink.delivered.map((n) => n.ref.name)).size === 10).toBe(true), {
      timeout: 10_000,
      interval: 5,
    });
    expect(queue.size).toBe(0);
  });

  it('sends a waiting notification again after the delay the target gave, without backing off the rest', async () => {
    // The first answer for `slow` is "taken, come back in 200 ms"; the second reconciles it.
    const sent: Array<{ name: string; at: number }> = [];
    const started = performance.now();
    let waited = false;
    const sink: Sink = {
      name: 'fake',
      maxBatch: 10,
      send: async (batch) => {
        for (const n of batch) sent.push({ name: n.ref.name, at: performance.now() - started });
        const slow = batch.find((n) => n.ref.name === 'slow');
        if (slow && !waited) {
          waited = true;
          return { failed: [], later: [{ notification: slow, afterMs: 200 }], calls: 1, errors: 0 };
        }
        return { failed: [], calls: 1, errors: 0 };
      },
    };
    const metrics = createMetrics();
    const queue = new PendingQueue({ windowMs: 0, onAdd: () => dispatcher.wake() });
    const dispatcher: Dispatcher = new Dispatcher({
      queue,
      sink,
      logger: new MemoryLogger(),
      metrics,
      backoff: { initialMs: 5_000, maxMs: 5_000 },
    });
    queue.add(note('added', 'slow', 1));
    await vi.waitFor(() => expect(waited).toBe(true), { timeout: 5_000, interval: 2 });
    // Not a failure: another object goes out at once, not after the 5 s backoff.
    queue.add(note('added', 'other', 1));
    await vi.waitFor(() => expect(sent.map((s) => s.name)).toContain('other'), {
      timeout: 1_000,
      interval: 2,
    });
    await vi.waitFor(() => expect(sent.filter((s) => s.name === 'slow')).toHaveLength(2), {
      timeout: 5_000,
      interval: 5,
    });
    const [first, again] = sent.filter((s) => s.name === 'slow');
    expect(again!.at - first!.at).toBeGreaterThanOrEqual(195);
    await vi.waitFor(() => expect(queue.size).toBe(0), { timeout: 1_000, interval: 5 });
    const waiting = await metrics.registry.getSingleMetric('forwarder_notifications_waiting_total')?.get();
    expect(waiting?.values[0]?.value).toBe(1);
    expect((await metrics.registry.getSingleMetric('forwarder_sink_errors_total')?.get())?.values).toEqual(
      [],
    );
    dispatcher.stop();
  });

  it('sends nothing when canSend() is false', async () => {
    const sink = new FlakySink();
    const queue = new PendingQueue({ windowMs: 0 });
    const d = new Dispatcher({
      queue,
      sink,
      logger: new MemoryLogger(),
      metrics: createMetrics(),
      canSend: () => false,
    });
    queue.add(note('added', 'a', 1));
    d.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(sink.calls).toBe(0);
    d.stop();
  });

  it('flush() sends everything at once, ignoring the window', async () => {
    const sink = new FlakySink();
    const { queue, dispatcher } = setup(sink, 60_000);
    for (let i = 0; i < 25; i++) queue.add(note('added', `o${i}`, 1));
    expect(await dispatcher.flush(5_000)).toBe(true);
    expect(sink.delivered).toHaveLength(25);
    dispatcher.stop();
  });
});

describe('Dispatcher batch interval', () => {
  /** A sink with a queue-like round trip that records each call's size. */
  class SlowSink implements Sink {
    readonly name = 'slow';
    readonly maxBatch: number = 10;
    sizes: number[] = [];
    async send(batch: readonly ChangeNotification[]): Promise<SendResult> {
      this.sizes.push(batch.length);
      await new Promise((r) => setTimeout(r, 15));
      return { failed: [], calls: 1, errors: 0 };
    }
  }

  async function meanBatch(batchIntervalMs: number): Promise<number> {
    const sink = new SlowSink();
    const queue = new PendingQueue({ windowMs: 2, onAdd: () => dispatcher.wake() });
    const dispatcher: Dispatcher = new Dispatcher({
      queue,
      sink,
      logger: new MemoryLogger(),
      metrics: createMetrics(),
      batchIntervalMs,
    });
    // ~500 changes per second to distinct objects, for 0.4 s
    for (let i = 0; i < 200; i++) {
      queue.add(note('modified', `o${i}`, 1));
      await new Promise((r) => setTimeout(r, 2));
    }
    await vi.waitFor(() => expect(sink.sizes.reduce((a, b) => a + b, 0) === 200).toBe(true), {
      timeout: 10_000,
      interval: 5,
    });
    dispatcher.stop();
    return 200 / sink.sizes.length;
  }

  it('makes calls carry fuller batches under load than sending each item as it becomes ready', async () => {
    const eager = await meanBatch(0);
    const ticked = await meanBatch(20);
    expect(ticked).toBeGreaterThan(eager * 1.5);
  });

  it('under load sends only full calls, or what waited a batch interval', async () => {
    vi.useFakeTimers();
    try {
      class TenPerCall extends SlowSink {
        override readonly maxBatch = 50;
        readonly perCall = 10;
      }
      const sink = new TenPerCall();
      const queue = new PendingQueue({ windowMs: 10, now: () => Date.now(), onAdd: () => dispatcher.wake() });
      const dispatcher: Dispatcher = new Dispatcher({
        queue,
        sink,
        logger: new MemoryLogger(),
        metrics: createMetrics(),
        batchIntervalMs: 20,
        now: () => Date.now(),
      });
      // 500 changes per second to distinct objects, then quiet.
      for (let i = 0; i < 200; i++) {
        queue.add(note('modified', `o${i}`, 1));
        await vi.advanceTimersByTimeAsync(2);
      }
      await vi.advanceTimersByTimeAsync(200);
      dispatcher.stop();
      expect(sink.sizes.reduce((a, b) => a + b, 0)).toBe(200);
      // The first goes alone (nothing was in flight); every other call is full, bar the last.
      expect(sink.sizes.slice(1, -1).every((n) => n % 10 === 0)).toBe(true);
      expect(200 / sink.sizes.length).toBeGreaterThanOrEqual(8);
    } finally {
      vi.useRealTimers();
    }
  });
});
