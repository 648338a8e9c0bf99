/**
 * Which Services a notification asks `serviceexport-propagation` to reconcile
 * (serviceExportRequests in lib/reconcile/service-export-triggers.ts), kind by kind and change by
 * change, with and without the copies of the object a notification may carry; what it reads is on
 * the Kubernetes API stand-in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingressClass, resourceBinding, serveMultiClusterService } from '../../dev/local/scenario.js';
import type { MultiClusterService, ResourceBinding } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { ChangeType, NormalizedNotification } from '../../lib/notification/types.js';
import { serviceExportRequests } from '../../lib/reconcile/service-export-triggers.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';
import { ingressTo, service } from '../support/objects.js';

let h: Harness;
const deps = (): ReconcileDeps => ({
  kube: h.kube,
  provider: h.runtime.provider,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
});
const services = async (n: NormalizedNotification) =>
  (await serviceExportRequests(deps(), n)).map((r) => {
    expect(r.controller).toBe('serviceexport-propagation');
    return `${r.namespace}/${r.name}`;
  });
/** A notification that names the object only (a reference-mode CloudEvent). */
const bare = (obj: KubeObject, change: ChangeType) => notify(obj, change);

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['serviceexport-propagation'] });
  await h.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a-team' } } as KubeObject]);
});
afterEach(async () => h.close());

describe('Service', () => {
  it.each<[ChangeType, string[]]>([
    ['added', ['default/api']],
    ['resync', ['default/api']],
    ['modified', []],
    ['deleted', []],
  ])('%s → %j', async (change, expected) => {
    expect(await services(bare(service('api'), change))).toEqual(expected);
  });
});

describe('MultiClusterIngress without both versions', () => {
  const mci = ingressTo(['web', 'api']);

  it.each<[ChangeType]>([['added'], ['resync']])(
    '%s → every Service it routes to, sorted',
    async (change) => {
      expect(await services(notifyChange(change, mci))).toEqual(['default/api', 'default/web']);
    },
  );

  it('deleted, with its last copy → the Services that copy routed to', async () => {
    expect(await services(notifyChange('deleted', undefined, mci))).toEqual(['default/api', 'default/web']);
  });

  it('modified, by reference → what it routes to now and every export a Service controls here', async () => {
    await h.seed([service('old'), service('web'), ingressTo(['web'])]);
    const owned = (name: string, namespace = 'default'): KubeObject =>
      ({
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'ServiceExport',
        metadata: {
          name,
          namespace,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: 'u', controller: true }],
        },
      }) as KubeObject;
    const userMade = {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ServiceExport',
      metadata: { name: 'mine', namespace: 'default' },
    } as KubeObject;
    await h.seed([owned('old'), owned('web'), owned('far', 'a-team'), userMade]);
    expect(await services(bare(ingressTo(['web']), 'modified'))).toEqual(['default/old', 'default/web']);
  });

  it('deleted, by reference only → every export a Service controls here', async () => {
    await h.seed([
      {
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'ServiceExport',
        metadata: {
          name: 'web',
          namespace: 'default',
          ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'u', controller: true }],
        },
      } as KubeObject,
    ]);
    expect(await services(bare(mci, 'deleted'))).toEqual(['default/web']);
  });
});

describe('MultiClusterService', () => {
  const mcs = serveMultiClusterService() as MultiClusterService;
  const variant = (f: (m: MultiClusterService) => void): MultiClusterService => {
    const m = structuredClone(mcs);
    f(m);
    return m;
  };

  it.each<[string, MultiClusterService, string[]]>([
    ['status only', variant((m) => (m.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } })), []],
    ['a label only', variant((m) => (m.metadata.labels = { a: 'b' })), []],
    ['an annotation', variant((m) => (m.metadata.annotations = { a: 'b' })), ['default/serve']],
    ['spec.types', variant((m) => (m.spec.types = ['CrossCluster'])), ['default/serve']],
    ['spec.ports', variant((m) => (m.spec.ports = [{ name: 'http', port: 81 }])), ['default/serve']],
    [
      'the deletion state',
      variant((m) => (m.metadata.deletionTimestamp = '2026-12-01T00:00:00Z')),
      ['default/serve'],
    ],
  ])('an update of %s → %j', async (_name, now, expected) => {
    expect(await services(notifyChange('modified', now, mcs))).toEqual(expected);
  });

  it('an update from an object without spec counts', async () => {
    const { spec: _s, ...noSpec } = mcs;
    expect(await services(notifyChange('modified', mcs, noSpec as MultiClusterService))).toEqual([
      'default/serve',
    ]);
  });

  it.each<[ChangeType]>([['added'], ['deleted'], ['resync']])('%s → its Service', async (change) => {
    expect(await services(notifyChange(change, mcs))).toEqual(['default/serve']);
  });
});

describe('ResourceBinding', () => {
  const rb = resourceBinding('web', ['member1']) as ResourceBinding;
  const moved = { ...rb, spec: { ...rb.spec, clusters: [{ name: 'member2' }] } } as ResourceBinding;
  const deployment = {
    ...rb,
    metadata: { ...rb.metadata, name: 'web-deployment' },
    spec: {
      ...rb.spec,
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    },
  } as ResourceBinding;

  it.each<[string, NormalizedNotification, string[]]>([
    ['created', notifyChange('added', rb), ['default/web']],
    ['resynced', notifyChange('resync', rb), ['default/web']],
    ['deleted', notifyChange('deleted', undefined, rb), []],
    ['moved to other clusters', notifyChange('modified', moved, rb), ['default/web']],
    [
      'updated, same clusters',
      notifyChange('modified', { ...rb, metadata: { ...rb.metadata, labels: { a: 'b' } } }, rb),
      [],
    ],
    ['of a Deployment', notifyChange('added', deployment), []],
  ])('%s → %j', async (_name, n, expected) => {
    expect(await services(n)).toEqual(expected);
  });

  it('by reference only: read from the API server; a binding that is gone asks for nothing', async () => {
    expect(await services(bare(rb, 'added'))).toEqual([]);
    await h.seed([rb]);
    expect(await services(bare(rb, 'added'))).toEqual(['default/web']);
  });

  it('a binding for a Service in another namespace asks for that namespace', async () => {
    const far = {
      ...rb,
      metadata: { ...rb.metadata, namespace: 'a-team' },
      spec: { ...rb.spec, resource: { ...rb.spec!.resource!, namespace: 'a-team' } },
    } as ResourceBinding;
    expect(await services(notifyChange('added', far))).toEqual(['a-team/web']);
  });
});

describe('IngressClass', () => {
  const cls = ingressClass();

  beforeEach(async () => {
    await h.seed([
      ingressTo(['web', 'api']),
      { ...ingressTo(['far']), metadata: { name: 'other', namespace: 'a-team' } } as KubeObject,
    ]);
  });

  it('a change of its spec → every Service any MultiClusterIngress routes to, in its namespace', async () => {
    const now = { ...cls, spec: { controller: 'example.com/other' } } as KubeObject;
    expect((await services(notifyChange('modified', now, cls))).sort()).toEqual([
      'a-team/far',
      'default/api',
      'default/web',
    ]);
  });

  it('a change of its labels only → nothing', async () => {
    const now = { ...cls, metadata: { ...cls.metadata, labels: { a: 'b' } } } as KubeObject;
    expect(await services(notifyChange('modified', now, cls))).toEqual([]);
  });
});

describe('other kinds', () => {
  it('a Secret asks for nothing here', async () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'tls', namespace: 'default' },
    } as KubeObject;
    expect(await services(notifyChange('added', secret))).toEqual([]);
  });
});
