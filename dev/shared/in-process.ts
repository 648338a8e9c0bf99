/**
 * A simulator served without a socket: the real SDK client's requests, serialised by the SDK as
 * they would be sent, are handed to the simulator's own request listener in the same process, and
 * its answer is parsed by the SDK as if it had come over HTTP. The wire protocol, the errors, the
 * faults (a dropped connection is the SDK's ECONNRESET) and the retries are all the real ones;
 * only the loopback socket is gone, so a test of the provider against a simulator needs no port.
 * Each in-process simulator has a URL of its own (serveInProcess), so that a client whose
 * requestHandler is `inProcessRoutes` reaches whichever one its endpoint names, as a provider
 * configured with several simulators' endpoints does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** What a simulator's HTTP server runs for each request (its `createServer` listener). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The part of the SDK's HttpRequest the simulators read. */
export interface InProcessRequest {
  method: string;
  /** The endpoint's host: which in-process server a routed request is for (inProcessRoutes). */
  hostname?: string;
  path: string;
  query?: Record<string, string | string[] | null | undefined>;
  headers: Record<string, string>;
  body?: unknown;
}

export interface InProcessResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable;
}

/** The SDK's requestHandler (smithy's HttpHandler), answering from a listener. */
export interface InProcessHandler {
  handle(
    request: InProcessRequest,
    options?: { abortSignal?: { aborted: boolean } },
  ): Promise<{ response: InProcessResponse }>;
  updateHttpClientConfig(): void;
  httpHandlerConfigs(): Record<string, never>;
  destroy(): void;
}

const bodyText = (body: unknown): string => {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  throw new Error('in-process simulators take string or byte bodies only');
};

const queryString = (query: InProcessRequest['query']): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    for (const value of Array.isArray(v) ? v : [v]) if (value != null) params.append(k, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** A connection the simulator dropped: what the SDK sees when a socket closes mid-request. */
function connectionReset(): Error {
  return Object.assign(new Error('socket hang up (in-process simulator dropped the connection)'), {
    code: 'ECONNRESET',
  });
}

export function inProcessHandler(listener: RequestListener): InProcessHandler {
  return {
    handle(request, options) {
      if (options?.abortSignal?.aborted) {
        return Promise.reject(Object.assign(new Error('Request aborted'), { name: 'AbortError' }));
      }
      return new Promise((resolve, reject) => {
        const req = Readable.from([Buffer.from(bodyText(request.body))]) as unknown as IncomingMessage & {
          socket: { destroy(): void };
        };
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v;
        let settled = false;
        Object.assign(req, {
          method: request.method,
          url: `${request.path}${queryString(request.query)}`,
          headers,
          socket: {
            destroy: () => {
              if (settled) return;
              settled = true;
              reject(connectionReset());
            },
          },
        });
        let status = 200;
        let responseHeaders: Record<string, string> = {};
        const res = {
          headersSent: false,
          writeHead(code: number, h: Record<string, string | number> = {}) {
            status = code;
            responseHeaders = Object.fromEntries(
              Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]),
            );
            res.headersSent = true;
            return res;
          },
          end(text?: string) {
            if (settled) return res;
            settled = true;
            resolve({
              response: {
                statusCode: status,
                headers: responseHeaders,
                body: Readable.from([Buffer.from(text ?? '')]),
              },
            });
            return res;
          },
        };
        listener(req, res as unknown as ServerResponse);
      });
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
}

/** The endpoint of an in-process server that is the only one of its kind (the API stand-in): never resolved. */
export const inProcessUrl = (kind: string): string => `http://${kind}.in-process.invalid`;

/** The in-process servers by the host of their URL (serveInProcess), while they serve. */
const served = new Map<string, InProcessHandler>();
let servedCount = 0;

/**
 * Serves `listener` in process under a URL of its own (`http://elbv2-3.in-process.invalid`): a
 * client built with that endpoint and `inProcessRoutes` as its requestHandler reaches it, so a
 * provider configuration that names several simulators (one per Region, say) by their endpoints
 * reaches each one, with no socket. `stop()` (the simulator's close) takes the URL down.
 */
export function serveInProcess(
  kind: string,
  listener: RequestListener,
): { url: string; requestHandler: InProcessHandler; stop(): void } {
  const url = `http://${kind.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++servedCount}.in-process.invalid`;
  const host = new URL(url).hostname;
  const requestHandler = inProcessHandler(listener);
  served.set(host, requestHandler);
  return { url, requestHandler, stop: () => served.delete(host) };
}

/**
 * A requestHandler for clients of any in-process server: each request goes to the server its
 * endpoint names; a host nothing serves is what DNS would answer for it (ENOTFOUND).
 */
export const inProcessRoutes: InProcessHandler = {
  handle(request, options) {
    const handler = request.hostname === undefined ? undefined : served.get(request.hostname);
    if (!handler) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${request.hostname ?? ''} (no in-process server)`), {
          code: 'ENOTFOUND',
        }),
      );
    }
    return handler.handle(request, options);
  },
  updateHttpClientConfig: () => undefined,
  httpHandlerConfigs: () => ({}),
  destroy: () => undefined,
};
