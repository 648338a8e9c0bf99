import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiError, MCI, mci, mergePatch, startFixture, type Obj } from './kube-apiserver.helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'kube-apiserver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kube-apiserver stand-in: persistence, conflict injection, request log', () => {
  it('persists to a JSON file and resumes from it', async () => {
    const persistFile = join(dir, 'nested', 'api.json');
    const first = await startFixture({ persistFile, persistDebounceMs: 10 });
    const created = (await first.custom.createNamespacedCustomObject({
      ...MCI,
      namespace: 'default',
      body: mci('kept'),
    })) as Obj;
    await first.custom.patchNamespacedCustomObjectStatus(
      {
        ...MCI,
        namespace: 'default',
        name: 'kept',
        body: { status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } },
      },
      mergePatch,
    );
    const rv = first.server.store.resourceVersion;
    await first.server.close();
    expect(JSON.parse(readFileSync(persistFile, 'utf8')).resourceVersion).toBe(rv);

    const second = await startFixture({ persistFile });
    try {
      const read = (await second.custom.getNamespacedCustomObject({
        ...MCI,
        namespace: 'default',
        name: 'kept',
      })) as Obj;
      expect(read.metadata.uid).toBe(created.metadata.uid);
      expect(read.status.loadBalancer.ingress).toEqual([{ ip: '10.0.0.1' }]);
      // The counter carries on, and history from before the restart is gone (410), as after etcd compaction.
      const next = (await second.custom.createNamespacedCustomObject({
        ...MCI,
        namespace: 'default',
        body: mci('after'),
      })) as Obj;
      expect(Number(next.metadata.resourceVersion)).toBe(rv + 1);
      expect(second.server.store.compactedResourceVersion).toBe(rv);
    } finally {
      await second.server.close();
    }
  });

  it('injects 409 Conflicts into a seeded fraction of writes, reproducibly', async () => {
    const outcomes: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const f = await startFixture();
      try {
        await f.custom.createNamespacedCustomObject({ ...MCI, namespace: 'default', body: mci('chaos') });
        f.server.injectConflicts({ probability: 0.5, seed: 42 });
        const codes: number[] = [];
        for (let i = 0; i < 20; i++) {
          const write = f.custom.patchNamespacedCustomObjectStatus(
            {
              ...MCI,
              namespace: 'default',
              name: 'chaos',
              body: { status: { loadBalancer: { ingress: [{ ip: `10.0.0.${i}` }] } } },
            },
            mergePatch,
          );
          codes.push(
            await write.then(
              () => 200,
              async () => (await apiError(write)).code,
            ),
          );
        }
        expect(codes.filter((c) => c === 409).length).toBe(f.server.injectedConflicts);
        expect(f.server.injectedConflicts).toBeGreaterThan(3);
        expect(f.server.injectedConflicts).toBeLessThan(17);
        f.server.injectConflicts(null);
        await f.custom.patchNamespacedCustomObject(
          { ...MCI, namespace: 'default', name: 'chaos', body: { metadata: { labels: { ok: 'yes' } } } },
          mergePatch,
        );
        outcomes.push(codes);
      } finally {
        await f.server.close();
      }
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  it('logs every request with method, path and status', async () => {
    const f = await startFixture();
    try {
      f.server.requests.reset();
      await f.custom.listNamespacedCustomObject({ ...MCI, namespace: 'default' });
      await apiError(f.custom.getNamespacedCustomObject({ ...MCI, namespace: 'default', name: 'missing' }));
      const path = '/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses';
      expect(f.server.requests.count('GET', path)).toBe(2);
      expect(f.server.requests.counts().get(`GET ${path}/missing`)).toBe(1);
      expect(f.server.requests.entries.map((e) => e.status)).toEqual([200, 404]);
    } finally {
      await f.server.close();
    }
  });

  it('seeds objects directly through the store, visible over HTTP and to watchers', async () => {
    const f = await startFixture();
    try {
      const seeded = f.server.store.put({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'seeded', namespace: 'default' },
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
      });
      expect(seeded.metadata.uid).toBeDefined();
      const res = await fetch(`${f.server.url}/api/v1/namespaces/default/services/seeded`);
      expect(((await res.json()) as Obj).status).toEqual({
        loadBalancer: { ingress: [{ ip: '192.0.2.1' }] },
      });
      expect(f.server.store.remove('v1', 'Service', 'default', 'seeded')).toBe(true);
      expect(f.server.store.list('v1', 'Service', 'default')).toEqual([]);
    } finally {
      await f.server.close();
    }
  });
});
