/**
 * The directly called entry points (http: a function URL; invoke: lambda:InvokeFunction) bound what
 * one caller can make an invocation do, and tell the caller outcomes, not internals: the
 * notifications per request are capped, so is the number of objects one invocation reconciles,
 * and failures come back as generic text with the request ID while the details go to the logs.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { seed } from '../../dev/local/pipeline.js';
import {
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MAX_NOTIFICATIONS_PER_REQUEST } from '../../lib/notification/parse.js';
import { notifyChange, startHarness, type Harness } from '../support/harness.js';
import { processBatch } from '../../lib/runtime/process.js';
import { httpStatusOf, publicResults } from '../../lib/runtime/public-results.js';
import { lockName } from '../../lib/reconcile/lock.js';
import { requestKey } from '../../lib/reconcile/requests.js';
import { Resources } from '../../lib/kube/resources.js';

const note = (obj: KubeObject) => makeNotification('added', resourceFor(obj.apiVersion!, obj.kind!)!, obj);
const INTERNAL = 'internal-detail-arn:aws:elasticloadbalancing:eu-west-1:123456789012:never-returned';

let api: KubeApiServer;
const stdout: string[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'entry-'));
  api = await startKubeApiServer();
  const kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
  const broken = { ...serveMultiClusterService(), metadata: { name: 'broken', namespace: 'default' } };
  await seed(kube, [ingressClass(), serveService(), minimalIngress(), broken]);
  await writeFile(
    join(dir, 'fake.yaml'),
    `failures: { create: { probability: 1, object: default/broken, message: "${INTERNAL}" } }\n`,
  );
  Object.assign(process.env, {
    MULTICLUSTER_PROVIDER: 'fake',
    PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
    CLOUD_CONFIG: join(dir, 'fake.yaml'),
    KUBECONFIG: kubeconfig,
    LOG_LEVEL: 'INFO',
  });
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await api?.close();
});

function post(body: unknown): APIGatewayProxyEventV2 {
  return {
    requestContext: { http: { method: 'POST' } },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

describe('http and invoke: bounded work, generic errors', () => {
  it('notifications per request are capped before any is processed', async () => {
    const { handler } = await import('../../functions/http.js');
    const many = Array.from({ length: MAX_NOTIFICATIONS_PER_REQUEST + 1 }, () => note(minimalIngress()));
    const res = (await handler(
      post({ notifications: many }),
      lambdaContext('http'),
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body ?? '{}').error).toMatch(/at most 100/);
    const { handler: invoke } = await import('../../functions/invoke.js');
    await expect(invoke({ notifications: many }, lambdaContext('invoke'))).rejects.toThrow(/at most 100/);
  });

  it('callers get generic error text; the details stay in the logs', async () => {
    const { handler } = await import('../../functions/http.js');
    const broken = { ...serveMultiClusterService(), metadata: { name: 'broken', namespace: 'default' } };
    const ctx = lambdaContext('http');
    const res = (await handler(
      post({ notifications: [note(minimalIngress()), note(broken)] }),
      ctx,
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('internal-detail');
    const body = JSON.parse(res.body ?? '{}') as { results: Array<{ ok: boolean; error?: string }> };
    expect(body.results.map((r) => r.ok)).toEqual([true, false]);
    expect(body.results[1]?.error).toBe(
      `reconcile failed; see the function's logs for request ${ctx.awsRequestId}`,
    );
    expect(stdout.join('')).toContain('internal-detail');

    const { handler: invoke } = await import('../../functions/invoke.js');
    const error = await invoke(note(broken), lambdaContext('invoke')).catch((e: Error) => e);
    expect(String(error)).toMatch(/reconcile failed for 1 of 1 notifications; see the function's logs/);
    expect(String(error)).not.toContain('internal-detail');
  });
});

describe('routing fan-out per invocation is capped', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.seed([ingressClass(), ...['a', 'b', 'c', 'd'].map((n) => minimalIngress(n))]);
  });
  afterAll(() => h?.close());

  const run = (maxRequests: number, ...items: ReturnType<typeof notifyChange>[]) =>
    processBatch(
      h.runtime,
      items.map((n, i) => ({ id: String(i), notifications: () => [n] })),
      { signal: new AbortController().signal, holder: 'cap', maxRequests },
    );

  it('one notification that fans out past the cap is refused, naming the cap', async () => {
    const before = ingressClass();
    const after = { ...before, metadata: { ...before.metadata, annotations: { touched: 'yes' } } };
    const classChange = notifyChange('modified', after, before);
    const [fanOut] = await run(100, classChange);
    expect(fanOut?.ok).toBe(true);
    const objects = new Set(fanOut?.results.map((r) => `${r.controller} ${r.key}`)).size;
    expect(objects).toBeGreaterThan(2);
    const [refused] = await run(2, classChange);
    expect(refused).toMatchObject({ ok: false, rejected: true, results: [] });
    expect(refused?.error).toMatch(/fans out to \d+ objects, more than the 2/);
  });

  it('items beyond the cap are deferred, not dropped', async () => {
    const a = notifyChange('added', minimalIngress('a'));
    const b = notifyChange('added', minimalIngress('b'));
    const [alone] = await run(1000, a);
    const perItem = new Set(alone?.results.map((r) => `${r.controller} ${r.key}`)).size;
    const [first, second] = await run(perItem, a, b);
    expect(first?.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    expect(second?.rejected).toBeUndefined();
  });
});

describe('waiting is not failing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.seed([ingressClass(), minimalIngress('held'), minimalIngress('free')]);
  });
  afterAll(() => h?.close());

  const run = (names: string[], remainingMs?: () => number) =>
    processBatch(
      h.runtime,
      names.map((n, i) => ({
        id: String(i),
        notifications: () => [notifyChange('added', minimalIngress(n))],
      })),
      { signal: new AbortController().signal, holder: 'me', ...(remainingMs ? { remainingMs } : {}) },
    );

  it('an object another invocation holds waits for its turn: waiting, 202, not a failure', async () => {
    const key = requestKey({ controller: 'multiclusteringress', namespace: 'default', name: 'held' });
    const now = new Date().toISOString().replace(/Z$/, '000Z');
    await h.kube.create(Resources.Lease, {
      metadata: { name: lockName(key), namespace: 'karmada-system' },
      spec: { holderIdentity: 'someone-else', leaseDurationSeconds: 60, acquireTime: now, renewTime: now },
    });
    const [held, free] = await run(['held', 'free'], () => 60_000);
    expect(free).toMatchObject({ ok: true });
    expect(held).toMatchObject({ ok: false, waiting: true, retryAfterSeconds: 2 });
    expect(held?.error).toMatch(/being reconciled by someone-else/);
    expect(httpStatusOf([held!, free!])).toBe(202);
    expect(publicResults([held!], 'req-1')[0]).toMatchObject({
      ok: false,
      waiting: true,
      error: 'waiting: deliver again in 2 s',
    });
    await h.kube.delete(Resources.Lease, 'karmada-system', lockName(key));
  });

  it('near its timeout an invocation starts no more objects: they wait for the next delivery', async () => {
    const [late] = await run(['free'], () => 1_000);
    expect(late).toMatchObject({ ok: false, waiting: true, retryAfterSeconds: 0 });
    expect(late?.error).toMatch(/near its timeout; default\/free is reconciled by the next delivery/);
    // Nothing was done for it: no lock taken, nothing reconciled.
    expect(late?.results).toEqual([]);
  });

  it('a failure among waits is a failure: 500', async () => {
    const waiting = { id: '0', ok: false, waiting: true, results: [] };
    const failed = { id: '1', ok: false, results: [] };
    expect(httpStatusOf([waiting, failed])).toBe(500);
    expect(httpStatusOf([{ id: '0', ok: true, results: [] }])).toBe(200);
  });
});

describe('SQS deduplication IDs', () => {
  it('SQS deduplication IDs are unpredictable to senders: keyed, not a plain hash of the change', async () => {
    const { createHash, randomBytes } = await import('node:crypto');
    const { deduplicationId } = await import('../../lib/notification/sqs.js');
    const n = {
      ...note(minimalIngress()),
      ref: { ...note(minimalIngress()).ref, uid: 'u1', resourceVersion: '7' },
    };
    const { apiVersion, kind, namespace, name } = n.ref;
    const plain = createHash('sha256')
      .update(`${apiVersion}/${kind}/${namespace ?? ''}/${name}|u1|7|${n.change}`)
      .digest('hex');
    expect(deduplicationId(n)).not.toBe(plain);
    // Stable within a process (retries are deduplicated), different under another key.
    expect(deduplicationId(n)).toBe(deduplicationId(n));
    expect(deduplicationId(n, randomBytes(32))).not.toBe(deduplicationId(n));
  });
});
