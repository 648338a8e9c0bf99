/**
 * Where an invocation's time goes, without touching the function's code: each invocation runs in
 * an AsyncLocalStorage context, every AWS SDK call (all clients share @smithy/core's `Client`, whose
 * `send` is patched on its prototype) and every HTTP request to the Kubernetes API stand-in
 * (client-node's node-fetch calls `http.request`, patched on the module) adds its wall time to the
 * context it was made in. The SDK's time includes its retries' backoff and the per-container
 * call-rate cap (both sit inside `send`); `$metadata.attempts` counts the retries.
 *
 * Calls of one invocation overlap (objects reconcile in parallel), so a service's time is busy
 * time summed over calls, not a share of the wall time; `critical` says how much of the wall time
 * some call of that kind was in progress.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';

export interface Busy {
  calls: number;
  /** Summed over calls. */
  ms: number;
  /** Extra attempts the SDK made (throttles, 5xx, dropped connections). */
  retries: number;
  /** Wall time during which at least one call of this kind was in progress. */
  criticalMs: number;
}

export interface InvocationProfile {
  phase: string;
  wallMs: number;
  status: number;
  notifications: number;
  busy: Record<string, Busy>;
}

interface Live {
  busy: Record<string, Busy & { open: number; since: number }>;
}

export interface Profiler {
  /** Runs one invocation in its own context; `finish` turns it into a profile. */
  run<T>(
    fn: () => Promise<T>,
  ): Promise<{ value: T; finish: (status: number, notifications: number) => void }>;
  /** The current phase's name, given to every invocation that starts from now on. */
  phase(name: string): void;
  readonly invocations: readonly InvocationProfile[];
  /** Per phase, the Kubernetes requests by method and path (without the query), counted. */
  readonly kubePaths: ReadonlyMap<string, ReadonlyMap<string, number>>;
  uninstall(): void;
}

type Send = (this: { constructor: { name: string } }, ...args: unknown[]) => Promise<unknown>;

function attemptsOf(value: unknown): number {
  return (value as { $metadata?: { attempts?: number } } | undefined)?.$metadata?.attempts ?? 1;
}

/** `lease` (the per-object locks), `status` (status writes), or the verb and kind of a Kubernetes request. */
function kubeKind(method: string, path: string): string {
  if (path.includes('/leases')) return 'kube lease';
  if (path.includes('/events')) return 'kube event';
  if (/\/status(\?|$)/.test(path)) return 'kube status';
  if (path.includes('/configmaps')) return `kube ${method === 'GET' ? 'read' : 'write'} configmap`;
  return `kube ${method === 'GET' ? 'read' : 'write'}`;
}

export function installProfiler(kubePort: number): Profiler {
  const als = new AsyncLocalStorage<Live>();
  const invocations: InvocationProfile[] = [];
  const kubePaths = new Map<string, Map<string, number>>();
  let phase = 'setup';

  const open = (kind: string): (() => { close: (retries: number) => void }) | undefined => {
    const live = als.getStore();
    if (!live) return undefined;
    return () => {
      const now = performance.now();
      const b = (live.busy[kind] ??= { calls: 0, ms: 0, retries: 0, criticalMs: 0, open: 0, since: 0 });
      if (b.open++ === 0) b.since = now;
      return {
        close: (retries: number) => {
          const end = performance.now();
          b.calls++;
          b.ms += end - now;
          b.retries += retries;
          if (--b.open === 0) b.criticalMs += end - b.since;
        },
      };
    };
  };

  const base = Object.getPrototypeOf(ElasticLoadBalancingV2Client.prototype) as { send: Send };
  const originalSend = base.send;
  base.send = async function (this: { constructor: { name: string } }, ...args: unknown[]) {
    const start = open(this.constructor.name.replace(/Client$/, ''));
    if (!start) return originalSend.apply(this, args);
    const span = start();
    try {
      const value = await originalSend.apply(this, args);
      span.close(attemptsOf(value) - 1);
      return value;
    } catch (error) {
      span.close(attemptsOf(error) - 1);
      throw error;
    }
  };

  const originalRequest = http.request;
  const patched = function (this: unknown, ...args: Parameters<typeof http.request>) {
    const req = (originalRequest as (...a: unknown[]) => http.ClientRequest).apply(this, args);
    const options = args[0] as http.RequestOptions | URL | string;
    const port = typeof options === 'object' && !(options instanceof URL) ? Number(options.port) : NaN;
    if (port !== kubePort) return req;
    const path = typeof options === 'object' && !(options instanceof URL) ? (options.path ?? '') : '';
    const start = open(kubeKind(req.method, path));
    if (!start) return req;
    const tally = kubePaths.get(phase) ?? new Map<string, number>();
    kubePaths.set(phase, tally);
    const key = `${req.method} ${path.split('?')[0]}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    const span = start();
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      span.close(0);
    };
    req.once('response', (res) => {
      res.once('end', close);
      res.once('close', close);
    });
    req.once('error', close);
    req.once('close', () => setImmediate(close));
    return req;
  };
  http.request = patched as typeof http.request;

  return {
    invocations,
    kubePaths,
    phase: (name) => {
      phase = name;
    },
    run: async (fn) => {
      const live: Live = { busy: {} };
      const started = performance.now();
      const at = phase;
      const value = await als.run(live, fn);
      return {
        value,
        finish: (status, notifications) => {
          const busy: Record<string, Busy> = {};
          for (const [k, { calls, ms, retries, criticalMs }] of Object.entries(live.busy))
            busy[k] = { calls, ms, retries, criticalMs };
          invocations.push({ phase: at, wallMs: performance.now() - started, status, notifications, busy });
        },
      };
    },
    uninstall: () => {
      base.send = originalSend;
      http.request = originalRequest;
    },
  };
}

/** Per phase: invocations, their wall time (median, p90, max), and each kind's busy and critical time. */
export function summarize(
  invocations: readonly InvocationProfile[],
  kubePaths: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(),
): string[] {
  const lines: string[] = [];
  const phases = [...new Set(invocations.map((i) => i.phase))];
  for (const phase of phases) {
    const of = invocations.filter((i) => i.phase === phase);
    const walls = of.map((i) => i.wallMs).sort((a, b) => a - b);
    const q = (p: number) => Math.round(walls[Math.min(walls.length - 1, Math.floor(p * walls.length))] ?? 0);
    const wall = walls.reduce((a, b) => a + b, 0);
    const statuses: Record<string, number> = {};
    for (const i of of) statuses[i.status] = (statuses[i.status] ?? 0) + 1;
    lines.push(
      `  profile ${phase}: ${of.length} invocations (${Object.entries(statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(
          ' ',
        )}), ${of.reduce((a, i) => a + i.notifications, 0)} notifications, wall p50 ${q(0.5)} ms p90 ${q(0.9)} ms max ${q(1)} ms, sum ${Math.round(wall / 1000)} s`,
    );
    const kinds = new Map<string, Busy>();
    for (const i of of)
      for (const [k, b] of Object.entries(i.busy)) {
        const t = kinds.get(k) ?? { calls: 0, ms: 0, retries: 0, criticalMs: 0 };
        kinds.set(k, {
          calls: t.calls + b.calls,
          ms: t.ms + b.ms,
          retries: t.retries + b.retries,
          criticalMs: t.criticalMs + b.criticalMs,
        });
      }
    for (const [k, b] of [...kinds.entries()].sort((a, b) => b[1].criticalMs - a[1].criticalMs))
      lines.push(
        `    ${k}: ${b.calls} calls${b.retries ? ` (+${b.retries} retries)` : ''}, busy ${Math.round(b.ms / 1000)} s, critical ${Math.round(b.criticalMs / 1000)} s (${wall ? Math.round((100 * b.criticalMs) / wall) : 0}% of wall), ${b.calls ? Math.round(b.ms / b.calls) : 0} ms/call`,
      );
    const hottest = [...(kubePaths.get(phase) ?? new Map<string, number>()).entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8);
    if (hottest.length > 0)
      lines.push(`    hottest Kubernetes requests: ${hottest.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  }
  return lines;
}
