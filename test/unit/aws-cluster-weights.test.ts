/**
 * The per-cluster weights (model/cluster-weights.ts) and the drain settlement (deploy/drains.ts)
 * on their own: parsing and refusing lists, grouping clusters by weight past 5, and when a
 * drained group lets its targets go.
 */
import { describe, expect, it } from 'vitest';
import {
  clusterShares,
  parseWeightList,
  readClusterWeights,
  sliceClusters,
  type WeightList,
} from '../../lib/providers/aws/model/cluster-weights.js';
import { settleDrains } from '../../lib/providers/aws/deploy/drains.js';
import type { TargetRecord } from '../../lib/providers/aws/deploy/target-records.js';
import { ResourceTypes, type Stack, type TargetGroupResource } from '../../lib/providers/aws/model/types.js';

const KEY = 'multicluster.karmada.io/cluster-weights';
const list = (value: string): WeightList => parseWeightList({ [KEY]: value }, KEY)!;

describe('cluster weight lists', () => {
  it('reads name=weight pairs and *, trimming blanks', () => {
    expect(list(' member1 = 95 , member2=5,*=1')).toStrictEqual({
      key: KEY,
      weights: new Map([
        ['member1', 95],
        ['member2', 5],
      ]),
      others: 1,
    });
    expect(parseWeightList({}, KEY)).toBeUndefined();
  });

  it.each([
    ['member1=1,member1=2', 'names member1 twice'],
    ['*=1,*=2', 'names * twice'],
    ['member1=1.5', 'gives cluster member1 the weight "1.5"'],
    ['Member_1=1', 'names "Member_1", which is not a cluster name'],
    ['member1=', 'where <cluster>=<weight> was expected'],
    ['*=0', 'gives every cluster weight 0'],
  ])('%s is refused: %s', (value, why) => {
    expect(() => list(value)).toThrow(why);
  });

  it('a backend key overrides the MCI-wide list for its Service only; unknown clusters are refused', () => {
    const known = new Set(['member1', 'member2']);
    const w = readClusterWeights({ [KEY]: 'member1=1', [`${KEY}.api`]: 'member2=1' }, known)!;
    expect(w.all?.weights).toStrictEqual(new Map([['member1', 1]]));
    expect([...w.byService.keys()]).toStrictEqual(['api']);
    expect(readClusterWeights({ other: 'x' }, known)).toBeUndefined();
    expect(() => readClusterWeights({ [`${KEY}.api`]: 'member3=1' }, known)).toThrow(
      `annotation ${KEY}.api: cluster member3 is unknown: the object's Services are in member1, member2`,
    );
  });

  it('effective weight: 0 when blocked or without endpoints; clusters named nowhere get 0', () => {
    const shares = clusterShares(
      ['member1', 'member2', 'member3', 'member4'],
      list('member1=5,member2=5,member3=5'),
      new Set(['member2']),
      (c) => c !== 'member3',
    );
    expect(shares.map((s) => [s.cluster, s.effective])).toStrictEqual([
      ['member1', 5],
      ['member2', 0],
      ['member3', 0],
      ['member4', 0],
    ]);
    const slices = sliceClusters(shares, 'web', KEY);
    // member2 (blocked, with endpoints) and member4 (weight 0, with endpoints) drain; member3 has nothing to drain.
    expect(slices.map((s) => [s.key, s.weight, s.drain])).toStrictEqual([
      ['cluster:member1', 5, false],
      ['cluster:member2', 0, true],
      ['cluster:member3', 0, false],
      ['cluster:member4', 0, true],
    ]);
  });

  it('past 5 clusters, equal weights share a group weighted by their number; the weight stays within 999', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    const grouped = sliceClusters(
      clusterShares(six, list('a=10,*=2'), new Set(), () => true),
      'web',
      KEY,
    );
    expect(grouped.map((s) => [s.key, s.weight, s.clusters.map((c) => c.cluster)])).toStrictEqual([
      ['weight:10', 10, ['a']],
      ['weight:2', 10, ['b', 'c', 'd', 'e', 'f']],
    ]);
    expect(() =>
      sliceClusters(
        clusterShares(six, list('*=200'), new Set(), () => true),
        'web',
        KEY,
      ),
    ).toThrow('whose weight would be 1200, over ELBv2');
  });
});

describe('drain settlement', () => {
  const group = (targets: number, drain: boolean, delay = '10'): TargetGroupResource => ({
    id: 'default/shop-web:80@cluster:member2',
    type: ResourceTypes.TargetGroup,
    spec: {
      name: 'k8s-tg',
      targetType: 'ip',
      protocol: 'HTTP',
      port: 8080,
      ipAddressType: 'ipv4',
      vpcId: 'vpc-1',
      healthCheck: {
        enabled: true,
        port: 'traffic-port',
        protocol: 'HTTP',
        intervalSeconds: 15,
        timeoutSeconds: 5,
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 2,
      },
      targets: Array.from({ length: targets }, (_, i) => ({ id: `10.0.0.${i + 1}`, port: 8080 })),
      attributes: { 'deregistration_delay.timeout_seconds': delay },
      clusters: ['member2'],
      ...(drain ? { drain: true as const } : {}),
      tags: {},
    },
  });
  const stack = (tg: TargetGroupResource): Stack => ({
    id: 'mci/default/shop',
    ownerId: 'o',
    resources: [tg],
  });
  const record = (since: number | undefined, targets = 2): TargetRecord => ({
    fingerprint: 'f',
    groups: {
      'k8s-tg': {
        fingerprint: 'x',
        targets: Array.from({ length: targets }, (_, i) => ({ Id: `10.0.0.${i}` })),
      },
    },
    ...(since !== undefined ? { drains: { 'k8s-tg': since } } : {}),
  });
  const targetsOf = (s: Stack) => (s.resources[0] as TargetGroupResource).spec.targets.length;

  it('starts now, keeps the targets until the delay, then empties the group; each step announced once', () => {
    const start = settleDrains(stack(group(2, true)), record(undefined), 1_000);
    expect(start.stack.drains).toStrictEqual({ 'k8s-tg': 1_000 });
    expect(targetsOf(start.stack)).toBe(2);
    expect(start.dueAt).toBe(11_000);
    expect(start.events.map((e) => e.reason)).toStrictEqual(['ClusterDrained']);

    const waiting = settleDrains(stack(group(2, true)), record(1_000), 10_999);
    expect(targetsOf(waiting.stack)).toBe(2);
    expect(waiting.events).toStrictEqual([]);

    const due = settleDrains(stack(group(2, true)), record(1_000), 11_000);
    expect(targetsOf(due.stack)).toBe(0);
    expect(due.stack.drains).toStrictEqual({ 'k8s-tg': 1_000 });
    expect(due.events.map((e) => e.message)).toStrictEqual([
      expect.stringContaining('its targets are deregistered'),
    ]);
    // Already let go (the record holds no target): nothing more to say.
    expect(settleDrains(stack(group(2, true)), record(1_000, 0), 99_000).events).toStrictEqual([]);
  });

  it('a group no longer drained is restored; a stack without drains is left as it is', () => {
    const back = settleDrains(stack(group(2, false)), record(1_000), 5_000);
    expect(back.stack.drains).toBeUndefined();
    expect(targetsOf(back.stack)).toBe(2);
    expect(back.events.map((e) => e.reason)).toStrictEqual(['ClusterRestored']);
    const plain = stack(group(2, false));
    expect(settleDrains(plain, record(undefined), 5_000).stack).toBe(plain);
  });

  it('delay 0 (or a due time passed before a record existed) lets the targets go in the same deploy', () => {
    const now = settleDrains(stack(group(3, true, '0')), undefined, 1_000);
    expect(targetsOf(now.stack)).toBe(0);
    expect(now.dueAt).toBeUndefined();
    expect(now.events.map((e) => e.message)).toStrictEqual([
      expect.stringContaining('weight 0, and its 3 targets deregistered right after'),
    ]);
  });
});
