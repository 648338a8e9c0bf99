/**
 * ALLOWED_NAMESPACES: notifications about objects elsewhere are refused with a clear batch item
 * failure, and nothing is read or written for them: checked on the API stand-in's request log.
 * Triggers that fan out across namespaces (a Cluster's TrafficControl toggle, an IngressClass
 * change, a resync) must not reach objects outside the allowed namespaces either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  serveService,
} from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { loadRuntimeConfig } from '../../lib/runtime/config.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';

function inNamespace<T extends KubeObject>(obj: T, namespace: string): T {
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

let h: Harness;
const outside = inNamespace(minimalIngress('elsewhere'), 'other');
const inside = minimalIngress('allowed');

beforeAll(async () => {
  h = await startHarness({ inProcess: true, runtime: { allowedNamespaces: ['default'] } });
  await h.kube.create(Resources.Namespace, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'other' },
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    serveService(),
    collectedSlice('member1', ['10.1.0.1']),
    inNamespace(serveService(), 'other'),
    inNamespace(collectedSlice('member1', ['10.9.0.1']), 'other'),
    inside,
    outside,
  ]);
  const [res] = await h.deliver(notify(inside, 'added'));
  expect(res).toMatchObject({ ok: true });
});
afterAll(() => h.close());

/** Requests made during `fn` that concern the `other` namespace or its objects. */
async function touchingOther(fn: () => Promise<unknown>): Promise<string[]> {
  const start = h.api.requests.entries.length;
  await fn();
  return h.api.requests.entries
    .slice(start)
    .filter((r) => r.path.includes('/namespaces/other/') || r.path.endsWith('/namespaces/other'))
    .map((r) => `${r.method} ${r.path}`);
}

describe('ALLOWED_NAMESPACES', () => {
  it('is read from the environment as a comma-separated list', () => {
    const config = loadRuntimeConfig({
      MULTICLUSTER_PROVIDER: 'fake',
      PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
      ALLOWED_NAMESPACES: ' default, shop ,',
    });
    expect(config.allowedNamespaces).toEqual(['default', 'shop']);
  });

  it.each([
    ['MultiClusterIngress', outside],
    ['Service', inNamespace(serveService(), 'other')],
    ['EndpointSlice', inNamespace(collectedSlice('member1', ['10.9.0.1']), 'other')],
    ['Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls', namespace: 'other' } }],
    [
      'MultiClusterService',
      {
        apiVersion: 'networking.karmada.io/v1alpha1',
        kind: 'MultiClusterService',
        metadata: { name: 'serve', namespace: 'other' },
      },
    ],
  ] as const)('refuses a %s notification outside them, reading and writing nothing', async (kind, obj) => {
    const start = h.api.requests.entries.length;
    const [valid, refused] = await h.deliver(notify(inside, 'resync'), notify(obj as KubeObject, 'added'));
    expect(valid).toMatchObject({ ok: true });
    expect(refused).toMatchObject({ ok: false, results: [] });
    expect(refused?.error).toBe(
      `refused: ${kind} other/${obj.metadata.name} is outside the allowed namespaces (default)`,
    );
    const log = h.logger.lines.find(
      (l) => l.message === 'notification rejected' && l.fields.item === refused?.id,
    );
    expect(JSON.stringify(log?.fields)).toContain('is outside the allowed namespaces');
    const other = h.api.requests.entries.slice(start).filter((r) => r.path.includes('/namespaces/other'));
    expect(other.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('the refused object is left exactly as it was: no finalizer, no status, no Event', async () => {
    const stored = await h.kube.get(Resources.MultiClusterIngress, 'other', 'elsewhere');
    expect(stored?.metadata.finalizers).toBeUndefined();
    expect(stored?.metadata.annotations?.['multicluster.karmada.io/load-balancer-condition']).toBeUndefined();
    expect((await h.kube.list(Resources.Event, { namespace: 'other' })).items).toEqual([]);
  });

  it('a Cluster TrafficControl toggle does not reconcile objects outside them', async () => {
    const before = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, 'member1'))!;
    const after = { ...before, status: { remedyActions: ['TrafficControl'] } } as KubeObject;
    await h.kube.updateStatus(Resources.Cluster, after);
    const touched = await touchingOther(async () => {
      const results = await h.deliver(notifyChange('modified', after, before));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(results.flatMap((r) => r.results).filter((r) => r.key.startsWith('other/'))).toEqual([]);
    });
    expect(touched).toEqual([]);
  });

  it('an IngressClass change does not reconcile objects outside them', async () => {
    const before = (await h.kube.get<KubeObject>(Resources.IngressClass, undefined, 'fake'))!;
    const after = await h.kube.update(Resources.IngressClass, {
      ...before,
      metadata: { ...before.metadata, annotations: { ...before.metadata.annotations, touched: 'yes' } },
    });
    const touched = await touchingOther(async () => {
      const results = await h.deliver(notifyChange('modified', after, before));
      expect(results.flatMap((r) => r.results).filter((r) => r.key.startsWith('other/'))).toEqual([]);
    });
    expect(touched).toEqual([]);
    const stored = await h.kube.get(Resources.MultiClusterIngress, 'other', 'elsewhere');
    expect(stored?.metadata.finalizers).toBeUndefined();
  });
});
