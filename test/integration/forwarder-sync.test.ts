import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Forwarder } from '../../lib/forwarder/forwarder.js';
import { Resources } from '../../lib/kube/resources.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { startRecordingSink, type RecordingSink } from './forwarder-fakes.js';
import { makeForwarder, sampleObjects, startEnv, type Env } from './forwarder-setup.js';

const SECRET = 'c2VjcmV0LWtleS1tYXRlcmlhbA==';
const key = (n: ChangeNotification): string => `${n.ref.kind}/${n.ref.namespace ?? ''}/${n.ref.name}`;

describe('Integration: forwarder against the Kubernetes API stand-in', () => {
  let env: Env;
  let sink: RecordingSink;
  let fwd: Forwarder;
  const logger = new MemoryLogger();
  const objects = sampleObjects(SECRET);

  beforeAll(async () => {
    // Bookmarks rarely, so that a compaction leaves the watches behind and they get 410 Gone.
    env = await startEnv({ bookmarkIntervalMs: 60_000 });
    for (const { type, obj } of objects) await env.api.create(type, obj);
    sink = await startRecordingSink();
    fwd = makeForwarder({
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sink.url,
      logger,
      port: 0,
      watchTimeoutSeconds: 1,
      secretNamespaces: ['default'],
    });
    await fwd.start();
  });

  afterAll(async () => {
    await fwd.shutdown();
    await sink.close();
    await env.close();
  });

  it('sends `added` for every existing object on start, then reports ready', async () => {
    await vi.waitFor(
      () => expect(sink.received.length, 'initial list').toBeGreaterThanOrEqual(objects.length),
      {
        timeout: 10_000,
        interval: 20,
      },
    );
    const added = sink.received.filter((n) => n.change === 'added');
    expect(new Set(added.map(key))).toEqual(
      new Set(
        objects.map(
          ({ type, obj }) => `${type.kind}/${type.namespaced ? 'default' : ''}/${obj.metadata.name}`,
        ),
      ),
    );
    for (const n of added) {
      expect(n).toMatchObject({
        apiVersion: 'notifications.multicluster.karmada.io/v1',
        kind: 'ChangeNotification',
      });
      expect(n.ref.uid).toBeTruthy();
      expect(n.object?.metadata.name).toBe(n.ref.name);
    }
    await vi.waitFor(() => expect(fwd.isReady() && fwd.isLeader(), 'ready').toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    const res = await fetch(`http://127.0.0.1:${fwd.port}/readyz`);
    expect(res.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${fwd.port}/healthz`)).status).toBe(200);
  });

  it('sends added / modified (with oldObject) / deleted for watch events', async () => {
    const before = sink.received.length;
    await env.api.create(Resources.Service, {
      metadata: { name: 'api', namespace: 'default' },
      spec: { ports: [{ port: 8080 }] },
    });
    await vi.waitFor(
      () =>
        expect(
          sink.received.slice(before).some((n) => n.ref.name === 'api' && n.change === 'added'),
          'added',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    await new Promise((r) => setTimeout(r, 100));
    await env.api.patch(Resources.Service, 'default', 'api', { metadata: { labels: { tier: 'backend' } } });
    await vi.waitFor(
      () =>
        expect(
          sink.received.slice(before).some((n) => n.ref.name === 'api' && n.change === 'modified'),
          'modified',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    const modified = sink.received.slice(before).find((n) => n.ref.name === 'api' && n.change === 'modified');
    expect(modified?.object?.metadata.labels).toEqual({ tier: 'backend' });
    expect(modified?.oldObject?.metadata.labels).toBeUndefined();
    expect(Number(modified?.ref.resourceVersion)).toBeGreaterThan(
      Number(modified?.oldObject?.metadata.resourceVersion),
    );
    await new Promise((r) => setTimeout(r, 100));
    await env.api.delete(Resources.Service, 'default', 'api');
    await vi.waitFor(
      () =>
        expect(
          sink.received.slice(before).some((n) => n.ref.name === 'api' && n.change === 'deleted'),
          'deleted',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
  });

  it('coalesces a burst of changes to one object', async () => {
    const before = sink.received.length;
    // The window in these tests is 20 ms: ten quick patches should become far fewer notifications.
    for (let i = 0; i < 10; i++)
      await env.api.patch(Resources.Service, 'default', 'web', { metadata: { labels: { n: String(i) } } });
    await vi.waitFor(
      () =>
        expect(
          sink.received
            .slice(before)
            .some((n) => n.ref.name === 'web' && n.object?.metadata.labels?.n === '9'),
          'last patch',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    const forWeb = sink.received
      .slice(before)
      .filter((n) => n.ref.kind === 'Service' && n.ref.name === 'web');
    expect(forWeb.length).toBeLessThan(10);
  });

  it('after a compaction forces 410 Gone, re-lists and sends every object again', async () => {
    // Prepare: advance the revision with writes the forwarder does not watch, then forget history.
    await env.api.create(Resources.Deployment, {
      metadata: { name: 'noise', namespace: 'default' },
      spec: {},
    });
    env.kube.compact();
    const before = sink.received.length;
    // Act: each watch ends within 1-2 s and resumes from its old version, which is now gone.
    await vi.waitFor(
      () =>
        expect(
          new Set(
            sink.received
              .slice(before)
              .filter((n) => n.change === 'added')
              .map(key),
          ).size >= objects.length,
          're-list after 410',
        ).toBe(true),
      { timeout: 15_000, interval: 20 },
    );
    // Assess
    const relists = await fwd.metrics.registry.getSingleMetric('forwarder_relists_total')?.get();
    const gone =
      relists?.values.filter((v) => v.labels.reason === 'gone').reduce((n, v) => n + v.value, 0) ?? 0;
    expect(gone).toBeGreaterThan(0);
    expect(logger.lines.some((l) => l.message.includes('410'))).toBe(true);
  });

  it('serves Prometheus metrics', async () => {
    const text = await (await fetch(`http://127.0.0.1:${fwd.port}/metrics`)).text();
    for (const name of [
      'forwarder_events_received_total{kind="Service",type="LISTED"}',
      'forwarder_notifications_sent_total',
      'forwarder_sink_calls_total{sink="http"}',
      'forwarder_sink_errors_total',
      'forwarder_pending_objects',
      'forwarder_delivery_latency_seconds_bucket',
      'forwarder_is_leader 1',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('never puts Secret data in a notification or a log line', () => {
    expect(sink.bodies.join('\n')).not.toContain(SECRET);
    expect(JSON.stringify(logger.lines)).not.toContain(SECRET);
    const secret = sink.received.find((n) => n.ref.kind === 'Secret');
    expect(secret?.object).toMatchObject({ kind: 'Secret', type: 'kubernetes.io/tls' });
    expect(
      secret?.object?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
    ).toBeUndefined();
  });
});

describe('Integration: resync and the namespaces filter', () => {
  it('sends `resync` for every known object each period, and watches only the listed namespaces', async () => {
    // Prepare
    const env = await startEnv();
    const objects = sampleObjects(SECRET);
    for (const { type, obj } of objects) await env.api.create(type, obj);
    await env.api.create(Resources.Service, {
      metadata: { name: 'elsewhere', namespace: 'karmada-system' },
      spec: { ports: [{ port: 1 }] },
    });
    const sink = await startRecordingSink();
    const fwd = makeForwarder({
      server: env.kube.url,
      sinkUrl: sink.url,
      resyncPeriodMs: 400,
      namespaces: ['default'],
      // The sample Secret, watched because its namespace is listed (opt-in).
      secretNamespaces: ['default'],
    });
    try {
      // Act
      await fwd.start();
      await vi.waitFor(
        () =>
          expect(
            new Set(sink.received.filter((n) => n.change === 'resync').map(key)).size >= objects.length,
            'resync',
          ).toBe(true),
        { timeout: 10_000, interval: 20 },
      );
      // Assess
      const resynced = new Set(sink.received.filter((n) => n.change === 'resync').map(key));
      expect(resynced.size).toBe(objects.length);
      expect(resynced.has('Cluster//member1')).toBe(true); // cluster-scoped types ignore the filter
      expect(sink.received.some((n) => n.ref.name === 'elsewhere')).toBe(false);
    } finally {
      await fwd.shutdown();
      await sink.close();
      await env.close();
    }
  });
});
