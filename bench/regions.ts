/**
 * The calls a MultiClusterIngress over clusters in two Regions costs: create, no-op and delete,
 * each Region's ELBv2 simulator counted, and the reconciles its deletion takes, next to the same
 * MCI in one Region (both clusters' endpoints on one ALB), measured in the same run. The
 * provider is the multi-Region one the functions build from a `regions:` configuration
 * (lib/providers/aws/regions/), with the simulators' clients.
 *
 * A reconcile is driven as lib/reconcile/lifecycle.ts drives the provider: get(), then update()
 * or ensure(); a deletion is ensureDeleted() until it no longer asks to be retried later.
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
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { createKubeClient, loadKubeConfig } from '../lib/kube/client-node.js';
import type { KubeClient } from '../lib/kube/client.js';
import { Resources } from '../lib/kube/resources.js';
import type { KubeObject } from '../lib/kube/types.js';
import { silentLogger } from '../lib/log/logger.js';
import type { LoadBalancer, MultiClusterProvider } from '../lib/provider/contract.js';
import { AwsProvider, parseAwsConfig } from '../lib/providers/aws/index.js';
import { buildMultiRegionProvider } from '../lib/providers/aws/regions/build.js';
import { providerContext } from './elbv2-env.js';
import type { Figure } from './report.js';

const GROUP = 'regions';
const NS = 'default';
/** member1 in the first Region, member2 in the second (each cluster's spec.region). */
export const BENCH_REGIONS = ['us-east-1', 'eu-west-1'] as const;
const CLUSTER_REGION: Record<string, string> = { member1: BENCH_REGIONS[0], member2: BENCH_REGIONS[1] };
/** A deletion that still asks to be retried after this many reconciles is reported as stuck. */
const MAX_DELETE_RECONCILES = 20;

interface Env {
  sims: Elbv2Simulator[];
  api: KubeApiServer;
  kube: KubeClient;
  provider: MultiClusterProvider;
  close(): Promise<void>;
}

function objects(): KubeObject[] {
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
    minimalIngress(),
  ];
}

/** The simulators and the provider: `regions` Regions, each with its ELBv2 simulator. */
async function startEnv(regions: readonly string[]): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-regions-'));
  const sims = await Promise.all(regions.map((region) => startElbv2Simulator({ seed: 7, region })));
  const api = await startKubeApiServer({ port: 0 });
  const kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'kubeconfig.yaml')) }));
  await seed(kube, objects());
  const deps = { kube, logger: silentLogger };
  const clients = (sim: Elbv2Simulator) => ({
    client: elbv2ClientFor(sim, { maxAttempts: 3 }),
    tagging: taggingClientFor(sim),
    deploy: { resourceInUseDelayMs: 10 },
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
      }),
    );
    const byRegion = new Map(sims.map((s) => [s.region, s]));
    provider = buildMultiRegionProvider(config, deps, {}, (region) => clients(byRegion.get(region)!));
  }
  return {
    sims,
    api,
    kube,
    provider,
    async close() {
      await api.close();
      for (const s of sims) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Counted {
  elbv2: number;
  byRegion: number[];
  /** Resource Groups Tagging API calls (another API with its own rate limit), all Regions. */
  tagging: number;
  reconciles: number;
}

function reset(env: Env): void {
  for (const s of env.sims) {
    s.calls.reset();
    s.taggingCalls.reset();
  }
}

function counted(env: Env, reconciles: number): Counted {
  const byRegion = env.sims.map((s) => s.calls.total());
  const tagging = env.sims.reduce((n, s) => n + s.taggingCalls.total(), 0);
  return { elbv2: byRegion.reduce((a, b) => a + b, 0), byRegion, tagging, reconciles };
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
    }
  }
  return { create, noop, delete: counted(env, reconciles) };
}

const ratio = (value: number, anchor: number) => (anchor > 0 ? ` (× ${(value / anchor).toFixed(2)})` : '');

export async function benchRegions(): Promise<Figure[]> {
  const one = await startEnv([BENCH_REGIONS[0]]);
  const anchor = await lifecycle(one).finally(() => one.close());
  const two = await startEnv(BENCH_REGIONS);
  const measured = await lifecycle(two).finally(() => two.close());
  const figures: Figure[] = [];
  for (const step of ['create', 'noop', 'delete'] as const) {
    const m = measured[step];
    const a = anchor[step];
    const label = step === 'noop' ? 'no-op reconcile' : step;
    figures.push({
      group: GROUP,
      name: `two-Region MCI ${label}: ELBv2 calls (${BENCH_REGIONS.map((r, i) => `${r} ${m.byRegion[i]}`).join(', ')}; + Tagging API ${m.tagging})${ratio(m.elbv2, a.elbv2)}`,
      value: m.elbv2,
      unit: 'calls',
      anchor: `the same MCI in one Region: ${a.elbv2} ELBv2 calls (+ Tagging API ${a.tagging}), measured in the same run`,
    });
  }
  figures.push({
    group: GROUP,
    name: `two-Region MCI: reconciles its deletion takes${ratio(measured.delete.reconciles, anchor.delete.reconciles)}`,
    value: measured.delete.reconciles,
    unit: 'reconciles',
    anchor: `the same MCI in one Region: ${anchor.delete.reconciles}, measured in the same run`,
  });
  return figures;
}
