/**
 * The awsJson1_1 wire protocol the WAFv2, Shield and ACM simulators speak: `POST /` with
 * `X-Amz-Target: <prefix>.<Action>` and a JSON body; a JSON result, or an error as
 * `{"__type": "<code>", "message": "..."}` with the `x-amzn-ErrorType` header, which is what the
 * SDK's JSON protocol reads the error code from. Faults and call counters are the ELBv2
 * simulator's (dev/elbv2-sim/faults.ts, calls.ts), so chaos runs drive all of them alike.
 */
import { closeServer } from '../shared/close-server.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../../lib/util/sleep.js';
import { CallCounters } from '../elbv2-sim/calls.js';
import { Faults, type FaultDecision, type FaultOptions } from '../elbv2-sim/faults.js';
import { readBody } from '../shared/http-body.js';
import { serveInProcess, type InProcessHandler, type RequestListener } from '../shared/in-process.js';

/** A service error: its code (the SDK's exception name) and HTTP status. */
export class JsonSimError extends Error {
  override readonly name = 'JsonSimError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type JsonInput = Record<string, unknown>;
/** One action: the request's JSON body in, the response's out; throws JsonSimError. */
export type JsonHandler = (input: JsonInput) => unknown;

export interface JsonServiceSpec {
  /** The X-Amz-Target prefix, e.g. `AWSWAF_20190729`. */
  targetPrefix: string;
  actions: Readonly<Record<string, JsonHandler>>;
  /** The codes an injected fault answers with (the service's own names for them). */
  faultCodes: { throttle: string; internal: string; unavailable: string };
  /**
   * The Regions whose endpoint the service has (Global Accelerator: us-west-2 only). A request
   * signed for another Region gets no answer: the socket is closed, as the real client would find
   * no endpoint there. Unset: every Region.
   */
  servedRegions?: readonly string[];
}

export interface JsonSimOptions {
  /** Loopback by default; the simulator has no auth. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Seeds the fault dice (default 1). */
  seed?: number;
  faults?: FaultOptions;
  /** Called after every action the service answered itself (not a fault): persistence saves then. */
  afterCall?: (action: string) => void;
  /**
   * Serve no socket: clients reach it through `requestHandler` (../shared/in-process.ts), in this
   * process; `url` is then only a name and `port` 0.
   */
  inProcess?: boolean;
}

export interface JsonSimServer {
  readonly url: string;
  readonly port: number;
  readonly faults: Faults;
  readonly calls: CallCounters;
  readonly supportedActions: readonly string[];
  /** Set when it serves in process: the SDK's requestHandler for its clients. */
  readonly requestHandler?: InProcessHandler;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** The Region of a SigV4 `Authorization` header's credential scope (`Credential=AKID/date/region/...`). */
const SIGNED_REGION = /Credential=[^/,\s]+\/\d{8}\/([^/,\s]+)\//;
const CONTENT_TYPE = 'application/x-amz-json-1.1';

function faultError(spec: JsonServiceSpec, d: Extract<FaultDecision, { kind: 'error' }>): JsonSimError {
  if (d.fault === 'throttle') return new JsonSimError(spec.faultCodes.throttle, 'Rate exceeded', 400);
  if (d.fault === 'internal') return new JsonSimError(spec.faultCodes.internal, d.message, 500);
  if (d.fault === 'unavailable') return new JsonSimError(spec.faultCodes.unavailable, d.message, 503);
  return new JsonSimError(d.code, d.message, d.status);
}

export async function startJsonSimServer(
  spec: JsonServiceSpec,
  options: JsonSimOptions = {},
): Promise<JsonSimServer> {
  const faults = new Faults(options.seed ?? 1, options.faults);
  const calls = new CallCounters();
  let requestSeq = 0;
  const send = (res: ServerResponse, status: number, body: unknown, requestId: string, code?: string) => {
    const text = JSON.stringify(body ?? {});
    res.writeHead(status, {
      'content-type': CONTENT_TYPE,
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': requestId,
      ...(code ? { 'x-amzn-errortype': code } : {}),
    });
    res.end(text);
  };
  const sendError = (res: ServerResponse, e: JsonSimError, requestId: string) =>
    send(res, e.status, { __type: e.code, message: e.message }, requestId, e.code);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = `5e1f0000-0000-4000-8000-${String(++requestSeq).padStart(12, '0')}`;
    const target = String(req.headers['x-amz-target'] ?? '');
    const [prefix, action = ''] = target.split('.');
    const signedRegion = SIGNED_REGION.exec(String(req.headers.authorization ?? ''))?.[1];
    if (spec.servedRegions && signedRegion && !spec.servedRegions.includes(signedRegion)) {
      calls.record(action || target, 'error', { code: `NoEndpointIn:${signedRegion}` });
      req.socket.destroy();
      return;
    }
    let input: JsonInput;
    try {
      if (req.method !== 'POST') throw new JsonSimError('UnknownOperationException', 'POST only');
      if (prefix !== spec.targetPrefix || !spec.actions[action]) {
        throw new JsonSimError('UnknownOperationException', `Unknown operation ${target}`);
      }
      const text = await readBody(
        req,
        MAX_BODY_BYTES,
        () => new JsonSimError('SerializationException', 'Request body too large'),
      );
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new JsonSimError('SerializationException', 'The request body must be a JSON object');
      }
      input = parsed as JsonInput;
    } catch (err) {
      const e =
        err instanceof JsonSimError ? err : new JsonSimError('SerializationException', String(err), 400);
      calls.record(action || target, 'error', { code: e.code });
      sendError(res, e, requestId);
      return;
    }
    const decision = faults.decide(action);
    const latency = faults.latencyFor(action);
    if (latency > 0) await sleep(latency);
    if (decision.kind === 'drop') {
      calls.record(action, 'fault', { fault: decision.fault });
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'error') {
      calls.record(action, 'fault', { fault: decision.fault, code: decision.code });
      sendError(res, faultError(spec, decision), requestId);
      return;
    }
    try {
      const out = spec.actions[action]!(input);
      if (decision.kind === 'dropAfterCommit') {
        calls.record(action, 'fault', { fault: decision.fault });
        req.socket.destroy();
        return;
      }
      calls.record(action, 'ok');
      send(res, 200, out, requestId);
    } catch (err) {
      const e =
        err instanceof JsonSimError
          ? err
          : new JsonSimError(spec.faultCodes.internal, `Simulator bug: ${String(err)}`, 500);
      calls.record(action, 'error', { code: e.code });
      sendError(res, e, requestId);
    } finally {
      options.afterCall?.(action);
    }
  };

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  };
  if (options.inProcess) {
    const served = serveInProcess(spec.targetPrefix.toLowerCase(), listener);
    return {
      url: served.url,
      port: 0,
      faults,
      calls,
      supportedActions: Object.keys(spec.actions).sort(),
      requestHandler: served.requestHandler,
      close: async () => served.stop(),
    };
  }
  const server: Server = createServer(listener);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    faults,
    calls,
    supportedActions: Object.keys(spec.actions).sort(),
    close: () => closeServer(server),
  };
}

/** A required string field, or the service's validation error naming it. */
export function requiredString(input: JsonInput, field: string, code = 'ValidationException'): string {
  const v = input[field];
  if (typeof v !== 'string' || v === '') {
    throw new JsonSimError(
      code,
      `1 validation error detected: Value null at '${field}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return v;
}

/** `[{Key, Value}]` as a record (the JSON services' tag lists). */
export function tagRecord(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const t of list as Array<{ Key?: unknown; Value?: unknown }>) {
    if (typeof t.Key === 'string') out[t.Key] = typeof t.Value === 'string' ? t.Value : '';
  }
  return out;
}

export function tagList(tags: Readonly<Record<string, string>>): Array<{ Key: string; Value: string }> {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}
