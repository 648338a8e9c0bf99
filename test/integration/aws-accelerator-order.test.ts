/**
 * The order of Global Accelerator's changes against the regional load balancers', read from the
 * simulators' own state at the moment of each call (GA deploys every change asynchronously:
 * IN_PROGRESS, then DEPLOYED). A drained Region's targets are deregistered only once GA has
 * DEPLOYED its traffic dial at 0; the reconcile never waits for that inside one invocation, it
 * ends with InProgressError and the next one goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointGroup } from '@aws-sdk/client-global-accelerator';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { endpointsIn, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import { awsConfigFor, regionsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { ItemResult } from '../../lib/runtime/process.js';
import { KubeAcceleratorRecords } from '../../lib/providers/aws/accelerator/record.js';
import { OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import {
  notify,
  startHarness,
  type Harness,
  toggleTrafficControl as toggleTrafficControlOf,
} from '../support/harness.js';
import { acceleratedIngress } from '../support/objects.js';
import { ALLOW_ALL } from '../support/tenant-policy.js';

const DEPLOY_MS = 60_000;

/** GA as it stood at one ELBv2 call: the accelerator's status and each Region's dial and endpoints. */
interface GaView {
  call: string;
  status: string | undefined;
  groups: Record<string, { dial: number | undefined; endpoints: string[] }>;
}

interface World {
  h: Harness;
  ga: GaSimulator;
  sims: Record<string, Elbv2Simulator>;
  /** Every call to any simulator, in the order they were answered (`ga:<Action>`, `<region>:<Action>`). */
  order: string[];
  /** GA's state at each mutating ELBv2 call. */
  views: GaView[];
  /** GA's deployments finish (AWS: minutes). */
  deployed(): void;
  close(): Promise<void>;
}

const groupsOf = (l: { EndpointGroups: object[] } | undefined) =>
  (l?.EndpointGroups ?? []) as EndpointGroup[];

function gaView(ga: GaSimulator, call: string): GaView {
  const ours = ga.snapshot().filter((a) => a.Tags[OWNER_TAG] === 'local');
  const a = ours[0];
  return {
    call,
    status: a?.Status,
    groups: Object.fromEntries(
      groupsOf(a?.Listeners[0]).map((g) => [
        g.EndpointGroupRegion ?? '',
        {
          dial: g.TrafficDialPercentage,
          endpoints: (g.EndpointDescriptions ?? []).map((e) => e.EndpointId ?? ''),
        },
      ]),
    ),
  };
}

/** One ELBv2 simulator per Region (one Region: the one-Region provider; more: `regions:`). */
async function startWorld(regions: readonly string[], clusters: Record<string, string>): Promise<World> {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  let clock = Date.parse('2026-12-02T00:00:00Z');
  const order: string[] = [];
  const views: GaView[] = [];
  const sims: Record<string, Elbv2Simulator> = {};
  // The ELBv2 simulators' hook reads GA, which starts after them (it resolves their load balancers).
  const front: { ga?: GaSimulator } = {};
  for (const region of regions) {
    sims[region] = await startElbv2Simulator({
      region,
      afterCall: (action) => {
        order.push(`${region}:${action}`);
        if (front.ga && !/^(Describe|List)/.test(action)) views.push(gaView(front.ga, `${region}:${action}`));
      },
    });
  }
  const ga = (front.ga = await startGaSimulator({
    deployMs: DEPLOY_MS,
    now: () => clock,
    endpoints: endpointsIn(regions.map((r) => sims[r]!)),
    afterCall: (action) => order.push(`ga:${action}`),
  }));
  const extra = { globalAccelerator: { enabled: false, endpoint: ga.url }, tenantPolicy: ALLOW_ALL };
  const providerConfig =
    regions.length === 1
      ? awsConfigFor(sims[regions[0]!]!, extra)
      : regionsConfigFor(
          regions.map((region) => ({ region, elbv2: sims[region]! })),
          {},
          { ownerId: 'local', ...extra },
        );
  const h = await startHarness({ provider: 'aws', providerConfig });
  const ips = ['10.0.128.11', '10.0.144.21', '10.0.160.31'];
  await h.seed([
    ingressClass(),
    ...Object.entries(clusters).map(([name, region]) =>
      cluster(name, false, regions.length === 1 ? undefined : region),
    ),
    serveService(),
    resourceBinding(),
    ...Object.keys(clusters).map((name, i) => collectedSlice(name, [ips[i]!])),
  ]);
  return {
    h,
    ga,
    sims,
    order,
    views,
    deployed: () => {
      clock += DEPLOY_MS + 1000;
    },
    close: async () => {
      await h.close();
      await ga.close();
      for (const sim of Object.values(sims)) await sim.close();
    },
  };
}

const accelerated = acceleratedIngress;

const failures = (results: readonly ItemResult[]) => results.filter((r) => !r.ok).map((r) => r.error);

async function reconcile(w: World): Promise<ItemResult[]> {
  return w.h.deliver(notify(accelerated() as KubeObject, 'modified'));
}

/** Created and settled, every GA deployment finished, the logs emptied. */
async function served(w: World): Promise<void> {
  await w.h.kube.create(Resources.MultiClusterIngress, accelerated() as KubeObject);
  for (let i = 0; i < 3; i++) expect(failures(await reconcile(w))).toEqual([]);
  w.deployed();
  w.order.length = 0;
  w.views.length = 0;
}

/** TrafficControl on (or off) a cluster (its Cluster's status), delivered as the Cluster's change. */
async function block(w: World, name: string, on = true): Promise<ItemResult[]> {
  return toggleTrafficControlOf(w.h, name, on);
}

const records = (w: World) => new KubeAcceleratorRecords(w.h.kube, 'karmada-system', 'local', w.h.logger);

/** Every cluster but the last of `blocked` out, then the last: the pass that lowers the dial. */
async function drain(w: World, blocked: readonly string[]): Promise<ItemResult[]> {
  for (const name of blocked.slice(0, -1)) expect(failures(await block(w, name))).toEqual([]);
  w.order.length = 0;
  w.views.length = 0;
  const results = await block(w, blocked[blocked.length - 1]!);
  expect(failures(results)).toEqual([expect.stringMatching(/set to 0/)]);
  return results;
}

const cases = [
  {
    name: 'one Region: both clusters blocked, the accelerator dials the Region to 0',
    regions: ['us-east-1'],
    clusters: { member1: 'us-east-1', member2: 'us-east-1' },
    blocked: ['member1', 'member2'],
    drained: 'us-east-1',
  },
  {
    name: 'two Regions: eu-west-1’s only cluster blocked, its dial to 0 while us-east-1 serves',
    regions: ['us-east-1', 'eu-west-1'],
    clusters: { member1: 'us-east-1', member2: 'eu-west-1' },
    blocked: ['member2'],
    drained: 'eu-west-1',
  },
] as const;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe.each(cases)('$name', ({ regions, clusters, blocked, drained }) => {
  it('deregisters the drained Region’s targets only once GA has DEPLOYED its dial at 0, across reconciles', async () => {
    const w = (world = await startWorld(regions, clusters));
    await served(w);
    const deregistered = () => w.order.filter((c) => c === `${drained}:DeregisterTargets`);

    // Another cluster still serves the Region: its dial stays, and the cluster's targets go.
    for (const name of blocked.slice(0, -1)) expect(failures(await block(w, name))).toEqual([]);
    w.order.length = 0;
    w.views.length = 0;
    // The pass that blocks the last cluster lowers the dial, and stops there: GA is IN_PROGRESS.
    const results = await block(w, blocked[blocked.length - 1]!);
    expect(failures(results)).toEqual([
      expect.stringMatching(new RegExp(`traffic dial of ${drained} set to 0`)),
    ]);
    expect(results.find((r) => !r.ok)?.retryAfterSeconds).toBe(30);
    expect(w.order).toContain('ga:UpdateEndpointGroup');
    expect(gaView(w.ga, 'now')).toMatchObject({
      status: 'IN_PROGRESS',
      groups: { [drained]: { dial: 0 } },
    });
    expect(deregistered()).toEqual([]);

    // Retried while GA still deploys: one DescribeAccelerator, no change anywhere.
    w.order.length = 0;
    expect(failures(await reconcile(w))).toEqual([expect.stringMatching(/at 0 is not deployed yet/)]);
    expect(w.order.filter((c) => c.startsWith('ga:'))).toEqual(['ga:DescribeAccelerator']);
    expect(deregistered()).toEqual([]);

    // DEPLOYED: the next pass deregisters, and GA had the dial at 0 deployed at that moment.
    w.deployed();
    w.order.length = 0;
    expect(failures(await reconcile(w))).toEqual([]);
    expect(deregistered().length).toBeGreaterThan(0);
    const first = w.views.find((v) => v.call === `${drained}:DeregisterTargets`);
    expect(first).toMatchObject({ status: 'DEPLOYED', groups: { [drained]: { dial: 0 } } });
    // Never before: no ELBv2 call in the drained Region saw its dial above 0 or not deployed.
    for (const v of w.views.filter((x) => x.call.startsWith(`${drained}:`)))
      expect([v.status, v.groups[drained]?.dial]).toEqual(['DEPLOYED', 0]);

    // Settled: a no-op makes no GA call.
    w.order.length = 0;
    expect(failures(await reconcile(w))).toEqual([]);
    expect(w.order.filter((c) => c.startsWith('ga:'))).toEqual([]);
  });

  it('a record lost while the dial deploys: GA is read, and the targets still wait for DEPLOYED', async () => {
    const w = (world = await startWorld(regions, clusters));
    await served(w);
    await drain(w, blocked);
    await records(w).forget('mci/default/web');

    w.order.length = 0;
    expect(failures(await reconcile(w))).toEqual([expect.stringMatching(/at 0 is not deployed yet/)]);
    expect(w.order).toContain('ga:ListAccelerators');
    expect(w.order.filter((c) => c.startsWith('ga:') && !/:(List|Describe)/.test(c))).toEqual([]);
    expect(w.order).not.toContain(`${drained}:DeregisterTargets`);

    w.deployed();
    expect(failures(await reconcile(w))).toEqual([]);
    expect(w.views.find((v) => v.call === `${drained}:DeregisterTargets`)).toMatchObject({
      status: 'DEPLOYED',
      groups: { [drained]: { dial: 0 } },
    });
  });

  it('restored before GA deployed the dial: no target ever goes, the dial comes back, nothing is left waiting', async () => {
    const w = (world = await startWorld(regions, clusters));
    await served(w);
    await drain(w, blocked);
    expect((await records(w).read('mci/default/web'))?.lowered).toEqual([drained]);

    const last = blocked[blocked.length - 1]!;
    expect(failures(await block(w, last, false))).toEqual([]);
    expect(w.order).not.toContain(`${drained}:DeregisterTargets`);
    expect(gaView(w.ga, 'now').groups[drained]?.dial).toBe(100);
    expect((await records(w).read('mci/default/web'))?.lowered).toBeUndefined();
    w.deployed();
    w.order.length = 0;
    expect(failures(await reconcile(w))).toEqual([]);
    expect(w.order.filter((c) => c.startsWith('ga:'))).toEqual([]);
  });
});
