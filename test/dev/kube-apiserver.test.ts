import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiError,
  jsonPatch,
  MCI,
  mci,
  mergePatch,
  startFixture,
  type Fixture,
  type Obj,
} from './kube-apiserver.helpers.js';

let f: Fixture;
const ns = 'default';

beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f.server.close();
});

const create = (name: string, extra?: Parameters<typeof mci>[1]): Promise<Obj> =>
  f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body: mci(name, extra) }) as Promise<Obj>;
const get = (name: string): Promise<Obj> =>
  f.custom.getNamespacedCustomObject({ ...MCI, namespace: ns, name }) as Promise<Obj>;

describe('kube-apiserver stand-in: CRUD over client-node', () => {
  it('creates with server-set metadata and reads it back', async () => {
    const created = await create('crud-a');
    expect(created.metadata).toMatchObject({ name: 'crud-a', namespace: ns, generation: 1 });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.metadata.managedFields).toMatchObject([{ operation: 'Update', fieldsType: 'FieldsV1' }]);
    expect(await get('crud-a')).toEqual(created);
  });

  it('answers a missing object with a kube-apiserver NotFound Status', async () => {
    const { code, status } = await apiError(get('nope'));
    expect(code).toBe(404);
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'multiclusteringresses.networking.karmada.io "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: 'networking.karmada.io', kind: 'multiclusteringresses' },
      code: 404,
    });
  });

  it('rejects a duplicate with 409 AlreadyExists and supports generateName', async () => {
    await create('dup');
    const { code, status } = await apiError(create('dup'));
    expect([code, status.reason]).toEqual([409, 'AlreadyExists']);
    const body = mci('');
    body.metadata = { generateName: 'gen-' };
    const made = (await f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body })) as Obj;
    expect(made.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('lists with label and field selectors', async () => {
    await create('sel-1', { labels: { tier: 'web', env: 'prod' } });
    await create('sel-2', { labels: { tier: 'db', env: 'prod' } });
    await create('sel-3', { labels: { tier: 'web' } });
    const names = async (labelSelector?: string, fieldSelector?: string): Promise<string[]> => {
      const list = (await f.custom.listNamespacedCustomObject({
        ...MCI,
        namespace: ns,
        labelSelector,
        fieldSelector,
      })) as { items: Obj[] };
      return list.items.map((o) => o.metadata.name as string).filter((n) => n.startsWith('sel-'));
    };
    expect(await names('tier=web')).toEqual(['sel-1', 'sel-3']);
    expect(await names('tier==web,env=prod')).toEqual(['sel-1']);
    expect(await names('tier!=web')).toEqual(['sel-2']);
    expect(await names('tier in (db, cache)')).toEqual(['sel-2']);
    expect(await names('tier notin (db),env')).toEqual(['sel-1']);
    expect(await names('!env,tier')).toEqual(['sel-3']);
    expect(await names(undefined, 'metadata.name=sel-2')).toEqual(['sel-2']);
    expect(await names('tier', 'metadata.name!=sel-2,metadata.namespace=default')).toEqual([
      'sel-1',
      'sel-3',
    ]);
    const { code, status } = await apiError(
      f.custom.listNamespacedCustomObject({ ...MCI, namespace: ns, fieldSelector: 'spec.x=1' }),
    );
    expect([code, status.message]).toEqual([400, 'field label not supported: spec.x']);
  });

  it('paginates with limit/continue at one resourceVersion and lists across namespaces', async () => {
    for (const n of ['page-1', 'page-2', 'page-3']) await create(n, { labels: { page: 'yes' } });
    const first = (await f.custom.listNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      labelSelector: 'page',
      limit: 2,
    })) as any;
    expect(first.items.map((o: Obj) => o.metadata.name)).toEqual(['page-1', 'page-2']);
    expect(first.metadata.remainingItemCount).toBe(1);
    // Later pages are read at the first page's resourceVersion, like etcd's MVCC snapshot reads.
    await f.custom.deleteNamespacedCustomObject({ ...MCI, namespace: ns, name: 'page-3' });
    await create('page-4', { labels: { page: 'yes' } });
    const second = (await f.custom.listNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      labelSelector: 'page',
      limit: 2,
      _continue: first.metadata.continue,
    })) as any;
    expect(second.items.map((o: Obj) => o.metadata.name)).toEqual(['page-3']);
    expect(second.metadata.continue).toBeUndefined();
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const all = (await f.custom.listClusterCustomObject({ ...MCI, labelSelector: 'page' })) as any;
    expect(all.kind).toBe('MultiClusterIngressList');
    expect(all.items.map((o: Obj) => o.metadata.name)).toEqual(['page-1', 'page-2', 'page-4']);
  });

  it('rejects a stale update with 409 Conflict worded like kube-apiserver', async () => {
    const v1 = await create('stale');
    await f.custom.replaceNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      name: 'stale',
      body: { ...v1, metadata: { ...v1.metadata, labels: { a: 'b' } } },
    });
    const { code, status } = await apiError(
      f.custom.replaceNamespacedCustomObject({
        ...MCI,
        namespace: ns,
        name: 'stale',
        body: { ...v1, metadata: { ...v1.metadata, labels: { a: 'c' } } },
      }),
    );
    expect(code).toBe(409);
    expect(status.reason).toBe('Conflict');
    expect(status.message).toBe(
      'Operation cannot be fulfilled on multiclusteringresses.networking.karmada.io "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('bumps generation only for spec changes and skips no-op writes', async () => {
    const v1 = await create('gen');
    const labelled = (await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: ns, name: 'gen', body: { metadata: { labels: { x: 'y' } } } },
      mergePatch,
    )) as Obj;
    expect(labelled.metadata.generation).toBe(1);
    expect(Number(labelled.metadata.resourceVersion)).toBeGreaterThan(Number(v1.metadata.resourceVersion));
    const noop = (await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: ns, name: 'gen', body: { metadata: { labels: { x: 'y' } } } },
      mergePatch,
    )) as Obj;
    expect(noop.metadata.resourceVersion).toBe(labelled.metadata.resourceVersion);
    const changed = (await f.custom.patchNamespacedCustomObject(
      {
        ...MCI,
        namespace: ns,
        name: 'gen',
        body: [{ op: 'replace', path: '/spec/rules/0/http/paths/0/path', value: '/new' }],
      },
      jsonPatch,
    )) as Obj;
    expect(changed.metadata.generation).toBe(2);
    expect(changed.spec.rules[0].http.paths[0].path).toBe('/new');
  });

  it('keeps status and spec apart: main writes ignore status, status writes ignore the rest', async () => {
    const body = mci('status-sep');
    body.status = { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } };
    const created = (await f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body })) as Obj;
    expect(created.status).toBeUndefined();
    const lb = { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } };
    const withStatus = (await f.custom.patchNamespacedCustomObjectStatus(
      {
        ...MCI,
        namespace: ns,
        name: 'status-sep',
        body: { status: lb, spec: { rules: [] }, metadata: { labels: { sneaky: 'yes' } } },
      },
      mergePatch,
    )) as Obj;
    expect(withStatus.status).toEqual(lb);
    expect(withStatus.spec).toEqual(created.spec);
    expect(withStatus.metadata.labels).toBeUndefined();
    expect(withStatus.metadata.generation).toBe(1);
    const replaced = (await f.custom.replaceNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      name: 'status-sep',
      body: {
        ...withStatus,
        status: { loadBalancer: {} },
        spec: { ...withStatus.spec, defaultBackend: { service: { name: 'd', port: { number: 1 } } } },
      },
    })) as Obj;
    expect(replaced.status).toEqual(lb);
    expect(replaced.metadata.generation).toBe(2);
    const statusPut = (await f.custom.replaceNamespacedCustomObjectStatus({
      ...MCI,
      namespace: ns,
      name: 'status-sep',
      body: { ...replaced, status: { loadBalancer: {} } },
    })) as Obj;
    expect(statusPut.status).toEqual({ loadBalancer: {} });
  });

  it('deletes through finalizers: deletionTimestamp first, gone when the last finalizer goes', async () => {
    await create('fin', { finalizers: ['example.com/a', 'example.com/b'] });
    const deleting = (await f.custom.deleteNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      name: 'fin',
    })) as Obj;
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect((await get('fin')).metadata.deletionTimestamp).toBe(deleting.metadata.deletionTimestamp);
    const adding = await apiError(
      f.custom.patchNamespacedCustomObject(
        {
          ...MCI,
          namespace: ns,
          name: 'fin',
          body: { metadata: { finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] } },
        },
        mergePatch,
      ),
    );
    expect(adding.code).toBe(422);
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: ns, name: 'fin', body: [{ op: 'remove', path: '/metadata/finalizers/0' }] },
      jsonPatch,
    );
    expect((await get('fin')).metadata.finalizers).toEqual(['example.com/b']);
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: ns, name: 'fin', body: { metadata: { finalizers: null } } },
      mergePatch,
    );
    expect((await apiError(get('fin'))).code).toBe(404);
  });

  it('honours delete preconditions with 409', async () => {
    const obj = await create('precond');
    const wrongUid = await apiError(
      f.custom.deleteNamespacedCustomObject({
        ...MCI,
        namespace: ns,
        name: 'precond',
        body: { preconditions: { uid: 'other' } },
      }),
    );
    expect([wrongUid.code, wrongUid.status.reason]).toEqual([409, 'Conflict']);
    expect(wrongUid.status.message).toContain('Precondition failed: UID in precondition: other');
    const wrongRv = await apiError(
      f.custom.deleteNamespacedCustomObject({
        ...MCI,
        namespace: ns,
        name: 'precond',
        body: { preconditions: { resourceVersion: '1' } },
      }),
    );
    expect(wrongRv.code).toBe(409);
    await f.custom.deleteNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      name: 'precond',
      body: { preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion } },
    });
    expect((await apiError(get('precond'))).code).toBe(404);
  });
});
