/**
 * The calls a MultiClusterIngress over clusters in two Regions costs, without and with Global
 * Accelerator in front: create, no-op and delete, each Region's ELBv2 simulator and the GA
 * simulator counted, and the reconciles its deletion takes, next to the same MCI in one Region
 * without an accelerator (both clusters' endpoints on one ALB), measured in the same run. The
 * provider is the multi-Region one the functions build from a `regions:` configuration
 * (lib/providers/aws/regions/), with the simulators' clients.
 *
 * GA deploys each change in GA_DEPLOY_S (AWS: a minute or a few), on a clock that the deletion's
 * reconciles move on by the provider's retry delay (ACCELERATOR_RETRY_SECONDS): the count of
 * reconciles is the fewest the deletion can take, when each of GA's deploys is done by the retry.
 *
 * A reconcile is driven as lib/reconcile/lifecycle.ts drives the provider: get(), then update()
 * or ensure(); a deletion is ensureDeleted() until it no longer asks to be retried later.
 *
 * The wall time of the accelerated create is measured with every ELBv2 call taking
 * ELBV2_LATENCY_MS (the simulators answer in well under a millisecond; AWS in tens), against the
 * same create with the Regions one after another: the bench drives each Region's part in turn and
 * then the accelerator, as the orchestrator did before the Regions ran concurrently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  elbv2ClientFor,
  startElbv2Simulator,
  taggingClientFor,
  type Elbv2Simulator,
} from '../dev/elbv2-sim/index.js';
import { gaClientFor, startGaSimulator, endpointsIn, type GaSimulator } from '../dev/ga-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../dev/kube-apiserver/index.js';
import { awsConfigFor, seed } from '../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  minimalIngress,
  resourceBinding,
  serveService,
} from '../dev/local/scenario.js';
import { RetryLaterError } from '../lib/errors.js';
import { GA_KEYS } from '../lib/providers/aws/accelerator/keys.js';
import { ACCELERATOR_RETRY_SECONDS } from '../lib/providers/aws/accelerator/reconcile.js';
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { createKubeClient, loadKubeConfig } from '../lib/kube/client-node.js';
import type { KubeClient } from '../lib/kube/client.js';
import { Resources } from '../lib/kube/resources.js';
import type { KubeObject } from '../lib/kube/types.js';
import { silentLogger } from '../lib/log/logger.js';
import type { LoadBalancer, MultiClusterProvider } from '../lib/provider/contract.js';
import { AwsProvider, parseAwsConfig } from '../lib/providers/aws/index.js';
import { buildMultiRegionProvider } from '../lib/providers/aws/regions/build.js';
import type { MultiRegionProvider } from '../lib/providers/aws/regions/provider.js';
import { breakdown, callsByAction, providerContext } from './elbv2-env.js';
import type { Figure } from './report.js';

const GROUP = 'regions';
const NS = 'default';
/** member1 in the first Region, member2 in the second (each cluster's spec.region). */
export const BENCH_REGIONS = ['us-east-1', 'eu-west-1'] as const;
const CLUSTER_REGION: Record<string, string> = { member1: BENCH_REGIONS[0], member2: BENCH_REGIONS[1] };
/** A deletion that still asks to be retried after this many reconciles is reported as stuck. */
const MAX_DELETE_RECONCILES = 20;
/** How long GA takes to deploy a change here: within the provider's retry delay. */
const GA_DEPLOY_S = 20;

interface Env {
  sims: Elbv2Simulator[];
  ga?: GaSimulator;
  /** Moves GA's clock on (a retry delay passing). */
  advance(seconds: number): void;
  api: KubeApiServer;
  kube: KubeClient;
  provider: MultiClusterProvider;
  close(): Promise<void>;
}

function objects(accelerated: boolean): KubeObject[] {
  const regional = (name: string) => {
    const c = cluster(name) as KubeObject & { spec: Record<string, unknown> };
    return { ...c, spec: { ...c.spec, region: CLUSTER_REGION[name] } } as KubeObject;
  };
  return [
    regional('member1'),
    regional('member2'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.0.1.11', '10.0.1.12']),
    collectedSlice('member2', ['10.0.2.21']),
    accelerated
      ? (() => {
          const mci = minimalIngress();
          return {
            ...mci,
            metadata: {
              ...mci.metadata,
              annotations: { ...mci.metadata.annotations, [GA_KEYS.enabled]: 'true' },
            },
          };
        })()
      : minimalIngress(),
  ];
}

/**
 * The simulators and the provider: `regions` Regions, each with its ELBv2 simulator, and with
 * `accelerated` the GA simulator and an MCI that asks for an accelerator.
 */
async function startEnv(regions: readonly string[], accelerated = false): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-regions-'));
  const sims = await Promise.all(regions.map((region) => startElbv2Simulator({ seed: 7, region })));
  let now = Date.parse('2026-12-02T00:00:00Z');
  const ga = accelerated
    ? await startGaSimulator({
        seed: 7,
        deployMs: GA_DEPLOY_S * 1000,
        now: () => now,
        endpoints: endpointsIn(sims),
      })
    : undefined;
  const api = await startKubeApiServer({ port: 0 });
  const kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'kubeconfig.yaml')) }));
  await seed(kube, objects(accelerated));
  const deps = { kube, logger: silentLogger };
  const clients = (sim: Elbv2Simulator) => ({
    client: elbv2ClientFor(sim, { maxAttempts: 3 }),
    tagging: taggingClientFor(sim),
    deploy: { resourceInUseDelayMs: 10 },
    ...(ga ? { ga: gaClientFor(ga) } : {}),
  });
  let provider: MultiClusterProvider;
  if (sims.length === 1) {
    // The anchor: the one-Region provider as the functions build it from a one-Region file.
    provider = new AwsProvider(
      await parseAwsConfig(awsConfigFor(sims[0]!, { ownerId: 'bench' })),
      deps,
      clients(sims[0]!),
    );
  } else {
    const config = await parseAwsConfig(
      JSON.stringify({
        ownerId: 'bench',
        recordNamespace: 'karmada-system',
        regions: sims.map((sim) => ({
          region: sim.region,
          endpoint: sim.url,
          taggingEndpoint: sim.url,
          vpc: { id: sim.network.vpcId, cidrs: [sim.network.vpcCidr] },
          subnets: sim.network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
          securityGroups: [sim.network.defaultSecurityGroupId],
        })),
        // The closed tenant policy refuses an accelerator unless a rule allows it.
        ...(ga
          ? {
              globalAccelerator: { endpoint: ga.url },
              tenantPolicy: { rules: [{ name: 'bench', globalAccelerator: true }] },
            }
          : {}),
      }),
    );
    const byRegion = new Map(sims.map((s) => [s.region, s]));
    provider = buildMultiRegionProvider(config, deps, {}, (region) => clients(byRegion.get(region)!));
  }
  return {
    sims,
    ...(ga ? { ga } : {}),
    advance: (seconds) => {
      now += seconds * 1000;
    },
    api,
    kube,
    provider,
    async close() {
      await api.close();
      await ga?.close();
      for (const s of sims) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Counted {
  elbv2: number;
  byRegion: number[];
  /** Global Accelerator calls (its API in us-west-2, whatever the Regions), and by action. */
  ga: number;
  gaByAction: string;
  /** Resource Groups Tagging API calls (another API with its own rate limit), all Regions. */
  tagging: number;
  reconciles: number;
}

function reset(env: Env): void {
  for (const s of env.sims) {
    s.calls.reset();
    s.taggingCalls.reset();
  }
  env.ga?.calls.reset();
}

function counted(env: Env, reconciles: number): Counted {
  const byRegion = env.sims.map((s) => s.calls.total());
  const tagging = env.sims.reduce((n, s) => n + s.taggingCalls.total(), 0);
  return {
    elbv2: byRegion.reduce((a, b) => a + b, 0),
    byRegion,
    ga: env.ga?.calls.total() ?? 0,
    gaByAction: env.ga
      ? breakdown(callsByAction(env.ga), [...new Set(env.ga.calls.history().map((h) => h.action))])
      : '',
    tagging,
    reconciles,
  };
}

async function reconcile(lb: LoadBalancer, mci: MultiClusterIngress): Promise<void> {
  const ctx = providerContext(false);
  const existing = await lb.get(ctx, mci);
  await (existing.exists ? lb.update(ctx, mci) : lb.ensure(ctx, mci));
}

/** Create, no-op and delete of the scenario's MCI: the calls of each, and the deletion's reconciles. */
async function lifecycle(env: Env): Promise<Record<'create' | 'noop' | 'delete', Counted>> {
  const lb = env.provider.loadBalancer();
  if (!lb) throw new Error('the aws provider serves no MultiClusterIngress');
  let mci = (await env.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, NS, 'minimal-ingress'))!;
  reset(env);
  await reconcile(lb, mci);
  const create = counted(env, 1);
  // The status the lifecycle writes after create, which the next reconcile reads.
  mci = (await env.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, NS, 'minimal-ingress'))!;
  reset(env);
  await reconcile(lb, mci);
  const noop = counted(env, 1);
  reset(env);
  let reconciles = 0;
  for (;;) {
    reconciles++;
    try {
      await lb.ensureDeleted(providerContext(false), mci);
      break;
    } catch (err) {
      if (!(err instanceof RetryLaterError) || reconciles >= MAX_DELETE_RECONCILES) throw err;
      env.advance(err.retryAfterSeconds ?? ACCELERATOR_RETRY_SECONDS);
    }
  }
  return { create, noop, delete: counted(env, reconciles) };
}

const ratio = (value: number, anchor: number) => (anchor > 0 ? ` (× ${(value / anchor).toFixed(2)})` : '');

const total = (c: Counted) => c.elbv2 + c.ga;

/** Each ELBv2 call's added latency in the wall-time runs. */
const ELBV2_LATENCY_MS = 40;
/** Runs of each way; the median is reported (the first runs also load the provider's modules). */
const WALL_ROUNDS = 5;

/** The accelerated two-Region create's wall time (ms): the provider's, or its Regions in turn. */
async function acceleratedCreateMs(oneAfterAnother: boolean): Promise<number> {
  const env = await startEnv(BENCH_REGIONS, true);
  try {
    for (const sim of env.sims) sim.faults.set({ latencyMs: ELBV2_LATENCY_MS });
    const mci = (await env.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      NS,
      'minimal-ingress',
    ))!;
    const ctx = providerContext(false);
    const started = performance.now();
    if (oneAfterAnother) {
      const provider = env.provider as MultiRegionProvider;
      for (const part of provider.parts) await part.provider.ingress.update(ctx, mci);
      await provider.accelerator?.afterRegions(ctx, mci, provider.deploys.of(ctx));
    } else {
      await reconcile(env.provider.loadBalancer()!, mci);
    }
    return performance.now() - started;
  } finally {
    await env.close();
  }
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function acceleratedCreateWall(): Promise<Figure> {
  const concurrent: number[] = [];
  const sequential: number[] = [];
  // Interleaved, so that a slow moment of the machine weighs on both.
  for (let i = 0; i < WALL_ROUNDS; i++) {
    sequential.push(await acceleratedCreateMs(true));
    concurrent.push(await acceleratedCreateMs(false));
  }
  const value = median(concurrent);
  const anchor = median(sequential);
  const ratioValue = value / anchor;
  return {
    group: GROUP,
    name: `two-Region MCI with an accelerator create: wall time, ELBv2 calls ${ELBV2_LATENCY_MS} ms each, median of ${WALL_ROUNDS}${ratio(value, anchor)}`,
    value: Math.round(value),
    unit: 'ms',
    target: '≤ 0.6 × the Regions one after another',
    met: ratioValue <= 0.6,
    anchor: `the same create with the Regions one after another, then the accelerator: ${Math.round(anchor)} ms, same run`,
  };
}

export async function benchRegions(): Promise<Figure[]> {
  const run = async (regions: readonly string[], accelerated: boolean) => {
    const env = await startEnv(regions, accelerated);
    return lifecycle(env).finally(() => env.close());
  };
  const anchor = await run([BENCH_REGIONS[0]], false);
  const variants = [
    { label: 'two-Region MCI', counts: await run(BENCH_REGIONS, false) },
    { label: 'two-Region MCI with an accelerator', counts: await run(BENCH_REGIONS, true) },
  ];
  const figures: Figure[] = [];
  for (const { label, counts } of variants) {
    for (const step of ['create', 'noop', 'delete'] as const) {
      const m = counts[step];
      const a = anchor[step];
      const regions = BENCH_REGIONS.map((r, i) => `${r} ${m.byRegion[i]}`).join(', ');
      const ga = label.includes('accelerator')
        ? `, Global Accelerator ${m.ga}${m.gaByAction ? `: ${m.gaByAction}` : ''}`
        : '';
      figures.push({
        group: GROUP,
        name: `${label} ${step === 'noop' ? 'no-op reconcile' : step}: calls (ELBv2 ${regions}${ga}; + Tagging API ${m.tagging})${ratio(total(m), total(a))}`,
        value: total(m),
        unit: 'calls',
        anchor: `the same MCI in one Region, no accelerator: ${total(a)} ELBv2 calls (+ Tagging API ${a.tagging}), same run`,
      });
    }
    figures.push({
      group: GROUP,
      name: `${label}: reconciles its deletion takes${ratio(counts.delete.reconciles, anchor.delete.reconciles)}`,
      value: counts.delete.reconciles,
      unit: 'reconciles',
      anchor: `the same MCI in one Region, no accelerator: ${anchor.delete.reconciles}, same run`,
    });
  }
  figures.push(await acceleratedCreateWall());
  return figures;
}
