import { describe, expect, it } from 'vitest';
import { regionChanged, trafficControlToggled } from '../../lib/reconcile/dependents.js';
import { clusterNote, remedied } from './reconcile-fixtures.js';

describe('Cluster notifications: traffic blocking', () => {
  it.each([
    ['TrafficControl on', clusterNote('modified', remedied(true), remedied(false)), true],
    ['TrafficControl off', clusterNote('modified', remedied(false), remedied(true)), true],
    ['other status change', clusterNote('modified', remedied(true), remedied(true)), false],
    [
      'deletion started',
      clusterNote('modified', remedied(false, { deletionTimestamp: 't' }), remedied(false)),
      false,
    ],
    ['created', clusterNote('added', remedied(false)), true],
    ['deleted', clusterNote('deleted', remedied(false)), true],
    ['reference only', clusterNote('modified'), true],
  ])('%s → %s', (_, n, traffic) => expect(trafficControlToggled(n)).toBe(traffic));
});

describe('Cluster notifications: a Region move (the multi-Region AWS provider)', () => {
  const inRegion = (region?: string) => ({ ...remedied(false), spec: region ? { region } : {} });
  it.each([
    ['spec.region changed', clusterNote('modified', inRegion('eu-west-1'), inRegion('us-east-1')), true],
    ['spec.region set', clusterNote('modified', inRegion('eu-west-1'), inRegion()), true],
    ['spec.region unchanged', clusterNote('modified', inRegion('eu-west-1'), inRegion('eu-west-1')), false],
    // Its EndpointSlices come and go with it, and trigger on their own.
    ['created', clusterNote('added', inRegion('eu-west-1')), false],
    ['reference only', clusterNote('modified'), false],
  ])('%s → %s', (_, n, moved) => expect(regionChanged(n)).toBe(moved));
});
