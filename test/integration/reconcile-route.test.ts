/**
 * Which reconciles a notification asks for (routeNotification, lib/reconcile/route.ts), the
 * load-balancer controllers' triggers on other objects (lib/reconcile/dependents.ts) and the
 * notification helpers they use (lib/reconcile/filters.ts), against the Kubernetes API stand-in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cluster, ingressClass, serveMultiClusterService, serveService } from '../../dev/local/scenario.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { NotificationError } from '../../lib/notification/parse.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';
import { loadBalancerRequests, serviceOfEndpointSlice } from '../../lib/reconcile/dependents.js';
import { changedBy, isKind, subject, versions } from '../../lib/reconcile/filters.js';
import { isWatchedDependent, routeNotification } from '../../lib/reconcile/route.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';
import { ingressTo } from '../support/objects.js';

let h: Harness;
const deps = (): ReconcileDeps => ({
  kube: h.kube,
  provider: h.runtime.provider,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
});
const keys = (rs: Array<{ controller: string; namespace: string; name: string }>) =>
  rs.map((r) => `${r.controller} ${r.namespace}/${r.name}`).sort();

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
});
afterEach(async () => h.close());

describe('routeNotification', () => {
  it('a MultiClusterIngress or MultiClusterService without a namespace is refused', async () => {
    const mci = {
      apiVersion: 'networking.karmada.io/v1alpha1',
      kind: 'MultiClusterIngress',
      metadata: { name: 'web' },
    };
    await expect(routeNotification(deps(), notify(mci, 'added'))).rejects.toThrow(
      new NotificationError('MultiClusterIngress web has no namespace'),
    );
  });

  it('a kind nothing watches is refused, by apiVersion and kind together', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
    };
    await expect(routeNotification(deps(), notify(deployment, 'added'))).rejects.toThrow(
      'notifications about apps/v1 Deployment are not handled',
    );
    const wrongGroup = {
      apiVersion: 'v1',
      kind: 'MultiClusterIngress',
      metadata: { name: 'w', namespace: 'default' },
    };
    await expect(routeNotification(deps(), notify(wrongGroup, 'added'))).rejects.toThrow(
      'notifications about v1 MultiClusterIngress are not handled',
    );
  });

  it('a watched kind that maps to nothing is no error', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unused', namespace: 'default' } };
    expect(await routeNotification(deps(), notify(secret, 'added'))).toEqual([]);
  });

  it('a status-only update of a MultiClusterIngress asks for nothing', async () => {
    const mci = ingressTo(['serve']) as MultiClusterIngress;
    const now = { ...mci, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } } as KubeObject;
    expect(await routeNotification(deps(), notifyChange('modified', now, mci))).toEqual([]);
  });

  it('a spec change of a MultiClusterService of type LoadBalancer asks for it and its export', async () => {
    const mcs = serveMultiClusterService() as MultiClusterService;
    const now = { ...mcs, spec: { ...mcs.spec, ports: [{ name: 'http', port: 81 }] } } as KubeObject;
    expect(keys(await routeNotification(deps(), notifyChange('modified', now, mcs)))).toEqual([
      'multiclusterservice default/serve',
      'serviceexport-propagation default/serve',
    ]);
  });

  it.each<[string, string, boolean]>([
    ['v1', 'Service', true],
    ['discovery.k8s.io/v1', 'EndpointSlice', true],
    ['cluster.karmada.io/v1alpha1', 'Cluster', true],
    ['networking.k8s.io/v1', 'IngressClass', true],
    ['v2', 'Service', false],
    ['v1', 'Deployment', false],
    ['discovery.k8s.io/v1', 'Service', false],
  ])('isWatchedDependent(%s, %s) → %s', (apiVersion, kind, watched) => {
    expect(isWatchedDependent(apiVersion, kind)).toBe(watched);
  });
});

describe('loadBalancerRequests', () => {
  const located = (name: string, locations: Array<{ name: string; clusters?: string[] }> | undefined) =>
    ({
      ...ingressTo(['serve'], name),
      ...(locations ? { status: { serviceLocations: locations } } : {}),
    }) as KubeObject;

  beforeEach(async () => {
    await h.seed([ingressClass(), cluster('member1'), cluster('member2'), serveService()]);
    for (const m of [
      located('in-one', [{ name: 'serve', clusters: ['member1'] }]),
      located('in-two', [
        { name: 'serve', clusters: ['member2'] },
        { name: 'api' },
        { name: 'x', clusters: ['member1'] },
      ]),
      located('nowhere', undefined),
    ]) {
      const { status, ...obj } = m as KubeObject & { status?: unknown };
      await h.seed([obj]);
      if (status) {
        const stored = (await h.kube.get(Resources.MultiClusterIngress, 'default', obj.metadata.name!))!;
        await h.kube.updateStatus(Resources.MultiClusterIngress, { ...stored, status } as KubeObject);
      }
    }
  });

  it('a Cluster whose TrafficControl toggles → the MCIs with a location in it', async () => {
    const c = cluster('member2');
    const blocked = cluster('member2', true);
    expect(keys(await loadBalancerRequests(deps(), notifyChange('modified', blocked, c)))).toEqual([
      'multiclusteringress default/in-two',
    ]);
    const c1 = cluster('member1');
    expect(
      keys(await loadBalancerRequests(deps(), notifyChange('modified', cluster('member1', true), c1))),
    ).toEqual(['multiclusteringress default/in-one', 'multiclusteringress default/in-two']);
  });

  it('a Cluster update that keeps TrafficControl as it was → nothing', async () => {
    const c = cluster('member2');
    const relabelled = { ...c, metadata: { ...c.metadata, labels: { a: 'b' } } };
    expect(await loadBalancerRequests(deps(), notifyChange('modified', relabelled, c))).toEqual([]);
  });

  it('a Service update that changes nothing that counts → nothing; a spec change → its users', async () => {
    const svc = serveService();
    const statusOnly = { ...svc, status: { loadBalancer: {} } } as KubeObject;
    expect(await loadBalancerRequests(deps(), notifyChange('modified', statusOnly, svc))).toEqual([]);
    const respec = { ...svc, spec: { ports: [{ port: 81 }] } } as KubeObject;
    expect(keys(await loadBalancerRequests(deps(), notifyChange('modified', respec, svc)))).toEqual([
      'multiclusterservice default/serve',
    ]);
  });

  it('an IngressClass label change → nothing; a spec change → every MCI', async () => {
    const cls = ingressClass();
    const relabelled = { ...cls, metadata: { ...cls.metadata, labels: { a: 'b' } } };
    expect(await loadBalancerRequests(deps(), notifyChange('modified', relabelled, cls))).toEqual([]);
    const respec = { ...cls, spec: { controller: 'x' } } as KubeObject;
    expect(keys(await loadBalancerRequests(deps(), notifyChange('modified', respec, cls)))).toEqual([
      'multiclusteringress default/in-one',
      'multiclusteringress default/in-two',
      'multiclusteringress default/nowhere',
    ]);
  });

  it('serviceOfEndpointSlice of nothing, of an unlabelled slice, of a derived and a plain label', () => {
    expect(serviceOfEndpointSlice(undefined)).toBeUndefined();
    expect(serviceOfEndpointSlice({ metadata: { name: 's' } })).toBeUndefined();
    expect(
      serviceOfEndpointSlice({
        metadata: { name: 's', labels: { 'kubernetes.io/service-name': 'derived-web' } },
      }),
    ).toBe('web');
    expect(
      serviceOfEndpointSlice({ metadata: { name: 's', labels: { 'kubernetes.io/service-name': 'web' } } }),
    ).toBe('web');
  });
});

describe('filters', () => {
  const svc = serveService();

  it('isKind needs apiVersion and kind to match', () => {
    expect(isKind(notify(svc), Resources.Service)).toBe(true);
    expect(isKind(notify({ ...svc, apiVersion: 'v2' }), Resources.Service)).toBe(false);
    expect(isKind(notify({ ...svc, kind: 'Secret' }), Resources.Service)).toBe(false);
  });

  it('changedBy and versions need a modification carrying both copies', () => {
    const other = { ...svc, spec: { ports: [] } } as KubeObject;
    const pick = (o: KubeObject) => (o as KubeObject & { spec?: unknown }).spec;
    expect(changedBy(notifyChange('modified', svc, svc), pick)).toBe(false);
    expect(changedBy(notifyChange('added', svc, svc), pick)).toBe(true);
    expect(changedBy(notifyChange('modified', svc), pick)).toBe(true);
    expect(changedBy(notifyChange('modified', undefined, svc), pick)).toBe(true);
    expect(versions(notifyChange('modified', other, svc))).toEqual({ now: other, old: svc });
    expect(versions(notifyChange('resync', other, svc))).toBeUndefined();
    expect(versions(notifyChange('modified', other))).toBeUndefined();
    expect(versions(notifyChange('modified', undefined, svc))).toBeUndefined();
  });

  describe('subject', () => {
    const read = (n: NormalizedNotification) => subject<KubeObject>(h.kube, Resources.Service, n);

    it('the copy carried, without a read', async () => {
      const carried = { ...svc, metadata: { ...svc.metadata, labels: { copy: 'yes' } } };
      h.api.requests.reset();
      expect(await read(notifyChange('modified', carried))).toBe(carried);
      expect(h.api.requests.entries).toEqual([]);
    });

    it('else the object on the API server, else the last copy', async () => {
      const last = { ...svc, metadata: { ...svc.metadata, labels: { last: 'yes' } } };
      expect(await read(notify(svc))).toBeUndefined();
      expect(await read(notifyChange('modified', undefined, last))).toBe(last);
      await h.seed([svc]);
      expect((await read(notifyChange('modified', undefined, last)))?.metadata.uid).toBeDefined();
    });

    it('a deletion is not read back: the last copy, or nothing', async () => {
      await h.seed([svc]);
      const last = { ...svc, metadata: { ...svc.metadata, labels: { last: 'yes' } } };
      h.api.requests.reset();
      expect(await read(notifyChange('deleted', undefined, last))).toBe(last);
      expect(await read(notify(svc, 'deleted'))).toBeUndefined();
      expect(h.api.requests.entries).toEqual([]);
    });
  });
});
