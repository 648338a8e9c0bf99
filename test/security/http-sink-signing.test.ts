/**
 * The forwarder's HTTP sink signs its requests with SigV4 when they go to a Lambda function URL
 * (the `http` function's URL requires AWS_IAM auth). The signature is checked here by an
 * independent implementation of the SigV4 algorithm over what the server received: the body and
 * every signed header must arrive exactly as signed.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { createSink } from '../../lib/forwarder/sinks/index.js';
import { Resources } from '../../lib/kube/resources.js';

const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** SigV4 verification, written from the algorithm's description (not the SDK's code). */
function verify(req: IncomingMessage, body: string, secret: string): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return false;
  const [, , date, region, service, signedHeaders, signature] = m as unknown as string[];
  const amzDate = String(req.headers['x-amz-date']);
  const url = new URL(req.url ?? '/', 'http://x');
  const canonicalHeaders = signedHeaders!
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    'POST',
    url.pathname,
    url.searchParams.toString(),
    canonicalHeaders,
    signedHeaders,
    sha(body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

let server: Server;
let url = '';
const seen: Array<{ req: IncomingMessage; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ req, body });
      res.writeHead(verify(req, body, CREDS.secretAccessKey) ? 200 : 403);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications?x=1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const note = makeNotification('added', Resources.Service, {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '1' },
});

describe('HTTP sink: SigV4', () => {
  it('the HTTP sink signs its requests with SigV4 (body and signed headers verified)', async () => {
    const signed = new HttpSink({
      url,
      sign: { region: 'eu-west-1', service: 'lambda', credentials: CREDS },
    });
    expect((await signed.send([note])).failed).toEqual([]);
    const last = seen.at(-1)!;
    expect(String(last.req.headers.authorization)).toContain('/eu-west-1/lambda/aws4_request');
    expect(String(last.req.headers.authorization)).toMatch(/SignedHeaders=[^,]*host/);
    // Unsigned requests are what the function URL refuses.
    const unsigned = new HttpSink({ url });
    expect((await unsigned.send([note])).failed).toHaveLength(1);
  });

  it('signs by default for Lambda function URLs, not for other URLs', () => {
    const fnUrl = createSink({ type: 'http', target: 'https://abc123def.lambda-url.eu-west-1.on.aws/' });
    expect((fnUrl as unknown as { signer?: unknown }).signer).toBeDefined();
    const local = createSink({ type: 'http', target: 'http://127.0.0.1:3000/notifications' });
    expect((local as unknown as { signer?: unknown }).signer).toBeUndefined();
    expect(() => createSink({ type: 'http', target: 'http://127.0.0.1:3000/', sign: true })).toThrow(
      /--region/,
    );
  });
});
