import { readBody } from '../shared/http-body.js';
import type { RequestListener } from '../shared/in-process.js';
import { sleep } from '../../lib/util/sleep.js';
import { createServer } from 'node:http';
import { TAGGING_TARGET_PREFIX, TaggingError, taggingRequest } from './tagging.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { CallCounters } from './calls.js';
import { SimError } from './errors.js';
import type { Faults } from './faults.js';
import { QueryParams } from './query.js';
import { INPUT_SHAPES } from './shapes.js';
import type { Elbv2State } from './state/index.js';
import { errorXml, successXml } from './xml.js';

export interface ServerDeps {
  state: Elbv2State;
  faults: Faults;
  calls: CallCounters;
  /** The Resource Groups Tagging API's calls (tagging.ts), counted apart from ELBv2's. */
  taggingCalls: CallCounters;
  /** Told after the state has served an action (successfully or not): persistence saves then. */
  afterCall?: (action: string) => void;
}

export const SUPPORTED_ACTIONS: readonly string[] = Object.keys(INPUT_SHAPES).sort();

const MAX_BODY_BYTES = 5 * 1024 * 1024;

const tooLarge = () => new SimError('ValidationError', 'Request body too large');

function invoke(state: Elbv2State, action: string, params: QueryParams): unknown {
  const shape = INPUT_SHAPES[action];
  const method = (state as unknown as Record<string, ((input: unknown) => unknown) | undefined>)[
    action.charAt(0).toLowerCase() + action.slice(1)
  ];
  if (!shape || !method)
    throw new SimError('InvalidAction', `The action ${action} is not valid for this web service`);
  return method(params.decode(shape));
}

/** A Resource Groups Tagging API request: JSON in, JSON out, the same fault dice as ELBv2. */
async function handleTagging(
  deps: ServerDeps,
  target: string,
  body: string,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
): Promise<void> {
  const operation = target.slice(TAGGING_TARGET_PREFIX.length);
  const json = (status: number, payload: unknown) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.1',
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': requestId,
    });
    res.end(text);
  };
  const decision = deps.faults.decide(operation);
  const latency = deps.faults.latencyFor(operation);
  if (latency > 0) await sleep(latency);
  if (decision.kind === 'drop' || decision.kind === 'dropAfterCommit') {
    deps.taggingCalls.record(operation, 'fault', { fault: decision.fault });
    req.socket.destroy();
    return;
  }
  if (decision.kind === 'error') {
    deps.taggingCalls.record(operation, 'fault', { fault: decision.fault, code: decision.code });
    // The Tagging API names its throttling error differently from ELBv2.
    const type = decision.code === 'Throttling' ? 'ThrottledException' : decision.code;
    json(decision.status, { __type: type, message: decision.message });
    return;
  }
  try {
    const result = taggingRequest(deps.state, target, body);
    deps.taggingCalls.record(operation, 'ok');
    json(200, result);
  } catch (err) {
    const e =
      err instanceof TaggingError ? err : new TaggingError('InternalServiceException', String(err), 500);
    deps.taggingCalls.record(operation, 'error', { code: e.type });
    json(e.status, { __type: e.type, message: e.message });
  }
}

/** The simulator's request listener: what its HTTP server runs, or an in-process client directly. */
export function requestListener(deps: ServerDeps): RequestListener {
  let requestSeq = 0;
  const send = (res: ServerResponse, status: number, body: string, requestId: string) => {
    res.writeHead(status, {
      'content-type': 'text/xml',
      'content-length': Buffer.byteLength(body),
      'x-amzn-requestid': requestId,
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = `51a0e1b5-0000-4000-8000-${String(++requestSeq).padStart(12, '0')}`;
    let body: string;
    try {
      body = await readBody(req, MAX_BODY_BYTES, tooLarge);
    } catch (err) {
      const e = err instanceof SimError ? err : new SimError('InternalFailure', String(err), 500);
      send(res, e.status, errorXml(e, requestId), requestId);
      return;
    }
    const target = req.headers['x-amz-target'];
    if (typeof target === 'string' && target.startsWith(TAGGING_TARGET_PREFIX)) {
      await handleTagging(deps, target, body, req, res, requestId);
      return;
    }
    const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const params = new QueryParams([query, body].filter(Boolean).join('&'));
    const action = params.get('Action') ?? '';
    if (!action) {
      send(
        res,
        400,
        errorXml(new SimError('MissingAction', 'Missing Action parameter'), requestId),
        requestId,
      );
      return;
    }

    const decision = deps.faults.decide(action);
    const latency = deps.faults.latencyFor(action);
    if (latency > 0) await sleep(latency);

    if (decision.kind === 'drop') {
      deps.calls.record(action, 'fault', { fault: decision.fault });
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'error') {
      deps.calls.record(action, 'fault', { fault: decision.fault, code: decision.code });
      const error = new SimError(decision.code, decision.message, decision.status);
      send(res, error.status, errorXml(error, requestId), requestId);
      return;
    }

    let result: unknown;
    try {
      result = invoke(deps.state, action, params);
      deps.afterCall?.(action);
    } catch (err) {
      const error =
        err instanceof SimError ? err : new SimError('InternalFailure', `Simulator bug: ${String(err)}`, 500);
      deps.calls.record(action, 'error', { code: error.code });
      send(res, error.status, errorXml(error, requestId), requestId);
      return;
    }
    if (decision.kind === 'dropAfterCommit') {
      deps.calls.record(action, 'fault', { fault: decision.fault });
      req.socket.destroy();
      return;
    }
    deps.calls.record(action, 'ok');
    send(res, 200, successXml(action, result, requestId), requestId);
  };

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  };
}

export function startServer(deps: ServerDeps, host: string, port: number): Promise<Server> {
  const server = createServer(requestListener(deps));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
