/**
 * Weights from Karmada's placement (karmada/placement.ts, model/cluster-weights.ts): which
 * workloads a Service selects, replicas per cluster reduced to shares in percent, the order of the
 * sources, and the refusals naming the annotation.
 */
import { describe, expect, it } from 'vitest';
import {
  bindingReplicas,
  placementDiffers,
  placementShares,
  selects,
  servicePlacement,
  workloadOfBinding,
  type PlacedWorkload,
  type Workload,
} from '../../lib/karmada/placement.js';
import type { ResourceBinding, Service } from '../../lib/karmada/types.js';
import { workloadFromBindingName } from '../../lib/reconcile/placement-triggers.js';
import {
  CLUSTER_WEIGHTS_FROM_KEY,
  CLUSTER_WEIGHTS_KEY,
  readClusterWeights,
  weightsFor,
} from '../../lib/providers/aws/model/cluster-weights.js';

const service = (selector?: Record<string, string>): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default' },
  spec: { ports: [{ port: 80 }], ...(selector ? { selector } : {}) },
});
const deployment = (labels: Record<string, string>): Workload => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { template: { metadata: { labels } } },
});
const binding = (clusters: Array<[string, number | undefined]>, kind = 'Deployment'): ResourceBinding => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: `web-${kind.toLowerCase()}`, namespace: 'default' },
  spec: {
    resource: { apiVersion: 'apps/v1', kind, name: 'web', namespace: 'default' },
    clusters: clusters.map(([name, replicas]) => (replicas === undefined ? { name } : { name, replicas })),
  },
});
const placed = (clusters: Array<[string, number | undefined]>, name = 'web'): PlacedWorkload => ({
  kind: 'Deployment',
  name,
  binding: binding(clusters),
});
const shares = (...r: Array<[string, number]>) => Object.fromEntries(placementShares(new Map(r)));

describe('which workloads a Service selects', () => {
  it('every selector label must be on the pod template; no selector selects nothing', () => {
    expect(selects(service({ app: 'web' }), deployment({ app: 'web', tier: 'front' }))).toBe(true);
    expect(selects(service({ app: 'web', tier: 'back' }), deployment({ app: 'web', tier: 'front' }))).toBe(
      false,
    );
    expect(selects(service(), deployment({ app: 'web' }))).toBe(false);
    expect(selects(service({}), deployment({ app: 'web' }))).toBe(false);
  });

  it("knows a workload's binding by its resource, and a deleted one by Karmada's generated name", () => {
    expect(workloadOfBinding(binding([], 'StatefulSet'))).toStrictEqual({ kind: 'StatefulSet', name: 'web' });
    expect(
      workloadOfBinding({
        ...binding([]),
        spec: { resource: { apiVersion: 'v1', kind: 'Service', name: 'web' } },
      }),
    ).toBeUndefined();
    expect(workloadFromBindingName('web-deployment')).toStrictEqual({ kind: 'Deployment', name: 'web' });
    expect(workloadFromBindingName('db-statefulset')).toStrictEqual({ kind: 'StatefulSet', name: 'db' });
    expect(workloadFromBindingName('web-service')).toBeUndefined();
    expect(workloadFromBindingName('-deployment')).toBeUndefined();
  });
});

describe('replicas per cluster to shares in percent', () => {
  it('proportional, summing to 100; the same split at any scale gives the same shares', () => {
    expect(shares(['member1', 3], ['member2', 1])).toStrictEqual({ member1: 75, member2: 25 });
    expect(shares(['member1', 6], ['member2', 2])).toStrictEqual({ member1: 75, member2: 25 });
    expect(shares(['member1', 2], ['member2', 2])).toStrictEqual({ member1: 50, member2: 50 });
    expect(shares(['member1', 5], ['member2', 0])).toStrictEqual({ member1: 100, member2: 0 });
  });

  it('leftover points go to the largest remainders, ties to the first cluster by name', () => {
    // 33.3 each: one point left, to the first by name whatever the insertion order.
    expect(shares(['c', 1], ['a', 1], ['b', 1])).toStrictEqual({ a: 34, b: 33, c: 33 });
    // 1/3 and 2/3: 33.3 and 66.7, the point to the larger remainder.
    expect(shares(['a', 1], ['b', 2])).toStrictEqual({ a: 33, b: 67 });
  });

  it('a cluster with any replica keeps at least 1, so a small share is never a drain', () => {
    expect(shares(['big', 999], ['small', 1])).toStrictEqual({ big: 100, small: 1 });
    expect(shares(['a', 0], ['b', 0])).toStrictEqual({});
  });

  it('sums a binding per cluster; a cluster without replicas (or a bad count) has none', () => {
    expect(
      bindingReplicas(
        binding([
          ['member1', 2],
          ['member2', undefined],
          ['member3', -1],
        ]),
      ),
    ).toStrictEqual(
      new Map([
        ['member1', 2],
        ['member2', 0],
        ['member3', 0],
      ]),
    );
  });

  it('adds up every workload the Service selects', () => {
    const p = servicePlacement(service({ app: 'web' }), [
      placed([['member1', 3]]),
      placed(
        [
          ['member1', 1],
          ['member2', 4],
        ],
        'web-canary',
      ),
    ]);
    expect(p.state).toBe('placed');
    if (p.state !== 'placed') return;
    expect(Object.fromEntries(p.replicas)).toStrictEqual({ member1: 4, member2: 4 });
    expect(Object.fromEntries(p.shares)).toStrictEqual({ member1: 50, member2: 50 });
  });

  it('no workload, an unbound one, or no replica anywhere are states of their own', () => {
    expect(servicePlacement(service({ app: 'web' }), []).state).toBe('no-workload');
    expect(
      servicePlacement(service({ app: 'web' }), [{ kind: 'Deployment', name: 'web', binding: undefined }])
        .state,
    ).toBe('unbound');
    expect(servicePlacement(service({ app: 'web' }), [placed([['member1', 0]])]).state).toBe('no-replicas');
  });

  it('differs only when the shares (or the error) differ', () => {
    const of = (...c: Array<[string, number]>) => servicePlacement(service({ app: 'web' }), [placed(c)]);
    expect(placementDiffers(of(['member1', 3], ['member2', 1]), of(['member1', 6], ['member2', 2]))).toBe(
      false,
    );
    expect(placementDiffers(of(['member1', 3], ['member2', 1]), of(['member1', 2], ['member2', 2]))).toBe(
      true,
    );
    expect(placementDiffers(of(['member1', 3]), of(['member1', 3], ['member2', 0]))).toBe(false);
    expect(placementDiffers(of(['member1', 0]), of(['member1', 3]))).toBe(true);
  });
});

describe('the order of the sources', () => {
  const placement = servicePlacement(service({ app: 'web' }), [
    placed([
      ['member1', 3],
      ['member2', 1],
    ]),
  ]);
  const known = new Set(['member1', 'member2']);

  it('placement weighs a backend no explicit list covers, naming its source', () => {
    const weights = readClusterWeights({ [CLUSTER_WEIGHTS_FROM_KEY]: 'placement' }, known)!;
    expect(weightsFor(weights, 'web', placement)).toStrictEqual({
      key: CLUSTER_WEIGHTS_FROM_KEY,
      weights: new Map([
        ['member1', 75],
        ['member2', 25],
      ]),
      source: 'Karmada placement of Deployment web',
    });
  });

  it("the MCI's list and the backend's own list win over placement", () => {
    const all = readClusterWeights(
      { [CLUSTER_WEIGHTS_FROM_KEY]: 'placement', [CLUSTER_WEIGHTS_KEY]: 'member1=10,member2=90' },
      known,
    )!;
    expect(weightsFor(all, 'web', placement)?.key).toBe(CLUSTER_WEIGHTS_KEY);
    const own = readClusterWeights(
      { [CLUSTER_WEIGHTS_FROM_KEY]: 'placement', [`${CLUSTER_WEIGHTS_KEY}.web`]: 'member1=1' },
      known,
    )!;
    expect(weightsFor(own, 'web', placement)?.key).toBe(`${CLUSTER_WEIGHTS_KEY}.web`);
    expect(weightsFor(own, 'api', placement)?.key).toBe(CLUSTER_WEIGHTS_FROM_KEY);
  });

  it('refuses another value, and each state without weights, naming the annotation', () => {
    expect(() => readClusterWeights({ [CLUSTER_WEIGHTS_FROM_KEY]: 'replicas' }, known)).toThrow(
      `annotation ${CLUSTER_WEIGHTS_FROM_KEY}: "replicas" is not a source of cluster weights: the one value is "placement"`,
    );
    const weights = readClusterWeights({ [CLUSTER_WEIGHTS_FROM_KEY]: 'placement' }, known)!;
    const refused = (p: Parameters<typeof weightsFor>[2]) => {
      try {
        weightsFor(weights, 'web', p, 'backend Service default/web');
      } catch (err) {
        return err as Error & { field?: string; reason?: string };
      }
      throw new Error('not refused');
    };
    const none = refused(servicePlacement(service({ app: 'web' }), []));
    expect(none.message).toBe(
      `annotation ${CLUSTER_WEIGHTS_FROM_KEY}: placement: backend Service default/web selects no Deployment or StatefulSet in the Karmada control plane (selector app=web); give its weights with ${CLUSTER_WEIGHTS_KEY} meanwhile`,
    );
    expect(none).toMatchObject({ field: CLUSTER_WEIGHTS_FROM_KEY, reason: 'PlacementWeightsUnavailable' });
    expect(refused(servicePlacement(service(), [])).message).toContain('has no selector');
    expect(
      refused(
        servicePlacement(service({ app: 'web' }), [{ kind: 'Deployment', name: 'web', binding: undefined }]),
      ).message,
    ).toContain('is served by Deployment web, which has no ResourceBinding yet');
    expect(refused(servicePlacement(service({ app: 'web' }), [placed([['member1', 0]])])).message).toContain(
      'whose ResourceBinding places 0 replicas in every cluster',
    );
  });
});
