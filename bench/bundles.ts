/**
 * What each function loads at a cold start, in bytes and in time, next to a bare bundle of
 * @kubernetes/client-node plus exactly the SDK clients that function loads at start, built with
 * the same options (scripts/function-build.ts, what `osls package` ships) and loaded the same way.
 *
 * A function's bundle is code-split: the start set is its entry file and the chunks it imports,
 * plus the chunks its start path imports dynamically in the deployed configuration (the AWS
 * provider, the Secrets Manager kubeconfig fetcher). Everything else (the SSM fetcher, the SQS
 * client that delays a failed record, the SDK's other credential providers) is packaged but only
 * read by a container that needs it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { functionBuildOptions } from '../scripts/function-build.js';
import { startSet, type StartSet } from './start-set.js';
import type { Figure } from './report.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'bench-bundles');
const RUNS = Number(process.env.BENCH_LOAD_RUNS) || 31;
const MAX_EXTRA_KIB = 150;
const MAX_LOAD_RATIO = 1.15;

const CLIENTS = {
  elbv2: { pkg: '@aws-sdk/client-elastic-load-balancing-v2', label: 'ELBv2' },
  secretsManager: { pkg: '@aws-sdk/client-secrets-manager', label: 'Secrets Manager' },
  ssm: { pkg: '@aws-sdk/client-ssm', label: 'SSM' },
  sqs: { pkg: '@aws-sdk/client-sqs', label: 'SQS' },
  tagging: { pkg: '@aws-sdk/client-resource-groups-tagging-api', label: 'Tagging API' },
  wafv2: { pkg: '@aws-sdk/client-wafv2', label: 'WAFv2' },
  shield: { pkg: '@aws-sdk/client-shield', label: 'Shield' },
  acm: { pkg: '@aws-sdk/client-acm', label: 'ACM' },
} as const;
export type Client = keyof typeof CLIENTS;

/** How a function starts: the modules its start path imports dynamically, and the SDK clients they and its entry bring. */
export interface Start {
  label: string;
  lazy: string[];
  clients: Client[];
}

const AWS_PROVIDER = 'lib/providers/aws/factory.ts';
/** The kubeconfig stores (lib/runtime/lambda.ts loads the configured one at the first read). */
const SECRETS_MANAGER = 'lib/runtime/kubeconfig-secrets-manager.ts';
const SSM = 'lib/runtime/kubeconfig-ssm.ts';
/** The edge services' clients, each a chunk of its own (lib/providers/aws/lazy-parts.ts). */
export const EDGE_CHUNKS = [
  'lib/providers/aws/edge/wafv2-client.ts',
  'lib/providers/aws/edge/shield-client.ts',
  'lib/providers/aws/edge/acm-client.ts',
];

/** The deployed configuration: the aws provider, the kubeconfig from Secrets Manager (serverless.yml). */
export const DEPLOYED: Record<string, Start> = {
  sqs: {
    label: 'aws provider, kubeconfig secret',
    lazy: [AWS_PROVIDER, SECRETS_MANAGER],
    clients: ['elbv2', 'tagging', 'secretsManager'],
  },
  invoke: {
    label: 'aws provider, kubeconfig secret',
    lazy: [AWS_PROVIDER, SECRETS_MANAGER],
    clients: ['elbv2', 'tagging', 'secretsManager'],
  },
  http: {
    label: 'aws provider, kubeconfig secret',
    lazy: [AWS_PROVIDER, SECRETS_MANAGER],
    clients: ['elbv2', 'tagging', 'secretsManager'],
  },
  sweep: {
    label: 'aws provider, kubeconfig secret',
    lazy: [AWS_PROVIDER, SECRETS_MANAGER],
    clients: ['elbv2', 'tagging', 'secretsManager'],
  },
  // No provider: it only lists objects and queues notifications.
  resync: {
    label: 'kubeconfig secret, no provider',
    lazy: [SECRETS_MANAGER],
    clients: ['sqs', 'secretsManager'],
  },
};

/** The other ways the sqs function can start: the optional SSM path, and a kubeconfig file (local runs). */
const OTHER_STARTS: Start[] = [
  {
    label: 'aws provider, kubeconfig parameter (SSM)',
    lazy: [AWS_PROVIDER, SSM],
    clients: ['elbv2', 'tagging', 'ssm'],
  },
  { label: 'aws provider, kubeconfig file', lazy: [AWS_PROVIDER], clients: ['elbv2', 'tagging'] },
  // A container whose stacks need every edge service: each client's chunk loaded (lazy-parts.ts).
  {
    label: 'aws provider, kubeconfig file, WAFv2 + Shield + ACM loaded',
    lazy: [AWS_PROVIDER, ...EDGE_CHUNKS],
    clients: ['elbv2', 'tagging', 'wafv2', 'shield', 'acm'],
  },
];

interface Built {
  dir: string;
  meta: Metafile;
}

async function bundle(name: string, entry: string, readable: boolean): Promise<Built> {
  const dir = join(OUT, readable ? 'readable' : 'plain', name);
  rmSync(dir, { recursive: true, force: true });
  const result = await build({
    ...functionBuildOptions({ readable }),
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outdir: dir,
    metafile: true,
    logLevel: 'silent',
  });
  return { dir, meta: result.metafile };
}

/**
 * The bare anchor's entry (relative to the root, as the metafile names it): client-node as the
 * issue measured it, and each SDK client package whole, as its CommonJS build carried it there.
 */
function bareEntry(clients: Client[]): string {
  const file = join('dist', 'bench-bundles', `bare-${clients.join('-')}.ts`);
  writeFileSync(
    join(ROOT, file),
    [
      "export { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';",
      ...clients.map((c) => `export * from '${CLIENTS[c].pkg}';`),
      '',
    ].join('\n'),
  );
  return file;
}

/** Bytes of our own code and of the libraries no bare bundle carries, in a start set. */
function ownBytes(built: Built, set: StartSet): number {
  let own = 0;
  for (const f of set.files) {
    for (const [input, { bytesInOutput }] of Object.entries(built.meta.outputs[f]!.inputs)) {
      if (/^(lib|functions)\/|node_modules\/(@aws-lambda-powertools|@middy)\//.test(input))
        own += bytesInOutput;
    }
  }
  return own;
}

function allBytes(built: Built): { code: number; maps: number } {
  let code = 0;
  let maps = 0;
  for (const [f, o] of Object.entries(built.meta.outputs)) {
    // The maps are rewritten after the build (our code only): their size is on disk.
    if (f.endsWith('.map')) maps += statSync(resolve(ROOT, f)).size;
    else code += o.bytes;
  }
  return { code, maps };
}

interface LoadSample {
  cpu: number;
  wall: number;
}

/** One cold load in a fresh node process: CPU time (user + system, all threads) and wall time. */
function loadOnce(roots: string[], sourceMaps: boolean): LoadSample {
  const code = [
    'const c0 = process.cpuUsage(); const t0 = performance.now();',
    `for (const f of ${JSON.stringify(roots)}) await import(f);`,
    'const c = process.cpuUsage(c0);',
    'process.stdout.write(JSON.stringify({ cpu: (c.user + c.system) / 1000, wall: performance.now() - t0 }));',
  ].join('\n');
  const out = execFileSync(
    process.execPath,
    [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', code],
    {
      env: {
        ...process.env,
        AWS_REGION: 'us-east-1',
        NODE_NO_WARNINGS: '1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    },
  );
  return JSON.parse(out.toString()) as LoadSample;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Median CPU and wall time of `RUNS` cold loads of each start set, the sets taking turns (a, b, c,
 * a, b, c...) so that a busy moment of this shared machine falls on all of them alike.
 */
function loadTimes(sets: Array<{ roots: string[]; sourceMaps: boolean }>): LoadSample[] {
  const samples = sets.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
  for (let run = 0; run < RUNS; run++) {
    sets.forEach((s, i) => {
      const t = loadOnce(s.roots, s.sourceMaps);
      samples[i]!.cpu.push(t.cpu);
      samples[i]!.wall.push(t.wall);
    });
  }
  return samples.map((s) => ({ cpu: median(s.cpu), wall: median(s.wall) }));
}

const kib = (bytes: number) => bytes / 1024;
const clientsLabel = (clients: Client[]) =>
  ['client-node', ...clients.map((c) => CLIENTS[c].label)].join(' + ');

export async function benchBundles(): Promise<Figure[]> {
  mkdirSync(OUT, { recursive: true });
  const figures: Figure[] = [];
  const group = 'bundles (cold start)';
  const cases = [
    ...Object.entries(DEPLOYED).map(([fn, start]) => ({ fn, start, deployed: true })),
    ...OTHER_STARTS.map((start) => ({ fn: 'sqs', start, deployed: false })),
  ];
  const anchors = new Map<string, { readable: Built; plain: Built; entry: string }>();
  // Every start's bundles first, then the loads: building while timing would disturb the timings.
  const functions = new Map<string, { readable: Built; plain: Built }>();
  for (const { fn, start } of cases) {
    const key = start.clients.join('-');
    if (!anchors.has(key)) {
      const entry = bareEntry(start.clients);
      anchors.set(key, {
        entry,
        readable: await bundle(`bare-${key}`, entry, true),
        plain: await bundle(`bare-${key}`, entry, false),
      });
    }
    if (!functions.has(fn)) {
      const entry = join('functions', `${fn}.ts`);
      functions.set(fn, { readable: await bundle(fn, entry, true), plain: await bundle(fn, entry, false) });
    }
  }

  for (const { fn, start, deployed } of cases) {
    const anchor = anchors.get(start.clients.join('-'))!;
    const built = functions.get(fn)!;
    const entry = join('functions', `${fn}.ts`);
    const ours = startSet(built.readable.meta, ROOT, entry, start.lazy);
    const oursPlain = startSet(built.plain.meta, ROOT, entry, start.lazy);
    const bare = startSet(anchor.readable.meta, ROOT, anchor.entry, []);
    const barePlain = startSet(anchor.plain.meta, ROOT, anchor.entry, []);
    const [oursLoad, bareLoad, oursPlainLoad, barePlainLoad] = loadTimes([
      { roots: ours.roots, sourceMaps: true },
      { roots: bare.roots, sourceMaps: true },
      { roots: oursPlain.roots, sourceMaps: false },
      { roots: barePlain.roots, sourceMaps: false },
    ]);
    const name = `${fn} (${start.label})`;
    const anchorName = `bare ${clientsLabel(start.clients)}`;
    const extra = kib(ours.bytes - bare.bytes);
    figures.push({
      group,
      name: `${name}: loaded at start`,
      value: kib(ours.bytes),
      unit: 'KiB',
      target: `≤ bare + ${MAX_EXTRA_KIB} KiB (+${extra.toFixed(0)} KiB)`,
      met: extra <= MAX_EXTRA_KIB,
      anchor: `${anchorName}: ${kib(bare.bytes).toFixed(0)} KiB`,
    });
    const ratio = oursLoad!.cpu / bareLoad!.cpu;
    figures.push({
      group,
      name: `${name}: load time (CPU, median of ${RUNS}; wall ${oursLoad!.wall.toFixed(0)} ms vs ${bareLoad!.wall.toFixed(0)} ms)`,
      value: oursLoad!.cpu,
      unit: 'ms',
      target: `≤ ${MAX_LOAD_RATIO} × bare (× ${ratio.toFixed(2)})`,
      met: ratio <= MAX_LOAD_RATIO,
      anchor: `${anchorName}: ${bareLoad!.cpu.toFixed(0)} ms`,
    });
    if (!deployed) continue;
    figures.push({
      group,
      name: `${name}: of which our code, Powertools, middy`,
      value: kib(ownBytes(built.readable, ours)),
      unit: 'KiB',
    });
    const all = allBytes(built.readable);
    figures.push({
      group,
      name: `${name}: whole package (every chunk; source maps ${kib(all.maps).toFixed(0)} KiB beside)`,
      value: kib(all.code),
      unit: 'KiB',
    });
    const plainRatio = oursPlainLoad!.cpu / barePlainLoad!.cpu;
    figures.push({
      group,
      name: `${name}: cost of keepNames + source maps (--enable-source-maps), ours`,
      value: `+${kib(ours.bytes - oursPlain.bytes).toFixed(0)} KiB, +${(oursLoad!.cpu - oursPlainLoad!.cpu).toFixed(0)} ms`,
      unit: '',
      anchor: `without: ${kib(oursPlain.bytes).toFixed(0)} KiB, ${oursPlainLoad!.cpu.toFixed(0)} ms (× ${plainRatio.toFixed(2)} of bare ${barePlainLoad!.cpu.toFixed(0)} ms, +${kib(oursPlain.bytes - barePlain.bytes).toFixed(0)} KiB)`,
    });
  }
  return figures;
}
