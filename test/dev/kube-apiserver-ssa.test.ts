/**
 * What GitOps tools and kubectl's generators send, with the real kubectl: server-side apply
 * (`kubectl apply --server-side`, as Argo CD and Flux apply) with field managers, conflicts and
 * `--force-conflicts`; and the protobuf bodies of `kubectl create namespace|secret`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startKubectlHarness, type KubectlHarness } from './kube-apiserver.helpers.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
if (!hasKubectl) console.warn('kube-apiserver server-side apply tests SKIPPED: kubectl is not on PATH');

let h: KubectlHarness;

const MCI = (path: string, labels: Record<string, string> = {}) =>
  [
    'apiVersion: networking.karmada.io/v1alpha1',
    'kind: MultiClusterIngress',
    'metadata:',
    '  name: shop',
    ...(Object.keys(labels).length > 0
      ? ['  labels:', ...Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`)]
      : []),
    'spec:',
    '  rules:',
    '  - http:',
    '      paths:',
    `      - path: ${path}`,
    '        pathType: Prefix',
    '        backend: { service: { name: serve, port: { number: 80 } } }',
    '',
  ].join('\n');

function file(name: string, text: string): string {
  const path = join(h.dir, name);
  writeFileSync(path, text);
  return path;
}

interface ManagedEntry {
  manager: string;
  operation: string;
  fieldsV1: Record<string, unknown>;
}

async function managed(kind: string, name: string): Promise<ManagedEntry[]> {
  const obj = parse(await h.kubectl('get', kind, name, '-o', 'yaml', '--show-managed-fields'));
  return obj.metadata.managedFields as ManagedEntry[];
}

describe.skipIf(!hasKubectl)('kube-apiserver stand-in: server-side apply with real kubectl', () => {
  beforeAll(async () => {
    h = await startKubectlHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates with apply, owns the fields as kubectl, and a repeat apply writes nothing', async () => {
    const mci = file('v1.yaml', MCI('/a', { team: 'shop', tier: 'web' }));
    expect(await h.kubectl('apply', '--server-side', '-f', mci)).toBe(
      'multiclusteringress.networking.karmada.io/shop serverside-applied\n',
    );
    const patch = h.server.requests.entries.find((e) => e.method === 'PATCH');
    expect(patch?.contentType).toBe('application/apply-patch+yaml');
    expect(patch?.status).toBe(201);
    expect(await managed('mci', 'shop')).toStrictEqual([
      expect.objectContaining({
        manager: 'kubectl',
        operation: 'Apply',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:team': {}, 'f:tier': {} } },
          'f:spec': { 'f:rules': {} },
        },
      }),
    ]);
    const rv = await h.kubectl('get', 'mci', 'shop', '-o', 'jsonpath={.metadata.resourceVersion}');
    await h.kubectl('apply', '--server-side', '-f', mci);
    expect(await h.kubectl('get', 'mci', 'shop', '-o', 'jsonpath={.metadata.resourceVersion}')).toBe(rv);
  });

  it('a second manager changing a field it does not own gets a conflict naming the owner; --force-conflicts takes it', async () => {
    const other = file('argo.yaml', MCI('/b', { team: 'shop' }));
    const err = await h.kubectlFails(
      'apply',
      '--server-side',
      '--field-manager',
      'argocd-controller',
      '-f',
      other,
    );
    expect(err).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl" using networking.karmada.io/v1alpha1: .spec.rules',
    );
    expect(await h.kubectl('get', 'mci', 'shop', '-o', 'jsonpath={.spec.rules[0].http.paths[0].path}')).toBe(
      '/a',
    );

    await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager',
      'argocd-controller',
      '--force-conflicts',
      '-f',
      other,
    );
    expect(await h.kubectl('get', 'mci', 'shop', '-o', 'jsonpath={.spec.rules[0].http.paths[0].path}')).toBe(
      '/b',
    );
    const entries = await managed('mci', 'shop');
    // kubectl lost spec.rules; the label both set to the same value is shared.
    expect(entries.find((e) => e.manager === 'kubectl')?.fieldsV1).toStrictEqual({
      'f:metadata': { 'f:labels': { 'f:team': {}, 'f:tier': {} } },
    });
    expect(entries.find((e) => e.manager === 'argocd-controller')?.fieldsV1).toStrictEqual({
      'f:metadata': { 'f:labels': { 'f:team': {} } },
      'f:spec': { 'f:rules': {} },
    });
  });

  it('a field an applier drops is removed, unless another manager still owns it', async () => {
    // kubectl drops both labels; argocd-controller still owns team, nobody else owns tier.
    await h.kubectl('apply', '--server-side', '--force-conflicts', '-f', file('v2.yaml', MCI('/b')));
    const labels = await h.kubectl('get', 'mci', 'shop', '-o', 'jsonpath={.metadata.labels}');
    expect(JSON.parse(labels)).toStrictEqual({ team: 'shop' });
  });

  it('conflicts with what a plain update (kubectl edit, client-side apply) set', async () => {
    await h.kubectl('label', 'mci', 'shop', 'owner=ops');
    expect(await managed('mci', 'shop')).toContainEqual(
      expect.objectContaining({ manager: 'kubectl-label', operation: 'Update' }),
    );
    const err = await h.kubectlFails(
      'apply',
      '--server-side',
      '--field-manager',
      'flux',
      '-f',
      file('flux.yaml', MCI('/b', { owner: 'flux' })),
    );
    expect(err).toContain(
      'conflict with "kubectl-label" using networking.karmada.io/v1alpha1: .metadata.labels.owner',
    );
  });

  it('refuses apply without a field manager and force on other patches', async () => {
    const res = await fetch(
      `${h.server.url}/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses/shop`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: MCI('/c'),
      },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(
      'fieldManager is required for apply requests',
    );
    const forced = await fetch(
      `${h.server.url}/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses/shop?force=true`,
      { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{}' },
    );
    expect(forced.status).toBe(400);
  });
});

describe.skipIf(!hasKubectl)('kube-apiserver stand-in: kubectl create generators (protobuf bodies)', () => {
  beforeAll(async () => {
    h = await startKubectlHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('kubectl create namespace', async () => {
    expect(await h.kubectl('create', 'namespace', 'shop')).toBe('namespace/shop created\n');
    const post = h.server.requests.entries.find(
      (e) => e.method === 'POST' && e.path === '/api/v1/namespaces',
    );
    expect(post?.contentType).toBe('application/vnd.kubernetes.protobuf');
    const ns = parse(await h.kubectl('get', 'namespace', 'shop', '-o', 'yaml'));
    expect(ns.metadata.name).toBe('shop');
    expect(ns.metadata.labels).toStrictEqual({ 'kubernetes.io/metadata.name': 'shop' });
    expect(ns.status.phase).toBe('Active');
  });

  it('kubectl create secret generic and docker-registry', async () => {
    expect(
      await h.kubectl(
        'create',
        'secret',
        'generic',
        'db',
        '-n',
        'shop',
        '--from-literal=password=hunter2',
        '--from-literal=user=app',
      ),
    ).toBe('secret/db created\n');
    const secret = parse(await h.kubectl('get', 'secret', 'db', '-n', 'shop', '-o', 'yaml'));
    expect(secret.type).toBe('Opaque');
    expect(Buffer.from(secret.data.password, 'base64').toString()).toBe('hunter2');
    expect(Buffer.from(secret.data.user, 'base64').toString()).toBe('app');
    expect(
      await h.kubectl(
        'create',
        'secret',
        'docker-registry',
        'pull',
        '--docker-server=r.example',
        '--docker-username=u',
        '--docker-password=p',
      ),
    ).toBe('secret/pull created\n');
    expect(await h.kubectl('get', 'secret', 'pull', '-o', 'jsonpath={.type}')).toBe(
      'kubernetes.io/dockerconfigjson',
    );
  });

  it('says which media types it accepts for a protobuf body of another kind', async () => {
    const err = await h.kubectlFails('create', 'deployment', 'web', '--image=nginx');
    expect(err).toContain(
      'accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf for Namespace, Secret',
    );
  });
});
