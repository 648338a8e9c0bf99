import { describe, expect, it } from 'vitest';
import type { Cluster, MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { ChangeType, NormalizedNotification } from '../../lib/notification/types.js';
import { crdInstallationRequests } from '../../lib/reconcile/crd-installation.js';
import { trafficControlToggled } from '../../lib/reconcile/dependents.js';
import { changed, changedBy } from '../../lib/reconcile/filters.js';
import { mciChangeMatters, mcsChangeMatters } from '../../lib/reconcile/route.js';
import { mciUpdateServices, symmetricDifference } from '../../lib/reconcile/service-export-triggers.js';

const ref = { apiVersion: 'v1', kind: 'Thing', namespace: 'default', name: 'x' };
const note = (change: ChangeType, object?: KubeObject, oldObject?: KubeObject): NormalizedNotification => ({
  change,
  ref,
  source: 'native',
  ...(object ? { object } : {}),
  ...(oldObject ? { oldObject } : {}),
});
const obj = (extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject =>
  ({ metadata: { name: 'x', ...meta }, ...extra }) as KubeObject;

describe('changed (upstream update filter)', () => {
  it.each([
    ['added', note('added', obj()), true],
    ['modified without versions', note('modified'), true],
    ['status only', note('modified', obj({ status: { a: 1 } }), obj({ status: { a: 2 } })), false],
    ['labels only', note('modified', obj({}, { labels: { a: 'b' } }), obj()), false],
    ['annotations', note('modified', obj({}, { annotations: { a: 'b' } }), obj()), true],
    ['spec', note('modified', obj({ spec: { a: 1 } }), obj({ spec: { a: 2 } })), true],
    ['deletion started', note('modified', obj({}, { deletionTimestamp: 't' }), obj()), true],
    ['empty vs absent spec list', note('modified', obj({ spec: { l: [] } }), obj({ spec: {} })), false],
  ])('%s → %s', (_, n, expected) => expect(changed(n, ['spec'])).toBe(expected));

  it('changedBy compares only what it picks', () => {
    const n = note('modified', obj({ spec: { a: 1, b: 1 } }), obj({ spec: { a: 1, b: 2 } }));
    expect(changedBy(n, (o) => (o as unknown as { spec: { a: number } }).spec.a)).toBe(false);
  });
});

const mci = (
  services: string[],
  extra: Partial<MultiClusterIngress['spec']> = {},
  meta = {},
): MultiClusterIngress => ({
  metadata: { name: 'm', ...meta },
  spec: {
    ...extra,
    rules: [
      {
        http: {
          paths: services.map((s) => ({ pathType: 'Prefix', backend: { service: { name: s } } })),
        },
      },
    ],
  },
});

describe('serviceexport-propagation: which Services an MCI update touches', () => {
  it.each([
    ['none changed', ['a', 'b'], ['b', 'a'], []],
    ['one replaced', ['a', 'b'], ['a', 'c'], ['b', 'c']],
    ['all removed', ['a'], [], ['a']],
  ])('symmetricDifference: %s', (_, a, b, expected) => expect(symmetricDifference(a, b)).toEqual(expected));

  it.each([
    ['same refs', mci(['a']), mci(['a']), []],
    ['ref added', mci(['a']), mci(['a', 'b']), ['b']],
    ['class changed → all refs', mci(['a']), mci(['a', 'b'], { ingressClassName: 'nginx' }), ['a', 'b']],
    ['deletion started → all refs', mci(['a']), mci(['a'], {}, { deletionTimestamp: 't' }), ['a']],
  ])('mciUpdateServices: %s', (_, old, now, expected) =>
    expect(mciUpdateServices(old, now)).toEqual(expected),
  );
});

describe('own-object filters', () => {
  const withLocations = (clusters: string[]) =>
    ({ ...mci(['a']), status: { serviceLocations: [{ name: 'a', clusters }] } }) as KubeObject;
  it.each([
    ['spec change', note('modified', mci(['b']), mci(['a'])), true],
    [
      'load balancer status only',
      note('modified', { ...mci(['a']), status: { loadBalancer: {} } } as KubeObject, mci(['a'])),
      false,
    ],
    ['new service locations', note('modified', withLocations(['m1']), withLocations(['m2'])), true],
    ['no versions', note('modified'), true],
  ])('mciChangeMatters: %s → %s', (_, n, expected) => expect(mciChangeMatters(n)).toBe(expected));

  const mcs = (types: string[], meta = {}): KubeObject =>
    ({ metadata: { name: 's', ...meta }, spec: { types } }) as MultiClusterService as KubeObject;
  it.each([
    ['LoadBalancer created', note('added', mcs(['LoadBalancer'])), true],
    ['CrossCluster created', note('added', mcs(['CrossCluster'])), false],
    [
      'CrossCluster annotated',
      note('modified', mcs(['CrossCluster'], { annotations: { a: 'b' } }), mcs(['CrossCluster'])),
      false,
    ],
    [
      'CrossCluster with our finalizer',
      note(
        'modified',
        mcs(['CrossCluster'], {
          finalizers: ['karmada.io/multi-cluster-service-controller'],
          annotations: { a: 'b' },
        }),
        mcs(['CrossCluster']),
      ),
      true,
    ],
    [
      'LoadBalancer status only',
      note('modified', { ...mcs(['LoadBalancer']), status: { x: 1 } } as KubeObject, mcs(['LoadBalancer'])),
      false,
    ],
    ['reference only', note('modified'), true],
  ])('mcsChangeMatters: %s → %s', (_, n, expected) => expect(mcsChangeMatters(n)).toBe(expected));
});

describe('Cluster notifications', () => {
  const cluster = (remedy: boolean, meta = {}): Cluster => ({
    metadata: { name: 'member1', ...meta },
    status: remedy ? { remedyActions: ['TrafficControl'] } : {},
  });
  const clusterNote = (change: ChangeType, now?: Cluster, old?: Cluster): NormalizedNotification => ({
    ...note(change, now, old),
    ref: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1' },
  });
  it.each([
    ['TrafficControl on', clusterNote('modified', cluster(true), cluster(false)), true, false],
    ['TrafficControl off', clusterNote('modified', cluster(false), cluster(true)), true, false],
    ['other status change', clusterNote('modified', cluster(true), cluster(true)), false, false],
    [
      'deletion started',
      clusterNote('modified', cluster(false, { deletionTimestamp: 't' }), cluster(false)),
      false,
      true,
    ],
    ['created', clusterNote('added', cluster(false)), true, true],
    ['deleted', clusterNote('deleted', cluster(false)), true, true],
    ['reference only', clusterNote('modified'), true, true],
  ])('%s → traffic %s, crd %s', (_, n, traffic, crd) => {
    expect(trafficControlToggled(n)).toBe(traffic);
    expect(crdInstallationRequests(n).length > 0).toBe(crd);
  });

  const cppNote = (change: ChangeType, name = 'serviceexportpropagation-policy'): NormalizedNotification => ({
    change,
    ref: { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', name },
    source: 'native',
  });
  it.each([
    ['ours deleted', cppNote('deleted'), 1],
    ['ours resynced', cppNote('resync'), 1],
    ['ours modified', cppNote('modified'), 0],
    ['ours created', cppNote('added'), 0],
    ['another deleted', cppNote('deleted', 'other'), 0],
  ])('ClusterPropagationPolicy %s → %i request(s)', (_, n, count) =>
    expect(crdInstallationRequests(n)).toHaveLength(count),
  );
});
