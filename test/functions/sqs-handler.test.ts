/**
 * The SQS function end to end: the real handler module (middy, runtime from the environment, the
 * fake provider loaded through the registry) against the Kubernetes API stand-in, with a local
 * endpoint standing in for SQS's ChangeMessageVisibilityBatch (AWS JSON protocol).
 */
import { sqsRecord } from '../support/sqs.js';
import { emfLines, metric } from '../support/emf.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { seed } from '../../dev/local/pipeline.js';
import {
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { Resources } from '../../lib/kube/resources.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';

const notificationFor = (change: 'added', obj: KubeObject) =>
  makeNotification(change, resourceFor(obj.apiVersion!, obj.kind!)!, obj);

let api: KubeApiServer;
let sqs: Server;
const visibilityCalls: Array<{
  QueueUrl: string;
  Entries: Array<{ ReceiptHandle: string; VisibilityTimeout: number }>;
}> = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sqs-fn-'));
  api = await startKubeApiServer();
  const kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
  const broken = { ...serveMultiClusterService(), metadata: { name: 'broken', namespace: 'default' } };
  await seed(kube, [ingressClass(), serveService(), minimalIngress(), broken]);
  // The MultiClusterService "broken" cannot be created; everything else can.
  await writeFile(
    join(dir, 'fake.yaml'),
    'failures: { create: { probability: 1, object: default/broken, message: cloud says no } }\n',
  );
  sqs = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const input = JSON.parse(body);
      visibilityCalls.push(input);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(
        JSON.stringify({ Successful: input.Entries.map((e: { Id: string }) => ({ Id: e.Id })), Failed: [] }),
      );
    });
  });
  await new Promise<void>((r) => sqs.listen(0, '127.0.0.1', r));
  Object.assign(process.env, {
    MULTICLUSTER_PROVIDER: 'fake',
    PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
    CLOUD_CONFIG: join(dir, 'fake.yaml'),
    KUBECONFIG: kubeconfig,
    LOG_LEVEL: 'SILENT',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`,
    POWERTOOLS_METRICS_NAMESPACE: 'multicluster-cloud-provider/test',
  });
});

afterAll(async () => {
  await api.close();
  sqs.close();
});

describe('Function: sqs handler', () => {
  it('reports malformed records and a failing object as batch item failures; the others succeed', async () => {
    const { handler } = await import('../../functions/sqs.js');
    const mci = minimalIngress();
    const broken = { ...serveMultiClusterService(), metadata: { name: 'broken', namespace: 'default' } };
    const event: SQSEvent = {
      Records: [
        sqsRecord('good', JSON.stringify(notificationFor('added', mci))),
        sqsRecord('not-json', '{oops'),
        sqsRecord(
          'unknown-kind',
          JSON.stringify({
            ...notificationFor('added', mci),
            ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'x' },
          }),
        ),
        sqsRecord('bad-shape', JSON.stringify({ hello: 'world' })),
        sqsRecord('failing', JSON.stringify(notificationFor('added', broken)), '3'),
      ],
    };
    const res = await handler(event, lambdaContext('sqs'));
    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      ['bad-shape', 'failing', 'not-json', 'unknown-kind'].sort(),
    );
    // the good record was served
    const kube = createKubeClient(loadKubeConfig({ file: process.env.KUBECONFIG! }));
    const stored = await kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    );
    expect(stored?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    // failed records come back later, with backoff by receive count (5 s × 2^(n−1))
    const entries = visibilityCalls.flatMap((c) => c.Entries);
    expect(visibilityCalls[0]?.QueueUrl).toBe(
      'https://sqs.us-east-1.amazonaws.com/123456789012/mcp-notifications.fifo',
    );
    expect(entries.find((e) => e.ReceiptHandle === 'rh-failing')?.VisibilityTimeout).toBe(20);
    expect(entries.find((e) => e.ReceiptHandle === 'rh-not-json')?.VisibilityTimeout).toBe(5);
  });

  it('writes its CloudWatch metrics (EMF) at the end of the invocation', async () => {
    const { handler } = await import('../../functions/sqs.js');
    const broken = { ...serveMultiClusterService(), metadata: { name: 'broken', namespace: 'default' } };
    const written: string[] = [];
    const { vi } = await import('vitest');
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await handler(
        {
          Records: [
            sqsRecord('good', JSON.stringify(notificationFor('added', minimalIngress()))),
            sqsRecord('failing', JSON.stringify(notificationFor('added', broken))),
          ],
        },
        lambdaContext('sqs'),
      );
    } finally {
      vi.restoreAllMocks();
    }
    const lines = emfLines(written);
    expect(lines.length).toBeGreaterThan(0);
    expect(metric(lines, 'Reconciles', { Kind: 'MultiClusterService', Outcome: 'failed' }).value).toBe(1);
    expect(metric(lines, 'Reconciles', { Outcome: 'failed' }).value).toBe(1);
    const mci = metric(lines, 'ReconcileDuration', { Kind: 'MultiClusterIngress' });
    expect(mci.line._aws.CloudWatchMetrics[0]!.Namespace).toBe('multicluster-cloud-provider/test');
  });

  it('fails the first invocation with a clear message when the configuration is bad', async () => {
    // A fresh module instance: the container-level runtime is built at the first invocation.
    const { vi } = await import('vitest');
    vi.resetModules();
    const saved = process.env.PROVIDER_INGRESS_CLASS;
    delete process.env.PROVIDER_INGRESS_CLASS;
    try {
      const { handler } = await import('../../functions/sqs.js');
      await expect(handler({ Records: [] }, lambdaContext('sqs'))).rejects.toThrow(
        /PROVIDER_INGRESS_CLASS is not set/,
      );
    } finally {
      process.env.PROVIDER_INGRESS_CLASS = saved;
    }
  });

  it('names an unknown provider and the registered ones', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    process.env.MULTICLUSTER_PROVIDER = 'gcp';
    try {
      const { handler } = await import('../../functions/sqs.js');
      await expect(handler({ Records: [] }, lambdaContext('sqs'))).rejects.toThrow(
        /unknown multicluster provider "gcp" \(registered: .*fake/,
      );
    } finally {
      process.env.MULTICLUSTER_PROVIDER = 'fake';
    }
  });
});
