/**
 * What the ELBv2 benchmarks share: the ELBv2 simulator, the Kubernetes API stand-in seeded with the
 * upstream scenario's Service and collected EndpointSlices, and the AWS provider wired to both the
 * way the functions wire it (real SDK client, real client-node KubeClient over HTTP).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startElbv2Simulator,
  elbv2ClientFor,
  taggingClientFor,
  type Elbv2Simulator,
} from '../dev/elbv2-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../dev/kube-apiserver/index.js';
import { awsConfigFor, seed } from '../dev/local/pipeline.js';
import { createKubeClient, loadKubeConfig } from '../lib/kube/client-node.js';
import type { KubeClient } from '../lib/kube/client.js';
import type { KubeObject } from '../lib/kube/types.js';
import { silentLogger } from '../lib/log/logger.js';
import type { MultiClusterProvider, ProviderContext } from '../lib/provider/contract.js';
import { AwsProvider, parseAwsConfig } from '../lib/providers/aws/index.js';

export interface Elbv2Env {
  sim: Elbv2Simulator;
  api: KubeApiServer;
  kube: KubeClient;
  /** The provider as the functions build it; it keeps nothing between reconciles but the records. */
  provider: MultiClusterProvider;
  close(): Promise<void>;
}

export interface Elbv2EnvOptions {
  /** Objects to create in the API server before the provider runs. */
  objects: KubeObject[];
  /** Raise the simulator's per-account quotas (the resync benchmark needs 1,000 ALBs). */
  loadBalancers?: number;
  targetGroups?: number;
}

export async function startElbv2Env(options: Elbv2EnvOptions): Promise<Elbv2Env> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-elbv2-'));
  const sim = await startElbv2Simulator({
    seed: 7,
    limits: {
      ...(options.loadBalancers ? { loadBalancersPerType: options.loadBalancers } : {}),
      ...(options.targetGroups ? { targetGroups: options.targetGroups } : {}),
    },
  });
  const api = await startKubeApiServer({ port: 0 });
  const kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'kubeconfig.yaml')) }));
  await seed(kube, options.objects);
  // The configuration file the function would read, so validation and defaults run as deployed;
  // the client is the simulator's (dummy credentials, no retry sleeps: no faults are injected).
  const config = await parseAwsConfig(awsConfigFor(sim, { ownerId: 'bench' }));
  const provider = new AwsProvider(
    config,
    { kube, logger: silentLogger },
    {
      client: elbv2ClientFor(sim, { maxAttempts: 3 }),
      // The Tagging API as the functions use it (the simulator serves it from the same state).
      tagging: taggingClientFor(sim),
      deploy: { resourceInUseDelayMs: 10 },
    },
  );
  return {
    sim,
    api,
    kube,
    provider,
    async close() {
      await api.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function providerContext(resync: boolean): ProviderContext {
  return { signal: new AbortController().signal, logger: silentLogger, resync };
}

/** Calls per action since the last reset, without zero rows, actions sorted. */
export function callsByAction(sim: Pick<Elbv2Simulator, 'calls'>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(sim.calls.all())
      .filter(([, c]) => c.calls > 0)
      .map(([action, c]) => [action, c.calls]),
  );
}

export function totalCalls(byAction: Record<string, number>): number {
  return Object.values(byAction).reduce((a, b) => a + b, 0);
}

/** `DescribeLoadBalancers 1, CreateTargetGroup 1, ...` in the order the calls were first made. */
export function breakdown(byAction: Record<string, number>, order: readonly string[] = []): string {
  const keys = [...new Set([...order.filter((k) => k in byAction), ...Object.keys(byAction)])];
  return keys.map((k) => `${k} ${byAction[k]}`).join(', ');
}

/** Actions in the order the simulator first saw them since the last reset. */
export function firstSeenOrder(sim: Elbv2Simulator): string[] {
  return [...new Set(sim.calls.history().map((r) => r.action))];
}

/** Describe* actions draw from ELBv2's non-mutating token bucket; everything else has its own. */
export function describeCalls(byAction: Record<string, number>): number {
  return Object.entries(byAction)
    .filter(([action]) => action.startsWith('Describe'))
    .reduce((n, [, c]) => n + c, 0);
}

/**
 * Seconds a token bucket (burst `bucket`, refill `rate`/s) needs to admit `calls` requests when
 * they arrive as fast as allowed: the burst is free, the rest trickles in at the refill rate.
 */
export function bucketSeconds(calls: number, bucket = 40, rate = 10): number {
  return Math.max(0, (calls - bucket) / rate);
}

/**
 * Runs `fn` over `items` with at most `limit` in flight; once `stop()` says so, starts no more
 * (those in flight finish). Returns how many were started.
 */
export async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return next;
}
