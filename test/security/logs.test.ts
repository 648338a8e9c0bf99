/**
 * No log line carries a credential. Two runs touch every secret the functions can come near — a
 * kubeconfig with a bearer token and a client key, a Secret with data (carried by a notification,
 * as a Knative ApiServerSource CloudEvent does), AWS credentials with a session token — and make
 * things fail (ELBv2 5xx and access errors, a rejected token, malformed notifications, an invalid
 * object). Every log line is captured: the real SQS handler's Powertools JSON on stdout/stderr,
 * and the MemoryLogger lines of processBatch. Then each line is scanned for each secret value.
 */
import { sqsRecord } from '../support/sqs.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { awsConfigFor, seed } from '../../dev/local/pipeline.js';
import {
  collectedSlice,
  ingressClass,
  minimalIngress,
  serveService,
  cluster,
} from '../../dev/local/scenario.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { NOTIFICATION_API_VERSION, NOTIFICATION_KIND } from '../../lib/notification/types.js';
import { parseSqsBody } from '../../lib/notification/parse.js';
import { processBatch } from '../../lib/runtime/process.js';
import { createRuntime } from '../../lib/runtime/runtime.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';
import { startUnauthorizedServer } from '../corpus/support.js';

// As a function entry point does: runtimes here pick their provider from the built-in ones.
registerBuiltinProviders();

const b64 = (s: string) => Buffer.from(s).toString('base64');

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.token-never-logged-7f3a9c';
const KEY_PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCkeyNeverLogged\n-----END PRIVATE KEY-----\n';
const CERT_PEM =
  '-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVcertOnly\n-----END CERTIFICATE-----\n';
const SECRET_VALUE = 'tls-private-key-material-never-logged-41d2';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/secretNeverLogged';
const AWS_SESSION = 'FwoGZXIvYXdzEBYaDsessionTokenNeverLogged';

/** Every form a secret could take in a line: raw, base64, and the key's body line. */
const FORBIDDEN = [
  TOKEN,
  b64(KEY_PEM),
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCkeyNeverLogged',
  SECRET_VALUE,
  b64(SECRET_VALUE),
  AWS_SECRET,
  AWS_SESSION,
];

function kubeconfigText(server: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'karmada',
    clusters: [{ name: 'karmada', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [
      {
        name: 'functions',
        user: { token: TOKEN, 'client-certificate-data': b64(CERT_PEM), 'client-key-data': b64(KEY_PEM) },
      },
    ],
    contexts: [{ name: 'karmada', context: { cluster: 'karmada', user: 'functions' } }],
  });
}

/** A Secret with data, as an ApiServerSource CloudEvent carries it (data included). */
const tlsSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'shop-tls', namespace: 'default' },
  type: 'kubernetes.io/tls',
  data: { 'tls.key': b64(SECRET_VALUE), 'tls.crt': b64(CERT_PEM) },
  stringData: { password: SECRET_VALUE },
};

function notification(
  change: string,
  obj: { apiVersion?: string; kind?: string; metadata: { name?: string; namespace?: string } },
  extra: object = {},
) {
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change,
    ref: {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    },
    ...extra,
  };
}

const mcis: KubeObject[] = [];

/** Bodies that make every path log: success, provider errors, invalid objects, rejected input. */
function bodies(): string[] {
  const good = minimalIngress('shop');
  const withTls = {
    ...minimalIngress('shop-tls'),
    spec: {
      ...(minimalIngress() as any).spec,
      tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
    },
  };
  const missing = {
    ...minimalIngress('missing-svc'),
    spec: { defaultBackend: { service: { name: 'nope', port: { number: 80 } } } },
  };
  mcis.push(good, withTls, missing);
  return [
    JSON.stringify(notification('added', good, { object: good })),
    JSON.stringify(notification('added', withTls, { object: withTls })),
    JSON.stringify(notification('added', missing)),
    // The Secret, with its data, in both formats.
    JSON.stringify(notification('modified', tlsSecret, { object: tlsSecret, oldObject: tlsSecret })),
    JSON.stringify({
      specversion: '1.0',
      id: '1',
      source: 'https://10.96.0.1',
      type: 'dev.knative.apiserver.resource.update',
      data: tlsSecret,
    }),
    // Malformed: a Secret whose data sits where a name belongs, and a bad change type.
    JSON.stringify(
      notification('modified', {
        ...tlsSecret,
        metadata: { name: SECRET_VALUE.toUpperCase(), namespace: 'default' },
      }),
    ),
    JSON.stringify({ ...notification('exploded', tlsSecret), object: tlsSecret }),
    '{"token": "' + TOKEN + '", oops',
  ];
}

function scan(lines: string[]): string[] {
  return lines.flatMap((line) =>
    FORBIDDEN.filter((s) => line.includes(s)).map((s) => `${s.slice(0, 12)}… in: ${line.slice(0, 300)}`),
  );
}

let api: KubeApiServer;
let sim: Elbv2Simulator;
let sqs: Server;
let dir: string;
const objects = () => [
  ingressClass(),
  cluster('member1'),
  serveService(),
  collectedSlice('member1', ['10.1.0.11']),
  { ...tlsSecret, stringData: undefined } as never,
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-logs-'));
  api = await startKubeApiServer({ token: TOKEN });
  sim = await startElbv2Simulator({
    // Provider errors of every kind: 5xx, throttling, access denied.
    faults: { perAction: { CreateLoadBalancer: { internal: 0.5, throttle: 0.3 } } },
  });
  sim.faults.failNext('CreateTargetGroup', 1, {
    code: 'AccessDenied',
    status: 403,
    message: 'User is not authorized',
  });
  const kube = createKubeClient(loadKubeConfig({ text: kubeconfigText(api.url) }));
  bodies();
  await seed(kube, [...objects(), ...mcis]);
  sqs = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Successful: [], Failed: [] }));
    });
  });
  await new Promise<void>((r) => sqs.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await api.close();
  await sim.close();
  sqs.close();
});

describe('no log line contains a token, a client key or Secret data', () => {
  it('the real SQS handler (Powertools JSON on stdout), AWS provider with faults, DEBUG level', async () => {
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    await writeFile(kubeconfig, kubeconfigText(api.url));
    const cloud = join(dir, 'aws.yaml');
    await writeFile(cloud, awsConfigFor(sim, { maxAttempts: 2 }));
    Object.assign(process.env, {
      MULTICLUSTER_PROVIDER: 'aws',
      PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
      CLOUD_CONFIG: cloud,
      KUBECONFIG: kubeconfig,
      LOG_LEVEL: 'DEBUG',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEACCESSKEY',
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_SESSION_TOKEN: AWS_SESSION,
      AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`,
    });
    const captured: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const original = stream.write.bind(stream);
      return vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        captured.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(
          ...(process.env.SHOW_LOGS ? [chunk, ...rest] : ['']),
        );
      }) as typeof stream.write);
    };
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      vi.resetModules();
      const { handler } = await import('../../functions/sqs.js');
      const event: SQSEvent = { Records: bodies().map((b, i) => sqsRecord(`m${i}`, b)) };
      // Twice: the second run sees the objects already changed (updates, repeated Events).
      const first = await handler(event, lambdaContext('sqs'));
      const second = await handler(event, lambdaContext('sqs'));
      expect(first.batchItemFailures.length).toBeGreaterThan(0);
      expect(second.batchItemFailures.length).toBeGreaterThan(0);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    const lines = captured.join('').split('\n').filter(Boolean);
    // Make sure the capture saw the structured lines, errors included.
    expect(lines.filter((l) => l.startsWith('{')).length).toBeGreaterThan(20);
    expect(lines.some((l) => l.includes('"level":"ERROR"'))).toBe(true);
    expect(lines.some((l) => l.includes('notification rejected'))).toBe(true);
    // The provider failed (injected 5xx / AccessDenied) and said so.
    expect(lines.some((l) => /InternalFailure|internal error|AccessDenied|not authorized/.test(l))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes('does not exist'))).toBe(true);
    // Attributes named like Powertools' own keys are renamed, not dropped with a warning.
    expect(lines.filter((l) => l.includes('is a reserved key'))).toEqual([]);
    expect(lines.some((l) => l.includes('"attr_service":"default/serve"'))).toBe(true);
    expect(scan(lines)).toEqual([]);
  });

  it('processBatch with a MemoryLogger: kubeconfig with token and client key, fake provider failures', async () => {
    const logger = new MemoryLogger();
    const cloud = join(dir, 'fake.yaml');
    await writeFile(
      cloud,
      `failures: { create: { probability: 1, object: default/shop, message: "cloud says no" } }\n`,
    );
    const runtime = await createRuntime(
      {
        provider: 'fake',
        providerIngressClass: 'karmada.io/fake',
        timeoutSeconds: 30,
        lockNamespace: 'karmada-system',
        cloudConfigPath: cloud,
      },
      { text: kubeconfigText(api.url) },
      logger,
    );
    const items = bodies().map((b, i) => ({ id: `i${i}`, notifications: () => parseSqsBody(b) }));
    for (let round = 0; round < 2; round++) {
      await processBatch(runtime, items, {
        signal: new AbortController().signal,
        holder: 'logs',
      });
    }
    // A token the API server rejects.
    const unauthorized = await startUnauthorizedServer();
    try {
      const rejected = await createRuntime(
        { provider: 'fake', providerIngressClass: 'karmada.io/fake', timeoutSeconds: 30 },
        { text: kubeconfigText(unauthorized.url) },
        logger,
      );
      const [res] = await processBatch(rejected, items.slice(0, 1), {
        signal: new AbortController().signal,
        holder: 'logs',
      });
      expect(res?.error).toContain('Unauthorized');
    } finally {
      await unauthorized.close();
    }
    // A kubeconfig that does not parse, with the token in it.
    await expect(
      createRuntime(
        { provider: 'fake', providerIngressClass: 'x', timeoutSeconds: 30 },
        { text: `token: ${TOKEN}\n  - [` },
        logger,
      ),
    ).rejects.toThrow(/invalid kubeconfig/);
    const lines = logger.lines.map((l) => `${l.level} ${l.message} ${JSON.stringify(l.fields)}`);
    expect(lines.some((l) => l.includes('cloud says no'))).toBe(true);
    expect(lines.some((l) => l.includes('notification rejected'))).toBe(true);
    expect(scan(lines)).toEqual([]);
  });

  it('an error thrown for a bad kubeconfig does not quote it', async () => {
    const error = await createRuntime(
      { provider: 'fake', providerIngressClass: 'x', timeoutSeconds: 30 },
      { text: `users: [{ user: { token: ${TOKEN}, client-key-data: ${b64(KEY_PEM)} } ]\n  - [` },
      new MemoryLogger(),
    ).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/invalid kubeconfig/);
    expect(scan([error?.message ?? '', String(error?.stack ?? '')])).toEqual([]);
  });
});
