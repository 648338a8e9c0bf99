import { describe, expect, it } from 'vitest';
import type { MultiClusterService } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { mciChangeMatters, mcsChangeMatters } from '../../lib/reconcile/route.js';
import { mci, note } from './reconcile-fixtures.js';

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
