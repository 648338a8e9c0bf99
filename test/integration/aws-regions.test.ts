/**
 * The multi-Region AWS provider end to end: the lifecycle (processBatch, every controller) over
 * the Kubernetes API stand-in, with one ELBv2 simulator and one EC2 simulator per Region. Each
 * cluster's Region is its Cluster object's spec.region; each Region gets its own load balancer
 * with only its own clusters' targets, and one Region's outage leaves the others converged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import type { AcceleratorSeam, RegionalDeploy } from '../../lib/providers/aws/regions/accelerator-seam.js';
import { buildMultiRegionProvider } from '../../lib/providers/aws/regions/build.js';
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
import { resyncPass } from '../../lib/maintenance/resync.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';

const OWNER = 'multicluster.karmada.io/owner';
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-south-1'] as const;
type Region = (typeof REGIONS)[number];

let sims: Record<Region, Elbv2Simulator>;
let ec2s: Record<Region, Ec2Simulator>;
let h: Harness;
/** Every answered ELBv2 call of every Region, in the order they were answered. */
let answered: string[];

function providerConfig(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ownerId: 'local',
    recordNamespace: 'karmada-system',
    regions: REGIONS.map((region) => {
      const sim = sims[region];
      return {
        region,
        endpoint: sim.url,
        taggingEndpoint: sim.url,
        // The VPC's CIDRs and subnets from this Region's EC2.
        ec2Endpoint: ec2s[region].url,
        vpc: { id: sim.network.vpcId },
        subnets: sim.network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
        securityGroups: [sim.network.defaultSecurityGroupId],
      };
    }),
    ...extra,
  });
}

/** Our resources in one Region's simulator. */
function owned(region: Region) {
  const snap = sims[region].snapshot();
  const ours = new Set(snap.tags.filter((t) => t.Tags[OWNER] === 'local').map((t) => t.ResourceArn));
  return {
    loadBalancers: snap.loadBalancers.filter((lb) => ours.has(lb.LoadBalancerArn!)),
    targetGroups: snap.targetGroups.filter((tg) => ours.has(tg.TargetGroupArn!)),
    targets: snap.targets
      .filter((t) => ours.has(t.TargetGroupArn))
      .map((t) => t.Id)
      .sort(),
  };
}

async function settle(...objects: KubeObject[]) {
  for (let i = 0; i < 4; i++) {
    const results = await h.deliver(...objects.map((o) => notify(o, 'modified')));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

/** The load-balancer condition the lifecycle wrote: an MCI's annotation, an MCS's status condition. */
async function condition(type: ResourceType, name: string) {
  const obj = await h.kube.get<KubeObject & { status?: { conditions?: Array<{ type: string }> } }>(
    type,
    'default',
    name,
  );
  if (type.kind === 'MultiClusterService') {
    return (obj?.status?.conditions?.find((c) => c.type === 'LoadBalancerReady') ?? {}) as {
      status?: string;
      message?: string;
    };
  }
  return JSON.parse(
    obj?.metadata.annotations?.['multicluster.karmada.io/load-balancer-condition'] ?? '{}',
  ) as {
    status?: string;
    message?: string;
  };
}

async function moveCluster(name: string, from: string, to: string) {
  const current = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, name))!;
  const moved = { ...current, spec: { ...(current as { spec?: object }).spec, region: to } } as KubeObject;
  const written = await h.kube.update(Resources.Cluster, moved);
  const results = await h.deliver(notifyChange('modified', written, cluster(name, false, from)));
  return results;
}

async function events(name: string) {
  const list = await h.kube.list<KubeObject & { reason: string; type: string; message: string }>(
    Resources.Event,
    { namespace: 'default' },
  );
  return list.items.filter(
    (e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === name,
  );
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sims = {} as Record<Region, Elbv2Simulator>;
  ec2s = {} as Record<Region, Ec2Simulator>;
  answered = [];
  for (const region of REGIONS) {
    sims[region] = await startElbv2Simulator({
      inProcess: true,
      region,
      afterCall: (action) => answered.push(`${region} ${action}`),
    });
    ec2s[region] = await startEc2Simulator({ inProcess: true, elbv2: sims[region] });
  }
  await start();
});

/** A new harness (closing the test's) with this provider configuration. */
async function restart(extra: Record<string, unknown>) {
  await h.close();
  await start(extra);
}

/** The harness with this provider configuration, over the scenario's objects. */
async function start(extra: Record<string, unknown> = {}) {
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: providerConfig(extra) });
  await h.seed([
    ingressClass(),
    cluster('member1', false, 'us-east-1'),
    cluster('member2', false, 'eu-west-1'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.0.128.11', '10.0.128.12']),
    collectedSlice('member2', ['10.0.144.21']),
  ]);
}

afterEach(async () => {
  await h.close();
  for (const region of REGIONS) {
    await ec2s[region].close();
    await sims[region].close();
  }
});

const cases = [
  {
    kind: 'MultiClusterIngress → an ALB per Region',
    object: () => minimalIngress(),
    type: Resources.MultiClusterIngress,
    name: 'minimal-ingress',
    lbType: 'application',
  },
  {
    kind: 'MultiClusterService → an NLB per Region',
    object: () => serveMultiClusterService(),
    type: Resources.MultiClusterService,
    name: 'serve',
    lbType: 'network',
  },
] as const;

describe.each(cases)('$kind', ({ object, type, name, lbType }) => {
  async function served(): Promise<Array<{ hostname?: string }>> {
    const obj = await h.kube.get<MultiClusterIngress | MultiClusterService>(type, 'default', name);
    return (obj?.status?.loadBalancer?.ingress ?? []) as Array<{ hostname?: string }>;
  }

  it('two clusters in two Regions: a load balancer in each with only its own targets; deletion removes both', async () => {
    const obj = object();
    await h.seed([obj]);
    await settle(obj);
    const east = owned('us-east-1');
    const west = owned('eu-west-1');
    expect(east.loadBalancers.map((lb) => lb.Type)).toEqual([lbType]);
    expect(west.loadBalancers.map((lb) => lb.Type)).toEqual([lbType]);
    expect(east.targets).toEqual(['10.0.128.11', '10.0.128.12']);
    expect(west.targets).toEqual(['10.0.144.21']);
    expect(owned('ap-south-1').loadBalancers).toEqual([]);
    // Each in its own Region's VPC subnets, named as a one-Region provider names it.
    expect(west.loadBalancers[0]!.LoadBalancerName).toBe(east.loadBalancers[0]!.LoadBalancerName);
    expect(west.loadBalancers[0]!.LoadBalancerArn).toContain(':eu-west-1:');
    // The status: every Region's hostname, in the configuration's order.
    expect(await served()).toEqual([
      { hostname: east.loadBalancers[0]!.DNSName!.toLowerCase() },
      { hostname: west.loadBalancers[0]!.DNSName!.toLowerCase() },
    ]);
    expect((await condition(type, name)).message).toContain(
      'regions: us-east-1: ok; eu-west-1: ok; ap-south-1: no clusters',
    );

    // A no-op reconcile: no mutating call, and no call at all in the Region without clusters;
    // and no Event either (every Region said it changed nothing): one Event, for the creation.
    for (const r of REGIONS) sims[r].calls.reset();
    await settle(obj);
    const told = (await events(name)).filter((e) => /LoadBalancer$/.test(e.reason));
    expect(told.map((e) => [e.reason, (e as { count?: number }).count ?? 1])).toEqual([
      ['EnsuredLoadBalancer', 1],
    ]);
    expect(sims['ap-south-1'].calls.all()).toEqual({});
    for (const r of REGIONS) {
      expect(
        sims[r].calls.history().filter((c) => !c.action.startsWith('Describe')),
        r,
      ).toEqual([]);
    }

    await h.kube.delete(type, 'default', name);
    await h.deliver(notify(obj));
    expect(await h.kube.get(type, 'default', name)).toBeUndefined();
    for (const r of REGIONS) {
      expect(owned(r), r).toEqual({ loadBalancers: [], targetGroups: [], targets: [] });
    }
  });

  it('moving a cluster to a third Region creates its stack there and deletes the emptied Region’s', async () => {
    const obj = object();
    await h.seed([obj]);
    await settle(obj);
    expect(owned('eu-west-1').targets).toEqual(['10.0.144.21']);

    const results = await moveCluster('member2', 'eu-west-1', 'ap-south-1');
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    // The Cluster's notification alone reconciled the object: its endpoints moved.
    expect(owned('ap-south-1').targets).toEqual(['10.0.144.21']);
    expect(owned('eu-west-1').loadBalancers).toEqual([]);
    await settle(obj);
    expect(owned('eu-west-1')).toEqual({ loadBalancers: [], targetGroups: [], targets: [] });
    expect(owned('ap-south-1').targets).toEqual(['10.0.144.21']);
    expect(owned('us-east-1').targets).toEqual(['10.0.128.11', '10.0.128.12']);
    expect((await served()).map((i) => i.hostname)).toEqual([
      owned('us-east-1').loadBalancers[0]!.DNSName!.toLowerCase(),
      owned('ap-south-1').loadBalancers[0]!.DNSName!.toLowerCase(),
    ]);
  });

  it('an ELBv2 outage in one Region leaves the other converged and the condition names the failed Region', async () => {
    sims['eu-west-1'].faults.set({ unavailable: 1 });
    const obj = object();
    await h.seed([obj]);
    const results = await h.deliver(notify(obj, 'added'));
    expect(results.some((r) => !r.ok)).toBe(true);
    // The healthy Region converged all the same.
    expect(owned('us-east-1').targets).toEqual(['10.0.128.11', '10.0.128.12']);
    expect(owned('eu-west-1').loadBalancers).toEqual([]);
    const failed = await condition(type, name);
    expect(failed.status).toBe('False');
    expect(failed.message).toMatch(/us-east-1: ok; eu-west-1: failed: .*ap-south-1: no clusters/);

    // The outage ends: the retry converges the failed Region, the healthy one changes nothing.
    sims['eu-west-1'].faults.set({});
    sims['us-east-1'].calls.reset();
    await settle(obj);
    expect(owned('eu-west-1').targets).toEqual(['10.0.144.21']);
    expect(sims['us-east-1'].calls.history().filter((c) => !c.action.startsWith('Describe'))).toEqual([]);
    expect((await condition(type, name)).status).toBe('True');
  });

  it('cluster weights naming clusters of both Regions: each Region weighs only its own', async () => {
    const plain = object();
    const obj = {
      ...plain,
      metadata: {
        ...plain.metadata,
        annotations: { 'multicluster.karmada.io/cluster-weights': 'member1=3,member2=1' },
      },
    } as KubeObject;
    await h.seed([obj]);
    await settle(obj);
    for (const [region, targets] of [
      ['us-east-1', ['10.0.128.11', '10.0.128.12']],
      ['eu-west-1', ['10.0.144.21']],
    ] as const) {
      const here = owned(region);
      expect(here.targets, region).toEqual(targets);
      // One cluster here: one per-cluster group, none for the other Region's cluster.
      expect(here.targetGroups, region).toHaveLength(1);
    }
    expect((await condition(type, name)).status).toBe('True');
  });

  it('a cluster without a configured Region is left out and named in a Warning Event', async () => {
    await h.seed([cluster('member3'), collectedSlice('member3', ['10.0.160.31'])]);
    const obj = object();
    await h.seed([obj]);
    await settle(obj);
    expect(owned('us-east-1').targets).toEqual(['10.0.128.11', '10.0.128.12']);
    expect(owned('eu-west-1').targets).toEqual(['10.0.144.21']);
    const warned = (await events(name)).filter((e) => e.reason === 'ClusterRegionUnknown');
    expect(warned.map((e) => e.type)).toEqual(['Warning']);
    expect(warned[0]!.message).toContain('cluster member3 has no spec.region');
  });
});

describe('Regions deploy concurrently', () => {
  it('a slow Region does not hold up the next one: eu-west-1 builds while us-east-1 waits on ELBv2', async () => {
    // One after the other, eu-west-1 could not make a call before us-east-1's deploy is done.
    sims['us-east-1'].faults.setForAction('CreateLoadBalancer', { latencyMs: 1000 });
    const mcs = serveMultiClusterService();
    await h.seed([mcs]);
    await settle(mcs);
    const eastCreated = answered.indexOf('us-east-1 CreateLoadBalancer');
    const westCreated = answered.indexOf('eu-west-1 CreateLoadBalancer');
    expect(eastCreated).toBeGreaterThan(-1);
    expect(westCreated).toBeGreaterThan(-1);
    expect(westCreated).toBeLessThan(eastCreated);
    // Each Region's outcome is still told in the configuration's order.
    expect((await condition(Resources.MultiClusterService, 'serve')).message).toContain(
      'regions: us-east-1: ok; eu-west-1: ok; ap-south-1: no clusters',
    );
  });
});

describe('a throttled Region', () => {
  it('is retried as throttled, and the other Regions converge meanwhile', async () => {
    // Two attempts: the SDK's adaptive backoff is what it is, the outcome is what is tested.
    await restart({ maxAttempts: 2 });
    sims['eu-west-1'].faults.set({ throttle: 1 });
    const mcs = serveMultiClusterService();
    await h.seed([mcs]);
    const [result] = await h.deliver(notify(mcs, 'added'));
    expect(result?.ok).toBe(false);
    expect(owned('us-east-1').targets).toEqual(['10.0.128.11', '10.0.128.12']);
    const stored = await h.kube.get<
      MultiClusterService & { status?: { conditions?: Array<Record<string, string>> } }
    >(Resources.MultiClusterService, 'default', 'serve');
    const ready = stored?.status?.conditions?.find((c) => c.type === 'LoadBalancerReady');
    expect(ready).toMatchObject({ status: 'False', reason: 'Throttled' });
    expect(ready?.message).toMatch(/us-east-1: ok; eu-west-1: failed: /);
  }, 60_000);
});

describe('an IngressGroup across Regions', () => {
  function member(name: string, path: string): KubeObject {
    const m = minimalIngress(name) as MultiClusterIngress;
    return {
      ...m,
      metadata: { ...m.metadata, annotations: { 'alb.ingress.kubernetes.io/group.name': 'shop' } },
      spec: {
        rules: [
          {
            http: {
              paths: [
                { path, pathType: 'Prefix', backend: { service: { name: 'serve', port: { number: 80 } } } },
              ],
            },
          },
        ],
      },
    } as KubeObject;
  }

  it('gets one group ALB per Region with every member’s rules; the last member’s deletion removes both', async () => {
    const a = member('cart', '/cart');
    const b = member('pay', '/pay');
    await h.seed([a, b]);
    await settle(a, b);
    for (const region of ['us-east-1', 'eu-west-1'] as const) {
      const snap = sims[region].snapshot();
      expect(owned(region).loadBalancers, region).toHaveLength(1);
      const paths = snap.rules
        .filter((r) => !r.IsDefault)
        .flatMap((r) => r.Conditions?.find((c) => c.Field === 'path-pattern')?.Values ?? [])
        .sort();
      expect(paths, region).toEqual(['/cart', '/cart/*', '/pay', '/pay/*']);
    }
    // Each member's group holds its Region's endpoints only.
    expect([...new Set(owned('us-east-1').targets)]).toEqual(['10.0.128.11', '10.0.128.12']);
    expect([...new Set(owned('eu-west-1').targets)]).toEqual(['10.0.144.21']);
    const status = (await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'pay'))
      ?.status?.loadBalancer?.ingress;
    expect(status?.map((i) => i.hostname)).toEqual(
      (['us-east-1', 'eu-west-1'] as const).map((r) => owned(r).loadBalancers[0]!.DNSName!.toLowerCase()),
    );
    // A no-op: nothing changes in either Region.
    for (const r of REGIONS) sims[r].calls.reset();
    await settle(a, b);
    for (const r of REGIONS) {
      expect(
        sims[r].calls.history().filter((c) => !c.action.startsWith('Describe')),
        r,
      ).toEqual([]);
    }

    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'cart');
    await h.deliver(notify(a));
    expect(owned('eu-west-1').loadBalancers).toHaveLength(1);
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'pay');
    await h.deliver(notify(b));
    for (const r of REGIONS) {
      expect(owned(r), r).toEqual({ loadBalancers: [], targetGroups: [], targets: [] });
    }
  });
});

describe('the orphan sweep', () => {
  it('deletes an orphaned stack in every Region, and leaves a served object’s alone', async () => {
    const orphan = minimalIngress('orphan');
    const kept = serveMultiClusterService();
    await h.seed([orphan, kept]);
    await settle(orphan, kept);
    expect(owned('eu-west-1').loadBalancers).toHaveLength(2);
    // Gone without its finalizer's deletion (a lost notification): its stacks are orphans.
    const stored = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'orphan',
    ))!;
    await h.kube.update(Resources.MultiClusterIngress, {
      ...stored,
      metadata: { ...stored.metadata, finalizers: [] },
    });
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'orphan');

    const result = await sweepOrphans(h.kube, h.runtime.provider, {
      graceSeconds: 0,
      signal: new AbortController().signal,
      logger: new MemoryLogger(),
    });
    expect(result.errors).toEqual([]);
    expect(result.deleted).toEqual(['mci/default/orphan']);
    for (const region of ['us-east-1', 'eu-west-1'] as const) {
      expect(
        owned(region).loadBalancers.map((lb) => lb.Type),
        region,
      ).toEqual(['network']);
    }
  });
});

describe('the resync', () => {
  const pass = async () => {
    const sent: ChangeNotification[] = [];
    const result = await resyncPass(
      h.kube,
      h.runtime.provider,
      { send: async (batch) => (sent.push(...batch), { failed: [] }) },
      new MemoryLogger(),
      {
        providerIngressClass: 'karmada.io/fake',
        ctx: { signal: new AbortController().signal, logger: new MemoryLogger() },
        deep: { intervalMs: 1000 * 600_000, periodMs: 600_000 },
        // No object's turn for its deep drift check (slot 2 of 1,000).
        now: new Date(2 * 600_000),
      },
    );
    return { result, modified: sent.filter((n) => n.change === 'modified').map((n) => n.ref.name) };
  };

  it('finds an unchanged multi-Region object in sync without an ELBv2 call, and a drifted Region', async () => {
    const mcs = serveMultiClusterService();
    const mci = minimalIngress();
    await h.seed([mcs, mci]);
    await settle(mcs, mci);
    for (const r of REGIONS) sims[r].calls.reset();
    const clean = await pass();
    expect(clean.modified).toEqual([]);
    expect(clean.result).toMatchObject({ differing: 0, unchanged: 2, deep: 0 });
    for (const r of REGIONS) expect(sims[r].calls.total(), r).toBe(0);

    // A Region's load balancer deleted behind our back: the object is reconciled.
    const lb = owned('eu-west-1').loadBalancers.find((l) => l.Type === 'network')!;
    sims['eu-west-1'].state.deleteLoadBalancer({ LoadBalancerArn: lb.LoadBalancerArn });
    expect((await pass()).modified).toEqual(['serve']);
  });
});

describe('the seam with Global Accelerator', () => {
  it('gets every Region’s deploy of the reconcile after them, and deletes the accelerator before the stacks', async () => {
    const calls: string[] = [];
    let seen: ReadonlyMap<string, readonly RegionalDeploy[]> = new Map();
    const accelerator: AcceleratorSeam = {
      afterRegions: async (_ctx, _obj, deploys) => {
        seen = deploys;
        calls.push(`after ${owned('eu-west-1').loadBalancers.length}`);
        return { ingress: [{ hostname: 'a1234567890abcdef.awsglobalaccelerator.com' }] };
      },
      deleteAccelerator: async () => {
        calls.push(
          `delete ${owned('us-east-1').loadBalancers.length + owned('eu-west-1').loadBalancers.length}`,
        );
      },
    };
    const config = await parseAwsConfig(providerConfig());
    const logger = new MemoryLogger();
    const provider = buildMultiRegionProvider(
      config,
      { kube: h.kube, logger },
      {},
      (region) => ({
        client: elbv2ClientFor(sims[region as Region], { retryDelayMs: 1 }),
        ec2: ec2ClientFor(ec2s[region as Region]),
      }),
      accelerator,
    );
    const mcs = serveMultiClusterService() as MultiClusterService;
    await h.seed([mcs]);
    const ctx = { signal: new AbortController().signal, logger };
    const status = await provider.mcsLoadBalancer().ensure(ctx, mcs);
    expect(status).toEqual({ ingress: [{ hostname: 'a1234567890abcdef.awsglobalaccelerator.com' }] });
    expect(calls).toEqual(['after 1']);
    const deploys = seen.get('mcs/default/serve') ?? [];
    expect(deploys.map((d) => [d.region, d.served])).toEqual([
      ['us-east-1', true],
      ['eu-west-1', true],
      ['ap-south-1', false],
    ]);
    expect(deploys[1]!.result.dnsName).toBe(owned('eu-west-1').loadBalancers[0]!.DNSName);
    await provider.mcsLoadBalancer().ensureDeleted(ctx, mcs);
    expect(calls).toEqual(['after 1', 'delete 2']);
    expect(owned('us-east-1').loadBalancers).toEqual([]);
  });
});

describe('clusterRegions', () => {
  it('overrides a Cluster’s spec.region', async () => {
    await restart({ clusterRegions: { member2: 'ap-south-1' } });
    const mcs = serveMultiClusterService();
    await h.seed([mcs]);
    await settle(mcs);
    expect(owned('ap-south-1').targets).toEqual(['10.0.144.21']);
    expect(owned('eu-west-1').loadBalancers).toEqual([]);
    expect(owned('us-east-1').targets).toEqual(['10.0.128.11', '10.0.128.12']);
  });
});
