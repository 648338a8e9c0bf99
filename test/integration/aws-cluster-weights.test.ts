/**
 * Per-cluster traffic control through the ELBv2 simulator (model/cluster-weights.ts,
 * deploy/drains.ts): a canary promoted and rolled back, a TrafficControl drain held at weight 0
 * until the deregistration delay, weights for one backend only, six clusters behind one backend,
 * and switching modes without a rule ever forwarding to a missing or empty target group. Each
 * step asserts the forward exactly as DescribeRules reports it, and the Events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Action as SdkAction } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { KubeObject } from '../../lib/kube/types.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { InvalidObjectError } from '../../lib/errors.js';
import { RESOURCE_TAG } from '../../lib/providers/aws/tagging.js';
import { CLUSTER_WEIGHTS_KEY } from '../../lib/providers/aws/model/cluster-weights.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { forwardsToMissingOrEmpty } from '../support/elbv2-state.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

const W = CLUSTER_WEIGHTS_KEY;
const TG_ATTRIBUTES = 'alb.ingress.kubernetes.io/target-group-attributes';

let env: AwsEnv;
afterEach(async () => env?.close());

function web(): KubeObject[] {
  return [
    service('web', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
    collectedSlice('member1', 'web', { addresses: ['10.0.1.10', '10.0.1.11'] }),
    collectedSlice('member2', 'web', { addresses: ['10.0.2.20'] }),
  ];
}

function shop(
  annotations: Record<string, string>,
  status?: MultiClusterIngress['status'],
): MultiClusterIngress {
  return minimalIngress({
    metadata: { name: 'shop', namespace: 'default', uid: 'mci-shop', annotations },
    spec: { rules: [{ http: { paths: [path('/', 'Prefix', 'web', 'http')] } }] },
    ...(status ? { status } : {}),
  });
}

/** The resource ID our tags give each target group, by ARN. */
function groupIds(): Map<string, string> {
  const snap = env.sim.snapshot();
  const tags = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags]));
  return new Map(
    snap.targetGroups.map((tg) => [
      tg.TargetGroupArn ?? '',
      tags.get(tg.TargetGroupArn ?? '')?.[RESOURCE_TAG] ?? '?',
    ]),
  );
}

/** The one rule's actions as DescribeRules reports them. */
function ruleActions(): SdkAction[] {
  const rules = env.sim.snapshot().rules.filter((r) => !r.IsDefault);
  expect(rules).toHaveLength(1);
  return JSON.parse(JSON.stringify(rules[0]?.Actions)) as SdkAction[];
}

/** The ARN of the group of `slice` (`cluster:member1`, `weight:1`) of backend `svc`. */
function arnOf(slice: string, svc = 'web', port = 'http'): string {
  const id = `default/shop-${svc}:${port}@${slice}`;
  const found = [...groupIds()].find(([, v]) => v === id);
  return found?.[0] ?? `no group ${id}`;
}

/** The exact weighted forward DescribeRules reports for these (slice, weight) pairs. */
function forward(...groups: Array<[string, number]>): SdkAction[] {
  return [
    {
      Type: 'forward',
      Order: 1,
      ...(groups.length === 1 ? { TargetGroupArn: arnOf(groups[0]![0]) } : {}),
      ForwardConfig: {
        TargetGroups: groups.map(([slice, weight]) => ({ TargetGroupArn: arnOf(slice), Weight: weight })),
        TargetGroupStickinessConfig: { Enabled: false },
      },
    },
  ];
}

/** Registered targets by group resource ID. */
function targets(): Record<string, string[]> {
  const ids = groupIds();
  const out: Record<string, string[]> = {};
  for (const t of env.sim.snapshot().targets) {
    const id = ids.get(t.TargetGroupArn ?? '') ?? '?';
    (out[id] ??= []).push(t.Id ?? '');
  }
  for (const v of Object.values(out)) v.sort();
  return out;
}

const reasons = () => env.announced.map((a) => a.reason);

describe('per-cluster traffic control (ALB)', () => {
  it('a 95/5 canary promoted to 50/50, then 0/100 (blue-green), then rolled back', async () => {
    env = await startAwsEnv(web());
    const details: string[] = [];
    env.ctx.detail = (line) => details.push(line);
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, shop({ [W]: 'member1=95,member2=5' }));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 95], ['cluster:member2', 5]));
    // What the load-balancer condition's message ends with.
    expect(details).toStrictEqual(['cluster weights: web:http member1=95 member2=5']);
    expect(targets()).toStrictEqual({
      'default/shop-web:http@cluster:member1': ['10.0.1.10', '10.0.1.11'],
      'default/shop-web:http@cluster:member2': ['10.0.2.20'],
    });
    expect(env.announced).toStrictEqual([]);

    // Promoted: only the rule's weights change.
    env.sim.calls.reset();
    await lb.update(env.ctx, shop({ [W]: 'member1=50,member2=50' }));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 50], ['cluster:member2', 50]));
    // The fingerprint invalidated, the rule (and its tags) modified, the fingerprint written.
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyRule', 'AddTags', 'AddTags']);

    // Blue-green: member1 at 0 is drained, its targets still registered.
    await lb.update(env.ctx, shop({ [W]: 'member1=0,member2=100' }));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 0], ['cluster:member2', 100]));
    expect(targets()['default/shop-web:http@cluster:member1']).toStrictEqual(['10.0.1.10', '10.0.1.11']);
    expect(env.announced).toStrictEqual([
      {
        reason: 'ClusterDrained',
        message: expect.stringMatching(
          /^cluster member1 drained from default\/shop-web:http@cluster:member1 \(target group k8s-\S+\): weight 0, its 2 targets stay registered until \S+Z \(the deregistration delay, 300 s\)/,
        ),
      },
    ]);

    // Rolled back before the delay: the weight is back, nothing had to be registered again.
    env.sim.calls.reset();
    await lb.update(env.ctx, shop({ [W]: 'member1=95,member2=5' }));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 95], ['cluster:member2', 5]));
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'ModifyRule', 'AddTags', 'AddTags']);
    expect(reasons()).toStrictEqual(['ClusterDrained', 'ClusterRestored']);
    // A drain asks for attention (a Warning Event); a restore asks nothing of anyone (Normal).
    expect(env.announced.map((a) => a.type ?? 'Warning')).toStrictEqual(['Warning', 'Normal']);
    expect(env.announced[1]?.message).toMatch(
      /^cluster member1 restored on default\/shop-web:http@cluster:member1/,
    );
  });

  it('a TrafficControl drain: weight 0 with targets registered until the delay, then deregistered; restored after', async () => {
    env = await startAwsEnv(web());
    const lb = env.provider.loadBalancer();
    const annotations = { [W]: '*=1', [TG_ATTRIBUTES]: 'deregistration_delay.timeout_seconds=1' };
    const blocked = shop(annotations, { trafficBlockClusters: ['member2'] });
    const details: string[] = [];
    env.ctx.detail = (line) => details.push(line);
    await lb.ensure(env.ctx, shop(annotations));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 1], ['cluster:member2', 1]));

    await lb.update(env.ctx, blocked);
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 1], ['cluster:member2', 0]));
    expect(targets()['default/shop-web:http@cluster:member2']).toStrictEqual(['10.0.2.20']);
    expect(reasons()).toStrictEqual(['ClusterDrained']);
    expect(env.announced[0]?.message).toContain('(the deregistration delay, 1 s)');
    expect(details.at(-1)).toBe('cluster weights: web:http member1=1 member2=0 (blocked, configured 1)');

    // The delay has passed: the resync's fingerprint pass sees the stack differ, the next
    // reconcile deregisters the targets (the weight stays 0).
    await new Promise((r) => setTimeout(r, 1100));
    const desired = await env.provider.fingerprints().desired(blocked, env.kube);
    const recorded = await env.provider.fingerprints().recorded(env.ctx, [desired]);
    expect(recorded.get(desired.stackId)).not.toBe(desired.fingerprint);
    env.sim.calls.reset();
    await lb.update(env.ctx, blocked);
    expect(targets()['default/shop-web:http@cluster:member2']).toBeUndefined();
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 1], ['cluster:member2', 0]));
    // Without the Tagging API the deploy takes the full path: the fingerprint is invalidated and
    // written again around the one change.
    expect(env.mutatingCalls()).toStrictEqual(['AddTags', 'DeregisterTargets', 'AddTags']);
    expect(reasons()).toStrictEqual(['ClusterDrained', 'ClusterDrained']);
    expect(env.announced[1]?.message).toContain('its targets are deregistered');
    // Settled: in sync for the resync, and a reconcile changes nothing.
    const settled = await env.provider.fingerprints().desired(blocked, env.kube);
    expect((await env.provider.fingerprints().recorded(env.ctx, [settled])).get(settled.stackId)).toBe(
      settled.fingerprint,
    );
    env.sim.calls.reset();
    await lb.update(env.ctx, blocked);
    expect(env.mutatingCalls()).toStrictEqual([]);

    // Unblocked: registered first, then the weight comes back.
    await lb.update(env.ctx, shop(annotations));
    expect(env.mutatingCalls()).toStrictEqual([
      'AddTags',
      'RegisterTargets',
      'ModifyRule',
      'AddTags',
      'AddTags',
    ]);
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 1], ['cluster:member2', 1]));
    expect(targets()['default/shop-web:http@cluster:member2']).toStrictEqual(['10.0.2.20']);
    expect(reasons()).toStrictEqual(['ClusterDrained', 'ClusterDrained', 'ClusterRestored']);
  });

  it('weights for one backend only: the other keeps its one target group', async () => {
    env = await startAwsEnv([
      ...web(),
      service('api', [{ name: 'http', port: 80, targetPort: 9090, protocol: 'TCP' }]),
      collectedSlice('member1', 'api', { addresses: ['10.0.1.30'] }),
      collectedSlice('member2', 'api', { addresses: ['10.0.2.40'] }),
    ]);
    const mci = minimalIngress({
      metadata: {
        name: 'shop',
        namespace: 'default',
        uid: 'mci-shop',
        annotations: { [`${W}.api`]: 'member1=3,member2=1' },
      },
      spec: {
        rules: [
          { http: { paths: [path('/api', 'Prefix', 'api', 'http'), path('/', 'Prefix', 'web', 'http')] } },
        ],
      },
    });
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    const rules = env.sim.snapshot().rules.filter((r) => !r.IsDefault);
    const ids = groupIds();
    const forwards = rules.map((r) =>
      r.Actions?.[0]?.ForwardConfig?.TargetGroups?.map((g) => [ids.get(g.TargetGroupArn ?? ''), g.Weight]),
    );
    expect(forwards).toStrictEqual([
      [
        ['default/shop-api:http@cluster:member1', 3],
        ['default/shop-api:http@cluster:member2', 1],
      ],
      [['default/shop-web:http', 1]],
    ]);
    expect(targets()).toStrictEqual({
      'default/shop-api:http@cluster:member1': ['10.0.1.30'],
      'default/shop-api:http@cluster:member2': ['10.0.2.40'],
      'default/shop-web:http': ['10.0.1.10', '10.0.1.11', '10.0.2.20'],
    });
  });

  it('six clusters behind one backend: clusters of equal weight share a group; six weights are refused', async () => {
    const clusters = ['member1', 'member2', 'member3', 'member4', 'member5', 'member6'];
    env = await startAwsEnv([
      service('web', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
      ...clusters.map((c, i) => collectedSlice(c, 'web', { addresses: [`10.0.${i + 1}.10`] })),
    ]);
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, shop({ [W]: 'member1=10,*=2' }));
    // member1 alone at 10; the five others share a group of weight 5 × 2: each keeps 2/20.
    expect(ruleActions()).toStrictEqual(forward(['weight:10', 10], ['weight:2', 10]));
    expect(targets()).toStrictEqual({
      'default/shop-web:http@weight:10': ['10.0.1.10'],
      'default/shop-web:http@weight:2': ['10.0.2.10', '10.0.3.10', '10.0.4.10', '10.0.5.10', '10.0.6.10'],
    });

    env.sim.calls.reset();
    const six = shop({ [W]: 'member1=1,member2=2,member3=3,member4=4,member5=5,member6=6' });
    const err = await lb.update(env.ctx, six).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field: W, reason: 'InvalidClusterWeights' });
    expect((err as Error).message).toMatch(
      /^annotation multicluster\.karmada\.io\/cluster-weights: backend Service default\/web is in 6 clusters with 6 different effective weights \(1, 2, 3, 4, 5, 6\); a forward action takes at most 5 target groups/,
    );
    expect(env.sim.calls.all()).toStrictEqual({});
  });

  it.each([
    ['member9=1', /cluster member9 is unknown: the object's Services are in member1, member2$/],
    ['member1=-5', /gives cluster member1 the negative weight -5$/],
    ['member1=0,member2=0', /gives every cluster weight 0/],
    ['member1:95', /has "member1:95" where <cluster>=<weight> was expected$/],
    ['member1=1000', /a weight is an integer from 0 to 999$/],
  ])('%s is refused naming the annotation, before any ELBv2 call', async (value, why) => {
    env = await startAwsEnv(web());
    const err = await env.provider
      .loadBalancer()
      .ensure(env.ctx, shop({ [W]: value }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ field: W, reason: 'InvalidClusterWeights' });
    expect((err as Error).message).toMatch(new RegExp(`^annotation ${W.replace(/[./]/g, '\\$&')}: `));
    expect((err as Error).message).toMatch(why);
    expect(env.sim.calls.all()).toStrictEqual({});
  });

  it('switching modes: after every ELBv2 call, no rule forwards to a missing or empty target group', async () => {
    const seen: string[] = [];
    const calls: string[] = [];
    env = await startAwsEnv(web(), {
      sim: {
        afterCall: (action) => {
          if (action.startsWith('Describe')) return;
          calls.push(action);
          // Every rule after every call (env is set: the first call comes after the start).
          for (const f of forwardsToMissingOrEmpty(env.sim.snapshot())) seen.push(`after ${action}: ${f}`);
        },
      },
    });
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, shop({}));
    expect(ruleActions()).toStrictEqual([
      {
        Type: 'forward',
        Order: 1,
        TargetGroupArn: [...groupIds()].find(([, id]) => id === 'default/shop-web:http')?.[0],
        ForwardConfig: {
          TargetGroups: [
            {
              TargetGroupArn: [...groupIds()].find(([, id]) => id === 'default/shop-web:http')?.[0],
              Weight: 1,
            },
          ],
          TargetGroupStickinessConfig: { Enabled: false },
        },
      },
    ]);
    const toPerCluster = calls.length;
    await lb.update(env.ctx, shop({ [W]: 'member1=3,member2=1' }));
    expect(ruleActions()).toStrictEqual(forward(['cluster:member1', 3], ['cluster:member2', 1]));
    // The cluster groups created and filled, the rule switched, the old group deleted last.
    expect(calls.slice(toPerCluster)).toStrictEqual([
      'AddTags',
      'CreateTargetGroup',
      'CreateTargetGroup',
      'RegisterTargets',
      'RegisterTargets',
      'ModifyRule',
      'AddTags',
      'DeleteTargetGroup',
      'AddTags',
    ]);
    await lb.update(env.ctx, shop({}));
    expect(Object.keys(targets())).toStrictEqual(['default/shop-web:http']);
    expect(seen).toStrictEqual([]);
  });

  it("NLB: the listener forwards to the clusters' target groups by weight; weight 0 drains", async () => {
    env = await startAwsEnv([
      service('db', [{ port: 5432, targetPort: 5432, protocol: 'TCP' }]),
      collectedSlice('member1', 'db', { addresses: ['10.0.1.50'], ports: [{ name: '', port: 5432 }] }),
      collectedSlice('member2', 'db', { addresses: ['10.0.2.60'], ports: [{ name: '', port: 5432 }] }),
    ]);
    const nlb = env.provider.mcsLoadBalancer();
    const listenerActions = () =>
      JSON.parse(JSON.stringify(env.sim.snapshot().listeners[0]?.DefaultActions)) as SdkAction[];
    const arn = (slice: string) =>
      [...groupIds()].find(([, id]) => id === `default/db:5432@${slice}`)?.[0] ?? `no group ${slice}`;
    const weighted = (a: number, b: number): SdkAction[] => [
      {
        Type: 'forward',
        Order: 1,
        ForwardConfig: {
          TargetGroups: [
            { TargetGroupArn: arn('cluster:member1'), Weight: a },
            { TargetGroupArn: arn('cluster:member2'), Weight: b },
          ],
          TargetGroupStickinessConfig: { Enabled: false },
        },
      },
    ];
    await nlb.ensure(env.ctx, mcs('db', {}, { [W]: 'member1=95,member2=5' }));
    expect(listenerActions()).toStrictEqual(weighted(95, 5));
    expect(targets()).toStrictEqual({
      'default/db:5432@cluster:member1': ['10.0.1.50'],
      'default/db:5432@cluster:member2': ['10.0.2.60'],
    });
    await nlb.update(env.ctx, mcs('db', {}, { [W]: 'member1=0,member2=1' }));
    expect(listenerActions()).toStrictEqual(weighted(0, 1));
    expect(targets()['default/db:5432@cluster:member1']).toStrictEqual(['10.0.1.50']);
    expect(reasons()).toStrictEqual(['ClusterDrained']);
    expect(env.state()).toStrictEqual(
      await env.expectedForMcs(mcs('db', {}, { [W]: 'member1=0,member2=1' })),
    );
  });
});
