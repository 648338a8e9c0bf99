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
        res.end(status >= 400 ? JSON.stringify({ Type: 'Service', message: 'boom' }) : '');
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
});
