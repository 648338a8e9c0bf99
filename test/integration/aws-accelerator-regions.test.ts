/**
 * Global Accelerator in front of a multi-Region provider, end to end: the lifecycle over the
 * Kubernetes API stand-in, one ELBv2 simulator per Region and one GA simulator (us-west-2) that
 * resolves endpoints against all of them. One accelerator per object over all its Regions: an
 * endpoint group per Region with that Region's load balancer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import type { EndpointGroup } from '@aws-sdk/client-global-accelerator';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { endpointsIn, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { MultiRegionProvider } from '../../lib/providers/aws/regions/provider.js';
import { CLUSTER_WEIGHTS_PER_REGION } from '../../lib/providers/aws/regions/weights.js';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { topologyOf } from '../../lib/topology/source.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { regionsConfigFor } from '../../dev/local/pipeline.js';
import {
  edit,
  notify,
  notifyChange,
  startHarness,
  type Harness,
  toggleTrafficControl as toggleTrafficControlOf,
} from '../support/harness.js';

const GA = 'multicluster.karmada.io/global-accelerator';
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-south-1'] as const;
type Region = (typeof REGIONS)[number];

let sims: Record<Region, Elbv2Simulator>;
let ga: GaSimulator;
let h: Harness;
let order: string[];
let clock: number;

function providerConfig(): string {
  return regionsConfigFor(
    REGIONS.map((region) => ({ region, elbv2: sims[region] })),
    {},
    {
      ownerId: 'local',
      globalAccelerator: { enabled: false, endpoint: ga.url },
      // What these tests annotate, accelerators included (the tenant policy's tests are test/security/).
      tenantPolicy: ALLOW_ALL,
    },
  );
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  order = [];
  clock = Date.parse('2026-12-02T00:00:00Z');
  sims = {} as Record<Region, Elbv2Simulator>;
  for (const region of REGIONS) {
    sims[region] = await startElbv2Simulator({
      inProcess: true,
      region,
      afterCall: (a) => order.push(`elbv2:${region}:${a}`),
    });
  }
  ga = await startGaSimulator({
    inProcess: true,
    deployMs: 60_000,
    now: () => clock,
    endpoints: endpointsIn(REGIONS.map((r) => sims[r])),
    afterCall: (a) => order.push(`ga:${a}`),
  });
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: providerConfig() });
  await h.seed([
    ingressClass(),
    cluster('member1', false, 'us-east-1'),
    cluster('member2', false, 'eu-west-1'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.0.128.11']),
    collectedSlice('member2', ['10.0.144.21']),
  ]);
});

afterEach(async () => {
  await h.close();
  await ga.close();
  for (const region of REGIONS) await sims[region].close();
});

const groups = (l: { EndpointGroups: object[] } | undefined) => (l?.EndpointGroups ?? []) as EndpointGroup[];
const ours = () => ga.snapshot().filter((a) => a.Tags[OWNER_TAG] === 'local');
/** Region → [endpoint, dial] of the accelerator's first listener. */
const endpointGroups = () =>
  Object.fromEntries(
    groups(ours()[0]?.Listeners[0]).map((g) => [
      g.EndpointGroupRegion,
      [g.EndpointDescriptions?.[0]?.EndpointId, g.TrafficDialPercentage],
    ]),
  );
const lbArn = (region: Region) => sims[region].snapshot().loadBalancers[0]?.LoadBalancerArn;
const deployed = () => {
  clock += 61_000;
};

async function settle(obj: KubeObject) {
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(obj, 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

/** `wait`: the pass waits on GA (a drain's dial at 0 not deployed yet) instead of succeeding. */
async function setTrafficControl(name: string, on: boolean, wait = false) {
  const results = await toggleTrafficControlOf(h, name, on);
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual(
    wait ? [expect.stringMatching(/eu-west-1: waiting: .*traffic dial of eu-west-1 set to 0/)] : [],
  );
}

async function moveCluster(name: string, from: string, to: string) {
  const current = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, name))!;
  const moved = { ...current, spec: { ...(current as { spec?: object }).spec, region: to } } as KubeObject;
  const written = await h.kube.update(Resources.Cluster, moved);
  const results = await h.deliver(notifyChange('modified', written, cluster(name, false, from)));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
}

const cases = [
  {
    kind: 'MultiClusterIngress: an ALB per Region behind one accelerator',
    object: () => minimalIngress(),
    type: Resources.MultiClusterIngress,
    name: 'minimal-ingress',
    lbType: 'application',
  },
  {
    kind: 'MultiClusterService: an NLB per Region behind one accelerator, TCP listeners',
    object: () => serveMultiClusterService(),
    type: Resources.MultiClusterService,
    name: 'serve',
    lbType: 'network',
  },
] as const;

describe.each(cases)('$kind', ({ object, type, name, lbType }) => {
  const accelerated = (): KubeObject => {
    const o = object();
    return { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [GA]: 'true' } } };
  };
  const now = () =>
    h.kube.get<MultiClusterIngress | MultiClusterService>(type as ResourceType, 'default', name);

  it('plans the accelerator after every Region, an endpoint group per Region, changing nothing', async () => {
    await h.kube.create(type as ResourceType, accelerated());
    const provider = h.runtime.provider as MultiRegionProvider;
    const ctx = { signal: new AbortController().signal, logger: new MemoryLogger() };
    const plans = await provider.plan(ctx, (await now())!);
    expect(plans.map((p) => p.region)).toEqual(['us-east-1', 'eu-west-1', 'ap-south-1']);
    expect(plans.accelerator?.map((o) => `${o.op} ${o.resource} ${o.id}`)).toEqual([
      'create Accelerator Accelerator',
      'create AcceleratorListener TCP:80',
      'create EndpointGroup TCP:80@eu-west-1',
      'create EndpointGroup TCP:80@us-east-1',
    ]);
    expect(ours()).toEqual([]);
  });

  it('two Regions, one accelerator with an endpoint group each; a Region drained goes to dial 0 first, back after; a third Region gets its group; deletion across reconciles', async () => {
    await h.kube.create(type as ResourceType, accelerated());
    await settle(accelerated());
    expect(sims['us-east-1'].snapshot().loadBalancers[0]?.Type).toBe(lbType);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.Listeners.map((l) => [l.Protocol, l.PortRanges])).toEqual([
      ['TCP', [{ FromPort: 80, ToPort: 80 }]],
    ]);
    expect(endpointGroups()).toStrictEqual({
      'us-east-1': [lbArn('us-east-1'), 100],
      'eu-west-1': [lbArn('eu-west-1'), 100],
    });
    // Each regional load balancer has only its own Region's targets.
    expect(sims['us-east-1'].snapshot().targets.map((t) => t.Id)).toEqual(['10.0.128.11']);
    expect(sims['eu-west-1'].snapshot().targets.map((t) => t.Id)).toEqual(['10.0.144.21']);
    const ingress = (await now())?.status?.loadBalancer?.ingress ?? [];
    expect(ingress[0]).toEqual({ hostname: ours()[0]?.DnsName });
    expect(ingress.slice(1).every((i) => i.ip !== undefined)).toBe(true);
    expect(ingress).toHaveLength(3);

    // No-op: no GA call.
    order = [];
    await settle(accelerated());
    expect(order.filter((c) => c.startsWith('ga:'))).toEqual([]);

    if (type.kind === 'MultiClusterIngress') {
      // eu-west-1's only cluster blocked: its dial to 0 before its targets go; us-east-1 untouched.
      deployed();
      order = [];
      await setTrafficControl('member2', true, true);
      expect(endpointGroups()['eu-west-1']).toEqual([lbArn('eu-west-1'), 0]);
      expect(endpointGroups()['us-east-1']).toEqual([lbArn('us-east-1'), 100]);
      expect(order).toContain('ga:UpdateEndpointGroup');
      // Its targets go once GA has deployed the dial (test/integration/aws-accelerator-order.test.ts).
      expect(order).not.toContain('elbv2:eu-west-1:DeregisterTargets');
      deployed();
      await settle(accelerated());
      expect(order).toContain('elbv2:eu-west-1:DeregisterTargets');
      deployed();
      order = [];
      await setTrafficControl('member2', false);
      expect(endpointGroups()['eu-west-1']).toEqual([lbArn('eu-west-1'), 100]);
      expect(order.indexOf('ga:UpdateEndpointGroup')).toBeGreaterThan(
        order.indexOf('elbv2:eu-west-1:RegisterTargets'),
      );
    }

    // member2 moves to ap-south-1: that Region's stack and endpoint group, eu-west-1's gone.
    deployed();
    await moveCluster('member2', 'eu-west-1', 'ap-south-1');
    await settle(accelerated());
    expect(endpointGroups()).toStrictEqual({
      'us-east-1': [lbArn('us-east-1'), 100],
      'ap-south-1': [lbArn('ap-south-1'), 100],
    });
    expect(sims['eu-west-1'].snapshot().loadBalancers).toEqual([]);

    // Deletion: the accelerator first, across reconciles; then every Region's stack; then the finalizer.
    await h.kube.delete(type as ResourceType, 'default', name);
    const first = (await h.deliver(notify(accelerated(), 'modified')))[0];
    expect(first?.ok).toBe(false);
    expect(ours()[0]?.Enabled).toBe(false);
    expect(sims['us-east-1'].snapshot().loadBalancers).toHaveLength(1);
    for (let i = 0; i < 4 && ours().length > 0; i++) {
      deployed();
      await h.deliver(notify(accelerated(), 'modified'));
    }
    expect(ours()).toEqual([]);
    await h.deliver(notify(accelerated(), 'modified'));
    for (const region of REGIONS) expect(sims[region].snapshot().loadBalancers).toEqual([]);
    expect(await now()).toBeUndefined();
  });
});

describe('an MCI with an accelerator that joins an IngressGroup, over Regions', () => {
  const GROUP = 'alb.ingress.kubernetes.io/group.name';
  const annotated = (annotations: Record<string, string>): KubeObject => {
    const o = minimalIngress();
    return { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, ...annotations } } };
  };
  const stacksOfOurs = () => ours().map((a) => a.Tags[STACK_TAG]);

  it("takes the MCI's own accelerator through disable and delete, leaving only the group's", async () => {
    await h.kube.create(Resources.MultiClusterIngress, annotated({ [GA]: 'true' }));
    await settle(annotated({ [GA]: 'true' }));
    const own = stacksOfOurs();
    expect(own).toHaveLength(1);

    const current = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    const joined = annotated({ [GA]: 'true', [GROUP]: 'shop' });
    await h.kube.update(Resources.MultiClusterIngress, {
      ...current,
      metadata: { ...current.metadata, annotations: joined.metadata.annotations },
    });
    // Retried while GA deploys each step (RetryLaterError): a reconcile per step.
    for (let i = 0; i < 6 && stacksOfOurs().includes(own[0]); i++) {
      deployed();
      await h.deliver(notify(joined, 'modified'));
    }
    expect(stacksOfOurs()).not.toContain(own[0]);
    expect(stacksOfOurs()).toHaveLength(1);
    // The group's ALB serves the MCI in each Region, and the MCI's own ALBs are gone.
    for (const region of ['us-east-1', 'eu-west-1'] as const) {
      expect(sims[region].snapshot().loadBalancers).toHaveLength(1);
    }
  });

  it("its group's accelerator goes with the group's last member, and the MCI gets its own back", async () => {
    const member = annotated({ [GA]: 'true', [GROUP]: 'shop' });
    await h.kube.create(Resources.MultiClusterIngress, member);
    await settle(member);
    const group = stacksOfOurs();
    expect(group).toHaveLength(1);
    const groupAlbs = (['us-east-1', 'eu-west-1'] as const).map(
      (r) => sims[r].snapshot().loadBalancers[0]?.LoadBalancerArn,
    );
    expect(groupAlbs.every((arn) => arn !== undefined)).toBe(true);

    // The only member leaves the group: the group's stack goes, in every Region and in GA.
    const current = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    const alone = annotated({ [GA]: 'true' });
    await h.kube.update(Resources.MultiClusterIngress, {
      ...current,
      metadata: { ...current.metadata, annotations: alone.metadata.annotations },
    });
    for (let i = 0; i < 6 && stacksOfOurs().includes(group[0]); i++) {
      deployed();
      await h.deliver(notify(alone, 'modified'));
    }
    expect(stacksOfOurs()).not.toContain(group[0]);
    await settle(alone);
    // Its own accelerator and its own ALB in each Region, the group's gone.
    expect(stacksOfOurs()).toHaveLength(1);
    for (const [i, region] of (['us-east-1', 'eu-west-1'] as const).entries()) {
      const arns = sims[region].snapshot().loadBalancers.map((l) => l.LoadBalancerArn);
      expect(arns).toHaveLength(1);
      expect(arns).not.toContain(groupAlbs[i]);
    }
    expect(endpointGroups()).toStrictEqual({
      'us-east-1': [lbArn('us-east-1'), 100],
      'eu-west-1': [lbArn('eu-west-1'), 100],
    });
  });
});

describe('cluster weights over two Regions (each Region weighs its own; the dials split Regions)', () => {
  const W = 'multicluster.karmada.io/cluster-weights';
  const weighted = (annotations: Record<string, string>): KubeObject => {
    const o = minimalIngress();
    return {
      ...o,
      metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [GA]: 'true', ...annotations } },
    };
  };
  const mciEvents = async () =>
    (
      await h.kube.list<KubeObject & { reason: string; type: string; message: string; count?: number }>(
        Resources.Event,
        { namespace: 'default' },
      )
    ).items.filter(
      (e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === 'minimal-ingress',
    );
  const condition = async () =>
    JSON.parse(
      (await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'minimal-ingress'))!
        .metadata.annotations![CONDITION_ANNOTATION]!,
    ) as { message: string };
  /** The weights of eu-west-1's one rule's forward, by target group name. */
  const euForward = () => {
    const snap = sims['eu-west-1'].snapshot();
    const rule = snap.rules.find((r) => !r.IsDefault)!;
    const name = (arn?: string) => snap.targetGroups.find((t) => t.TargetGroupArn === arn)?.TargetGroupName;
    return (rule.Actions?.[0]?.ForwardConfig?.TargetGroups ?? []).map((g) => [
      name(g.TargetGroupArn),
      g.Weight,
    ]);
  };

  it('a one-cluster Region at weight 0 shows one view: drained in its Event, its rule, the condition, its dial and the topology', async () => {
    await h.kube.create(Resources.MultiClusterIngress, weighted({}));
    await settle(weighted({}));
    await edit<MultiClusterIngress>(h, Resources.MultiClusterIngress, 'default', 'minimal-ingress', (m) => {
      m.metadata.annotations = { ...m.metadata.annotations, [W]: 'member1=1,member2=0' };
    });
    // eu-west-1's dial to 0 first; its deploy goes on once GA has deployed that.
    const first = await h.deliver(notify(weighted({ [W]: 'member1=1,member2=0' }), 'modified'));
    expect(first.map((r) => r.error)).toEqual([expect.stringMatching(/eu-west-1: waiting: /)]);
    deployed();
    await settle(weighted({ [W]: 'member1=1,member2=0' }));

    // the Event: member2 drained at weight 0
    const drained = (await mciEvents()).filter((e) => e.reason === 'ClusterDrained');
    expect(drained).toHaveLength(1);
    expect(drained[0]!.message).toMatch(
      /^cluster member2 drained from default\/minimal-ingress-serve:80@cluster:member2 .*: weight 0,/,
    );
    // the rule: eu-west-1 forwards to member2's group at weight 0
    const [[group, weight]] = euForward() as [[string, number]];
    expect(weight).toBe(0);
    // the condition: each Region's weights under its name, member2 drained
    expect((await condition()).message).toContain(
      'cluster weights in eu-west-1: serve:80 member2=0 (drained)',
    );
    expect((await condition()).message).toContain('cluster weights in us-east-1: serve:80 member1=1');
    // the dial: eu-west-1 at 0
    expect(endpointGroups()['eu-west-1']?.[1]).toBe(0);
    // the topology page: member2 at 0%, drained, under the same group; the accelerator's dial 0
    const provider = h.runtime.provider as MultiRegionProvider;
    const mci = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    const topology = await topologyOf(mci, {
      kube: h.kube,
      config: await parseAwsConfig(providerConfig()),
      provider,
    });
    const eu = topology.regions.find((r) => r.region === 'eu-west-1')!.loadBalancers[0]!;
    const tg = eu.targetGroups.find((t) => t.name === group)!;
    expect(tg.clusters.map((c) => [c.name, c.weight, c.drained])).toEqual([['member2', 0, true]]);
    expect(eu.listeners[0]!.rules[0]!.action).toMatchObject({ targetGroups: [{ weight: 0 }] });
    expect(topology.frontDoors[0]!.regions.find((r) => r.region === 'eu-west-1')?.weight).toBe(0);
    // a drain across Regions is the weights moving traffic: no warning that they do not
    expect((await mciEvents()).map((e) => e.reason)).not.toContain(CLUSTER_WEIGHTS_PER_REGION);
  });

  it('weights in effect in both Regions: one Warning per reconcile naming each Region’s clusters and the dials; none once the dials are set', async () => {
    await h.kube.create(Resources.MultiClusterIngress, weighted({ [W]: 'member1=3,member2=1' }));
    await h.deliver(notify(weighted({}), 'added'));
    const warned = (await mciEvents()).filter((e) => e.reason === CLUSTER_WEIGHTS_PER_REGION);
    expect(warned.map((e) => [e.type, e.count ?? 1])).toEqual([['Warning', 1]]);
    expect(warned[0]!.message).toMatch(
      /^annotation multicluster\.karmada\.io\/cluster-weights weighs clusters in several Regions \(us-east-1: member1; eu-west-1: member2\): .*multicluster\.karmada\.io\/global-accelerator-traffic-dials.*\. Next: /,
    );
    // each Region weighs only its own: one group each, at its weight, and both dials at 100
    expect(euForward().map(([, w]) => w)).toEqual([1]);
    expect(endpointGroups()['eu-west-1']?.[1]).toBe(100);
    expect(endpointGroups()['us-east-1']?.[1]).toBe(100);

    await edit<MultiClusterIngress>(h, Resources.MultiClusterIngress, 'default', 'minimal-ingress', (m) => {
      m.metadata.annotations = {
        ...m.metadata.annotations,
        [`${GA}-traffic-dials`]: 'us-east-1=100,eu-west-1=25',
      };
    });
    await settle(weighted({}));
    expect((await mciEvents()).find((e) => e.reason === CLUSTER_WEIGHTS_PER_REGION)?.count ?? 1).toBe(1);
    expect(endpointGroups()['eu-west-1']?.[1]).toBe(25);
  });
});
