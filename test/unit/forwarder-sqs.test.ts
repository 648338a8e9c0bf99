import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqsSink } from '../../lib/forwarder/sinks/sqs.js';
import { buildSqsBatches, deduplicationId, messageGroupId } from '../../lib/notification/sqs.js';
import { chunk } from '../../lib/notification/chunk.js';
import { makeNotification, sanitize } from '../../lib/forwarder/notify.js';
import { Resources } from '../../lib/kube/resources.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { startFakeSqs, TEST_AWS, type FakeSqs } from '../integration/forwarder-fakes.js';
import { note } from './forwarder-fixtures.js';

describe('Function: messageGroupId / deduplicationId', () => {
  it('groups by object and stays within 128 characters', () => {
    expect(messageGroupId(note('added', 'web', 1))).toBe('Service/default/web');
    const long = makeNotification(
      'added',
      Resources.MultiClusterIngress,
      sanitize(Resources.MultiClusterIngress, {
        metadata: { name: 'n'.repeat(253), namespace: 'x'.repeat(63) },
      }),
    );
    const id = messageGroupId(long);
    expect(id.length).toBeLessThanOrEqual(128);
    expect(id.startsWith('MultiClusterIngress/')).toBe(true);
    expect(messageGroupId(long)).toBe(id);
  });

  it('identifies the exact change: same uid+resourceVersion+change → same id; any difference → another', () => {
    const a = deduplicationId(note('modified', 'web', 5, 4));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(deduplicationId(note('modified', 'web', 5, 3))).toBe(a);
    expect(deduplicationId(note('modified', 'web', 6, 5))).not.toBe(a);
    expect(deduplicationId(note('resync', 'web', 5))).not.toBe(a);
    expect(deduplicationId(note('modified', 'api', 5, 4))).not.toBe(a);
  });
});

describe('Function: buildSqsBatches', () => {
  it('makes SendMessageBatch calls of at most 10 entries, one message per notification', () => {
    const batch = Array.from({ length: 23 }, (_, i) => note('added', `o${i}`, 1));
    const calls = buildSqsBatches(batch);
    expect(calls.map((c) => c.entries.length)).toEqual([10, 10, 3]);
    const first = calls[0]?.entries[0];
    expect(first).toMatchObject({ Id: '0', MessageGroupId: 'Service/default/o0' });
    expect(JSON.parse(first?.MessageBody ?? '')).toEqual(batch[0]);
  });

  it('keeps each call under 256 KiB and slims an oversized notification to its ref instead of dropping it', () => {
    const big = (name: string, kb: number): ChangeNotification =>
      makeNotification('modified', Resources.Service, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name,
          namespace: 'default',
          resourceVersion: '2',
          annotations: { blob: 'x'.repeat(kb * 1024) },
        },
      });
    const calls = buildSqsBatches([big('a', 100), big('b', 100), big('c', 100), big('huge', 400)]);
    for (const c of calls)
      expect(c.entries.reduce((n, e) => n + Buffer.byteLength(e.MessageBody), 0)).toBeLessThanOrEqual(
        256 * 1024,
      );
    const huge = calls.flatMap((c) => c.entries).find((e) => e.MessageGroupId === 'Service/default/huge');
    expect(JSON.parse(huge?.MessageBody ?? '{}')).toMatchObject({
      change: 'modified',
      ref: { name: 'huge' },
    });
    expect(JSON.parse(huge?.MessageBody ?? '{}').object).toBeUndefined();
    expect(calls.flatMap((c) => c.entries)).toHaveLength(4);
  });

  it('chunk() respects count and byte limits', () => {
    const batch = Array.from({ length: 7 }, (_, i) => note('added', `o${i}`, 1));
    expect(chunk(batch, { maxCount: 3, maxBytes: 1e9, maxItemBytes: 1e9 }).map((c) => c.length)).toEqual([
      3, 3, 1,
    ]);
    expect(chunk(batch, { maxCount: 100, maxBytes: 1, maxItemBytes: 1e9 }).map((c) => c.length)).toEqual([
      1, 1, 1, 1, 1, 1, 1,
    ]);
  });
});

describe('Class: SqsSink (against a fake SQS JSON endpoint)', () => {
  let sqs: FakeSqs;
  beforeAll(async () => {
    sqs = await startFakeSqs();
  });
  afterAll(async () => {
    await sqs.close();
  });

  it('sends FIFO entries and returns the entries SQS failed, for re-queueing', async () => {
    // Prepare
    const sink = new SqsSink({ queueUrl: sqs.queueUrl, endpoint: sqs.url, clientConfig: TEST_AWS });
    sqs.failEntry = (e) => e.Id === '3' || e.Id === '7';
    const batch = Array.from({ length: 12 }, (_, i) => note('added', `o${i}`, 1));
    // Act
    const result = await sink.send(batch);
    // Assess
    expect(result.calls).toBe(2);
    expect(result.errors).toBe(1);
    expect(result.failed.map((n) => n.ref.name)).toEqual(['o3', 'o7']);
    expect(sqs.messages).toHaveLength(10);
    expect(sqs.messages[0]).toMatchObject({ MessageGroupId: 'Service/default/o0' });
    sqs.failEntry = () => false;
    const retry = await sink.send(result.failed);
    expect(retry.failed).toEqual([]);
    expect(sqs.messages).toHaveLength(12);
    sink.close();
  });

  it('fails the call when SQS hangs, instead of holding the delivery slot', async () => {
    const hung = http.createServer(() => undefined);
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const sink = new SqsSink({
      queueUrl: `${url}/1/q.fifo`,
      endpoint: url,
      clientConfig: { ...TEST_AWS, requestHandler: { requestTimeout: 200, throwOnRequestTimeout: true } },
    });
    const t0 = Date.now();
    const result = await sink.send([note('added', 'a', 1)]);
    expect(result.failed).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(5_000);
    sink.close();
    hung.closeAllConnections();
    await new Promise<void>((r) => hung.close(() => r()));
  });

  it('reports the whole call as failed when SQS is unreachable', async () => {
    const sink = new SqsSink({
      queueUrl: 'http://127.0.0.1:1/1/q.fifo',
      endpoint: 'http://127.0.0.1:1',
      clientConfig: TEST_AWS,
    });
    const result = await sink.send([note('added', 'a', 1)]);
    expect(result.failed).toHaveLength(1);
    expect(result.errors).toBe(1);
    sink.close();
  });
});
