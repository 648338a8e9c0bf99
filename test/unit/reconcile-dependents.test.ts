import { describe, expect, it } from 'vitest';
import { trafficControlToggled } from '../../lib/reconcile/dependents.js';
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
