/**
 * Global Accelerator in front, end to end: the lifecycle functions' code (processBatch, every
 * controller) with the AWS provider built from its configuration file, against the Kubernetes API
 * stand-in, the ELBv2 simulator and the GA simulator (endpoints resolved against the ELBv2
 * simulator's load balancers). One Region (the configured one) until the regional orchestrator
 * passes every Region's endpoint.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { endpointsIn, gaClientFor, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import type { CoreEvent } from '../../dev/local/narration.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  resourceBinding,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import {
  CreateAcceleratorCommand,
  DescribeAcceleratorCommand,
  type EndpointGroup,
} from '@aws-sdk/client-global-accelerator';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import type { AwsProvider } from '../../lib/providers/aws/provider.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import {
  edit,
  notify,
  startHarness,
  type Harness,
  toggleTrafficControl as toggleTrafficControlOf,
} from '../support/harness.js';
import { acceleratedIngress } from '../support/objects.js';
import { ALLOW_ALL } from '../support/tenant-policy.js';

const GA = 'multicluster.karmada.io/global-accelerator';
const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;

let sim: Elbv2Simulator;
let ga: GaSimulator;
let h: Harness;
/** Every call to either simulator, in the order they were answered. */
let order: string[];
let clock: number;

const accelerated = acceleratedIngress;

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  order = [];
  clock = Date.parse('2026-12-02T00:00:00Z');
  sim = await startElbv2Simulator({ inProcess: true, afterCall: (a) => order.push(`elbv2:${a}`) });
  ga = await startGaSimulator({
    inProcess: true,
    deployMs: 60_000,
    now: () => clock,
    endpoints: endpointsIn([sim]),
    afterCall: (a) => order.push(`ga:${a}`),
  });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    // The accelerator and what these tests annotate are allowed (the policy's tests are elsewhere).
    providerConfig: awsConfigFor(sim, {
      globalAccelerator: { enabled: false, endpoint: ga.url },
      tenantPolicy: ALLOW_ALL,
    }),
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.0.128.11']),
    collectedSlice('member2', ['10.0.144.21']),
  ]);
});
afterEach(async () => {
  await h.close();
  await ga.close();
  await sim.close();
});

/** Creates or updates the object, then delivers its notification until nothing changes. */
async function apply(obj: KubeObject, type: ResourceType = Resources.MultiClusterIngress) {
  const existing = await h.kube.get<KubeObject>(type, 'default', obj.metadata.name ?? '');
  if (!existing) await h.kube.create(type, obj);
  else {
    await h.kube.update(type, {
      ...existing,
      metadata: { ...existing.metadata, annotations: obj.metadata.annotations },
    } as KubeObject);
  }
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(obj, i === 0 ? 'added' : 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

const mciNow = () => h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'web');
/** The simulator's endpoint groups, as the SDK types them. */
const groups = (l: { EndpointGroups: object[] } | undefined) => (l?.EndpointGroups ?? []) as EndpointGroup[];
const ours = () => ga.snapshot().filter((a) => a.Tags?.[OWNER_TAG] === 'local');
const gaCalls = () => order.filter((c) => c.startsWith('ga:'));
const albArn = () => sim.snapshot().loadBalancers[0]?.LoadBalancerArn;
/** The accelerator's static IPs, as GA describes them. */
async function ipsOf(arn: string | undefined): Promise<string[]> {
  const out = await gaClientFor(ga).send(new DescribeAcceleratorCommand({ AcceleratorArn: arn }));
  return (out.Accelerator?.IpSets ?? []).flatMap((s) => s.IpAddresses ?? []);
}

/** `wait`: the pass waits on GA (a drain's dial at 0 not deployed yet) instead of succeeding. */
async function setTrafficControl(name: string, on: boolean, wait = false) {
  const results = await toggleTrafficControlOf(h, name, on);
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual(
    wait ? [expect.stringMatching(/traffic dial of us-east-1 set to 0/)] : [],
  );
}

/** GA's deployments finish (AWS: minutes). */
function deployed() {
  clock += 61_000;
}

describe('an MCI with an accelerator in front', () => {
  it('gets one accelerator, a listener per listen port and an endpoint group with its ALB; a no-op calls GA never', async () => {
    await apply(
      accelerated({
        [A('listen-ports')]: '[{"HTTP":80},{"HTTP":8080}]',
        [`${GA}-client-affinity`]: 'SOURCE_IP',
        [`${GA}-healthcheck-protocol`]: 'HTTP',
        [`${GA}-healthcheck-path`]: '/healthz',
      }),
    );
    const [acc, ...others] = ours();
    expect(others).toEqual([]);
    expect(acc?.Enabled).toBe(true);
    expect(acc?.IpAddressType).toBe('IPV4');
    expect(acc?.Tags?.[STACK_TAG]).toBe('mci/default/web');
    expect(acc?.Listeners.map((l) => [l.Protocol, l.PortRanges, l.ClientAffinity])).toEqual([
      ['TCP', [{ FromPort: 80, ToPort: 80 }], 'SOURCE_IP'],
      ['TCP', [{ FromPort: 8080, ToPort: 8080 }], 'SOURCE_IP'],
    ]);
    for (const l of acc?.Listeners ?? []) {
      expect(l.EndpointGroups).toHaveLength(1);
      const g = groups(l)[0]!;
      expect(g.EndpointGroupRegion).toBe('us-east-1');
      expect(g.TrafficDialPercentage).toBe(100);
      expect(g.HealthCheckProtocol).toBe('HTTP');
      expect(g.HealthCheckPath).toBe('/healthz');
      expect(
        g.EndpointDescriptions?.map((e) => [e.EndpointId, e.Weight, e.ClientIPPreservationEnabled]),
      ).toEqual([[albArn(), 128, true]]);
    }
    // The status is the accelerator's entry point: its DNS name and its two static IPs.
    const mci = await mciNow();
    expect(mci?.status?.loadBalancer?.ingress).toEqual([
      { hostname: acc?.DnsName },
      ...(await ipsOf(acc?.AcceleratorArn)).map((ip) => ({ ip })),
    ]);
    expect(mci?.status?.loadBalancer?.ingress).toHaveLength(3);
    expect(mci?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '').toContain('"status":"True"');

    // No-op: the accelerator record answers; not one GA call, the client not even needed.
    order = [];
    const results = await h.deliver(notify(accelerated(), 'modified'));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(gaCalls()).toEqual([]);
  });

  it('sets the dial to 0 before the drain when every cluster is blocked, and back after the restore', async () => {
    await apply(accelerated());
    const dial = () => groups(ours()[0]?.Listeners[0])[0]?.TrafficDialPercentage;
    expect(dial()).toBe(100);
    deployed();

    order = [];
    await setTrafficControl('member1', true);
    // One cluster left: the Region still serves, its dial stays.
    expect(dial()).toBe(100);
    expect(gaCalls()).toEqual([]);
    order = [];
    await setTrafficControl('member2', true, true);
    expect(dial()).toBe(0);
    // Clients leave the Region first (GA), then, once GA has deployed that, its targets go (ELBv2).
    expect(order).toContain('ga:UpdateEndpointGroup');
    expect(order).not.toContain('elbv2:DeregisterTargets');
    deployed();
    order = [];
    const results = await h.deliver(notify(accelerated(), 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    // GA is asked whether it has deployed the dial, and changed no more.
    expect(gaCalls().filter((c) => !/:(List|Describe)/.test(c))).toEqual([]);
    expect(gaCalls()[0]).toBe('ga:DescribeAccelerator');
    expect(order).toContain('elbv2:DeregisterTargets');

    order = [];
    await setTrafficControl('member1', false);
    expect(dial()).toBe(100);
    // Targets back first (ELBv2), then the dial (GA).
    expect(order.indexOf('ga:UpdateEndpointGroup')).toBeGreaterThan(order.indexOf('elbv2:RegisterTargets'));
  });

  it('a resync reads GA: an accelerator deleted by hand is made again, and the status follows', async () => {
    await apply(accelerated());
    const [gone] = ours();
    // Out of band (the console): disabled, emptied and deleted, which the record cannot know.
    for (const l of gone?.Listeners ?? []) {
      for (const g of groups(l)) ga.state.endpointGroups.delete(g.EndpointGroupArn ?? '');
      ga.state.listeners.delete(l.ListenerArn);
    }
    ga.state.accelerators.delete(gone?.AcceleratorArn ?? '');
    // A plain reconcile trusts the record (no GA call); the resync's reads GA.
    order = [];
    await h.deliver(notify(accelerated(), 'modified'));
    expect(gaCalls()).toEqual([]);
    const results = await h.deliver(notify(accelerated(), 'resync'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    const [again] = ours();
    expect(again?.AcceleratorArn).not.toBe(gone?.AcceleratorArn);
    expect(groups(again?.Listeners[0])[0]?.EndpointDescriptions?.[0]?.EndpointId).toBe(albArn());
    expect((await mciNow())?.status?.loadBalancer?.ingress?.[0]).toEqual({ hostname: again?.DnsName });
  });

  it('a per-Region dial annotation sets the dial (a regional canary)', async () => {
    await apply(accelerated({ [`${GA}-traffic-dials`]: 'us-east-1=10' }));
    expect(groups(ours()[0]?.Listeners[0])[0]?.TrafficDialPercentage).toBe(10);
  });

  it('is deleted across reconciles: disabled, then its listeners, then it, then the finalizer goes', async () => {
    await apply(accelerated());
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'web');
    const deliver = async () => (await h.deliver(notify(accelerated(), 'modified')))[0]!;

    const first = await deliver();
    expect(first.ok).toBe(false);
    expect(first.retryAfterSeconds).toBeGreaterThan(0);
    expect(ours()[0]?.Enabled).toBe(false);
    expect(ours()[0]?.Status).toBe('IN_PROGRESS');
    // Nothing of the ELBv2 stack goes before the accelerator.
    expect(sim.snapshot().loadBalancers).toHaveLength(1);
    expect(await mciNow()).toBeDefined();

    // Still IN_PROGRESS: no change, wait again.
    order = [];
    expect((await deliver()).ok).toBe(false);
    expect(gaCalls().filter((c) => !/:(List|Describe)/.test(c))).toEqual([]);

    deployed();
    expect((await deliver()).ok).toBe(false);
    expect(ours()[0]?.Listeners).toEqual([]);

    deployed();
    const last = await deliver();
    expect(last.ok).toBe(true);
    expect(ours()).toEqual([]);
    expect(sim.snapshot().loadBalancers).toEqual([]);
    expect(await mciNow()).toBeUndefined();

    // Waiting on GA is progress, not failure: one Normal Event per step (not per wait), no Warning.
    const told = (await h.kube.list<CoreEvent>(Resources.Event, { namespace: 'default' })).items
      .filter(
        (e) => e.involvedObject?.name === 'web' && !/^(Ensured|Updated)LoadBalancer$/.test(e.reason ?? ''),
      )
      .map((e) => [e.type, e.reason, e.message, e.count ?? 1]);
    expect(told).toHaveLength(3);
    expect(told).toEqual(
      expect.arrayContaining([
        [
          'Normal',
          'AcceleratorDeleting',
          expect.stringMatching(
            /^Global Accelerator: mcp-local-mci-default-web-\w+ disabled; Global Accelerator deletes it once that is deployed; next step in about 30 s$/,
          ),
          1,
        ],
        [
          'Normal',
          'AcceleratorDeleting',
          expect.stringMatching(
            /^Global Accelerator: the listeners and endpoint groups of mcp-local-mci-default-web-\w+ deleted; the accelerator goes once that is deployed; next step in about 30 s$/,
          ),
          1,
        ],
        ['Normal', 'DeletedLoadBalancer', 'Deleted load balancer', 1],
      ]),
    );
  });

  it('refuses a new accelerator over the account quota, naming it, before any GA change', async () => {
    const client = gaClientFor(ga);
    for (let i = 0; i < 20; i++) await client.send(new CreateAcceleratorCommand({ Name: `other-${i}` }));
    order = [];
    await h.kube.create(Resources.MultiClusterIngress, accelerated() as KubeObject);
    const [result] = await h.deliver(notify(accelerated(), 'added'));
    expect(result?.ok).toBe(true);
    expect(gaCalls().filter((c) => !/:(List|Describe)/.test(c))).toEqual([]);
    const condition = (await mciNow())?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '';
    expect(condition).toContain('AcceleratorLimitExceeded');
    expect(condition).toContain('default quota');
  });

  it('refuses more listen ports than an accelerator has listeners before any AWS call', async () => {
    const ports = Array.from({ length: 11 }, (_, i) => ({ HTTP: 8000 + i }));
    await h.kube.create(
      Resources.MultiClusterIngress,
      accelerated({ [A('listen-ports')]: JSON.stringify(ports) }) as KubeObject,
    );
    order = [];
    await h.deliver(notify(accelerated(), 'added'));
    expect(order.filter((c) => !/:(List|Describe|GetResources)/.test(c))).toEqual([]);
    const condition = (await mciNow())?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '';
    expect(condition).toContain('AcceleratorLimitExceeded');
    expect(condition).toContain('11 listeners');
  });

  it('a bad annotation is refused naming the key, before any AWS call', async () => {
    await h.kube.create(
      Resources.MultiClusterIngress,
      accelerated({ [`${GA}-client-affinity`]: 'STICKY' }) as KubeObject,
    );
    order = [];
    await h.deliver(notify(accelerated(), 'added'));
    expect(order.filter((c) => !/:(List|Describe|GetResources)/.test(c))).toEqual([]);
    const condition = (await mciNow())?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '';
    expect(condition).toContain('InvalidAcceleratorAnnotation');
    expect(condition).toContain(`${GA}-client-affinity`);
  });

  it('removing the annotation retires the accelerator; the sweep finishes the job', async () => {
    await apply(accelerated());
    await apply({ ...accelerated(), metadata: { ...accelerated().metadata, annotations: {} } } as KubeObject);
    expect(ours()[0]?.Enabled).toBe(false);
    const alb = (sim.snapshot().loadBalancers[0]?.DNSName ?? '').toLowerCase();
    expect((await mciNow())?.status?.loadBalancer?.ingress).toEqual([{ hostname: alb }]);
    const provider = h.runtime.provider as AwsProvider;
    const sweep = () =>
      sweepOrphans(h.kube, provider, {
        graceSeconds: 0,
        signal: new AbortController().signal,
        logger: h.logger,
      });
    for (let i = 0; i < 3 && ours().length > 0; i++) {
      deployed();
      await sweep();
    }
    expect(ours()).toEqual([]);
    expect(sim.snapshot().loadBalancers).toHaveLength(1);
  });

  it('globalAccelerator taken out of the configuration: the annotation alone creates none, and the sweep finds the one made before by its record', async () => {
    await h.close();
    const gaClient = gaClientFor(ga);
    h = await startHarness({
      inProcess: true,
      provider: 'aws',
      providerConfig: awsConfigFor(sim, { tenantPolicy: ALLOW_ALL }),
    });
    // The configuration names no GA endpoint: the simulator's client is given to the provider,
    // and GA's configuration is there only while the accelerator is made (the operator removes it after).
    const provider = h.runtime.provider as AwsProvider;
    const service = provider.accelerators as unknown as { options: { client: unknown; config: object } };
    service.options.client = gaClient;
    const without = service.options.config;
    service.options.config = { ...without, globalAccelerator: { enabled: false } };
    await h.seed([
      ingressClass(),
      cluster('member1'),
      cluster('member2'),
      serveService(),
      resourceBinding(),
      collectedSlice('member1', ['10.0.128.11']),
      collectedSlice('member2', ['10.0.144.21']),
    ]);
    await apply(accelerated());
    expect(ours()).toHaveLength(1);
    service.options.config = without;
    // Asked for again, now that GA is not configured: refused, and GA is not called.
    order = [];
    const [refused] = await h.deliver(notify(accelerated(), 'modified'));
    expect(refused?.results.find((r) => r.controller === 'multiclusteringress')?.outcome).toBe('invalid');
    expect((await mciNow())?.metadata.annotations?.[CONDITION_ANNOTATION]).toContain(
      'GlobalAcceleratorNotConfigured',
    );
    expect(gaCalls()).toEqual([]);
    expect(ours()).toHaveLength(1);
    await apply({ ...accelerated(), metadata: { ...accelerated().metadata, annotations: {} } } as KubeObject);
    expect(ours()[0]?.Enabled).toBe(false);
    const sweep = () =>
      sweepOrphans(h.kube, provider, {
        graceSeconds: 0,
        signal: new AbortController().signal,
        logger: h.logger,
      });
    for (let i = 0; i < 3 && ours().length > 0; i++) {
      deployed();
      await sweep();
    }
    expect(ours()).toEqual([]);
    // Its record went with it: the next sweep makes no GA call.
    order = [];
    await sweep();
    expect(gaCalls()).toEqual([]);
  });

  it('the orphan sweep disables, waits for and deletes the accelerator of an object gone', async () => {
    await apply(accelerated());
    // Force-deleted: the finalizer removed by hand, nothing of the stack deleted.
    const [, stripped] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'default',
      'web',
      (m) => {
        m.metadata.finalizers = [];
      },
    );
    expect(stripped.metadata.finalizers ?? []).toEqual([]);
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'web');
    const provider = h.runtime.provider as AwsProvider;
    const sweep = () =>
      sweepOrphans(h.kube, provider, {
        graceSeconds: 0,
        signal: new AbortController().signal,
        logger: h.logger,
      });
    const first = await sweep();
    expect(first.orphaned).toEqual(['mci/default/web']);
    expect(first.deferred).toEqual(['mci/default/web']);
    expect(ours()[0]?.Enabled).toBe(false);
    for (let i = 0; i < 3 && ours().length > 0; i++) {
      deployed();
      await sweep();
    }
    expect(ours()).toEqual([]);
    expect(sim.snapshot().loadBalancers).toEqual([]);
  });
});

describe('an MCS with an accelerator in front', () => {
  const mcs = (): MultiClusterService => {
    const base = serveMultiClusterService() as MultiClusterService;
    return { ...base, metadata: { ...base.metadata, annotations: { [GA]: 'true' } } };
  };

  it('gets TCP listeners for its ports and its NLB as the endpoint, and is deleted across reconciles', async () => {
    await apply(mcs() as KubeObject, Resources.MultiClusterService);
    const [acc] = ours();
    const nlb = sim.snapshot().loadBalancers[0];
    expect(nlb?.Type).toBe('network');
    expect(acc?.Listeners.map((l) => [l.Protocol, l.PortRanges])).toEqual([
      ['TCP', [{ FromPort: 80, ToPort: 80 }]],
    ]);
    expect(groups(acc?.Listeners[0])[0]?.EndpointDescriptions?.[0]?.EndpointId).toBe(nlb?.LoadBalancerArn);
    const status = (await h.kube.get<MultiClusterService>(Resources.MultiClusterService, 'default', 'serve'))
      ?.status;
    expect(status?.loadBalancer?.ingress?.[0]).toEqual({ hostname: acc?.DnsName });
    expect(status?.loadBalancer?.ingress?.slice(1).map((i) => i.ip)).toEqual(
      await ipsOf(acc?.AcceleratorArn),
    );

    await h.kube.delete(Resources.MultiClusterService, 'default', 'serve');
    for (let i = 0; i < 4 && ours().length > 0; i++) {
      await h.deliver(notify(mcs(), 'modified'));
      deployed();
    }
    await h.deliver(notify(mcs(), 'modified'));
    expect(ours()).toEqual([]);
    expect(sim.snapshot().loadBalancers).toEqual([]);
    expect(await h.kube.get(Resources.MultiClusterService, 'default', 'serve')).toBeUndefined();
  });
});
