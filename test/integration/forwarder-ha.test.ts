import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqsSink } from '../../lib/forwarder/sinks/sqs.js';
import { Resources } from '../../lib/kube/resources.js';
import type { LogFields, Logger } from '../../lib/log/logger.js';
import { startFakeSqs, startProxy, startRecordingSink, TEST_AWS } from './forwarder-fakes.js';
import { makeForwarder, sampleObjects, startEnv, type Env } from './forwarder-setup.js';

/** The sample objects include a Secret; watching Secrets is opt-in, per namespace. */
const WATCH_SAMPLE_SECRET = ['default'];

const SECRET = 'dG9wLXNlY3JldC1rZXktbWF0ZXJpYWw=';

/** Records every log call exactly as made, before any redaction, to prove secrets are never even passed in. */
class RawLogger implements Logger {
  constructor(
    readonly out: string[] = [],
    private readonly base: LogFields = {},
  ) {}
  private log(level: string, message: string, fields?: LogFields): void {
    this.out.push(
      JSON.stringify({ level, message, ...this.base, ...fields }, (_k, v: unknown) =>
        v instanceof Error ? { message: v.message, stack: v.stack } : v,
      ),
    );
  }
  debug(m: string, f?: LogFields): void {
    this.log('DEBUG', m, f);
  }
  info(m: string, f?: LogFields): void {
    this.log('INFO', m, f);
  }
  warn(m: string, f?: LogFields): void {
    this.log('WARN', m, f);
  }
  error(m: string, f?: LogFields): void {
    this.log('ERROR', m, f);
  }
  child(f: LogFields): Logger {
    return new RawLogger(this.out, { ...this.base, ...f });
  }
}

describe('Integration: two replicas, shutdown, SQS, secrets', () => {
  let env: Env;
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(): Promise<void> {
    env = await startEnv();
    cleanups.push(() => env.close());
    for (const { type, obj } of sampleObjects(SECRET)) await env.api.create(type, obj);
  }

  it('two replicas with leader election never both send; the standby takes over on shutdown', async () => {
    // Prepare
    await setup();
    const sinkA = await startRecordingSink();
    const sinkB = await startRecordingSink();
    cleanups.push(
      () => sinkA.close(),
      () => sinkB.close(),
    );
    const a = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sinkA.url,
      identity: 'replica-a',
    });
    const b = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sinkB.url,
      identity: 'replica-b',
    });
    cleanups.push(
      () => a.shutdown(),
      () => b.shutdown(),
    );
    let both = 0;
    const sampler = setInterval(() => {
      if (a.isLeader() && b.isLeader()) both++;
    }, 2);
    cleanups.push(async () => clearInterval(sampler));
    // Act
    await Promise.all([a.start(), b.start()]);
    await vi.waitFor(() => expect(a.isLeader() || b.isLeader(), 'a leader').toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    const [leader, standby, leaderSink, standbySink] = a.isLeader()
      ? [a, b, sinkA, sinkB]
      : [b, a, sinkB, sinkA];
    await vi.waitFor(() => expect(leaderSink.received.length, 'initial list').toBeGreaterThanOrEqual(8), {
      timeout: 10_000,
      interval: 20,
    });
    await env.api.create(Resources.Service, {
      metadata: { name: 'later', namespace: 'default' },
      spec: { ports: [{ port: 1 }] },
    });
    await vi.waitFor(
      () =>
        expect(
          leaderSink.received.some((n) => n.ref.name === 'later'),
          'change',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    await new Promise((r) => setTimeout(r, 500));
    // Assess: the standby watched nothing and sent nothing, and is ready (standby).
    expect(standbySink.calls).toBe(0);
    expect(standby.isReady()).toBe(true);
    expect(standby.currentPipeline).toBeUndefined();
    // Act: the leader shuts down and releases the lease; the standby takes over at once and re-lists.
    const handover = Date.now();
    await leader.shutdown();
    const leaderLastCall = Date.now();
    await vi.waitFor(
      () => expect(standbySink.received.length, 'standby takes over').toBeGreaterThanOrEqual(9),
      {
        timeout: 10_000,
        interval: 20,
      },
    );
    console.log(`handover after release: ${Date.now() - handover} ms`);
    expect(Math.max(...leaderSink.times)).toBeLessThanOrEqual(leaderLastCall);
    expect(Math.min(...standbySink.times)).toBeGreaterThanOrEqual(leaderLastCall);
    expect(both).toBe(0);
    const lease = env.kube.store.get(
      'coordination.k8s.io/v1',
      'Lease',
      'karmada-system',
      'multicluster-forwarder',
    ) as {
      spec?: { holderIdentity?: string; renewTime?: string; leaseTransitions?: number };
    };
    expect(lease.spec?.holderIdentity).toBe(standby === a ? 'replica-a' : 'replica-b');
    expect(lease.spec?.renewTime).toMatch(/\.\d{6}Z$/);
  }, 30_000);

  it('a leader cut off from the Lease stops sending before the other replica starts', async () => {
    // Prepare: replica A reaches the Lease through a proxy we can cut; its watches stay up.
    await setup();
    const leaseProxy = await startProxy(env.kube.port);
    const sinkA = await startRecordingSink();
    const sinkB = await startRecordingSink();
    cleanups.push(
      () => leaseProxy.close(),
      () => sinkA.close(),
      () => sinkB.close(),
    );
    const a = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: leaseProxy.url,
      sinkUrl: sinkA.url,
      identity: 'replica-a',
    });
    cleanups.push(() => a.shutdown());
    await a.start();
    await vi.waitFor(() => expect(a.isLeader() && sinkA.received.length >= 8, 'a leads').toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    const b = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sinkB.url,
      identity: 'replica-b',
    });
    cleanups.push(() => b.shutdown());
    await b.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(b.isLeader()).toBe(false);
    // Act: cut A off from the Lease while changes keep coming.
    leaseProxy.cut();
    const cutAt = Date.now();
    let i = 0;
    while (!b.isLeader() && Date.now() - cutAt < 10_000) {
      await env.api.patch(Resources.Service, 'default', 'web', { metadata: { labels: { i: String(i++) } } });
      await new Promise((r) => setTimeout(r, 50));
    }
    await vi.waitFor(() => expect(sinkB.received.length, 'b sends').toBeGreaterThanOrEqual(8), {
      timeout: 10_000,
      interval: 20,
    });
    // Assess
    expect(b.isLeader()).toBe(true);
    expect(a.isLeader()).toBe(false);
    const aLast = Math.max(...sinkA.times);
    const bFirst = Math.min(...sinkB.times);
    console.log(
      `lease cut: A last sent ${aLast - cutAt} ms after the cut, B first sent ${bFirst - cutAt} ms after it`,
    );
    expect(aLast).toBeLessThan(bFirst);
  }, 30_000);

  it('shutdown flushes what the coalescing window still holds, then releases the lease', async () => {
    await setup();
    const sink = await startRecordingSink();
    cleanups.push(() => sink.close());
    // A one-minute window: nothing would be sent before shutdown without the flush.
    const fwd = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sink.url,
      coalesceWindowMs: 60_000,
      identity: 'flusher',
    });
    await fwd.start();
    await vi.waitFor(
      () => expect(fwd.isLeader() && (fwd.currentPipeline?.hasSynced ?? false), 'synced').toBe(true),
      { timeout: 10_000, interval: 20 },
    );
    await env.api.create(Resources.Service, {
      metadata: { name: 'pending-one', namespace: 'default' },
      spec: { ports: [{ port: 1 }] },
    });
    await vi.waitFor(() => expect((fwd.currentPipeline?.queue.size ?? 0) >= 9, 'queued').toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    expect(sink.received).toHaveLength(0);
    // Act
    const flushed = await fwd.shutdown();
    // Assess
    expect(flushed).toBe(true);
    expect(sink.received.map((n) => n.ref.name)).toContain('pending-one');
    expect(sink.received).toHaveLength(9);
    const lease = env.kube.store.get(
      'coordination.k8s.io/v1',
      'Lease',
      'karmada-system',
      'multicluster-forwarder',
    ) as { spec?: { holderIdentity?: string } };
    expect(lease.spec?.holderIdentity ?? '').toBe('');
  }, 30_000);

  it('delivers to SQS FIFO: one message per object, grouped by object, deduplicated by change', async () => {
    await setup();
    const sqs = await startFakeSqs();
    cleanups.push(() => sqs.close());
    const fwd = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      sink: new SqsSink({ queueUrl: sqs.queueUrl, endpoint: sqs.url, clientConfig: TEST_AWS }),
    });
    cleanups.push(() => fwd.shutdown());
    sqs.failEntry = (e) => e.Id === '0' && sqs.requests < 3; // a partial failure early on
    await fwd.start();
    await vi.waitFor(() => expect(sqs.messages.length, 'messages').toBeGreaterThanOrEqual(8), {
      timeout: 10_000,
      interval: 20,
    });
    const groups = sqs.messages.map((m) => m.MessageGroupId).sort();
    expect(groups).toEqual(
      [
        'Cluster//member1',
        'EndpointSlice/default/web-abc',
        'IngressClass//aws',
        'MultiClusterIngress/default/web',
        'MultiClusterService/default/web',
        'ResourceBinding/default/web-service',
        'Secret/default/web-tls',
        'Service/default/web',
      ].sort(),
    );
    expect(new Set(sqs.messages.map((m) => m.MessageDeduplicationId)).size).toBe(8);
    expect(sqs.messages.map((m) => m.MessageBody).join()).not.toContain(SECRET);
  }, 30_000);

  it('never puts Secret data in a notification or a log line, through list, watch and delete', async () => {
    await setup();
    const sink = await startRecordingSink();
    cleanups.push(() => sink.close());
    const raw = new RawLogger();
    const fwd = makeForwarder({
      secretNamespaces: WATCH_SAMPLE_SECRET,
      server: env.kube.url,
      leaseServer: env.kube.url,
      sinkUrl: sink.url,
      logger: raw,
    });
    cleanups.push(() => fwd.shutdown());
    await fwd.start();
    await vi.waitFor(
      () =>
        expect(
          sink.received.some((n) => n.ref.kind === 'Secret'),
          'secret listed',
        ).toBe(true),
      { timeout: 10_000, interval: 20 },
    );
    await env.api.patch(Resources.Secret, 'default', 'web-tls', {
      data: { extra: SECRET },
      stringData: { password: SECRET },
    });
    await vi.waitFor(
      () =>
        expect(
          sink.received.some((n) => n.ref.kind === 'Secret' && n.change === 'modified'),
          'secret modified',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    await env.api.delete(Resources.Secret, 'default', 'web-tls');
    await vi.waitFor(
      () =>
        expect(
          sink.received.some((n) => n.ref.kind === 'Secret' && n.change === 'deleted'),
          'secret deleted',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    // A sink failure makes the forwarder log the failing batch's error; still nothing secret.
    sink.failing = true;
    await env.api.create(Resources.Secret, {
      metadata: { name: 'again', namespace: 'default' },
      data: { k: SECRET },
    });
    await vi.waitFor(() => expect(sink.rejected, 'rejection').toBeGreaterThan(0), {
      timeout: 5_000,
      interval: 20,
    });
    sink.failing = false;
    await vi.waitFor(
      () =>
        expect(
          sink.received.some((n) => n.ref.name === 'again'),
          'again',
        ).toBe(true),
      { timeout: 5_000, interval: 20 },
    );
    const secrets = sink.received.filter((n) => n.ref.kind === 'Secret');
    expect(secrets.map((n) => n.change)).toEqual(expect.arrayContaining(['added', 'modified', 'deleted']));
    for (const n of secrets) {
      expect(
        Object.keys(n.object ?? {}).every((k) => ['apiVersion', 'kind', 'metadata', 'type'].includes(k)),
      ).toBe(true);
    }
    expect(sink.bodies.join('\n')).not.toContain(SECRET);
    expect(raw.out.length).toBeGreaterThan(5);
    expect(raw.out.join('\n')).not.toContain(SECRET);
  }, 30_000);
});
