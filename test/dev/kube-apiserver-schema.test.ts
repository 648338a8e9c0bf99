import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { apiError, MCI, mci, startFixture, type Fixture, type Obj } from './kube-apiserver.helpers.js';

let f: Fixture;
const ns = 'default';

beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f.server.close();
});

describe('kube-apiserver stand-in: schema, built-in kinds, discovery', () => {
  it('validates against the CRD schema: strict unknown fields → 400, invalid → 422 with causes, prunes otherwise', async () => {
    const bad = mci('strict');
    (bad.spec as any).foo = 1;
    const strict = await apiError(
      f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body: bad, fieldValidation: 'Strict' }),
    );
    expect([strict.code, strict.status.reason, strict.status.message]).toEqual([
      400,
      'BadRequest',
      'strict decoding error: unknown field "spec.foo"',
    ]);
    const pruned = (await f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body: bad })) as Obj;
    expect(pruned.spec.foo).toBeUndefined();
    const invalid = mci('invalid');
    const path = (invalid.spec as any).rules[0].http.paths[0];
    delete path.pathType;
    path.backend.service.port.number = 'eighty';
    const res = await apiError(
      f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body: invalid }),
    );
    expect([res.code, res.status.reason]).toEqual([422, 'Invalid']);
    expect(res.status.details.kind).toBe('MultiClusterIngress');
    expect(res.status.details.causes.map((c: any) => c.field).sort()).toEqual([
      'spec.rules[0].http.paths[0].backend.service.port.number',
      'spec.rules[0].http.paths[0].pathType',
    ]);
    expect(res.status.message).toMatch(
      /^MultiClusterIngress\.networking\.karmada\.io "invalid" is invalid: \[/,
    );
  });

  it('serves built-in kinds through CoreV1Api and KubernetesObjectApi', async () => {
    const core = f.kc.makeApiClient(CoreV1Api);
    const svc = await core.createNamespacedService({
      namespace: ns,
      body: { metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } },
    });
    expect(svc.metadata?.uid).toBeDefined();
    const namespaces = await core.listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toEqual(
      expect.arrayContaining(['default', 'karmada-system']),
    );
    const objects = KubernetesObjectApi.makeApiClient(f.kc);
    const read = await objects.read({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc', namespace: ns },
    });
    expect(read.metadata?.name).toBe('svc');
    const missingNs = await apiError(
      core.createNamespacedSecret({ namespace: 'nowhere', body: { metadata: { name: 's' } } }),
    );
    expect([missingNs.code, missingNs.status.message]).toEqual([404, 'namespaces "nowhere" not found']);
    expect(f.server.store.get('v1', 'Service', ns, 'svc')?.metadata.name).toBe('svc');
  });

  it('serves discovery with short names and status subresources', async () => {
    const res = await fetch(`${f.server.url}/apis/networking.karmada.io/v1alpha1`);
    const list = (await res.json()) as {
      resources: { name: string; shortNames?: string[]; namespaced: boolean }[];
    };
    expect(list.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'multiclusteringresses',
          shortNames: ['mci'],
          namespaced: true,
          kind: 'MultiClusterIngress',
        }),
        expect.objectContaining({ name: 'multiclusterservices', shortNames: ['mcs'] }),
        expect.objectContaining({ name: 'multiclusteringresses/status' }),
      ]),
    );
    const index = (await (await fetch(`${f.server.url}/openapi/v3`)).json()) as {
      paths: Record<string, { serverRelativeURL: string }>;
    };
    const doc = (await (
      await fetch(`${f.server.url}${index.paths['apis/networking.karmada.io/v1alpha1']!.serverRelativeURL}`)
    ).json()) as any;
    const op =
      doc.paths['/apis/networking.karmada.io/v1alpha1/namespaces/{namespace}/multiclusteringresses/{name}']
        .patch;
    expect(op['x-kubernetes-group-version-kind']).toEqual({
      group: 'networking.karmada.io',
      version: 'v1alpha1',
      kind: 'MultiClusterIngress',
    });
    expect(op.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  });

  it('applies strategic merge patches to built-in kinds (merge by container name)', async () => {
    const apps = f.kc.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'smp' },
        spec: {
          selector: { matchLabels: { app: 'smp' } },
          template: {
            metadata: { labels: { app: 'smp' } },
            spec: {
              containers: [
                { name: 'a', image: 'a:1' },
                { name: 'b', image: 'b:1', env: [{ name: 'X', value: '1' }] },
              ],
            },
          },
        },
      },
    });
    const patched = await apps.patchNamespacedDeployment(
      {
        namespace: ns,
        name: 'smp',
        body: {
          spec: {
            replicas: 2,
            template: {
              spec: {
                containers: [
                  { name: 'b', image: 'b:2' },
                  { name: 'a', $patch: 'delete' },
                ],
              },
            },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const containers = patched.spec?.template.spec?.containers ?? [];
    expect(containers.map((c) => [c.name, c.image, c.env?.length])).toEqual([['b', 'b:2', 1]]);
    expect(patched.metadata?.generation).toBe(2);
    const crd = await apiError(
      f.custom.patchNamespacedCustomObject(
        { ...MCI, namespace: ns, name: 'x', body: {} },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    expect([crd.code, crd.status.reason]).toEqual([415, 'UnsupportedMediaType']);
  });

  it('serves the /scale subresource of Deployments', async () => {
    const res = await fetch(`${f.server.url}/apis/apps/v1/namespaces/${ns}/deployments/smp/scale`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { replicas: 5 } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Obj).spec).toEqual({ replicas: 5 });
    expect(
      (f.server.store.get('apps/v1', 'Deployment', ns, 'smp')?.spec as { replicas: number }).replicas,
    ).toBe(5);
  });

  it('refuses a create that carries a resourceVersion, as etcd3 storage does', async () => {
    const body = mci('with-rv');
    (body.metadata as Record<string, unknown>).resourceVersion = '5';
    const res = await apiError(f.custom.createNamespacedCustomObject({ ...MCI, namespace: ns, body }));
    expect([res.code, res.status.reason, res.status.message]).toEqual([
      500,
      'InternalError',
      'Internal error occurred: resourceVersion should not be set on objects to be created',
    ]);
  });

  it('does not store anything on dryRun=All', async () => {
    const made = (await f.custom.createNamespacedCustomObject({
      ...MCI,
      namespace: ns,
      body: mci('dry'),
      dryRun: 'All',
    })) as Obj;
    expect(made.metadata.name).toBe('dry');
    expect(
      f.server.store.get('networking.karmada.io/v1alpha1', 'MultiClusterIngress', ns, 'dry'),
    ).toBeUndefined();
  });

  it('deletes a namespace with its contents, waiting for finalizers', async () => {
    const core = f.kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedSecret({ namespace: 'doomed', body: { metadata: { name: 's' } } });
    const body = mci('held', { finalizers: ['example.com/hold'] });
    await f.custom.createNamespacedCustomObject({ ...MCI, namespace: 'doomed', body });
    await core.deleteNamespace({ name: 'doomed' });
    expect((await core.readNamespace({ name: 'doomed' })).status?.phase).toBe('Terminating');
    expect((await apiError(core.readNamespacedSecret({ namespace: 'doomed', name: 's' }))).code).toBe(404);
    const refused = await apiError(
      core.createNamespacedSecret({ namespace: 'doomed', body: { metadata: { name: 't' } } }),
    );
    expect(refused.code).toBe(403);
    await f.custom.patchNamespacedCustomObject(
      { ...MCI, namespace: 'doomed', name: 'held', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    expect((await apiError(core.readNamespace({ name: 'doomed' }))).code).toBe(404);
  });
});
