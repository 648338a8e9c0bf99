/**
 * The scale section (bench/README.md, "scale"): 10,000 MultiClusterIngresses on the simulator.
 * The resync's fingerprint pass runs on all of them over the wire; what one reconcile of one stack
 * costs (deep check, drift repair, endpoint change) is measured on a sample of stacks built by the
 * provider itself and multiplied out. The other stacks are written straight into the simulator's
 * state (a load balancer with exactly the tags our deploy records), which is what the bulk pass
 * reads; no measured call bypasses the wire.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { karmadaCollected } from '../dev/local/karmada-collection.js';
import { collectedSlice, ingressClass, minimalIngress, serveService } from '../dev/local/scenario.js';
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { ListedSnapshot } from '../lib/kube/snapshot.js';
import type { KubeObject } from '../lib/kube/types.js';
import { Resources } from '../lib/kube/resources.js';
import { silentLogger } from '../lib/log/logger.js';
import { resyncPass } from '../lib/maintenance/resync.js';
import { PendingQueue } from '../lib/forwarder/pending.js';
import { makeNotification } from '../lib/forwarder/notify.js';
import type { AwsProvider } from '../lib/providers/aws/index.js';
import { readIngressInputs } from '../lib/providers/aws/inputs.js';
import { stackFingerprint } from '../lib/providers/aws/model/fingerprint.js';
import { buildIngressStack } from '../lib/providers/aws/model/ingress.js';
import { resourcesOf, ResourceTypes } from '../lib/providers/aws/model/types.js';
import { DNS_NAME_TAG } from '../lib/providers/aws/deploy/targets-only.js';
import { KubeTargetRecords, recordOf } from '../lib/providers/aws/deploy/target-records.js';
import { FINGERPRINT_TAG, OWNER_TAG, RESOURCE_TAG, STACK_TAG } from '../lib/providers/aws/tagging.js';
import {
  breakdown,
  bucketSeconds,
  callsByAction,
  describeCalls,
  providerContext,
  startElbv2Env,
  totalCalls,
  type Elbv2Env,
} from './elbv2-env.js';
import { lbcResyncDescribeCalls } from './resync.js';
import { percentile, type Figure } from './report.js';

const GROUP = 'scale: 10,000 MCIs (simulator)';
/** The account's documented Describe bucket refill, the budget every figure is a share of. */
const BUDGET = 10;
const RESYNC_PERIOD_S = 600;
const DEEP_INTERVAL_S = 36_000;
const SAMPLE = 20;

function mciNamed(name: string): MultiClusterIngress {
  const m = minimalIngress(name) as MultiClusterIngress;
  return { ...m, metadata: { ...m.metadata, uid: `uid-${name}` } };
}

async function reconcile(provider: AwsProvider, mci: MultiClusterIngress, resync = false): Promise<void> {
  const ctx = providerContext(resync);
  const existing = await provider.ingress.get(ctx, mci);
  await (existing.exists ? provider.ingress.update(ctx, mci) : provider.ingress.ensure(ctx, mci));
}

async function measured(env: Elbv2Env, fn: () => Promise<void>): Promise<Record<string, number>> {
  env.sim.calls.reset();
  env.sim.taggingCalls.reset();
  await fn();
  return callsByAction(env.sim);
}

/** A load balancer carrying exactly what a full deploy of `mci` records, written into the state. */
async function recordStack(
  env: Elbv2Env,
  provider: AwsProvider,
  mci: MultiClusterIngress,
  kube: ListedSnapshot,
  records: KubeTargetRecords,
) {
  const config = provider.config;
  const stack = buildIngressStack({ mci, ...(await readIngressInputs(kube, mci)), config });
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  if (!lb) throw new Error('no load balancer in the model');
  const tags: Record<string, string> = {
    ...lb.spec.tags,
    [OWNER_TAG]: config.ownerId,
    [STACK_TAG]: stack.id,
    [RESOURCE_TAG]: 'LoadBalancer',
    [FINGERPRINT_TAG]: stackFingerprint(stack),
  };
  await records.write(stack.id, recordOf(stack, stackFingerprint(stack)));
  const out = env.sim.state.createLoadBalancer({
    Name: lb.spec.name,
    Type: 'application',
    Scheme: 'internal',
    Subnets: config.subnets,
    ...(config.securityGroups ? { SecurityGroups: config.securityGroups } : {}),
    Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
  }) as { LoadBalancers?: Array<{ LoadBalancerArn?: string; DNSName?: string }> };
  const made = out.LoadBalancers?.[0];
  if (made?.LoadBalancerArn && made.DNSName)
    env.sim.state.addTags({
      ResourceArns: [made.LoadBalancerArn],
      Tags: [{ Key: DNS_NAME_TAG, Value: made.DNSName }],
    });
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export async function benchScale(n = 10_000): Promise<Figure[]> {
  const env = await startElbv2Env({
    objects: [
      ingressClass(),
      serveService(),
      collectedSlice('member1', ['10.1.0.11']),
      collectedSlice('member2', ['10.2.0.21']),
    ],
    loadBalancers: n + 50,
    targetGroups: n + 50,
  });
  const figures: Figure[] = [];
  const add = (f: Omit<Figure, 'group'>) => figures.push({ group: GROUP, ...f });
  try {
    const provider = env.provider as AwsProvider;
    const mcis = Array.from({ length: n }, (_, i) => mciNamed(`mci-${String(i).padStart(5, '0')}`));
    for (const m of mcis) env.api.store.put(m as never);
    const sample = mcis.slice(0, SAMPLE);
    for (const m of sample) await reconcile(provider, m);
    const snapshot = new ListedSnapshot(env.kube);
    const records = new KubeTargetRecords(
      env.kube,
      provider.config.recordNamespace,
      provider.config.ownerId,
      silentLogger,
    );
    for (const m of mcis.slice(SAMPLE)) await recordStack(env, provider, m, snapshot, records);

    // 1. The fingerprint pass over all n, no drift (no deep slice: measured on its own below).
    const sent: unknown[] = [];
    const sender = { send: async (b: readonly unknown[]) => (sent.push(...b), { failed: [] }) };
    const passOptions = {
      providerIngressClass: 'karmada.io/fake',
      ctx: providerContext(false),
      deep: { intervalMs: 1e12, periodMs: 1 },
      now: new Date(1),
    };
    env.sim.calls.reset();
    const t0 = performance.now();
    const clean = await resyncPass(env.kube, provider, sender as never, silentLogger, passOptions);
    const cleanMs = performance.now() - t0;
    const cleanCalls = callsByAction(env.sim);
    const cleanTotal = totalCalls(cleanCalls);
    const lbcResync = lbcResyncDescribeCalls(n);
    add({
      name: `no-drift fingerprint pass: ELBv2 calls (${breakdown(cleanCalls) || 'none: the tags come from the Tagging API'}; ${clean.differing} reconciles enqueued; Kubernetes LISTs ${Object.values(clean.kubeLists).reduce((a, b) => a + b, 0)}; ${(cleanMs / 1000).toFixed(1)} s wall)`,
      value: cleanTotal / n,
      unit: 'calls per MCI',
      target: '≤ 0.1',
      met: cleanTotal / n <= 0.1,
      anchor: `LBC ≈ ${(lbcResync / n).toFixed(0)} per MCI (${lbcResync} Describe*); limit ⌈L/400⌉ + ⌈N/20⌉ = ${Math.ceil(n / 400) + Math.ceil(n / 20)} (${((Math.ceil(n / 400) + Math.ceil(n / 20)) / n).toFixed(4)} per MCI)`,
    });
    add({
      name: `no-drift fingerprint pass: time inside the Describe budget (${cleanTotal} Describe*, 40 burst + ${BUDGET}/s)`,
      value: bucketSeconds(describeCalls(cleanCalls)),
      unit: 's',
      anchor: `LBC ≈ ${(bucketSeconds(lbcResync) / 3600).toFixed(1)} h`,
    });

    // 2. One deep drift check and one drift repair, per stack, measured on the sample.
    const deep = await measured(env, async () => {
      for (const m of sample) await reconcile(provider, m, true);
    });
    const deepPerMci = totalCalls(deep) / SAMPLE;
    add({
      name: `deep drift pass (every stack's full check: ${deepPerMci} calls each, measured on ${SAMPLE}) over ${n} MCIs`,
      value: deepPerMci * n,
      unit: 'calls',
      anchor: `LBC ≈ ${lbcResync} Describe*; limit: the check itself (${deepPerMci} per stack)`,
    });
    add({
      name: `deep drift pass: time inside the Describe budget; spread over ${DEEP_INTERVAL_S / 3600} h`,
      value: bucketSeconds(describeCalls(deep) * (n / SAMPLE)) / 3600,
      unit: `h (${((deepPerMci * n) / DEEP_INTERVAL_S).toFixed(2)} calls/s = ${(((deepPerMci * n) / DEEP_INTERVAL_S / BUDGET) * 100).toFixed(0)}% of ${BUDGET}/s)`,
      anchor: `LBC ≈ ${(bucketSeconds(lbcResync) / 3600).toFixed(1)} h every --sync-period`,
    });

    // 3. 1% of the stacks drifted (their recorded fingerprint no longer matches).
    const drifted = mcis.slice(SAMPLE, SAMPLE + n / 100);
    const lbs = new Map(env.sim.state.loadBalancers().map((l) => [l.LoadBalancerName, l.LoadBalancerArn]));
    const desired = provider.fingerprints();
    for (const m of drifted) {
      const d = await desired.desired(m, snapshot);
      const arn = lbs.get(d.locator);
      if (arn)
        env.sim.state.addTags({ ResourceArns: [arn], Tags: [{ Key: FINGERPRINT_TAG, Value: 'drifted' }] });
    }
    env.sim.calls.reset();
    const driftPass = await resyncPass(env.kube, provider, sender as never, silentLogger, passOptions);
    const driftPassCalls = totalCalls(callsByAction(env.sim));
    // A drifted stack's repair: its full deploy, measured on the sample with the tag spoiled.
    const repair = await measured(env, async () => {
      for (const m of sample) {
        const d = await desired.desired(m, snapshot);
        const arn = env.sim.state
          .loadBalancers()
          .find((l) => l.LoadBalancerName === d.locator)?.LoadBalancerArn;
        if (arn)
          env.sim.state.addTags({ ResourceArns: [arn], Tags: [{ Key: FINGERPRINT_TAG, Value: 'drifted' }] });
      }
      env.sim.calls.reset();
      for (const m of sample) await reconcile(provider, m);
    });
    const repairPerMci = totalCalls(repair) / SAMPLE;
    const driftTotal = driftPassCalls + driftPass.differing * repairPerMci;
    add({
      name: `1%-drift pass: ${driftPass.differing} stacks found and reconciled (pass ${driftPassCalls} + ${driftPass.differing} × ${repairPerMci} repair calls)`,
      value: driftTotal,
      unit: 'calls',
      anchor: `LBC ≈ ${lbcResync} Describe* (no cheaper pass)`,
    });

    // 4. Steady state: 1% of the MCIs change endpoints per minute. Each change is one target in or
    // out, on a container that knows nothing of the stack (the record is in Kubernetes).
    const latencies: number[] = [];
    let member2 = ['10.2.0.21'];
    const churn = await measured(env, async () => {
      for (let i = 0; i < SAMPLE; i++) {
        member2 = i % 2 === 0 ? [...member2, `10.2.1.${i}`] : member2.slice(1);
        env.api.store.put(karmadaCollected(collectedSlice('member2', member2))!.slice as never);
        const t = performance.now();
        await reconcile(provider, sample[0]!);
        latencies.push(performance.now() - t);
      }
    });
    const perChange = totalCalls(churn) / SAMPLE;
    const changesPerSecond = n / 100 / 60;
    const resyncPerSecond = cleanTotal / RESYNC_PERIOD_S;
    const deepShare = 0.1 * 2; // the default deep budget share of the default 2/s deployment budget
    const steady = changesPerSecond * perChange + resyncPerSecond + deepShare;
    // One call per change: each names one target group and changes one target.
    const floor = changesPerSecond * 1 + deepShare;
    add({
      name: `steady state: ${changesPerSecond.toFixed(2)} endpoint changes/s × ${perChange} calls (${breakdown(churn)} over ${SAMPLE} changes; stateless container, measured) + fingerprint pass ${resyncPerSecond.toFixed(2)}/s + deep checks ${deepShare}/s`,
      value: steady,
      unit: `calls/s (${((steady / BUDGET) * 100).toFixed(0)}% of ${BUDGET}/s)`,
      target: `≤ 20% of ${BUDGET}/s`,
      met: steady <= 0.2 * BUDGET,
      anchor: `LBC ${(changesPerSecond * 2).toFixed(2)}/s for the endpoints alone (2 cold, 1 with its target cache warm); physical floor ${floor.toFixed(2)}/s = ${((floor / BUDGET) * 100).toFixed(0)}% (1 call per change, bench/README.md)`,
    });
    latencies.sort((a, b) => a - b);
    add({
      name: `steady state: endpoint change → targets right, p99 (1 s EndpointSlice window + ≤ 20 ms batch interval + reconcile against the simulator; queue and Lambda start not included)`,
      value: 1000 + 20 + percentile(latencies, 99),
      unit: 'ms',
    });

    // 5. A rolling update: 30 pods across 3 clusters behind one MCI, through the forwarder's queue.
    figures.push(...(await rollingUpdate(env, provider, sample[0]!)));

    // 6. A warm container's memory after n reconciles (no-ops: each a full model build and lookup).
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) {
      await reconcile(provider, sample[i % SAMPLE]!);
      if (i === 999) {
        gc();
      }
    }
    const at1k = before;
    gc();
    const after = process.memoryUsage().heapUsed;
    add({
      name: `warm container heap after ${n} reconciles (heap before: ${(at1k / 2 ** 20).toFixed(1)} MiB)`,
      value: after / 2 ** 20,
      unit: 'MiB',
      target: 'flat (≤ +10%)',
      met: after <= at1k * 1.1,
    });
    return figures;
  } finally {
    await env.close();
  }
}

/**
 * Each of 3 clusters replaces its 10 pods one at a time (a new pod ready, 300 ms later the old one
 * gone, the next one 700 ms after that): 60 EndpointSlice changes in 10 s. They go through the
 * forwarder's pending queue (a simulated clock) with the default window for every kind, and with
 * EndpointSlices' own 1 s window; each release of the queue is one batch, and the notifications in
 * one batch for one MCI are one reconcile (processBatch folds them). Each reconcile runs against
 * the simulator with the slices as they are at that moment.
 */
async function rollingUpdate(
  env: Elbv2Env,
  provider: AwsProvider,
  mci: MultiClusterIngress,
): Promise<Figure[]> {
  const clusters = ['member1', 'member2', 'member3'];
  const pods = new Map(
    clusters.map((c, k) => [c, Array.from({ length: 10 }, (_, i) => `10.${k + 1}.2.${i}`)]),
  );
  const events: Array<{ at: number; cluster: string; addresses: string[] }> = [];
  for (const [k, c] of clusters.entries()) {
    let current = [...pods.get(c)!];
    for (let i = 0; i < 10; i++) {
      const at = i * 1000 + k * 97;
      current = [...current, `10.${k + 1}.3.${i}`];
      events.push({ at, cluster: c, addresses: current });
      current = current.filter((a) => a !== `10.${k + 1}.2.${i}`);
      events.push({ at: at + 300, cluster: c, addresses: current });
    }
  }
  events.sort((a, b) => a.at - b.at);
  // Each cluster's slice as Karmada writes it, with its execution namespace and Work put once.
  const slice = (c: string, addresses: string[]): KubeObject =>
    karmadaCollected(collectedSlice(c, addresses))!.slice;
  for (const c of clusters) {
    const karmada = karmadaCollected(collectedSlice(c, []))!;
    for (const o of [karmada.namespace, karmada.work]) env.api.store.put(o as never);
  }
  const out: Figure[] = [];
  for (const [label, windows] of [
    ['every kind 100 ms', {}],
    ['EndpointSlices 1 s', { EndpointSlice: 1000 }],
  ] as const) {
    // Start from the pre-rollout state, converged.
    for (const c of clusters) env.api.store.put(slice(c, pods.get(c)!) as never);
    await reconcile(provider, mci);
    let clock = 0;
    const q = new PendingQueue({ windowMs: 100, kindWindowsMs: windows, now: () => clock });
    const state = new Map<string, string[]>();
    let reconciles = 0;
    let lastDone = 0;
    env.sim.calls.reset();
    let i = 0;
    for (clock = 0; i < events.length || q.size > 0; clock += 10) {
      while (i < events.length && events[i]!.at <= clock) {
        const e = events[i++]!;
        state.set(e.cluster, e.addresses);
        const s = slice(e.cluster, e.addresses);
        q.add(
          makeNotification('modified', Resources.EndpointSlice, {
            ...s,
            metadata: { ...s.metadata, resourceVersion: String(i) },
          }),
        );
      }
      const batch = q.take(50);
      if (batch.length === 0) continue;
      q.done(batch);
      for (const [c, a] of state) env.api.store.put(slice(c, a) as never);
      const t = performance.now();
      await reconcile(provider, mci);
      reconciles++;
      lastDone = clock + (performance.now() - t);
    }
    const calls = totalCalls(callsByAction(env.sim));
    const lastChange = events[events.length - 1]!.at;
    out.push({
      group: GROUP,
      name: `rolling update, 30 pods in 3 clusters behind one MCI (60 slice changes), coalescing ${label}: ${reconciles} reconciles; targets right ${((lastDone - lastChange) / 1000).toFixed(2)} s after the last change`,
      value: calls,
      unit: 'ELBv2 calls',
      anchor: 'LBC ≥ 60 (one RegisterTargets or DeregisterTargets per change per cluster, warm cache)',
    });
  }
  return out;
}
