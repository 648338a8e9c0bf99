/**
 * The bad-input corpus (test/corpus/cases/*.yaml, listed in README.md): every case is one file
 * with the input and the expected outcome. For each case this checks that the error is clear (the
 * expected text) and lands where an operator looks, that the rest of the batch is served, that no
 * AWS state is left behind for an invalid object, and that an invalid object can still be deleted.
 */
import { sqsRecord } from '../support/sqs.js';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor, seed, startEdgeSimulators, type EdgeSimulators } from '../../dev/local/pipeline.js';
import { minimalIngress, serveService, collectedSlice } from '../../dev/local/scenario.js';
import type { Condition, MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { notificationsFromHttp } from '../../lib/notification/http.js';
import { parseSqsBody } from '../../lib/notification/parse.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';
import { stackId } from '../../lib/provider/stack-id.js';
import { STACK_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { CONDITION_ANNOTATION, READY_CONDITION } from '../../lib/reconcile/conditions.js';
import { loadRuntimeConfig } from '../../lib/runtime/config.js';
import type { BatchItem } from '../../lib/runtime/process.js';
import { createRuntime, createRuntimeWith } from '../../lib/runtime/runtime.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';
import { INGRESS_CLASS_CONTROLLER } from '../../dev/local/scenario.js';
import { notify, startHarness, type Harness } from '../support/harness.js';
import { baseObjects } from '../support/objects.js';
import {
  closedPortUrl,
  loadCases,
  logText,
  startUnauthorizedServer,
  type CorpusCase,
} from './support.js';

// As a function entry point does: runtimes here pick their provider from the built-in ones.
registerBuiltinProviders();

const cases = loadCases();

/** Whether a log line (fields as JSON) mentions `text`, which JSON may have escaped. */
const mentions = (line: string, text: string) =>
  line.includes(text) || line.includes(JSON.stringify(text).slice(1, -1));
const ofKind = (kind: CorpusCase['kind'], provider?: string) =>
  cases.filter((c) => c.kind === kind && (provider === undefined || (c.provider ?? 'fake') === provider));

const VALID = minimalIngress('valid-ingress') as MultiClusterIngress;

/** A Service with a named port, and the EndpointSlices Karmada collects for both Services. */
function extraBase(): KubeObject[] {
  const web = serveService();
  return [
    {
      ...web,
      metadata: { ...web.metadata, name: 'web' },
      spec: {
        ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
        selector: { app: 'web' },
      },
    } as KubeObject,
    collectedSlice('member1', ['10.1.0.31'], 'web'),
  ];
}

function sqsBody(c: CorpusCase): string {
  if (typeof c.input === 'string') return c.input;
  if (c.padTo === undefined) return JSON.stringify(c.input);
  const base = JSON.stringify({ ...(c.input as object), padding: '' });
  return JSON.stringify({ ...(c.input as object), padding: 'x'.repeat(Math.max(0, c.padTo - base.length)) });
}

function badItem(c: CorpusCase): BatchItem {
  const body = sqsBody(c);
  return {
    id: 'bad',
    notifications:
      c.transport === 'http' ? () => notificationsFromHttp(c.headers ?? {}, body) : () => parseSqsBody(body),
  };
}

const validItem = (): BatchItem => ({
  id: 'valid',
  notifications: () => [{ ...notify(VALID, 'modified'), source: 'sqs' } as NormalizedNotification],
});

it('has at least 50 cases, each with a unique name, covering every kind', () => {
  expect(cases.length).toBeGreaterThanOrEqual(50);
  expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  for (const kind of ['notification', 'object', 'provider-config', 'provider-name', 'kubeconfig'] as const) {
    expect(ofKind(kind).length, kind).toBeGreaterThan(0);
  }
  for (const c of cases) {
    expect(c.expect?.error, c.file).toBeTruthy();
    expect(c.category, c.file).toBeTruthy();
  }
});

it('README.md lists every case (it is the list of handled bad inputs)', () => {
  const readme = readFileSync(join(import.meta.dirname, 'README.md'), 'utf8');
  const listed = [...readme.matchAll(/\(cases\/([^)]+\.yaml)\)/g)].map((m) => m[1]);
  expect(listed.sort()).toEqual(cases.map((c) => c.file).sort());
});

describe('malformed notifications: a batch item failure and a log line; the rest of the batch is served', () => {
  let env: Harness;
  beforeAll(async () => {
    env = await startHarness({ objects: [...baseObjects(), VALID] });
    await env.run([validItem()]);
  });
  afterAll(() => env.close());

  it.each(ofKind('notification').map((c) => [c.file, c] as const))('%s', async (_file, c) => {
    env.logger.lines.length = 0;
    const [valid, bad] = await env.run([validItem(), badItem(c)]);
    expect(bad).toMatchObject({ id: 'bad', ok: false });
    expect(bad?.error).toContain(c.expect.error);
    // The error is logged with the item it belongs to.
    const lines = env.logger.lines.filter(
      (l) => l.message.includes(c.expect.log ?? 'notification rejected') && l.fields.item === 'bad',
    );
    expect(lines.length, logText(env.logger).join('\n')).toBeGreaterThan(0);
    expect(JSON.stringify(lines.map((l) => l.fields))).toContain(JSON.stringify(c.expect.error).slice(1, -1));
    // The valid notification in the same batch was served.
    expect(valid).toMatchObject({ id: 'valid', ok: true });
    expect(valid?.results.find((r) => r.controller === 'multiclusteringress')?.outcome).toMatch(
      /^(created|updated)$/,
    );
  });
});

interface ObjectChecks {
  env: Harness;
  sim?: Elbv2Simulator;
}

const MUTATING =
  /^(Create|Delete|Modify|Register|Deregister|AddTags|RemoveTags|Set|AddListener|RemoveListener)/;

function mutatingCalls(sim: Elbv2Simulator): number {
  return Object.entries(sim.calls.all())
    .filter(([action]) => MUTATING.test(action))
    .reduce((n, [, c]) => n + c.calls, 0);
}

function typeOf(obj: KubeObject): ResourceType {
  return obj.kind === 'MultiClusterService' ? Resources.MultiClusterService : Resources.MultiClusterIngress;
}

function expandPaths(obj: KubeObject, c: CorpusCase): KubeObject {
  const n = c.generate?.paths;
  if (!n) return obj;
  const mci = structuredClone(obj) as MultiClusterIngress;
  const rule = mci.spec?.rules?.[0];
  const first = rule?.http?.paths[0];
  if (!rule?.http || !first) throw new Error(`${c.file}: generate.paths needs spec.rules[0].http.paths[0]`);
  const base = first.backend.service?.port?.number ?? 0;
  rule.http.paths = Array.from({ length: n }, (_, i) => ({
    ...first,
    path: `${first.path ?? ''}${i}`,
    ...(c.generate?.distinctPorts && first.backend.service
      ? { backend: { service: { ...first.backend.service, port: { number: base + i } } } }
      : {}),
  }));
  return mci as KubeObject;
}

/** `generate.servicePorts`: a Service with that many ports, from 80 up. */
function generatedObjects(c: CorpusCase): KubeObject[] {
  const g = c.generate?.servicePorts;
  if (!g) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: g.name, namespace: 'default' },
      spec: {
        ports: Array.from({ length: g.count }, (_, i) => ({
          name: `p${80 + i}`,
          port: 80 + i,
          targetPort: 8080,
          protocol: 'TCP',
        })),
        selector: { app: g.name },
      },
    } as KubeObject,
  ];
}

function readyCondition(obj: KubeObject | undefined): Condition | undefined {
  if (!obj) return undefined;
  if (obj.kind === 'MultiClusterService') {
    return (obj as MultiClusterService).status?.conditions?.find((x) => x.type === READY_CONDITION);
  }
  const raw = obj.metadata.annotations?.[CONDITION_ANNOTATION];
  return raw ? (JSON.parse(raw) as Condition) : undefined;
}

async function checkObjectCase(t: ObjectChecks, c: CorpusCase): Promise<void> {
  const { env, sim } = t;
  const input = expandPaths(c.input as KubeObject, c);
  const type = typeOf(input);
  const ns = input.metadata.namespace ?? 'default';
  const name = input.metadata.name ?? '';
  await seed(env.kube, [...generatedObjects(c), ...(c.objects ?? [])]);
  const stack = stackId(type === Resources.MultiClusterService ? 'mcs' : 'mci', ns, name);
  const owned = () =>
    sim ? sim.snapshot().tags.filter((x) => x.Tags[STACK_TAG] === stack && x.Tags[OWNER_TAG]) : [];
  if (c.previous) {
    // It was valid and served first: its load balancer exists when the bad change arrives.
    await env.kube.create(type, c.previous);
    const [served] = await env.run([{ id: 'previous', notifications: () => [notify(input, 'added')] }]);
    expect(
      served?.results.find((r) => r.outcome === 'created'),
      JSON.stringify(served),
    ).toBeDefined();
    if (sim) expect(owned().length).toBeGreaterThan(0);
    const current = (await env.kube.get(type, ns, name))!;
    await env.kube.update(type, {
      ...input,
      metadata: {
        ...current.metadata,
        annotations: { ...current.metadata.annotations, ...input.metadata.annotations },
      },
    });
  } else {
    await env.kube.create(type, input);
  }
  const ownedBefore = owned().length;
  env.logger.lines.length = 0;
  const before = sim ? mutatingCalls(sim) : 0;

  const [valid, bad] = await env.run([
    validItem(),
    { id: 'bad', notifications: () => [notify(input, 'added')] },
  ]);

  // The rest of the batch is served.
  expect(valid).toMatchObject({ ok: true });
  // An invalid object is not a failed delivery: retrying cannot help until the object changes.
  const controller = type === Resources.MultiClusterService ? 'multiclusterservice' : 'multiclusteringress';
  const own = bad?.results.find((r) => r.controller === controller);
  expect(own, JSON.stringify(bad)).toMatchObject({ outcome: 'invalid' });
  expect(own?.detail).toContain(c.expect.error);

  // A Warning Event on the object...
  const events = await env.kube.list<
    KubeObject & {
      involvedObject: { name: string; kind: string };
      reason: string;
      message: string;
      type: string;
    }
  >(Resources.Event, { namespace: ns });
  const warnings = events.items.filter(
    (e) => e.involvedObject.name === name && e.involvedObject.kind === input.kind && e.type === 'Warning',
  );
  expect(warnings.map((e) => e.message).join('\n')).toContain(c.expect.error);
  if (c.expect.reason) expect(warnings.map((e) => e.reason)).toContain(c.expect.reason);
  // ...and LoadBalancerReady=False naming the field or annotation key.
  const stored = await env.kube.get(type, ns, name);
  const condition = readyCondition(stored);
  expect(condition, JSON.stringify(stored?.metadata)).toMatchObject({
    type: READY_CONDITION,
    status: 'False',
  });
  expect(condition?.message).toContain(c.expect.field ?? c.expect.error);
  if (c.expect.reason) expect(condition?.reason).toBe(c.expect.reason);
  // ...and a log line.
  expect(logText(env.logger).filter((l) => mentions(l, c.expect.error)).length).toBeGreaterThan(0);

  if (sim) {
    // Nothing was changed in AWS for it (the valid object in the batch was already in place):
    // no partial stack for a new object, the previous stack left as it was for a changed one.
    expect(mutatingCalls(sim) - before).toBe(0);
    expect(owned().length).toBe(ownedBefore);
    if (!c.previous) expect(owned()).toEqual([]);
  }

  // It can still be deleted: no finalizer is left stuck on it, and its AWS resources go with it.
  await env.kube.delete(type, ns, name);
  const [gone] = await env.run([{ id: 'delete', notifications: () => [notify(input, 'deleted')] }]);
  expect(gone, JSON.stringify(gone)).toMatchObject({ ok: true });
  expect(await env.kube.get(type, ns, name)).toBeUndefined();
  expect(owned()).toEqual([]);
}

describe('invalid specs with the fake provider: a Warning Event and LoadBalancerReady=False', () => {
  const t = {} as ObjectChecks;
  beforeAll(async () => {
    t.env = await startHarness({ lax: true, objects: [...baseObjects(), ...extraBase(), VALID] });
    await t.env.run([validItem()]);
  });
  afterAll(() => t.env.close());
  it.each(ofKind('object', 'fake').map((c) => [c.file, c] as const))('%s', (_f, c) => checkObjectCase(t, c));
});

describe('invalid specs with the aws provider: also no AWS state and no mutating call', () => {
  const t = {} as ObjectChecks;
  let edge: EdgeSimulators | undefined;
  let ec2: Ec2Simulator | undefined;
  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'corpus';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'corpus';
    t.sim = await startElbv2Simulator();
    // WAFv2, Shield and ACM as `npm start` has them (a web ACL, a certificate for *.example.com).
    edge = await startEdgeSimulators(t.sim);
    ec2 = await startEc2Simulator();
    // The VPC from EC2 and no configured subnets: every load balancer's are discovered by tags, so
    // names and discovery have their cases. One rule pins a namespace to one zone's subnets, another
    // keeps a namespace's discovered certificates to its own (none of which the ACM simulator has).
    const oneZone = t.sim.network.subnets.filter((s) => s.availabilityZone === 'us-east-1a').map((s) => s.subnetId);
    t.env = await startHarness({
      lax: true,
      provider: 'aws',
      providerConfig: awsConfigFor(
        t.sim,
        {
          maxAttempts: 2,
          subnets: undefined,
          tenantPolicy: {
            rules: [
              {
                name: 'one-zone',
                namespaceSelector: { matchLabels: { 'corpus.example/subnets': 'one-zone' } },
                subnets: oneZone,
              },
              {
                name: 'own-certificates',
                namespaceSelector: { matchLabels: { 'corpus.example/certificates': 'own' } },
                certificates: { allowed: [{ arn: 'arn:aws:acm:*:*:certificate/own-*' }] },
              },
            ],
          },
        },
        ec2,
        edge,
      ),
      objects: [...baseObjects(), ...extraBase(), VALID],
    });
    const [first] = await t.env.run([validItem()]);
    expect(first).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    await t.env.close();
    await t.sim?.close();
    await edge?.wafv2.close();
    await edge?.shield.close();
    await edge?.acm.close();
    await ec2?.close();
  });
  it.each(ofKind('object', 'aws').map((c) => [c.file, c] as const))('%s', (_f, c) => checkObjectCase(t, c));
});

function expectNoSecrets(c: CorpusCase, texts: string[]): void {
  for (const secret of c.secrets ?? []) {
    for (const text of texts) expect(text).not.toContain(secret);
  }
}

describe('a broken provider configuration fails runtime creation with a message naming the problem', () => {
  let env: Harness;
  beforeAll(async () => {
    env = await startHarness();
  });
  afterAll(() => env.close());

  it.each(ofKind('provider-config').map((c) => [c.file, c] as const))('%s', async (_f, c) => {
    const logger = new MemoryLogger();
    let cloudConfigPath: string | undefined;
    if (c.input !== null && c.input !== undefined) {
      cloudConfigPath = join(env.dir, c.file.replace(/\.yaml$/, '.cloud'));
      await writeFile(cloudConfigPath, String(c.input));
    } else {
      cloudConfigPath = join(env.dir, 'does-not-exist.yaml');
    }
    const config = {
      provider: c.provider ?? 'fake',
      providerIngressClass: INGRESS_CLASS_CONTROLLER,
      timeoutSeconds: 30,
      cloudConfigPath,
    };
    const error = await createRuntimeWith(config, env.kube, logger).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error, 'runtime creation should fail').toBeInstanceOf(Error);
    expect(error?.message).toContain(c.expect.error);
    expectNoSecrets(c, [error?.message ?? '', String(error?.cause ?? ''), ...logText(logger)]);
  });
});

describe('an unknown or missing provider name fails runtime creation', () => {
  let env: Harness;
  beforeAll(async () => {
    env = await startHarness();
  });
  afterAll(() => env.close());

  it.each(ofKind('provider-name').map((c) => [c.file, c] as const))('%s', async (_f, c) => {
    const error = await (async () =>
      createRuntimeWith(
        loadRuntimeConfig({
          MULTICLUSTER_PROVIDER: String(c.input ?? ''),
          PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
        }),
        env.kube,
        new MemoryLogger(),
      ))().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error, 'runtime creation should fail').toBeInstanceOf(Error);
    expect(error?.message).toContain(c.expect.error);
  });
});

describe('a wrong or expired kubeconfig: the error names the problem and never carries a credential', () => {
  let env: Harness;
  let unauthorized: Awaited<ReturnType<typeof startUnauthorizedServer>>;
  let closed: string;
  beforeAll(async () => {
    env = await startHarness({ objects: [...baseObjects(), VALID] });
    unauthorized = await startUnauthorizedServer();
    closed = await closedPortUrl();
  });
  afterAll(async () => {
    await env.close();
    await unauthorized.close();
  });

  it.each(ofKind('kubeconfig').map((c) => [c.file, c] as const))('%s', async (_f, c) => {
    const server =
      c.server === 'unauthorized' ? unauthorized.url : c.server === 'closed' ? closed : env.api.url;
    const text = String(c.input ?? '').replaceAll('{{server}}', server);
    const logger = new MemoryLogger();
    const config = { provider: 'fake', providerIngressClass: INGRESS_CLASS_CONTROLLER, timeoutSeconds: 30 };
    const created = await createRuntime(config, { text }, logger).then(
      (runtime) => ({ runtime }),
      (error: unknown) => ({ error: error as Error }),
    );
    let message: string;
    if ((c.expect.phase ?? 'invoke') === 'create') {
      expect('error' in created, 'runtime creation should fail').toBe(true);
      message = 'error' in created ? created.error.message : '';
    } else {
      expect('runtime' in created, 'error' in created ? created.error.message : '').toBe(true);
      if (!('runtime' in created)) return;
      const { processBatch } = await import('../../lib/runtime/process.js');
      const [res] = await processBatch(created.runtime, [validItem()], {
        signal: new AbortController().signal,
        holder: 'corpus-kubeconfig',
      });
      expect(res).toMatchObject({ ok: false });
      message = res?.error ?? '';
      // The operator sees it in the log too.
      expect(
        logText(logger).some((l) => mentions(l, c.expect.error)),
        `${message}\n${logText(logger).join('\n')}`,
      ).toBe(true);
      // The notification was fine: the log must not blame it.
      expect(logger.lines.filter((l) => l.message === 'notification rejected')).toEqual([]);
    }
    expect(message).toContain(c.expect.error);
    expectNoSecrets(c, [message, ...logText(logger)]);
  });
});

describe('the real SQS handler reports exactly the malformed records as batch item failures', () => {
  let env: Harness;
  let sqs: Awaited<ReturnType<typeof startUnauthorizedServer>>;
  beforeAll(async () => {
    env = await startHarness({ objects: [...baseObjects(), VALID] });
    // Stands in for SQS's ChangeMessageVisibilityBatch (the delayed redelivery of failures).
    sqs = await startSqsStub();
  });
  afterAll(async () => {
    await env.close();
    await sqs.close();
  });

  it('every SQS notification case in one batch with a valid record', async () => {
    const { vi } = await import('vitest');
    const { lambdaContext } = await import('../../dev/local/function-server.js');
    Object.assign(process.env, {
      MULTICLUSTER_PROVIDER: 'fake',
      PROVIDER_INGRESS_CLASS: INGRESS_CLASS_CONTROLLER,
      KUBECONFIG: env.kubeconfigPath,
      LOG_LEVEL: 'INFO',
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_SQS: sqs.url,
    });
    delete process.env.CLOUD_CONFIG;
    const sqsCases = ofKind('notification').filter((c) => (c.transport ?? 'sqs') === 'sqs');
    const records = [
      sqsRecord('valid', JSON.stringify({ notifications: [notification(VALID)] })),
      ...sqsCases.map((c) => sqsRecord(c.file, sqsBody(c))),
    ];
    const out: string[] = [];
    // Powertools writes warnings and errors to stderr, the rest to stdout.
    const spies = [process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => {
        out.push(String(chunk));
        return true;
      }) as typeof stream.write),
    );
    let failures: string[];
    try {
      vi.resetModules();
      const { handler } = await import('../../functions/sqs.js');
      const res = await handler({ Records: records }, lambdaContext('sqs'));
      failures = res.batchItemFailures.map((f) => f.itemIdentifier);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(failures.sort()).toEqual(sqsCases.map((c) => c.file).sort());
    const lines = out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'));
    for (const c of sqsCases) {
      const line = lines.find(
        (l) => l.includes('"notification rejected"') && l.includes(`"item":"${c.file}"`),
      );
      expect(line, c.file).toBeDefined();
      expect(mentions(line ?? '', c.expect.error), c.file).toBe(true);
    }
  });
});

function notification(obj: KubeObject) {
  return {
    apiVersion: 'notifications.multicluster.karmada.io/v1',
    kind: 'ChangeNotification',
    change: 'modified',
    ref: {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    },
  };
}


async function startSqsStub(): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const input = JSON.parse(body || '{}') as { Entries?: Array<{ Id: string }> };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Successful: (input.Entries ?? []).map((e) => ({ Id: e.Id })), Failed: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
