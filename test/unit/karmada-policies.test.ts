import { describe, expect, it } from 'vitest';
import {
  crdPolicyFor,
  isControlledBy,
  policyClusterNames,
  reconcileClusterNames,
  servicePolicyFor,
  withClusterNames,
  type PropagationPolicy,
} from '../../lib/karmada/policies.js';
import { controllingService } from '../../lib/reconcile/service-export-triggers.js';
import type { Service } from '../../lib/karmada/types.js';

const svc: Service = { metadata: { name: 'serve', namespace: 'default', uid: 'u1' } };

describe('reconcileClusterNames', () => {
  it.each([
    ['absent → wanted, sorted', undefined, ['b', 'a'], ['a', 'b']],
    ['append a new cluster at the end', ['m2', 'm1'], ['m1', 'm2', 'm0'], ['m2', 'm1', 'm0']],
    ['remove a vanished cluster, order kept', ['m3', 'm1', 'm2'], ['m1', 'm2'], ['m1', 'm2']],
    ['nothing to do', ['m2', 'm1'], ['m1', 'm2'], ['m2', 'm1']],
    ['duplicates collapse', ['m1', 'm1'], ['m1'], ['m1']],
    ['no clusters', ['m1'], [], []],
  ])('%s', (_, current, wanted, expected) =>
    expect(reconcileClusterNames(current, wanted)).toEqual(expected),
  );
});

describe('withClusterNames / policyClusterNames', () => {
  it.each<[string, PropagationPolicy, string[] | undefined]>([
    ['no spec', { metadata: {} }, undefined],
    ['no clusterAffinity (upstream panics)', { metadata: {}, spec: { placement: { x: 1 } } }, undefined],
    [
      'clusterNames',
      { metadata: {}, spec: { placement: { clusterAffinity: { clusterNames: ['a'] } } } },
      ['a'],
    ],
  ])('%s', (_, p, names) => {
    expect(policyClusterNames(p)).toEqual(names);
    const next = withClusterNames(p, ['m1']);
    expect(policyClusterNames(next)).toEqual(['m1']);
    // everything else is kept
    expect({ ...next.spec?.placement, clusterAffinity: undefined }).toEqual({
      ...p.spec?.placement,
      clusterAffinity: undefined,
    });
  });
});

describe('ownership', () => {
  const ref = (o: Partial<{ controller: boolean; uid: string; kind: string; name: string }>) => ({
    metadata: {
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Service', name: 'serve', uid: 'u1', controller: true, ...o },
      ],
    },
  });
  it.each([
    ['our controller ref', ref({}), true, 'serve'],
    ['not a controller ref', ref({ controller: false }), false, undefined],
    ['another uid (a recreated Service)', ref({ uid: 'u2' }), false, 'serve'],
    ['another kind', ref({ kind: 'Deployment' }), false, undefined],
    ['another name', ref({ name: 'other' }), false, 'other'],
    ['no owner', { metadata: {} }, false, undefined],
  ])('%s', (_, obj, controlled, owner) => {
    expect(isControlledBy(obj, svc)).toBe(controlled);
    expect(controllingService(obj)).toBe(owner);
  });
});

describe('builders', () => {
  it('servicePolicyFor selects the ServiceExport and is owned by the Service', () => {
    expect(servicePolicyFor(svc, ['m1'])).toMatchObject({
      metadata: {
        name: 'propagate-service-serve',
        namespace: 'default',
        ownerReferences: [{ uid: 'u1', controller: true }],
      },
      spec: {
        resourceSelectors: [
          { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport', name: 'serve' },
        ],
        placement: { clusterAffinity: { clusterNames: ['m1'] } },
      },
    });
  });
  it('crdPolicyFor tolerates not-ready and unreachable forever', () => {
    const p = crdPolicyFor([]);
    expect(p.spec?.placement?.clusterTolerations).toEqual([
      { key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'cluster.karmada.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    ]);
  });
});
