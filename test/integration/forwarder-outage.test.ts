import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Dispatcher } from '../../lib/forwarder/dispatcher.js';
import type { Forwarder } from '../../lib/forwarder/forwarder.js';
import { createMetrics } from '../../lib/forwarder/metrics.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { PendingQueue } from '../../lib/forwarder/pending.js';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { Resources } from '../../lib/kube/resources.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { startProxy, startRecordingSink, type CuttableProxy, type RecordingSink } from './forwarder-fakes.js';
import { makeForwarder, startEnv, type Env } from './forwarder-setup.js';

const OBJECTS = 10_000;

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

function latestByName(received: ChangeNotification[]): Map<string, ChangeNotification> {
  const m = new Map<string, ChangeNotification>();
  for (const n of received) m.set(`${n.ref.namespace}/${n.ref.name}`, n);
  return m;
}

describe('Integration: 10,000 objects, sink outages and watch gaps', () => {
  let env: Env;
  let sink: RecordingSink;
  let proxy: CuttableProxy;
  let fwd: Forwarder;

  beforeAll(async () => {
    env = await startEnv({ historyLimit: 50_000 });
    const t0 = Date.now();
    await inParallel(
      Array.from({ length: OBJECTS }, (_, i) => i),
      32,
      (i) =>
        env.api.create(Resources.Service, {
          metadata: { name: `svc-${i}`, namespace: 'default' },
          spec: { ports: [{ port: 80 }] },
        }),
    );
    console.log(`created ${OBJECTS} Services in ${Date.now() - t0} ms`);
    sink = await startRecordingSink();
    proxy = await startProxy(env.kube.port);
  }, 120_000);

  afterAll(async () => {
    await fwd?.shutdown();
    await proxy.close();
    await sink.close();
    await env.close();
  });

  it('initial sync: one `added` per object, batched', async () => {
    fwd = makeForwarder({
      server: proxy.url,
      leaseServer: env.kube.url,
      sinkUrl: sink.url,
      types: [Resources.Service],
      concurrency: 4,
    });
    const t0 = Date.now();
    await fwd.start();
    await vi.waitFor(() => expect(sink.received.length, 'initial sync').toBeGreaterThanOrEqual(OBJECTS), {
      timeout: 60_000,
      interval: 20,
    });
    const ms = Date.now() - t0;
    console.log(
      `initial sync of ${OBJECTS} objects: ${ms} ms, ${sink.calls} sink calls, ${(sink.received.length / sink.calls).toFixed(1)} notifications per call`,
    );
    expect(new Set(sink.received.map((n) => n.ref.name)).size).toBe(OBJECTS);
    expect(sink.received.every((n) => n.change === 'added')).toBe(true);
  }, 90_000);

  it('with the sink down: nothing lost, pending bounded by the object count, drains when it returns', async () => {
    // Prepare
    sink.failing = true;
    const before = sink.received.length;
    let maxPending = 0;
    const sampler = setInterval(
      () => (maxPending = Math.max(maxPending, fwd.currentPipeline?.queue.size ?? 0)),
      5,
    );
    // Act: 5,000 changes while the sink refuses everything.
    await inParallel(
      Array.from({ length: 5_000 }, (_, i) => i),
      32,
      (i) =>
        env.api.patch(Resources.Service, 'default', `svc-${(i * 7) % OBJECTS}`, {
          metadata: { labels: { gen: String(i) } },
        }),
    );
    // The sink refused several deliveries (the forwarder backs off between tries, so under load
    // they come slowly).
    await vi.waitFor(() => expect(sink.rejected, 'failed deliveries').toBeGreaterThan(3), {
      timeout: 45_000,
      interval: 20,
    });
    const pendingWhileDown = fwd.currentPipeline?.queue.size ?? -1;
    sink.failing = false;
    // Drained means delivered: an empty queue alone is not enough, since under load the watch can
    // still be carrying changes the API server has already made. Wait until every changed object's
    // latest notification names its current version (a lost change times this out).
    const changed = env.kube.store.list('v1', 'Service', 'default').filter((o) => o.metadata.labels?.gen);
    expect(changed.length).toBe(5_000);
    await vi.waitFor(
      () => {
        const latest = latestByName(sink.received.slice(before));
        const stale = changed.filter(
          (stored) =>
            latest.get(`default/${stored.metadata.name}`)?.ref.resourceVersion !==
            stored.metadata.resourceVersion,
        );
        expect(stale.length, 'changed objects whose latest version was not delivered').toBe(0);
      },
      { timeout: 60_000, interval: 50 },
    );
    clearInterval(sampler);
    console.log(
      `sink outage: pending peaked at ${maxPending} objects (${pendingWhileDown} when the sink came back)`,
    );
    expect(maxPending).toBeLessThanOrEqual(OBJECTS);
  }, 180_000);

  it('after a watch gap, re-lists and reports objects deleted meanwhile as deleted', async () => {
    const before = sink.received.length;
    proxy.cut();
    await env.api.delete(Resources.Service, 'default', 'svc-1');
    await env.api.create(Resources.Service, {
      metadata: { name: 'born-in-gap', namespace: 'default' },
      spec: { ports: [{ port: 1 }] },
    });
    await new Promise((r) => setTimeout(r, 300));
    proxy.restore();
    // The re-list after the gap reads all 10,000 objects again; on a machine running several test
    // processes at once that took over 50 s (twice in one day), alone it takes about 5 s.
    await vi.waitFor(
      () =>
        expect(
          sink.received.slice(before).some((n) => n.ref.name === 'svc-1' && n.change === 'deleted'),
          'deleted after gap',
        ).toBe(true),
      { timeout: 110_000, interval: 20 },
    );
    await vi.waitFor(
      () =>
        expect(
          sink.received.slice(before).some((n) => n.ref.name === 'born-in-gap' && n.change === 'added'),
          'added',
        ).toBe(true),
      { timeout: 110_000, interval: 20 },
    );
    const deleted = sink.received.slice(before).find((n) => n.ref.name === 'svc-1' && n.change === 'deleted');
    expect(deleted?.object?.metadata.name).toBe('svc-1');
  }, 240_000);
});

describe('Integration: 100,000 changes to 10,000 objects through the queue, dispatcher and HTTP sink', () => {
  it('keeps one pending notification per object while the sink is down and loses nothing', async () => {
    // Prepare
    const sink = await startRecordingSink();
    sink.failing = true;
    const queue = new PendingQueue({ windowMs: 100, onAdd: () => dispatcher.wake() });
    const dispatcher: Dispatcher = new Dispatcher({
      queue,
      sink: new HttpSink({ url: sink.url, maxBatch: 100 }),
      logger: new MemoryLogger(),
      metrics: createMetrics(),
      backoff: { initialMs: 10, maxMs: 100 },
    });
    // Act: 100,000 changes spread over 10,000 objects, in bursts so deliveries fail in between.
    let maxPending = 0;
    const rss0 = process.memoryUsage().rss;
    for (let i = 0; i < 100_000; i++) {
      const name = `svc-${i % OBJECTS}`;
      const obj = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: 'default', uid: name, resourceVersion: String(i + 1) },
      };
      queue.add(makeNotification('modified', Resources.Service, obj));
      if (i % 5_000 === 0) await new Promise((r) => setTimeout(r, 20));
      maxPending = Math.max(maxPending, queue.size);
    }
    await vi.waitFor(() => expect(sink.rejected, 'rejections').toBeGreaterThan(5), {
      timeout: 10_000,
      interval: 20,
    });
    const rss1 = process.memoryUsage().rss;
    sink.failing = false;
    await vi.waitFor(() => expect(queue.size, 'drain').toBe(0), { timeout: 60_000, interval: 20 });
    // Assess
    console.log(
      `100k changes / 10k objects: pending peaked at ${maxPending}; ${sink.rejected} rejected calls; RSS +${((rss1 - rss0) / 1e6).toFixed(0)} MB while down`,
    );
    expect(maxPending).toBeLessThanOrEqual(OBJECTS);
    const latest = latestByName(sink.received);
    expect(latest.size).toBe(OBJECTS);
    for (let k = 0; k < OBJECTS; k++)
      expect(latest.get(`default/svc-${k}`)?.ref.resourceVersion).toBe(String(90_000 + k + 1));
    dispatcher.stop();
    await sink.close();
  }, 120_000);
});
