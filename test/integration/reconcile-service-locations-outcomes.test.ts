/**
 * What one `mci-service-locations` reconcile (lib/reconcile/service-locations.ts) reports and
 * writes, and which MultiClusterIngresses a notification asks it for, against the Kubernetes API
 * stand-in: gone and being-deleted objects, the label write before the status write, the retried
 * writes and an object that vanishes between them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourceBinding } from '../../dev/local/scenario.js';
import type { MultiClusterIngress, ResourceBinding } from '../../lib/karmada/types.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';
import { reconcileServiceLocations } from '../../lib/reconcile/service-locations.js';
import { serviceLocationRequests } from '../../lib/reconcile/service-locations-triggers.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';
import { baseObjects, ingressTo, MCI } from '../support/objects.js';

let h: Harness;
const deps = (kube: KubeClient = h.kube): ReconcileDeps => ({
  kube,
  provider: h.runtime.provider,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
});
const reconcile = (kube?: KubeClient) => reconcileServiceLocations(deps(kube), 'default', 'minimal-ingress');
const result = (outcome: string, detail?: string) => ({
  controller: 'mci-service-locations',
  key: 'default/minimal-ingress',
  outcome,
  ...(detail ? { detail } : {}),
});
const getMci = () => h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress');

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['mci-service-locations'] });
  await h.seed(baseObjects());
});
afterEach(async () => h.close());

describe('reconcileServiceLocations', () => {
  it('no such MultiClusterIngress → gone', async () => {
    expect(await reconcile()).toEqual(result('gone'));
  });

  it('being deleted → ignored, nothing written', async () => {
    await h.seed([
      {
        ...ingressTo(['serve']),
        metadata: { name: 'minimal-ingress', namespace: 'default', finalizers: ['example.com/hold'] },
      } as KubeObject,
    ]);
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    const before = (await getMci())?.metadata.resourceVersion;
    expect(await reconcile()).toEqual(result('ignored', 'being deleted'));
    expect((await getMci())?.metadata.resourceVersion).toBe(before);
  });

  it('labels, then locations; the count in the detail; again → unchanged with no write', async () => {
    await h.seed([ingressTo(['serve', 'api'])]);
    h.api.requests.reset();
    expect(await reconcile()).toEqual(result('updated', '1 service location(s)'));
    expect(h.api.requests.entries.filter((e) => e.method === 'PUT').map((e) => e.path)).toEqual([
      '/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses/minimal-ingress',
      '/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses/minimal-ingress/status',
    ]);
    const mci = await getMci();
    expect(mci?.metadata.labels).toEqual({
      'backend.multicluster.karmada.io/serve': 'true',
      'backend.multicluster.karmada.io/api': 'true',
    });
    expect(mci?.status?.serviceLocations).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);
    h.api.requests.reset();
    expect(await reconcile()).toEqual(result('unchanged'));
    expect(h.api.requests.entries.filter((e) => e.method === 'PUT')).toEqual([]);
  });

  it('labels already right → only the status is written', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const mci = (await getMci())!;
    await h.kube.updateStatus(MCI, { ...mci, status: {} });
    h.api.requests.reset();
    expect(await reconcile()).toEqual(result('updated', '1 service location(s)'));
    expect(
      h.api.requests.entries.filter((e) => e.method === 'PUT').map((e) => e.path.endsWith('/status')),
    ).toEqual([true]);
  });

  it('a conflicting status write is re-read and re-applied', async () => {
    await h.seed([ingressTo(['serve'])]);
    let conflicts = 0;
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.endsWith('/status') && conflicts++ === 0 });
    expect(await reconcile()).toEqual(result('updated', '1 service location(s)'));
    expect(h.api.injectedConflicts).toBe(1);
    expect((await getMci())?.status?.serviceLocations).toEqual([
      { name: 'serve', clusters: ['member1', 'member2'] },
    ]);
  });

  it('a status written meanwhile by another reconcile is not written again', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const mci = (await getMci())!;
    await h.kube.updateStatus(MCI, { ...mci, status: {} });
    const racing: KubeClient = Object.create(h.kube);
    let raced = false;
    racing.updateStatus = async <T extends KubeObject>(...args: Parameters<KubeClient['updateStatus']>) => {
      if (!raced) {
        raced = true;
        // the other reconcile writes the same locations first: ours gets a 409 and re-reads
        const now = (await getMci())!;
        await h.kube.updateStatus(MCI, {
          ...now,
          status: { serviceLocations: [{ name: 'serve', clusters: ['member1', 'member2'] }] },
        });
      }
      return h.kube.updateStatus<T>(args[0], args[1] as T);
    };
    const before = h.api.requests.count('PUT');
    expect(await reconcile(racing)).toEqual(result('updated', '1 service location(s)'));
    // ours (409), the other's; the re-read found nothing to write
    expect(h.api.requests.count('PUT') - before).toBe(2);
  });

  it('vanished between a conflict and the re-read → gone', async () => {
    await h.seed([ingressTo(['serve'])]);
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.includes('multiclusteringresses') });
    const racing: KubeClient = Object.create(h.kube);
    let reads = 0;
    racing.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      if (args[0] === MCI && ++reads === 2) {
        h.api.injectConflicts(null);
        await h.kube.delete(MCI, 'default', 'minimal-ingress');
      }
      return h.kube.get<T>(...args);
    };
    expect(await reconcile(racing)).toEqual(result('gone'));
  });

  it('vanished before the status write → gone', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const mci = (await getMci())!;
    await h.kube.updateStatus(MCI, { ...mci, status: {} });
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.endsWith('/status') });
    const racing: KubeClient = Object.create(h.kube);
    let reads = 0;
    racing.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      if (args[0] === MCI && ++reads === 2) {
        h.api.injectConflicts(null);
        await h.kube.delete(MCI, 'default', 'minimal-ingress');
      }
      return h.kube.get<T>(...args);
    };
    expect(await reconcile(racing)).toEqual(result('gone'));
  });
});

describe('serviceLocationRequests', () => {
  const names = async (n: NormalizedNotification) =>
    (await serviceLocationRequests(deps(), n)).map((r) => {
      expect(r.controller).toBe('mci-service-locations');
      return `${r.namespace}/${r.name}`;
    });
  const mci = ingressTo(['serve']) as MultiClusterIngress;

  it.each<[string, NormalizedNotification, string[]]>([
    ['MCI added', notifyChange('added', mci), ['default/minimal-ingress']],
    ['MCI deleted', notifyChange('deleted', undefined, mci), []],
    [
      'MCI status only',
      notifyChange('modified', { ...mci, status: { trafficBlockClusters: ['x'] } } as KubeObject, mci),
      [],
    ],
    ['MCI rules', notifyChange('modified', ingressTo(['api']), mci), ['default/minimal-ingress']],
    [
      'MCI defaultBackend',
      notifyChange(
        'modified',
        { ...mci, spec: { ...mci.spec, defaultBackend: { service: { name: 'api' } } } } as KubeObject,
        mci,
      ),
      ['default/minimal-ingress'],
    ],
    [
      'MCI without spec before',
      notifyChange('modified', mci, { ...mci, spec: undefined } as KubeObject),
      ['default/minimal-ingress'],
    ],
    [
      'a Service',
      notifyChange('added', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'serve', namespace: 'default' },
      } as KubeObject),
      [],
    ],
  ])('%s → %j', async (_name, n, expected) => {
    expect(await names(n)).toEqual(expected);
  });

  describe('ResourceBinding', () => {
    const rb = resourceBinding('serve', ['member1']) as ResourceBinding;
    beforeEach(async () => {
      await h.seed([ingressTo(['serve']), ingressTo(['serve'], 'second'), ingressTo(['api'], 'third')]);
      await reconcileServiceLocations(deps(), 'default', 'minimal-ingress');
      await reconcileServiceLocations(deps(), 'default', 'second');
      await reconcileServiceLocations(deps(), 'default', 'third');
    });

    it.each<[string, () => NormalizedNotification, string[]]>([
      ['created', () => notifyChange('added', rb), ['default/minimal-ingress', 'default/second']],
      [
        'deleted (last copy)',
        () => notifyChange('deleted', undefined, rb),
        ['default/minimal-ingress', 'default/second'],
      ],
      ['deleted, by name only', () => notify(rb, 'deleted'), ['default/minimal-ingress', 'default/second']],
      [
        'clusters changed',
        () => notifyChange('modified', { ...rb, spec: { ...rb.spec, clusters: [] } } as ResourceBinding, rb),
        ['default/minimal-ingress', 'default/second'],
      ],
      [
        'requiredBy changed',
        () =>
          notifyChange(
            'modified',
            {
              ...rb,
              spec: {
                ...rb.spec,
                requiredBy: [{ name: 'x', namespace: 'default', clusters: [{ name: 'member2' }] }],
              },
            } as ResourceBinding,
            rb,
          ),
        ['default/minimal-ingress', 'default/second'],
      ],
      [
        'only labels changed',
        () =>
          notifyChange(
            'modified',
            { ...rb, metadata: { ...rb.metadata, labels: { a: 'b' } } } as ResourceBinding,
            rb,
          ),
        [],
      ],
      [
        'without spec before',
        () => notifyChange('modified', rb, { ...rb, spec: undefined } as KubeObject),
        ['default/minimal-ingress', 'default/second'],
      ],
      [
        'of a Deployment',
        () =>
          notifyChange('added', {
            ...rb,
            metadata: { ...rb.metadata, name: 'serve-deployment' },
            spec: { ...rb.spec, resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'serve' } },
          } as ResourceBinding),
        [],
      ],
      [
        'deleted, by a name that is no Service binding',
        () => notify({ ...rb, metadata: { ...rb.metadata, name: 'serve-deployment' } }, 'deleted'),
        [],
      ],
    ])('%s → %j', async (_name, n, expected) => {
      expect((await names(n())).sort()).toEqual(expected);
    });
  });
});
