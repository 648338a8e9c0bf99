/**
 * A periodic resync of n MultiClusterIngresses (each its own ALB: one path, endpoints in two
 * clusters) against the ELBv2 simulator: total ELBv2 calls by action, and how long those calls
 * take inside ELBv2's documented request budget for non-mutating calls (token bucket per account
 * and Region: 40 burst, 10/s refill; anchors §4.5). A no-change resync makes Describe* calls
 * only, so that bucket is the bound; mutating calls have their own, smaller buckets.
 *
 * Also measured: the same pass as ordinary (non-resync) notifications, which may stop at the
 * no-op fingerprint. Every pass is driven like lib/reconcile/lifecycle.ts: get(), then update().
 */
import { collectedSlice, minimalIngress, serveService } from '../dev/local/scenario.js';
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { Resources } from '../lib/kube/resources.js';
import type { LoadBalancer } from '../lib/provider/contract.js';
import {
  breakdown,
  bucketSeconds,
  callsByAction,
  describeCalls,
  mapLimit,
  providerContext,
  startElbv2Env,
  totalCalls,
  type Elbv2Env,
} from './elbv2-env.js';
import type { Figure } from './report.js';

/** Parallel reconciles: only the wall time depends on it, not the counts. */
const CONCURRENCY = 16;
const DESCRIBE_BUCKET = 40;
const DESCRIBE_RATE = 10;

/**
 * LBC's Describe* calls for a resync of n Ingresses that each own one ALB (one HTTP listener, one
 * rule, one target group) in an account holding just those: per Ingress one paged
 * DescribeLoadBalancers and DescribeTargetGroups over the whole account (⌈n/400⌉ pages each),
 * Describe{LoadBalancer,TargetGroup,Listener}Attributes, DescribeListeners, DescribeRules, and the
 * listener's and rules' DescribeTags (their 20-minute cache entries are long gone after a 10-hour
 * sync period); plus one DescribeTags per 20 load balancers and per 20 target groups for the first
 * listing. See bench/README.md for the reading behind it.
 */
export function lbcResyncDescribeCalls(n: number): number {
  const pages = Math.ceil(n / 400);
  return n * (2 * pages + 5 + 2) + 2 * Math.ceil(n / 20);
}

/** Phases on stderr: at n = 1,000 a run takes minutes, and the table goes to stdout. */
function progress(message: string): void {
  process.stderr.write(`  ${message}\n`);
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${seconds.toFixed(1)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

interface Pass {
  /** Calls by action for all n MCIs: measured, or scaled from `done` when the budget ran out. */
  byAction: Record<string, number>;
  /** MCIs actually reconciled (n unless the time budget stopped the pass). */
  done: number;
  /** Per action, calls beyond a whole multiple of `done` (one-time or sporadic); empty when uniform. */
  extra: Record<string, number>;
  total: number;
  describe: number;
  wallMs: number;
  failures: number;
  firstError?: string;
}

async function pass(
  env: Elbv2Env,
  lb: LoadBalancer,
  mcis: readonly MultiClusterIngress[],
  resync: boolean,
  budgetMs: number,
): Promise<Pass> {
  env.sim.calls.reset();
  let failures = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const done = await mapLimit(
    mcis,
    CONCURRENCY,
    async (mci) => {
      try {
        const ctx = providerContext(resync);
        const existing = await lb.get(ctx, mci);
        await (existing.exists ? lb.update(ctx, mci) : lb.ensure(ctx, mci));
      } catch (err) {
        // Counted, not thrown: one broken reconcile must not hide the other n − 1 figures.
        failures++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    },
    () => budgetMs > 0 && performance.now() - t0 > budgetMs,
  );
  const wallMs = performance.now() - t0;
  const measured = callsByAction(env.sim);
  // Every MCI is the same shape and a no-change pass leaves the account as it was, so each costs
  // the same calls, plus whatever the provider spends once (a cache filled by the first
  // reconcile): a count splits into ⌊c / done⌋ per MCI, scaled to n, and a remainder kept as is.
  const extra = Object.fromEntries(
    Object.entries(measured)
      .filter(([, c]) => c % done !== 0)
      .map(([a, c]) => [a, c % done]),
  );
  const byAction =
    done === mcis.length
      ? measured
      : Object.fromEntries(
          Object.entries(measured).map(([a, c]) => [a, Math.floor(c / done) * mcis.length + (c % done)]),
        );
  return {
    byAction,
    done,
    extra,
    total: totalCalls(byAction),
    describe: describeCalls(byAction),
    wallMs,
    failures,
    ...(firstError !== undefined ? { firstError } : {}),
  };
}

/**
 * `budgetSeconds` bounds each pass's wall time (0: none), so that a regression that makes the drift
 * check grow with the account (it once listed every target group per MCI) cannot stall the
 * benchmark; past the budget the pass stops starting reconciles and its counts are scaled from the
 * MCIs done, which the figure then says.
 */
export async function benchResync(n = 1000, budgetSeconds = 150): Promise<Figure[]> {
  const budgetMs = budgetSeconds * 1000;
  const env = await startElbv2Env({
    objects: [
      serveService(),
      collectedSlice('member1', ['10.1.0.11']),
      collectedSlice('member2', ['10.2.0.21']),
    ],
    // Every MCI is its own ALB with one target group; raise the simulator's quotas to fit.
    loadBalancers: n + 10,
    targetGroups: n + 10,
  });
  try {
    const lb = env.provider.loadBalancer();
    if (!lb) throw new Error('the aws provider has no MultiClusterIngress support');
    const mcis: MultiClusterIngress[] = [];
    await mapLimit(
      Array.from({ length: n }, (_, i) => `resync-${String(i).padStart(4, '0')}`),
      CONCURRENCY,
      async (name) => {
        mcis.push(await env.kube.create(Resources.MultiClusterIngress, minimalIngress(name)));
      },
    );
    progress(`resync: creating ${n} ALBs`);
    const create = await pass(env, lb, mcis, false, 0);
    const snapshot = env.sim.snapshot();
    if (snapshot.loadBalancers.length !== n) {
      throw new Error(
        `creation made ${snapshot.loadBalancers.length} of ${n} ALBs (${create.failures} reconciles failed)`,
      );
    }
    progress(`resync: created in ${(create.wallMs / 1000).toFixed(0)} s; resync pass`);
    const resync = await pass(env, lb, mcis, true, budgetMs);
    progress(
      `resync: resync pass took ${(resync.wallMs / 1000).toFixed(0)} s for ${resync.done} MCIs; non-resync pass`,
    );
    const plain = await pass(env, lb, mcis, false, budgetMs);

    const group = `resync of ${n} MCIs (simulator)`;
    const lbcDescribe = lbcResyncDescribeCalls(n);
    const lbcSeconds = bucketSeconds(lbcDescribe, DESCRIBE_BUCKET, DESCRIBE_RATE);
    const figuresFor = (label: string, p: Pass, anchor?: string, callTarget?: number): Figure[] => {
      const seconds = bucketSeconds(p.describe, DESCRIBE_BUCKET, DESCRIBE_RATE);
      const failed = p.failures
        ? `; ${p.failures} reconciles FAILED, first: ${(p.firstError ?? '').slice(0, 120)}`
        : '';
      const perMci = `${(p.total / n).toFixed(1)} per MCI`;
      const scaled =
        p.done === n
          ? ''
          : `; the ${budgetSeconds} s budget stopped the pass after ${p.done} MCIs: per-MCI counts × ${n}${
              Object.keys(p.extra).length
                ? ` + remainder kept unscaled (${breakdown(p.extra)})`
                : ', all uniform'
            }`;
      return [
        {
          group,
          name: `${label}: ELBv2 calls (${breakdown(p.byAction) || 'none'}; ${perMci}${scaled}${failed})`,
          value: p.total,
          unit: 'calls',
          ...(callTarget !== undefined
            ? { target: `≤ ${callTarget} (≤ 2 per MCI)`, met: p.total <= callTarget }
            : {}),
          ...(anchor ? { anchor: `LBC ≈ ${lbcDescribe} Describe* calls` } : {}),
        },
        {
          group,
          name: `${label}: time inside the Describe budget (${p.describe} Describe*, 40 burst + 10/s; ${formatDuration(seconds)})`,
          value: seconds,
          unit: 's',
          ...(anchor ? { anchor } : {}),
        },
        {
          group,
          name: `${label}: wall time against the simulator (concurrency ${CONCURRENCY}, ${p.done} of ${n} MCIs)`,
          value: p.wallMs / 1000,
          unit: 's',
        },
      ];
    };
    return [
      {
        group,
        name: `create ${n} MCIs: ELBv2 calls (${breakdown(create.byAction)}; ${(create.total / n).toFixed(1)} per MCI)`,
        value: create.total,
        unit: 'calls',
      },
      ...figuresFor(
        'resync (full drift check)',
        resync,
        `LBC ≈ ${lbcDescribe} Describe* → ${formatDuration(lbcSeconds)}`,
      ),
      ...figuresFor('non-resync pass (fingerprint)', plain, undefined, 2 * n),
    ];
  } finally {
    await env.close();
  }
}
