import { CoreV1Api, makeInformer, Watch, type KubernetesObject } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiError,
  MCI,
  mci,
  mergePatch,
  startFixture,
  type Fixture,
  type Obj,
} from './kube-apiserver.helpers.js';

const PATH = '/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses';
let f: Fixture;

beforeEach(async () => {
  f = await startFixture({ bookmarkIntervalMs: 50 });
});
afterEach(async () => {
  await f.server.close();
});

interface Seen {
  events: [string, Obj][];
  done: Promise<unknown>;
  abort: () => void;
}

async function watch(query: Record<string, string | boolean>, path = PATH): Promise<Seen> {
  const events: [string, Obj][] = [];
  let finish!: (err: unknown) => void;
  const done = new Promise<unknown>((resolve) => (finish = resolve));
  const controller = await new Watch(f.kc).watch(
    path,
    query,
    (type, obj) => events.push([type, obj as Obj]),
    (err) => finish(err),
  );
  return { events, done, abort: () => controller.abort() };
}

const create = (name: string, labels?: Record<string, string>): Promise<Obj> =>
  f.custom.createNamespacedCustomObject({
    ...MCI,
    namespace: 'default',
    body: mci(name, labels ? { labels } : {}),
  }) as Promise<Obj>;

describe('kube-apiserver stand-in: watch', () => {
  it('replays from a resourceVersion, then streams live ADDED/MODIFIED/DELETED', async () => {
    const a = await create('a');
    await create('b');
    const w = await watch({ resourceVersion: a.metadata.resourceVersion });
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: 'default', name: 'a', body: { metadata: { labels: { x: '1' } } } },
      mergePatch,
    );
    await f.custom.deleteNamespacedCustomObject({ ...MCI, namespace: 'default', name: 'b' });
    await vi.waitFor(() => expect(w.events.length).toBeGreaterThanOrEqual(3), {
      timeout: 3000,
      interval: 10,
    });
    expect(w.events.map(([t, o]) => `${t} ${o.metadata.name}`)).toEqual([
      'ADDED b',
      'MODIFIED a',
      'DELETED b',
    ]);
    const rvs = w.events.map(([, o]) => Number(o.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    w.abort();
  });

  it('starts with synthetic ADDED events without a resourceVersion and filters by selector', async () => {
    await create('web', { tier: 'web' });
    await create('db', { tier: 'db' });
    const w = await watch({ labelSelector: 'tier=web' });
    await vi.waitFor(() => expect(w.events.length).toBeGreaterThanOrEqual(1), {
      timeout: 3000,
      interval: 10,
    });
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: 'default', name: 'db', body: { metadata: { labels: { tier: 'web' } } } },
      mergePatch,
    );
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: 'default', name: 'web', body: { metadata: { labels: { tier: 'cache' } } } },
      mergePatch,
    );
    await vi.waitFor(() => expect(w.events.length).toBeGreaterThanOrEqual(3), {
      timeout: 3000,
      interval: 10,
    });
    // Objects entering / leaving the selector show up as ADDED / DELETED, as with kube-apiserver.
    expect(w.events.map(([t, o]) => `${t} ${o.metadata.name}`)).toEqual([
      'ADDED web',
      'ADDED db',
      'DELETED web',
    ]);
    w.abort();
  });

  it('sends BOOKMARK events when asked to', async () => {
    const w = await watch({
      allowWatchBookmarks: true,
      resourceVersion: String(f.server.store.resourceVersion),
    });
    await vi.waitFor(() => expect(w.events.some(([t]) => t === 'BOOKMARK')).toBe(true), {
      timeout: 3000,
      interval: 10,
    });
    const [, bookmark] = w.events.find(([t]) => t === 'BOOKMARK')!;
    expect(bookmark.metadata.resourceVersion).toBe(String(f.server.store.resourceVersion));
    expect(bookmark.kind).toBe('MultiClusterIngress');
    w.abort();
  });

  it('answers a watch from a compacted resourceVersion with a 410 Expired ERROR event', async () => {
    const old = await create('old');
    await create('newer');
    f.server.compact();
    const w = await watch({ resourceVersion: old.metadata.resourceVersion });
    await w.done;
    expect(w.events).toHaveLength(1);
    const [type, status] = w.events[0]!;
    expect(type).toBe('ERROR');
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(status.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it('answers a LIST with an expired continue token with 410 Expired', async () => {
    for (const n of ['p1', 'p2', 'p3']) await create(n);
    const first = (await f.custom.listNamespacedCustomObject({
      ...MCI,
      namespace: 'default',
      limit: 1,
    })) as any;
    await create('p4');
    f.server.compact();
    const { code, status } = await apiError(
      f.custom.listNamespacedCustomObject({
        ...MCI,
        namespace: 'default',
        limit: 1,
        _continue: first.metadata.continue,
      }),
    );
    expect([code, status.reason]).toEqual([410, 'Expired']);
  });

  it('watches one object by name and across all namespaces', async () => {
    const byName = await watch({ fieldSelector: 'metadata.name=one' });
    const all = await watch(
      { resourceVersion: String(f.server.store.resourceVersion) },
      '/apis/networking.karmada.io/v1alpha1/multiclusteringresses',
    );
    await create('one');
    await create('two');
    await vi.waitFor(() => expect(byName.events.length >= 1 && all.events.length >= 2).toBe(true), {
      timeout: 3000,
      interval: 10,
    });
    expect(byName.events.map(([t, o]) => `${t} ${o.metadata.name}`)).toEqual(['ADDED one']);
    expect(all.events.map(([, o]) => o.metadata.name)).toEqual(['one', 'two']);
    byName.abort();
    all.abort();
  });

  it('ends open watch streams on close()', async () => {
    const w = await watch({});
    expect(f.server.openWatches).toBe(1);
    await f.server.close();
    await w.done;
    expect(f.server.openWatches).toBe(0);
  });

  it('feeds a client-node informer, which relists after a 410 on re-watch', async () => {
    await create('i1');
    const informer = makeInformer<KubernetesObject>(
      f.kc,
      PATH,
      () => f.custom.listNamespacedCustomObject({ ...MCI, namespace: 'default' }) as Promise<any>,
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      await create('i2');
      await f.custom.patchNamespacedCustomObject(
        { ...MCI, namespace: 'default', name: 'i1', body: { metadata: { labels: { a: 'b' } } } },
        mergePatch,
      );
      await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(3), { timeout: 3000, interval: 10 });
      expect(seen).toEqual(['add i1', 'add i2', 'update i1']);
      await f.custom.deleteNamespacedCustomObject({ ...MCI, namespace: 'default', name: 'i2' });
      await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(4), { timeout: 3000, interval: 10 });
      const lists = (): number =>
        f.server.requests.entries.filter((e) => e.path === PATH && !e.query.includes('watch')).length;
      const listsBefore = lists();
      // Writes to another resource move the global resourceVersion past the informer's last event; once that
      // history is compacted, the informer's re-watch gets 410 and it must list again.
      await f.kc.makeApiClient(CoreV1Api).createNamespacedSecret({
        namespace: 'default',
        body: { metadata: { name: 'other' } },
      });
      f.server.compact();
      await create('i3');
      expect(f.server.dropWatches()).toBe(1);
      await vi.waitFor(() => expect(informer.list().some((o) => o.metadata?.name === 'i3')).toBe(true), {
        timeout: 3000,
        interval: 10,
      });
      expect(lists()).toBe(listsBefore + 1);
      expect(
        informer
          .list()
          .map((o) => o.metadata?.name)
          .sort(),
      ).toEqual(['i1', 'i3']);
    } finally {
      await informer.stop();
    }
  });
});
