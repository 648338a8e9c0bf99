/**
 * A chunk missing from the shipped package fails clearly and costs nothing else: the sqs function
 * bundled as `osls package` ships it (scripts/function-build.ts), its lazily loaded controllers and
 * next steps deleted from `sqs.chunks/`, run by plain node against the Kubernetes API stand-in
 * with the fake provider. Each record that asks for one of those controllers (the MCS's own; the
 * MCI's service locations and ServiceExport) fails with a ModuleLoadError naming the part, in the
 * log and as a batch item failure, so SQS redelivers it; the MCI's own controller still runs, and
 * its invalid spec still gets a Warning Event, without the next step, and the log says why.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed } from '../../dev/local/pipeline.js';
import {
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { Resources, resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { functionBuildOptions } from '../../scripts/function-build.js';
import { sqsRecord } from '../support/sqs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const REMOVED = ['lib/reconcile/lazy-controllers.ts', 'lib/reconcile/next-steps.ts'];

let dir: string;
let api: KubeApiServer;
let sqs: Server;
let kubeconfig: string;

const notificationFor = (obj: KubeObject) =>
  JSON.stringify(makeNotification('added', resourceFor(obj.apiVersion!, obj.kind!)!, obj));

const invalidMci = (): KubeObject =>
  ({
    ...minimalIngress(),
    spec: { rules: [{ http: { paths: [{ path: '/x', pathType: 'Prefix', backend: {} }] } }] },
  }) as KubeObject;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-missing-chunk-'));
  const out = join(dir, 'functions');
  const { metafile } = await build({
    ...functionBuildOptions(),
    absWorkingDir: ROOT,
    entryPoints: ['functions/sqs.ts'],
    outdir: out,
    metafile: true,
    logLevel: 'silent',
  });
  writeFileSync(join(out, 'package.json'), readFileSync(join(ROOT, 'functions/package.json')));
  for (const module of REMOVED) {
    const [file] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === module)!;
    rmSync(resolve(ROOT, file));
  }
  api = await startKubeApiServer();
  kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
  await seed(kube, [ingressClass(), serveService(), invalidMci(), serveMultiClusterService()]);
  writeFileSync(join(dir, 'fake.yaml'), '{}\n');
  // ChangeMessageVisibilityBatch, as the failed record's redelivery delay calls it.
  sqs = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const input = JSON.parse(body) as { Entries: Array<{ Id: string }> };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Successful: input.Entries.map((e) => ({ Id: e.Id })), Failed: [] }));
    });
  });
  await new Promise<void>((r) => sqs.listen(0, '127.0.0.1', r));
}, 120_000);

afterAll(async () => {
  await api?.close();
  sqs?.close();
});

it('fails the records whose controllers are missing, naming them, and sends the warning without its next step', async () => {
  const event = {
    Records: [
      sqsRecord('mci', notificationFor(invalidMci())),
      sqsRecord('mcs', notificationFor(serveMultiClusterService())),
    ],
  };
  const script = `
    const { handler } = await import(${JSON.stringify(join(dir, 'functions', 'sqs.js'))});
    const res = await handler(${JSON.stringify(event)}, { awsRequestId: 'r', functionName: 'sqs', getRemainingTimeInMillis: () => 60_000 });
    console.log(JSON.stringify({ result: res }));`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    MULTICLUSTER_PROVIDER: 'fake',
    PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
    CLOUD_CONFIG: join(dir, 'fake.yaml'),
    KUBECONFIG: kubeconfig,
    LOG_LEVEL: 'INFO',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`,
    POWERTOOLS_METRICS_NAMESPACE: 'multicluster-cloud-provider/test',
    NODE_OPTIONS: '--enable-source-maps',
  };
  // Asynchronously: the API stand-in serves the function from this process.
  const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env,
    cwd: dir,
  });
  // Warnings and errors are logged to stderr, the rest to stdout.
  const lines = `${stdout}\n${stderr}`
    .trim()
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const result = lines.find((l) => 'result' in l)?.result as {
    batchItemFailures: Array<{ itemIdentifier: string }>;
  };
  expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['mci', 'mcs']);
  const text = lines.map((l) => JSON.stringify(l)).join('\n');
  expect(text).toMatch(
    /could not load the controllers other than the MultiClusterIngress one \(reconcile\/lazy-controllers\.ts\): [^"]*sqs\.chunks\/lazy-controllers-[A-Z0-9]+\.js/,
  );
  const missingStep = lines.find((l) => l.message === 'warning sent without its next step');
  expect(missingStep?.level).toBe('ERROR');
  expect(String(missingStep?.error)).toMatch(
    /could not load the next steps of warnings \(reconcile\/next-steps\.ts\): .*sqs\.chunks\/next-steps-[A-Z0-9]+\.js/,
  );

  const events = await createKubeClient(loadKubeConfig({ file: kubeconfig })).list<
    KubeObject & { reason: string; message: string; type: string; involvedObject: { kind: string } }
  >(Resources.Event, { namespace: 'default' });
  const warning = events.items.find(
    (e) => e.type === 'Warning' && e.involvedObject.kind === 'MultiClusterIngress',
  );
  expect(warning?.reason).toBe('InvalidSpec');
  expect(warning?.message).toMatch(/spec\.rules\[0\]\.http\.paths\[0\]\.backend/);
  expect(warning?.message).not.toMatch(/Next:/);
}, 60_000);
