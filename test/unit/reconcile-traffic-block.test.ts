import { describe, expect, it } from 'vitest';
import type { Cluster, MultiClusterIngress } from '../../lib/karmada/types.js';
import {
  hasTrafficControl,
  locatedClusters,
  trafficBlockClusters,
  withTrafficBlockClusters,
} from '../../lib/reconcile/traffic-block.js';

const cluster = (name: string, ...remedyActions: string[]): Cluster => ({
  metadata: { name },
  status: { remedyActions },
});
const located = (...locations: string[][]): MultiClusterIngress => ({
  metadata: { name: 'm' },
  status: { serviceLocations: locations.map((clusters, i) => ({ name: `s${i}`, clusters })) },
});

describe('trafficBlockClusters', () => {
  it.each([
    ['no locations', located(), [cluster('m1', 'TrafficControl')], []],
    ['located and remedied', located(['m1', 'm2']), [cluster('m1', 'TrafficControl'), cluster('m2')], ['m1']],
    ['remedied but not located', located(['m2']), [cluster('m1', 'TrafficControl'), cluster('m2')], []],
    [
      'union over services, sorted',
      located(['m3'], ['m1']),
      [cluster('m3', 'TrafficControl'), cluster('m1', 'Other', 'TrafficControl')],
      ['m1', 'm3'],
    ],
    ['other remedy only', located(['m1']), [cluster('m1', 'Other')], []],
    ['located cluster missing', located(['gone']), [], []],
  ])('%s', (_, mci, clusters, expected) => expect(trafficBlockClusters(mci, clusters)).toEqual(expected));

  it.each([
    [cluster('a', 'TrafficControl'), true],
    [cluster('a'), false],
    [{ metadata: { name: 'a' } }, false],
    [undefined, false],
  ])('hasTrafficControl(%j) → %s', (c, expected) => expect(hasTrafficControl(c)).toBe(expected));

  it('locatedClusters tolerates locations without clusters', () => {
    expect([...locatedClusters({ metadata: {}, status: { serviceLocations: [{ name: 'a' }] } })]).toEqual([]);
  });
});

describe('withTrafficBlockClusters', () => {
  const mci: MultiClusterIngress = {
    metadata: { name: 'm' },
    status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] }, trafficBlockClusters: ['old'] },
  };
  it.each([
    [
      'sets the list',
      ['m1'],
      { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] }, trafficBlockClusters: ['m1'] },
    ],
    ['empty: field omitted, other status kept', [], { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }],
  ])('%s', (_, blocked, status) => expect(withTrafficBlockClusters(mci, blocked).status).toEqual(status));
});
