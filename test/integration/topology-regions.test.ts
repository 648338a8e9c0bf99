/**
 * The topology `npm start` draws and `npm run plan -- --graph` writes, from the provider's plans
 * against the simulators: over two Regions, each Region's load balancer with only its own
 * clusters' targets, and the Global Accelerator in front with each Region's dial; what the plans
 * still do is marked pending, and goes once the lifecycle has applied it. One Region with an
 * accelerator draws the same front door over its one load balancer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
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
import { parseAwsConfig, type AwsProvider, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import type { MultiRegionProvider } from '../../lib/providers/aws/regions/provider.js';
import { OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { toMermaid } from '../../lib/topology/mermaid.js';
import { topologyOf } from '../../lib/topology/source.js';
import type { Topology } from '../../lib/topology/types.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const GA = 'multicluster.karmada.io/global-accelerator';
const DIALS = 'multicluster.karmada.io/global-accelerator-traffic-dials';

let sims: Elbv2Simulator[];
let ga: GaSimulator;
let h: Harness;
let config: AwsProviderConfig;

function regionEntry(sim: Elbv2Simulator) {
  return {
    endpoint: sim.url,
    taggingEndpoint: sim.url,
    vpc: { id: sim.network.vpcId, cidrs: [sim.network.vpcCidr] },
    subnets: sim.network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    securityGroups: [sim.network.defaultSecurityGroupId],
  };
}

async function start(regions: readonly string[]) {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sims = [];
  for (const region of regions) sims.push(await startElbv2Simulator({ inProcess: true, region }));
  ga = await startGaSimulator({ inProcess: true, deployMs: 0, endpoints: endpointsIn(sims) });
  const text = JSON.stringify({
    ownerId: 'local',
    recordNamespace: 'karmada-system',
    globalAccelerator: { enabled: false, endpoint: ga.url },
    // The accelerator these objects ask for is allowed.
    tenantPolicy: ALLOW_ALL,
    ...(regions.length === 1
      ? { region: regions[0], ...regionEntry(sims[0]!) }
      : { regions: sims.map((sim, i) => ({ region: regions[i], ...regionEntry(sim) })) }),
  });
  config = await parseAwsConfig(text);
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: text });
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
  await ga.close();
  for (const sim of sims) await sim.close();
});

const accelerated = (o: KubeObject, extra: Record<string, string> = {}): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [GA]: 'true', ...extra } },
});

async function settle(obj: KubeObject) {
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(obj, 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

type Obj = MultiClusterIngress | MultiClusterService;

async function topology(type: ResourceType, name: string): Promise<Topology> {
  const obj = (await h.kube.get<Obj>(type, 'default', name))!;
  return topologyOf(obj, {
    kube: h.kube,
    config,
    provider: h.runtime.provider as AwsProvider | MultiRegionProvider,
  });
}

/** Region → its load balancer's name, whether pending, and its targets (`id:port@cluster`). */
const regionsOf = (t: Topology) =>
  Object.fromEntries(
    t.regions.map((r) => [
      r.region,
      r.loadBalancers.map((lb) => ({
        pending: lb.pending,
        dnsName: lb.dnsName,
        targets: lb.targetGroups
          .flatMap((tg) => tg.clusters.flatMap((c) => c.targets.map((x) => `${x.id}:${x.port}@${c.name}`)))
          .sort(),
      })),
    ]),
  );

const ours = () => ga.snapshot().filter((a) => a.Tags[OWNER_TAG] === 'local');

describe('topology over two Regions with an accelerator in front', () => {
  beforeEach(() => start(['us-east-1', 'eu-west-1']));

  it('an MCI: each Region its ALB with its own targets, the accelerator in front; pending until applied, then addresses', async () => {
    await h.kube.create(Resources.MultiClusterIngress, accelerated(minimalIngress()));
    const before = await topology(Resources.MultiClusterIngress, 'minimal-ingress');
    expect(before.error).toBeUndefined();
    expect(regionsOf(before)).toStrictEqual({
      'us-east-1': [
        {
          pending: 'create',
          dnsName: undefined,
          targets: ['10.0.128.11:8080@member1', '10.0.128.12:8080@member1'],
        },
      ],
      'eu-west-1': [{ pending: 'create', dnsName: undefined, targets: ['10.0.144.21:8080@member2'] }],
    });
    expect(before.frontDoors).toHaveLength(1);
    const door = before.frontDoors[0]!;
    expect(door).toMatchObject({
      kind: 'Global Accelerator',
      pending: 'create',
      addresses: [],
      listeners: ['TCP:80'],
      clientAffinity: 'NONE',
    });
    expect(door.regions).toStrictEqual([
      { region: 'eu-west-1', weight: 100, pending: 'create' },
      { region: 'us-east-1', weight: 100, pending: 'create' },
    ]);
    // A plan changes nothing.
    expect(ours()).toEqual([]);

    await settle(accelerated(minimalIngress()));
    const after = await topology(Resources.MultiClusterIngress, 'minimal-ingress');
    const accelerator = ours()[0]!;
    expect(after.frontDoors[0]?.name).toBe(accelerator.Name);
    expect(after.frontDoors[0]?.pending).toBeUndefined();
    expect(after.frontDoors[0]?.addresses).toStrictEqual([
      accelerator.DnsName?.toLowerCase(),
      ...accelerator.IpAddresses,
    ]);
    expect(after.frontDoors[0]?.regions).toStrictEqual([
      { region: 'eu-west-1', weight: 100 },
      { region: 'us-east-1', weight: 100 },
    ]);
    // Each load balancer shows its own DNS name, not the status's (the accelerator's).
    for (const [i, region] of ['us-east-1', 'eu-west-1'].entries()) {
      const lb = after.regions.find((r) => r.region === region)?.loadBalancers[0];
      expect(lb?.pending).toBeUndefined();
      expect(lb?.dnsName).toBe(sims[i]!.snapshot().loadBalancers[0]?.DNSName?.toLowerCase());
    }

    // A regional canary by annotation: eu-west-1's dial to 10 is pending until applied.
    const canary = accelerated(minimalIngress(), { [DIALS]: 'eu-west-1=10' });
    const current = (await h.kube.get<KubeObject>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    await h.kube.update(Resources.MultiClusterIngress, {
      ...current,
      metadata: { ...current.metadata, annotations: canary.metadata.annotations },
    });
    const planned = await topology(Resources.MultiClusterIngress, 'minimal-ingress');
    expect(planned.frontDoors[0]?.regions).toStrictEqual([
      { region: 'eu-west-1', weight: 10, pending: 'modify' },
      { region: 'us-east-1', weight: 100 },
    ]);
    const graph = toMermaid(planned);
    expect(graph).toContain('subgraph n3["Region us-east-1"]');
    expect(graph).toMatch(/n2 -->\|"dial 10% \(modify pending\)"\| n\d+/);
    expect(graph).toMatch(/n2 -->\|"dial 100%"\| n3/);
  });

  it('an MCS: an NLB per Region with TCP listeners, the accelerator in front', async () => {
    await h.kube.create(Resources.MultiClusterService, accelerated(serveMultiClusterService()));
    await settle(accelerated(serveMultiClusterService()));
    const t = await topology(Resources.MultiClusterService, 'serve');
    expect(t.error).toBeUndefined();
    expect(t.regions.map((r) => [r.region, r.loadBalancers.map((lb) => lb.type)])).toStrictEqual([
      ['us-east-1', ['network']],
      ['eu-west-1', ['network']],
    ]);
    expect(regionsOf(t)['eu-west-1']?.[0]?.targets).toStrictEqual(['10.0.144.21:8080@member2']);
    expect(t.frontDoors[0]?.listeners).toStrictEqual(['TCP:80']);
    expect(t.frontDoors[0]?.addresses[0]).toBe(ours()[0]?.DnsName?.toLowerCase());
  });

  it('a Region without clusters of the object is not drawn; a cluster with no Region draws nowhere', async () => {
    const mci = minimalIngress();
    await h.kube.create(Resources.MultiClusterIngress, mci);
    const current = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, 'member2'))!;
    await h.kube.update(Resources.Cluster, { ...current, spec: { syncMode: 'Push' } } as KubeObject);
    const t = await topology(Resources.MultiClusterIngress, 'minimal-ingress');
    expect(Object.keys(regionsOf(t))).toStrictEqual(['us-east-1']);
    expect(regionsOf(t)['us-east-1']?.[0]?.targets).toStrictEqual([
      '10.0.128.11:8080@member1',
      '10.0.128.12:8080@member1',
    ]);
    expect(t.frontDoors).toStrictEqual([]);
  });
});

describe('topology in one Region with an accelerator in front', () => {
  beforeEach(() => start(['us-east-1']));

  it('the front door over the one load balancer, its dial, and the load balancer its own DNS name', async () => {
    await h.kube.create(Resources.MultiClusterIngress, accelerated(minimalIngress()));
    await settle(accelerated(minimalIngress()));
    const t = await topology(Resources.MultiClusterIngress, 'minimal-ingress');
    expect(t.frontDoors.map((d) => [d.pending, d.regions])).toStrictEqual([
      [undefined, [{ region: 'us-east-1', weight: 100 }]],
    ]);
    expect(t.frontDoors[0]?.addresses[0]).toBe(ours()[0]?.DnsName?.toLowerCase());
    const lb = t.regions[0]?.loadBalancers[0];
    expect(lb?.dnsName).toBe(sims[0]!.snapshot().loadBalancers[0]?.DNSName?.toLowerCase());
    // Both clusters' targets in the one Region.
    expect(regionsOf(t)['us-east-1']?.[0]?.targets).toHaveLength(3);
  });
});
