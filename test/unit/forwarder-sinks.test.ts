import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { createSink } from '../../lib/forwarder/sinks/index.js';
import { LambdaSink } from '../../lib/forwarder/sinks/lambda.js';
import { TEST_AWS } from '../integration/forwarder-fakes.js';
import { note } from './forwarder-fixtures.js';

describe('Sinks: Lambda (fake Invoke endpoint) and HTTP', () => {
  const requests: Array<{ method: string; url: string; invocationType: string | undefined; body: string }> =
    [];
  let status = 202;
  /** When set, the body of the next answers (else an error for 4xx/5xx, nothing for 2xx). */
  let answer: string | undefined;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          invocationType: req.headers['x-amz-invocation-type'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(answer ?? (status >= 400 ? JSON.stringify({ Type: 'Service', message: 'boom' }) : ''));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('Lambda: asynchronous Invoke with { notifications: [...] }, split by batch size', async () => {
    requests.length = 0;
    status = 202;
    const sink = new LambdaSink({
      functionName: 'mci-sync',
      endpoint: url,
      maxBatch: 3,
      clientConfig: TEST_AWS,
    });
    const batch = Array.from({ length: 7 }, (_, i) => note('added', `o${i}`, 1));
    const result = await sink.send(batch);
    expect(result).toMatchObject({ failed: [], calls: 3, errors: 0 });
    expect(requests.map((r) => r.url)).toEqual(Array(3).fill('/2015-03-31/functions/mci-sync/invocations'));
    expect(requests.every((r) => r.invocationType === 'Event')).toBe(true);
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ notifications: batch.slice(0, 3) });
    sink.close();
  });

  it('Lambda: a failed Invoke returns its notifications as failed', async () => {
    status = 500;
    const sink = new LambdaSink({ functionName: 'mci-sync', endpoint: url, clientConfig: TEST_AWS });
    const result = await sink.send([note('added', 'a', 1)]);
    expect(result.failed).toHaveLength(1);
    expect(result.errors).toBe(1);
    sink.close();
  });

  it('HTTP: 2xx is success, anything else fails the call', async () => {
    requests.length = 0;
    status = 200;
    const sink = createSink({ type: 'http', target: `${url}/n`, batchSize: 2 });
    expect(sink).toBeInstanceOf(HttpSink);
    expect(
      (await sink.send([note('added', 'a', 1), note('added', 'b', 1), note('added', 'c', 1)])).calls,
    ).toBe(2);
    expect(JSON.parse(requests[0]?.body ?? '').notifications).toHaveLength(2);
    status = 503;
    const failed = await sink.send([note('added', 'a', 1)]);
    expect(failed.failed).toHaveLength(1);
  });

  it("HTTP: the function's per-notification results decide each one: reconciled, waiting, failed", async () => {
    const sink = new HttpSink({ url: `${url}/n` });
    const [a, b, c] = [note('added', 'a', 1), note('added', 'b', 1), note('added', 'c', 1)];
    status = 500;
    answer = JSON.stringify({
      results: [
        { id: '0', ok: true, results: [] },
        { id: '1', ok: false, waiting: true, retryAfterSeconds: 2, results: [] },
        { id: '2', ok: false, error: 'reconcile failed', results: [] },
      ],
    });
    const mixed = await sink.send([a, b, c]);
    expect(mixed.failed).toEqual([c]);
    expect(mixed.later).toEqual([{ notification: b, afterMs: 2_000 }]);
    expect(mixed.errors).toBe(1);
    // 202: nothing failed; a wait with no delay comes back after a second.
    status = 202;
    answer = JSON.stringify({ results: [{ id: '0', ok: false, waiting: true, results: [] }] });
    const waiting = await sink.send([a]);
    expect(waiting).toMatchObject({ failed: [], errors: 0, later: [{ notification: a, afterMs: 1_000 }] });
    // Results that do not match what was sent (another server's body): the status alone decides.
    status = 500;
    answer = JSON.stringify({ results: [{ id: '0', ok: true }] });
    expect((await sink.send([a, b])).failed).toEqual([a, b]);
    answer = undefined;
  });
});
