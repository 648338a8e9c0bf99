/**
 * The cluster watch forwarder as it ships (the esbuild bundle run by plain `node`), against the
 * Kubernetes API stand-in, delivering to a local endpoint that speaks SQS's SendMessageBatch with
 * a 15 ms round trip (a real queue's order of magnitude):
 * - initial sync of 10,000 objects: time from process start until every object was delivered, and
 *   the process's peak RSS (VmHWM);
 * - 500 events/s for 10 s on those objects: notifications per SQS call, and event → sink latency
 *   (from the moment the API server acknowledged the write to the moment the message arrived).
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { startKubeApiServer } from '../dev/kube-apiserver/index.js';
import { createKubeClient, loadKubeConfig } from '../lib/kube/client-node.js';
import { Resources } from '../lib/kube/resources.js';
import { startFakeSqs } from '../test/integration/forwarder-fakes.js';
import { percentile, type Figure } from './report.js';

const ROOT = resolve(import.meta.dirname, '..');
const OBJECTS = Number(process.env.BENCH_FORWARDER_OBJECTS ?? 10_000);
const RATE = 500;
const LOAD_SECONDS = Number(process.env.BENCH_FORWARDER_SECONDS ?? 10);
const COALESCE = '10ms';
const BATCH_INTERVAL = '20ms';

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? '0') / 1024;
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function benchForwarder(): Promise<Figure[]> {
  execFileSync('npx', ['tsx', 'scripts/bundle-forwarder.ts'], { cwd: ROOT, stdio: 'pipe' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-forwarder-'));
  copyFileSync(join(ROOT, 'dist/forwarder/forwarder.mjs'), join(dir, 'forwarder.mjs'));
  const api = await startKubeApiServer({ historyLimit: 100_000 });
  const sqs = await startFakeSqs();
  sqs.latencyMs = 15;
  const kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  writeFileSync(join(dir, 'unused.yaml'), stringify({}));
  for (let i = 0; i < OBJECTS; i++) {
    api.store.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `svc-${i}`, namespace: 'default' },
      spec: { ports: [{ port: 80 }] },
    } as never);
  }
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [
      'forwarder.mjs',
      '--kubeconfig',
      kubeconfig,
      '--sink',
      'sqs',
      '--sink-target',
      sqs.queueUrl,
      '--sink-endpoint',
      sqs.url,
      '--region',
      'us-east-1',
      '--leader-elect=false',
      '--coalesce-window',
      COALESCE,
      '--port',
      '0',
      '--log-level',
      'warn',
      '--batch-interval',
      BATCH_INTERVAL,
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    await until(() => sqs.messages.length >= OBJECTS, 120_000, 'initial sync');
    const syncMs = Date.now() - t0;
    const syncRss = peakRssMb(child.pid!);

    // Load: RATE modifications per second, spread over distinct objects so none coalesce away.
    const kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
    const baseline = sqs.messages.length;
    const baseCalls = sqs.batchSizes.length;
    const writtenAt = new Map<string, number>();
    const total = RATE * LOAD_SECONDS;
    const start = Date.now();
    let inFlight = 0;
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight++;
      void kube
        .patch(Resources.Service, 'default', `svc-${i % OBJECTS}`, {
          metadata: { labels: { bench: String(i) } },
        })
        .then((obj) => writtenAt.set(`${obj.metadata.name}|${obj.metadata.resourceVersion}`, Date.now()))
        .finally(() => inFlight--);
    }
    await until(() => inFlight === 0, 30_000, 'writes');
    await until(() => sqs.messages.length >= baseline + total, 30_000, 'load delivery');
    const latencies: number[] = [];
    sqs.messages.slice(baseline).forEach((m, i) => {
      const n = JSON.parse(m.MessageBody) as { ref: { name: string; resourceVersion?: string } };
      const at = writtenAt.get(`${n.ref.name}|${n.ref.resourceVersion}`);
      if (at !== undefined) latencies.push(Math.max(0, sqs.arrivals[baseline + i]! - at));
    });
    latencies.sort((a, b) => a - b);
    const loadCalls = sqs.batchSizes.slice(baseCalls);
    const perCall = loadCalls.reduce((a, b) => a + b, 0) / Math.max(1, loadCalls.length);
    const rss = peakRssMb(child.pid!);
    const p99 = percentile(latencies, 99);
    return [
      {
        group: 'forwarder (bundle, SQS sink)',
        name: `initial sync of ${OBJECTS} objects`,
        value: syncMs,
        unit: 'ms',
      },
      {
        group: 'forwarder (bundle, SQS sink)',
        name: 'peak RSS (sync + load)',
        value: Math.max(rss, syncRss),
        unit: 'MiB',
        target: '≤ 200 MiB',
        met: Math.max(rss, syncRss) <= 200,
      },
      {
        group: 'forwarder (bundle, SQS sink)',
        name: `notifications per SQS call at ${RATE} events/s`,
        value: perCall,
        unit: '',
        target: '≥ 8',
        met: perCall >= 8,
        anchor: 'Knative ApiServerSource: 1 event per HTTP request',
      },
      {
        group: 'forwarder (bundle, SQS sink)',
        name: `event → sink latency p99 at ${RATE} events/s (coalesce window ${COALESCE}, batch interval ${BATCH_INTERVAL})`,
        value: p99,
        unit: 'ms',
        target: '≤ 50 ms',
        met: p99 <= 50,
      },
      {
        group: 'forwarder (bundle, SQS sink)',
        name: 'event → sink latency p50',
        value: percentile(latencies, 50),
        unit: 'ms',
      },
    ];
  } finally {
    child.kill('SIGKILL');
    await sqs.close();
    await api.close();
  }
}
