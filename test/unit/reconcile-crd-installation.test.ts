import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../lib/karmada/types.js';
import type { ChangeType, NormalizedNotification } from '../../lib/notification/types.js';
import { crdInstallationRequests } from '../../lib/reconcile/crd-installation-triggers.js';
import { memberClusters } from '../../lib/reconcile/crd-installation.js';
import { clusterNote, remedied } from './reconcile-fixtures.js';

describe('crdInstallationRequests: Cluster notifications', () => {
  it.each([
    ['TrafficControl on', clusterNote('modified', remedied(true), remedied(false)), false],
    ['TrafficControl off', clusterNote('modified', remedied(false), remedied(true)), false],
    ['other status change', clusterNote('modified', remedied(true), remedied(true)), false],
    [
      'deletion started',
      clusterNote('modified', remedied(false, { deletionTimestamp: 't' }), remedied(false)),
      true,
    ],
    ['created', clusterNote('added', remedied(false)), true],
    ['deleted', clusterNote('deleted', remedied(false)), true],
    ['reference only', clusterNote('modified'), true],
  ])('%s → %s', (_, n, crd) => expect(crdInstallationRequests(n).length > 0).toBe(crd));
});

describe('crdInstallationRequests: ClusterPropagationPolicy notifications', () => {
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
  ])('%s → %i request(s)', (_, n, count) => expect(crdInstallationRequests(n)).toHaveLength(count));
});

describe('memberClusters', () => {
  const c = (name: string, deleting = false): Cluster => ({
    metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  });
  it.each([
    ['sorted', [c('b'), c('a')], ['a', 'b']],
    ['being deleted left out', [c('a'), c('b', true)], ['a']],
    ['none', [], []],
  ])('%s', (_, clusters, expected) => expect(memberClusters(clusters)).toEqual(expected));
});
