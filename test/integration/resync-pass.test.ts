/**
 * The scheduled resync's fingerprint pass with the AWS provider against the ELBv2 simulator and
 * the Kubernetes API stand-in: one LIST per kind, the recorded fingerprints in bulk, a reconcile
 * only for the objects whose stack differs, and the deep drift checks dealt out over the interval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { karmadaCollected } from '../../dev/local/karmada-collection.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { deepSlice, resyncPass, type ResyncPassOptions } from '../../lib/maintenance/resync.js';
import { normalizeNotification } from '../../lib/notification/parse.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const N = 25;
const PERIOD = 600_000;
let sim: Elbv2Simulator;
let h: Harness;
const logger = new MemoryLogger();
const names = Array.from({ length: N }, (_, i) => `mci-${i}`);

function collector() {
  const sent: ChangeNotification[] = [];
  return {
    sent,
    send: async (batch: readonly ChangeNotification[]) => (sent.push(...batch), { failed: [] }),
  };
}

function options(deep: Partial<ResyncPassOptions['deep']> = {}, now = new Date(0)): ResyncPassOptions {
  return {
    providerIngressClass: 'karmada.io/fake',
    ctx: { signal: new AbortController().signal, logger },
    // One deep slice per 1,000 runs: almost no object's turn in a given run.
    deep: { intervalMs: 1000 * PERIOD, periodMs: PERIOD, ...deep },
    now,
  };
}

const describeSent = (sent: ChangeNotification[]) =>
  sent.map((n) => `${n.change} ${n.ref.kind} ${n.ref.name}`).sort();

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'resync';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'resync';
  sim = await startElbv2Simulator({ inProcess: true });
  // What these tests annotate (a scheme change among them) is allowed.
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, { tenantPolicy: ALLOW_ALL }),
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    serveService(),
    collectedSlice('member1', ['10.0.1.10']),
    ...names.map((n) => minimalIngress(n)),
  ]);
  const results = await h.deliver(...names.map((n) => notify(minimalIngress(n), 'added')));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
}, 120_000);
afterAll(async () => {
  await h.close();
  await sim.close();
});

describe('Function: resyncPass', () => {
  it('with no drift: one LIST per kind, no ELBv2 call (⌈N/100⌉ GetResources), nothing enqueued but Clusters and the deep slice', async () => {
    sim.calls.reset();
    sim.taggingCalls.reset();
    const out = collector();
    const result = await resyncPass(h.kube, h.runtime.provider, out, logger, options());
    expect(sim.calls.total()).toBe(0);
    expect(sim.taggingCalls.all()).toEqual({ GetResources: expect.objectContaining({ calls: 1 }) });
    expect(result).toMatchObject({ differing: 0, unchanged: N - result.deep, failed: 0 });
    expect(result.kubeLists).toEqual({
      MultiClusterIngress: 1,
      MultiClusterService: 1,
      Cluster: 1,
      IngressClass: 1,
      Service: 1,
      EndpointSlice: 1,
    });
    expect(out.sent.filter((n) => n.change !== 'resync')).toEqual([]);
    expect(out.sent.filter((n) => n.ref.kind === 'Cluster').map((n) => n.ref.name)).toEqual(['member1']);
  });

  it('when the Tagging API fails: the same tags through ELBv2, ⌈L/400⌉ + ⌈N/20⌉ calls, and the same answer', async () => {
    sim.calls.reset();
    sim.faults.failNext('GetResources', 2, { code: 'ThrottlingException' });
    const out = collector();
    const result = await resyncPass(h.kube, h.runtime.provider, out, logger, options());
    expect(sim.calls.all()).toMatchObject({
      DescribeLoadBalancers: { calls: 1 },
      DescribeTags: { calls: 2 },
    });
    expect(sim.calls.total()).toBe(3);
    // Both of the Tagging API client's attempts failed: nothing scripted is left for later tests.
    expect(sim.faults.pending('GetResources')).toBe(0);
    expect(result).toMatchObject({ differing: 0, unchanged: N - result.deep, failed: 0 });
    expect(out.sent.filter((n) => n.change !== 'resync')).toEqual([]);
  });

  it('reconciles exactly the objects whose stack differs, and nothing once they converged', async () => {
    const mci = (await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'mci-7'))!;
    const paths = mci.spec!.rules![0]!.http!.paths;
    paths.push({ ...paths[0]!, path: '/other' });
    await h.kube.update(Resources.MultiClusterIngress, mci);
    // A second object's endpoints change without any notification reaching the function.
    // As Karmada's endpointslice controller rewrites it: with the Work annotations it carries.
    const slice = karmadaCollected(collectedSlice('member1', ['10.0.1.10', '10.0.1.11']))!.slice;
    await h.kube.update(Resources.EndpointSlice, {
      ...slice,
      metadata: { ...slice.metadata, resourceVersion: undefined },
    } as never);

    const first = collector();
    const result = await resyncPass(h.kube, h.runtime.provider, first, logger, options());
    // The slice feeds every MCI (all route to serve:80): all of them differ now.
    expect(result.differing).toBe(N - result.deep);
    // As the sqs function receives them: parsed from the queue's message bodies.
    const delivered = await h.deliver(
      ...first.sent.map((n) => normalizeNotification(JSON.parse(JSON.stringify(n)))),
    );
    expect(delivered.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);

    const second = collector();
    const again = await resyncPass(h.kube, h.runtime.provider, second, logger, options());
    expect(again.differing).toBe(0);
    expect(describeSent(second.sent).filter((s) => s.startsWith('modified'))).toEqual([]);
  });

  it('deals out the deep checks: each object once per interval, each run within its cap', async () => {
    const deepChecked: string[] = [];
    for (let run = 0; run < 5; run++) {
      const out = collector();
      const result = await resyncPass(
        h.kube,
        h.runtime.provider,
        out,
        logger,
        options({ intervalMs: 2 * PERIOD, maxPerRun: 5 }, new Date(run * PERIOD)),
      );
      // 25 objects, at most 5 per run: the 2-run interval stretches to 5 runs.
      expect(result.slots).toBe(5);
      expect(result.deep).toBe(5);
      deepChecked.push(
        ...out.sent.filter((n) => n.change === 'resync' && n.ref.kind !== 'Cluster').map((n) => n.ref.name),
      );
    }
    expect(deepChecked.sort()).toEqual([...names].sort());
  });
});

describe('Function: deepSlice', () => {
  it('puts every item in exactly one of the slices, none larger than ⌈n / slots⌉', () => {
    const items = Array.from({ length: 103 }, (_, i) => `k${i}`);
    const slices = [0, 1, 2, 3].map((turn) => deepSlice(items, (k) => k, 4, turn));
    expect(slices.flat().sort()).toEqual([...items].sort());
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThanOrEqual(26);
  });
});
