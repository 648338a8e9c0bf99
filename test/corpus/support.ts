/**
 * Plumbing for the bad-input corpus: loading the case files, and the environments the cases run
 * in (the Kubernetes API stand-in over HTTP, the runtime every function builds, processBatch).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed } from '../../dev/local/pipeline.js';
import { INGRESS_CLASS_CONTROLLER } from '../../dev/local/scenario.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { dependentRequests } from '../../lib/reconcile/dependents.js';
import type { RuntimeConfig } from '../../lib/runtime/config.js';
import { processBatch, type BatchItem, type ItemResult } from '../../lib/runtime/process.js';
import { createRuntimeWith, type Runtime } from '../../lib/runtime/runtime.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';

export const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'cases');
const CRD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'infra', 'crds');

export type CaseKind = 'notification' | 'object' | 'provider-config' | 'provider-name' | 'kubeconfig';

export interface CorpusCase {
  /** File name, without the directory. */
  file: string;
  name: string;
  category: string;
  kind: CaseKind;
  provider?: 'fake' | 'aws';
  /** Raw SQS body text (or a value sent as its JSON), an object, config or kubeconfig text. */
  input: unknown;
  /** notification: `http` sends the input as an HTTP request body with `headers`. */
  transport?: 'sqs' | 'http';
  headers?: Record<string, string>;
  /** notification: pad the JSON input with a `padding` field to this many bytes. */
  padTo?: number;
  /** object: a valid version of the input, created and served first (then changed to the input). */
  previous?: KubeObject;
  /** object: objects created before the input (Services, EndpointSlices...). */
  objects?: KubeObject[];
  /**
   * object: `paths: N` copies the first path of spec.rules[0] until there are N (path + index;
   * with `distinctPorts`, port + index); `servicePorts` creates a Service with that many ports.
   */
  generate?: { paths?: number; distinctPorts?: boolean; servicePorts?: { name: string; count: number } };
  /** kubeconfig: what `{{server}}` points at. */
  server?: 'standin' | 'closed' | 'unauthorized';
  /** kubeconfig/provider-config: values that must never appear in an error or a log line. */
  secrets?: string[];
  expect: {
    /** Substring of the reported error (item error, Event message, thrown message). */
    error: string;
    /** Substring of a log line's message. */
    log?: string;
    /** object: Event and condition reason. */
    reason?: string;
    /** object: the field or annotation key the condition must name. */
    field?: string;
    /** kubeconfig: whether runtime creation or the first invocation fails. */
    phase?: 'create' | 'invoke';
  };
}

export function loadCases(): CorpusCase[] {
  return readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map(
      (file) =>
        ({ file, ...(parseYaml(readFileSync(join(CASES_DIR, file), 'utf8')) as object) }) as CorpusCase,
    );
}

/**
 * The CRDs with their schemas opened up: the Karmada control plane may run an older or laxer CRD
 * than the one we validate against, and then objects our validation refuses are stored (and our
 * condition writes on them accepted). Our own validation is what is under test, not the stand-in's.
 */
function laxCrds(): unknown[] {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return readdirSync(CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(CRD_DIR, f), 'utf8')).map((d) => d.toJS()))
    .map((crd: { spec: { versions: Array<Record<string, unknown>> } }) => ({
      ...crd,
      spec: {
        ...crd.spec,
        versions: crd.spec.versions.map((v) => ({
          ...v,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: open,
                status: open,
              },
            },
          },
        })),
      },
    }));
}

export interface Env {
  api: KubeApiServer;
  kube: KubeClient;
  runtime: Runtime;
  logger: MemoryLogger;
  dir: string;
  kubeconfigPath: string;
  run(items: BatchItem[]): Promise<ItemResult[]>;
  close(): Promise<void>;
}

export interface EnvOptions {
  provider?: 'fake' | 'aws';
  providerConfig?: string;
  /** Serve the CRDs without their schemas (see laxCrds). */
  lax?: boolean;
  objects?: KubeObject[];
  runtime?: Partial<RuntimeConfig>;
}

export async function startEnv(options: EnvOptions = {}): Promise<Env> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-corpus-'));
  const api = await startKubeApiServer(options.lax ? { crdFiles: [] } : {});
  if (options.lax) for (const crd of laxCrds()) api.registerCrd(crd);
  const kubeconfigPath = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(loadKubeConfig({ file: kubeconfigPath }));
  const logger = new MemoryLogger();
  let cloudConfigPath: string | undefined;
  if (options.providerConfig !== undefined) {
    cloudConfigPath = join(dir, 'cloud.yaml');
    await writeFile(cloudConfigPath, options.providerConfig);
  }
  registerBuiltinProviders();
  const runtime = await createRuntimeWith(
    {
      provider: options.provider ?? 'fake',
      providerIngressClass: INGRESS_CLASS_CONTROLLER,
      timeoutSeconds: 30,
      lockNamespace: 'karmada-system',
      ...(cloudConfigPath ? { cloudConfigPath } : {}),
      ...options.runtime,
    },
    kube,
    logger,
  );
  if (options.objects) await seed(kube, options.objects);
  let n = 0;
  return {
    api,
    kube,
    runtime,
    logger,
    dir,
    kubeconfigPath,
    run: (items) =>
      processBatch(runtime, items, {
        signal: new AbortController().signal,
        holder: `corpus-${n++}`,
        dependents: dependentRequests,
      }),
    close: () => api.close(),
  };
}

/** A server that answers every request as an API server that rejects the credentials. */
export async function startUnauthorizedServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL nothing listens on: bound once, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

/** Everything an operator could read from a log: messages and fields, as one string per line. */
export function logText(logger: MemoryLogger): string[] {
  return logger.lines.map((l) => `${l.level} ${l.message} ${JSON.stringify(l.fields)}`);
}
