/**
 * `mci-service-locations` (upstream 5.5): status.serviceLocations from the Services' ResourceBindings,
 * for every MultiClusterIngress whatever its class, and its triggers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourceBinding } from '../../dev/local/scenario.js';
import type { MultiClusterIngress, ResourceBinding } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { edit, notify, notifyChange, ran, startHarness, type Harness } from '../support/harness.js';
import { baseObjects, ingressTo, MCI, service } from '../support/objects.js';

const RB = Resources.ResourceBinding;
let h: Harness;
const locations = async (name = 'minimal-ingress') =>
  (await h.kube.get<MultiClusterIngress>(MCI, 'default', name))?.status?.serviceLocations;
const onlyLocations = (items: Awaited<ReturnType<Harness['deliver']>>) =>
  ran(items).filter((r) => r.startsWith('mci-service-locations '));

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['mci-service-locations'] });
  await h.seed(baseObjects());
});
afterEach(async () => h.close());

describe('service locations', () => {
  it('MCI create → one location per referenced Service with a binding, clusters sorted ∪ requiredBy', async () => {
    const rb = resourceBinding('api', ['member2']) as ResourceBinding;
    rb.spec!.requiredBy = [
      { name: 'dep', namespace: 'default', clusters: [{ name: 'member1' }, { name: 'member2' }] },
    ];
    await h.seed([service('api'), rb, service('nobinding'), ingressTo(['serve', 'nobinding', 'api'])]);
    const res = await h.deliver(notify(ingressTo(['serve']), 'added'));
    expect(res[0]?.results.find((r) => r.controller === 'mci-service-locations')?.outcome).toBe('updated');
    expect(await locations()).toEqual([
      { name: 'api', clusters: ['member1', 'member2'] },
      { name: 'serve', clusters: ['member1', 'member2'] },
    ]);
  });

  it('runs for every MultiClusterIngress, whatever its class (as upstream)', async () => {
    const other = ingressTo(['serve'], 'nginx-ingress', 'nginx');
    await h.seed([other]);
    await h.deliver(notify(other, 'added'));
    expect(await locations('nginx-ingress')).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);
    // and it is indexed, so binding changes find it
    expect((await h.kube.get<MultiClusterIngress>(MCI, 'default', 'nginx-ingress'))?.metadata.labels).toEqual(
      {
        'backend.multicluster.karmada.io/serve': 'true',
      },
    );
  });

  it('a binding cluster change → the MCIs routing to that Service, found by one label-selected LIST', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci, ingressTo(['other'], 'unrelated')]);
    await h.deliver(notify(mci, 'added'), notify(ingressTo(['other'], 'unrelated'), 'added'));
    const [old, now] = await edit<ResourceBinding>(h, RB, 'default', 'serve-service', (rb) => {
      rb.spec!.clusters = [{ name: 'member2' }];
    });
    h.api.requests.reset();
    const res = await h.deliver(notifyChange('modified', now, old));
    expect(onlyLocations(res)).toEqual(['mci-service-locations default/minimal-ingress']);
    expect(h.api.requests.entries.filter((e) => e.path.endsWith('/multiclusteringresses'))).toEqual([
      expect.objectContaining({
        query: expect.stringContaining('labelSelector=backend.multicluster.karmada.io%2Fserve'),
      }),
    ]);
    expect(await locations()).toEqual([{ name: 'serve', clusters: ['member2'] }]);
  });

  it('binding create and delete → locations follow', async () => {
    const mci = ingressTo(['serve', 'api']);
    await h.seed([service('api'), mci]);
    await h.deliver(notify(mci, 'added'));
    expect(await locations()).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);
    const rb = resourceBinding('api', ['member1']);
    await h.seed([rb]);
    await h.deliver(notifyChange('added', (await h.kube.get(RB, 'default', 'api-service'))!));
    expect(await locations()).toEqual([
      { name: 'api', clusters: ['member1'] },
      { name: 'serve', clusters: ['member1', 'member2'] },
    ]);
    await h.kube.delete(RB, 'default', 'api-service');
    // a reference-only deletion: the Service is known from the binding's name
    expect(onlyLocations(await h.deliver(notify(rb, 'deleted')))).toEqual([
      'mci-service-locations default/minimal-ingress',
    ]);
    expect(await locations()).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);
  });

  it('binding updates that do not touch clusters or requiredBy, and bindings of other kinds, trigger nothing', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    const [old, now] = await edit<ResourceBinding>(h, RB, 'default', 'serve-service', (rb) => {
      rb.metadata.annotations = { x: 'y' };
    });
    expect(onlyLocations(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
    const deploymentBinding = {
      ...resourceBinding('serve', ['member1']),
      metadata: { name: 'serve-deployment', namespace: 'default' },
    } as ResourceBinding;
    deploymentBinding.spec!.resource = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'serve',
    };
    expect(onlyLocations(await h.deliver(notifyChange('added', deploymentBinding)))).toEqual([]);
  });

  it('MCI: a backend change re-computes; a status-only change or deletion does not', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci, service('api'), resourceBinding('api', ['member1'])]);
    await h.deliver(notify(mci, 'added'));
    const [o1, n1] = await edit<MultiClusterIngress>(
      h,
      MCI,
      'default',
      'minimal-ingress',
      (m) => {
        m.status = { ...m.status, loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } };
      },
      'status',
    );
    expect(onlyLocations(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const [o2, n2] = await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.defaultBackend = { service: { name: 'api', port: { number: 80 } } };
    });
    expect(onlyLocations(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([
      'mci-service-locations default/minimal-ingress',
    ]);
    expect((await locations())?.map((l) => l.name)).toEqual(['api', 'serve']);
    expect(onlyLocations(await h.deliver(notifyChange('deleted', n2)))).toEqual([]);
  });
});

describe('upstream bugs', () => {
  it('upstream bug 1: a resource backend is skipped, not a crash', async () => {
    const mci = ingressTo(['serve']) as MultiClusterIngress;
    mci.spec!.defaultBackend = {
      resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' },
    };
    await h.seed([mci]);
    const [res] = await h.deliver(notify(mci, 'added'));
    expect(res?.ok).toBe(true);
    expect(await locations()).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);
  });

  it("upstream bug 7: a binding named <svc>-service for another API's Service kind is not taken", async () => {
    await h.kube.delete(RB, 'default', 'serve-service');
    const knative = resourceBinding('serve', ['member9']) as ResourceBinding;
    knative.spec!.resource = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      namespace: 'default',
      name: 'serve',
    };
    const mci = ingressTo(['serve']);
    await h.seed([knative, mci]);
    await h.deliver(notify(mci, 'added'));
    expect(await locations()).toBeUndefined();
    // nor does its change trigger the controller
    const [old, now] = await edit<ResourceBinding>(h, RB, 'default', 'serve-service', (rb) => {
      rb.spec!.clusters = [{ name: 'member8' }];
    });
    expect(onlyLocations(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
  });

  it('upstream bug 8: a binding with no clusters does not make status rewrite on every reconcile', async () => {
    await h.kube.delete(RB, 'default', 'serve-service');
    const empty = resourceBinding('serve', []) as KubeObject;
    const mci = ingressTo(['serve']);
    await h.seed([empty, mci]);
    const mine = (items: Awaited<ReturnType<Harness['deliver']>>) =>
      items[0]?.results.find((r) => r.controller === 'mci-service-locations')?.outcome;
    expect(mine(await h.deliver(notify(mci, 'added')))).toBe('updated');
    expect((await locations())?.map((l) => l.name)).toEqual(['serve']);
    await h.deliver(notify(mci)); // the load balancer's status settles
    h.api.requests.reset();
    expect(mine(await h.deliver(notify(mci, 'added')))).toBe('unchanged');
    expect(h.api.requests.count('PUT', '/apis/networking.karmada.io')).toBe(0);
  });
});
