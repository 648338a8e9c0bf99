/** Local stand-ins for the forwarder's tests: sinks that record (and fail on demand), fake SQS, a cuttable TCP proxy. */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { ChangeNotification } from '../../lib/notification/types.js';

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

export interface RecordingSink {
  url: string;
  /** Every notification accepted, in order. */
  received: ChangeNotification[];
  /** Raw request bodies accepted. */
  bodies: string[];
  calls: number;
  /** When each accepted call arrived (ms since epoch). */
  times: number[];
  rejected: number;
  /** While true, every POST gets a 503. */
  failing: boolean;
  close(): Promise<void>;
}

/** HTTP sink target: POST {notifications:[...]} → 204, or 503 while `failing`. */
export async function startRecordingSink(): Promise<RecordingSink> {
  const sink: RecordingSink = {
    url: '',
    received: [],
    bodies: [],
    calls: 0,
    times: [],
    rejected: 0,
    failing: false,
    close: () => closeServer(server),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sink.calls++;
      if (sink.failing) {
        sink.rejected++;
        res.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      sink.times.push(Date.now());
      sink.bodies.push(body);
      sink.received.push(...(JSON.parse(body) as { notifications: ChangeNotification[] }).notifications);
      res.writeHead(204).end();
    });
  });
  sink.url = `http://127.0.0.1:${await listen(server)}/notify`;
  return sink;
}

export interface FakeSqs {
  url: string;
  queueUrl: string;
  messages: Array<{ MessageBody: string; MessageGroupId: string; MessageDeduplicationId: string }>;
  requests: number;
  /** Decides per entry whether to fail it (partial batch failure). */
  failEntry: (entry: { Id: string; MessageBody: string }) => boolean;
  /** Time each SendMessageBatch takes, like a real queue's round trip (benchmarks). */
  latencyMs: number;
  /** When each message arrived (Date.now()), in arrival order. */
  arrivals: number[];
  /** Entries per SendMessageBatch call. */
  batchSizes: number[];
  close(): Promise<void>;
}

/** SendMessageBatch over the AWS JSON 1.0 protocol, as @aws-sdk/client-sqs 3.1142 speaks it. */
export async function startFakeSqs(): Promise<FakeSqs> {
  const fake: FakeSqs = {
    url: '',
    queueUrl: '',
    messages: [],
    requests: 0,
    failEntry: () => false,
    latencyMs: 0,
    arrivals: [],
    batchSizes: [],
    close: () => closeServer(server),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void setTimeout(respond, fake.latencyMs));
    const respond = () => {
      fake.requests++;
      const target = req.headers['x-amz-target'];
      if (target !== 'AmazonSQS.SendMessageBatch') {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidAction', message: String(target) }));
        return;
      }
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        QueueUrl: string;
        Entries: Array<{
          Id: string;
          MessageBody: string;
          MessageGroupId: string;
          MessageDeduplicationId: string;
        }>;
      };
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const e of input.Entries) {
        if (fake.failEntry(e)) {
          Failed.push({ Id: e.Id, SenderFault: false, Code: 'InternalError', Message: 'try again' });
          continue;
        }
        fake.messages.push(e);
        fake.arrivals.push(Date.now());
        Successful.push({
          Id: e.Id,
          MessageId: randomUUID(),
          MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex'),
          SequenceNumber: String(fake.messages.length),
        });
      }
      fake.batchSizes.push(input.Entries.length);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Successful, Failed }));
    };
  });
  const port = await listen(server);
  fake.url = `http://127.0.0.1:${port}`;
  fake.queueUrl = `${fake.url}/123456789012/changes.fifo`;
  return fake;
}

export const TEST_AWS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
};

export interface CuttableProxy {
  url: string;
  /** Drops every open connection and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of the API server, to simulate a network break. */
export async function startProxy(targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** client-node refuses plain http unless skipTLSVerify is set; the stand-in serves plain http. */
export function kubeConfigFor(server: string, token = 'dev-token'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', token }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}
