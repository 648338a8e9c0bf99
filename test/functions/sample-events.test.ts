/**
 * Every sample event in events/ is accepted by the function it is meant for and does what
 * events/expectations.json says, run in-process against the stand-in in the state it assumes;
 * and `npm run invoke` runs samples for real (osls invoke local, the Lambda bundle, the stand-in,
 * the ELBv2 simulator for `--provider aws`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startKubeApiServer } from '../../dev/kube-apiserver/index.js';
import { loadExpectations, matches, prepare } from '../../dev/invoke/samples.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { notificationsFromHttp } from '../../lib/notification/http.js';
import { normalizeMany, parseSqsBody } from '../../lib/notification/parse.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';

const dir = join(import.meta.dirname, '../../events');
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'expectations.json');
const expectations = loadExpectations(dir);

function notificationsOf(file: string): NormalizedNotification[] {
  const event = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (file.startsWith('sqs-')) return event.Records.flatMap((r: { body: string }) => parseSqsBody(r.body));
  if (file.startsWith('http-')) return notificationsFromHttp(event.headers, event.body);
  return normalizeMany(event);
}

describe('sample events', () => {
  it('cover each input shape and change type', () => {
    const all = files.flatMap(notificationsOf);
    expect(new Set(all.map((n) => n.change))).toEqual(new Set(['added', 'modified', 'deleted', 'resync']));
    expect(files.some((f) => f.startsWith('sqs-'))).toBe(true);
    expect(files.some((f) => f.startsWith('cloudevent-resource-'))).toBe(true);
    expect(files.some((f) => f.startsWith('cloudevent-ref-'))).toBe(true);
  });

  it('each say what to expect, and every expectation has its sample', () => {
    expect(Object.keys(expectations).sort()).toStrictEqual([...files].sort());
  });

  it.each(files)('%s is a valid notification for its function', (file) => {
    expect(notificationsOf(file).length).toBeGreaterThan(0);
  });

  it('samples of a deletion expect it to happen, not a creation', () => {
    for (const file of files) {
      if (!notificationsOf(file).every((n) => n.change === 'deleted')) continue;
      expect(JSON.stringify(expectations[file]?.output)).toContain('"outcome":"deleted"');
      expect(JSON.stringify(expectations[file]?.output)).not.toContain('"outcome":"created"');
    }
  });
});

describe('sample events, in-process, against the stand-in in the state they assume', () => {
  it('each one does what its expectation says', async () => {
    const work = mkdtempSync(join(tmpdir(), 'samples-'));
    Object.assign(process.env, {
      MULTICLUSTER_PROVIDER: 'fake',
      PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
      LOG_LEVEL: 'SILENT',
    });
    const handlers: Record<
      string,
      (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>
    > = {
      invoke: (await import('../../functions/invoke.js')).handler as never,
      sqs: (await import('../../functions/sqs.js')).handler as never,
      http: (await import('../../functions/http.js')).handler as never,
    };
    const mismatches: string[] = [];
    for (const [i, file] of files.entries()) {
      const expectation = expectations[file]!;
      const api = await startKubeApiServer();
      try {
        // A new kubeconfig path and provider configuration: the handlers build a fresh runtime.
        process.env.KUBECONFIG = api.writeKubeconfig(join(work, `${i}.kubeconfig`));
        process.env.CLOUD_CONFIG = join(work, `${i}.yaml`);
        writeFileSync(process.env.CLOUD_CONFIG, `stateFile: ${join(work, `${i}-state.json`)}\n`);
        await prepare(createKubeClient(loadKubeConfig({ file: process.env.KUBECONFIG })), expectation.setup);
        const event: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        const output = await handlers[expectation.function]!(event, lambdaContext(expectation.function));
        if (!matches(output, expectation.output)) mismatches.push(`${file}: ${JSON.stringify(output)}`);
      } finally {
        await api.close();
      }
    }
    expect(mismatches).toStrictEqual([]);
  }, 120_000);
});

const run = promisify(execFile);

async function invoke(file: string, ...extra: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run('npx', ['tsx', 'scripts/invoke.ts', join('events', file), ...extra], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, KUBECONFIG: '', CLOUD_CONFIG: '', LOG_LEVEL: 'WARN' },
      timeout: 170_000,
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

interface Emf {
  Namespace: string;
  Metrics: Array<{ Name: string }>;
}

/** The metrics of the README's table (Metrics, alarms and dashboards). */
const README_METRICS = [
  ...readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8').matchAll(
    /^\| `(\w+)` \| (?:Count|Milliseconds) \|/gm,
  ),
].map((m) => m[1]);

describe('npm run invoke', () => {
  it.each([
    ['native-deleted-mci.json', [], /"outcome": "deleted"/],
    ['sqs-native-and-cloudevent.json', [], /"batchItemFailures": \[\]/],
    ['http-post-batch.json', [], /"statusCode": 200/],
    ['native-added-mci.json', [], /"outcome": "created"/],
    ['native-added-mci.json', ['--provider', 'aws'], /"outcome": "created"/],
  ])(
    'runs %s %j through osls invoke local, as the sample expects',
    async (file, extra, expected) => {
      const { stdout, stderr } = await invoke(file, ...extra);
      expect(stdout).toMatch(expected);
      expect(stderr).toContain(`expect: ${expectations[file]!.expect}`);
      expect(stderr).toMatch(/^as expected\.$/m);
      // serverless.yml's POWERTOOLS_METRICS_NAMESPACE reaches osls invoke local: the README's EMF
      // lines, in the stage's namespace, only of the metrics its table lists.
      const emf = stdout
        .split('\n')
        .filter((l) => l.startsWith('{"_aws"'))
        .map((l) => JSON.parse(l) as { _aws: { CloudWatchMetrics: Emf[] } } & Record<string, unknown>);
      expect(emf.length).toBeGreaterThan(0);
      for (const line of emf) {
        for (const m of line._aws.CloudWatchMetrics) {
          expect(m.Namespace).toBe('multicluster-cloud-provider/dev');
          for (const { Name } of m.Metrics) expect(README_METRICS).toContain(Name);
        }
      }
      if (file === 'native-added-mci.json' && extra.length === 0) expect(emf).toHaveLength(8);
    },
    180_000,
  );

  it('names MULTICLUSTER_PROVIDER when the provider is unknown', async () => {
    const { stdout } = await invoke('native-added-mci.json', '--provider', 'gcp');
    expect(stdout).toContain(
      'MULTICLUSTER_PROVIDER: unknown multicluster provider \\"gcp\\" (registered: aws, fake)',
    );
  }, 180_000);
});
