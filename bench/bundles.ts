/**
 * Function bundle sizes and module-load times, next to a bare bundle of @kubernetes/client-node
 * plus the ELBv2 client (what any TypeScript provider for Karmada on AWS must carry). Bundled with
 * the options serverless.yml gives serverless-esbuild (cjs, minified, node20).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { Figure } from './report.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'bench-bundles');
export const FUNCTIONS = ['sqs', 'invoke', 'http'];

async function bundle(entry: string, outfile: string): Promise<number> {
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
  });
  return statSync(outfile).size;
}

/** Median of `runs` cold loads, each in a fresh node process, timed inside the process. */
function loadTimeMs(file: string, runs = 9): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `const t=performance.now();require(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t))`,
      ],
      { env: { ...process.env, AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' } },
    );
    times.push(Number(out.toString()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function benchBundles(): Promise<Figure[]> {
  mkdirSync(OUT, { recursive: true });
  const bareEntry = join(OUT, 'bare-entry.ts');
  writeFileSync(
    bareEntry,
    "export { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';\nexport { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';\n",
  );
  const bareFile = join(OUT, 'bare.cjs');
  const bareSize = await bundle(bareEntry, bareFile);
  const bareLoad = loadTimeMs(bareFile);
  const figures: Figure[] = [
    { group: 'bundles', name: 'bare client-node + ELBv2 bundle size', value: bareSize / 1024, unit: 'KiB' },
    { group: 'bundles', name: 'bare client-node + ELBv2 load time', value: bareLoad, unit: 'ms' },
  ];
  for (const fn of FUNCTIONS) {
    const file = join(OUT, `${fn}.cjs`);
    const size = await bundle(join(ROOT, 'functions', `${fn}.ts`), file);
    const load = loadTimeMs(file);
    figures.push({
      group: 'bundles',
      name: `${fn} function bundle size`,
      value: size / 1024,
      unit: 'KiB',
      target: '≤ 1024 KiB (reported)',
      met: size <= 1024 * 1024,
      anchor: `bare ${(bareSize / 1024).toFixed(0)} KiB`,
    });
    figures.push({
      group: 'bundles',
      name: `${fn} function load time`,
      value: load,
      unit: 'ms',
      target: `≤ 1.3 × bare (${(bareLoad * 1.3).toFixed(0)} ms)`,
      met: load <= bareLoad * 1.3,
      anchor: `bare ${bareLoad.toFixed(0)} ms`,
    });
  }
  return figures;
}
