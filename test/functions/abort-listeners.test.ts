/**
 * The abort listeners a function invocation adds (one per provider call or lock wait in flight)
 * must be gone when it returns, and concurrent invocations in one process must not share a
 * signal: a warm container runs thousands of invocations, and anything left on a shared signal
 * grows without bound. The real SQS handler (middy, runtime from the environment) runs against the
 * Kubernetes API stand-in with the fake provider, whose calls wait on the invocation's signal.
 */
import { getEventListeners } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { seed } from '../../dev/local/pipeline.js';
import { ingressClass, minimalIngress, serveService } from '../../dev/local/scenario.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { Resources, resourceFor } from '../../lib/kube/resources.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { sqsRecord } from '../support/sqs.js';

const OBJECTS = 32;
let api: KubeApiServer;
let kube: KubeClient;

/** Every AbortSignal that got an abort listener, and the most it ever held at once. */
const peak = new Map<AbortSignal, number>();
const originalAdd = EventTarget.prototype.addEventListener;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'abort-listeners-'));
  api = await startKubeApiServer();
  const kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
  await seed(kube, [
    ingressClass(),
    serveService(),
    ...Array.from({ length: OBJECTS }, (_, i) => minimalIngress(`mci-${i}`)),
  ]);
  // Each provider call waits on the invocation's signal, as an SDK request does.
  await writeFile(join(dir, 'fake.yaml'), 'requestDelayMs: 20\n');
  Object.assign(process.env, {
    MULTICLUSTER_PROVIDER: 'fake',
    PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
    CLOUD_CONFIG: join(dir, 'fake.yaml'),
    KUBECONFIG: kubeconfig,
    LOG_LEVEL: 'SILENT',
  });
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...args) {
    originalAdd.apply(this, args);
    if (this instanceof AbortSignal && args[0] === 'abort') {
      peak.set(this, Math.max(peak.get(this) ?? 0, getEventListeners(this, 'abort').length));
    }
  } as typeof EventTarget.prototype.addEventListener;
  process.on('warning', onWarning);
});

afterAll(async () => {
  EventTarget.prototype.addEventListener = originalAdd;
  process.off('warning', onWarning);
  await api.close();
});

function batch(names: string[]): SQSEvent {
  return {
    Records: names.map((name) => {
      const mci = minimalIngress(name);
      const n = makeNotification('modified', resourceFor(mci.apiVersion!, mci.kind!)!, mci);
      return sqsRecord(`${name}-${Math.random()}`, JSON.stringify(n));
    }),
  };
}

/** Abort listeners still registered on any signal an invocation was given (and that never fired). */
function liveListeners(): number {
  let n = 0;
  for (const signal of peak.keys()) if (!signal.aborted) n += getEventListeners(signal, 'abort').length;
  return n;
}

describe('Function: abort listeners', () => {
  it('a warm container leaves no abort listener behind, invocation after invocation', async () => {
    const { handler } = await import('../../functions/sqs.js');
    peak.clear(); // the test runner's own signal
    const leftAfter: number[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await handler(
        batch([`mci-${i % OBJECTS}`, `mci-${(i + 1) % OBJECTS}`]),
        lambdaContext('sqs'),
      );
      expect(res.batchItemFailures).toEqual([]);
      leftAfter.push(liveListeners());
    }
    expect(peak.size).toBeGreaterThan(0);
    expect(leftAfter).toEqual(leftAfter.map(() => 0));
    const served = await kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'mci-3');
    expect(served?.status?.loadBalancer?.ingress?.length).toBe(1);
  });

  it('concurrent invocations each have their own signal, within the per-batch concurrency', async () => {
    const { handler } = await import('../../functions/sqs.js');
    peak.clear(); // the test runner's own signal
    const names = Array.from({ length: OBJECTS }, (_, i) => `mci-${i}`);
    const results = await Promise.all(
      [0, 1, 2, 3].map((k) => handler(batch(names.slice(k * 8, k * 8 + 8)), lambdaContext('sqs'))),
    );
    expect(results.flatMap((r) => r.batchItemFailures)).toEqual([]);
    // processBatch reconciles 8 objects at once, each with at most one call in flight.
    expect(Math.max(...peak.values())).toBeLessThanOrEqual(8);
    expect(peak.size).toBeGreaterThanOrEqual(4);
    expect(liveListeners()).toBe(0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
