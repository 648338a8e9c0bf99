/**
 * A deployed error is readable: the sqs function bundled as `osls package` ships it
 * (scripts/function-build.ts), run by plain node with `--enable-source-maps` as serverless.yml's
 * NODE_OPTIONS sets it, fails a bad configuration with the error's own name (Lambda's errorType)
 * and a stack trace naming our source file, line and function.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionBuildOptions } from '../../scripts/function-build.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-readability-'));
  await build({
    ...functionBuildOptions(),
    absWorkingDir: ROOT,
    entryPoints: ['functions/sqs.ts'],
    outdir: join(dir, 'functions'),
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'functions', 'package.json'), readFileSync(join(ROOT, 'functions/package.json')));
  writeFileSync(
    join(dir, 'kubeconfig.yaml'),
    'apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "http://127.0.0.1:9", insecure-skip-tls-verify: true } }]\n' +
      'users: [{ name: u, user: { token: t } }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\n' +
      'current-context: x\n',
  );
}, 120_000);

describe('the shipped sqs bundle', () => {
  it('names a configuration error and where our code raised it', () => {
    const script = `
      const { handler } = await import(${JSON.stringify(join(dir, 'functions', 'sqs.js'))});
      try {
        await handler({ Records: [] }, { awsRequestId: 'r', getRemainingTimeInMillis: () => 60_000 });
        console.log(JSON.stringify({ name: 'no error' }));
      } catch (error) {
        console.log(JSON.stringify({ name: error.name, stack: error.stack }));
      }`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      KUBECONFIG: join(dir, 'kubeconfig.yaml'),
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      NODE_OPTIONS: '--enable-source-maps',
    };
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, cwd: dir });
    const { name, stack } = JSON.parse(out.toString().trim().split('\n').pop()!) as {
      name: string;
      stack: string;
    };
    expect(name).toBe('ConfigError');
    expect(stack).toMatch(/MULTICLUSTER_PROVIDER is not set/);
    expect(stack).toMatch(/at loadRuntimeConfig \(.*lib\/runtime\/config\.ts:\d+:\d+\)/);
    // A library's frame keeps its name and its place in the bundle: never a line of ours.
    expect(stack).toMatch(/at runRequest \(file:.*functions\/sqs\.js:\d+:\d+\)/);
  });

  it('ships maps of our own code only, without the sources', () => {
    const maps = [
      join(dir, 'functions', 'sqs.js.map'),
      ...readdirSync(join(dir, 'functions', 'sqs.chunks'))
        .filter((f) => f.endsWith('.map'))
        .map((f) => join(dir, 'functions', 'sqs.chunks', f)),
    ].map((f) => JSON.parse(readFileSync(f, 'utf8')) as { sources: string[]; sourcesContent?: unknown });
    const sources = maps.flatMap((m) => m.sources);
    expect(sources.some((s) => s.endsWith('lib/runtime/config.ts'))).toBe(true);
    expect(sources.filter((s) => s.includes('node_modules/'))).toEqual([]);
    expect(maps.every((m) => m.sourcesContent === undefined)).toBe(true);
  });
});
