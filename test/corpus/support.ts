/**
 * Plumbing for the bad-input corpus: loading the case files, and the servers a broken kubeconfig
 * points at. The cases run in the reconciler tests' harness (test/support/harness.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../lib/kube/types.js';
import type { MemoryLogger } from '../../lib/log/logger.js';

export const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'cases');

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
