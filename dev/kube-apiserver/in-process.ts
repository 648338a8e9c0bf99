/**
 * The API stand-in served without a socket (dev/shared/in-process.ts does the same for the AWS
 * simulators): the requests client-node built and authenticated are handed to the stand-in's own
 * request listener, and its answers go back through client-node's response handling. Paths,
 * queries, headers, bodies, Status errors and admission are the real ones; only the socket is gone.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Observable, ResponseContext, type HttpLibrary, type RequestContext } from '@kubernetes/client-node';
import type { RequestListener } from '../shared/in-process.js';

/** One HTTP exchange as a listener sees it: the request line, headers and body it reads. */
interface Exchange {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  signal?: AbortSignal | undefined;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Hands one request to `listener` and collects its whole answer. The response object has what
 * the Kubernetes API stand-in writes with (writeHead, write, end, statusCode, headersSent and its
 * `finish` and `close` events); a streamed answer (a watch) is delivered when it ends.
 */
function exchange(listener: RequestListener, request: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = Readable.from([request.body]) as unknown as IncomingMessage;
    Object.assign(req, { method: request.method, url: request.url, headers: request.headers });
    const chunks: Buffer[] = [];
    let headers: Record<string, string> = {};
    let settled = false;
    const res = new EventEmitter() as EventEmitter & {
      statusCode: number;
      headersSent: boolean;
      writableEnded: boolean;
      writeHead(code: number, h?: Record<string, string | number | string[]>): typeof res;
      flushHeaders(): void;
      write(chunk: string | Buffer): boolean;
      end(chunk?: string | Buffer): typeof res;
    };
    const add = (chunk: string | Buffer | undefined) => {
      if (chunk !== undefined) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    };
    const gone = () => {
      if (settled) return;
      settled = true;
      req.emit('close');
      res.emit('close');
      reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
    };
    Object.assign(res, {
      statusCode: 200,
      headersSent: false,
      writableEnded: false,
      writeHead(code: number, h: Record<string, string | number | string[]> = {}) {
        res.statusCode = code;
        headers = Object.fromEntries(
          Object.entries(h).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]),
        );
        res.headersSent = true;
        return res;
      },
      flushHeaders: () => undefined,
      write(chunk: string | Buffer) {
        add(chunk);
        return true;
      },
      end(chunk?: string | Buffer) {
        if (res.writableEnded) return res;
        add(chunk);
        res.writableEnded = true;
        res.headersSent = true;
        request.signal?.removeEventListener('abort', gone);
        if (!settled) {
          settled = true;
          resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks) });
        }
        res.emit('finish');
        res.emit('close');
        return res;
      },
    });
    if (request.signal?.aborted) return gone();
    request.signal?.addEventListener('abort', gone, { once: true });
    listener(req, res as unknown as ServerResponse);
  });
}

/**
 * client-node's transport (its `HttpLibrary`: what lib/kube/client-node.ts's `transport` option
 * takes) answering from the API stand-in's request listener: the request client-node built and
 * authenticated, its path, query, headers and body, reach the stand-in as they would over HTTP,
 * and the answer goes back through client-node's own response handling.
 */
export function inProcessKubeTransport(listener: RequestListener): HttpLibrary {
  return {
    send(request: RequestContext): Observable<ResponseContext> {
      const url = new URL(request.getUrl());
      const headers: Record<string, string> = { host: url.host };
      for (const [k, v] of Object.entries(request.getHeaders())) headers[k.toLowerCase()] = v;
      const body = request.getBody();
      if (body !== undefined && typeof body !== 'string') {
        throw new Error('the in-process API stand-in takes string bodies only');
      }
      const answer = exchange(listener, {
        method: request.getHttpMethod().toString(),
        url: `${url.pathname}${url.search}`,
        headers,
        body: Buffer.from(body ?? ''),
        signal: request.getSignal() as AbortSignal | undefined,
      }).then(
        (a) =>
          new ResponseContext(a.status, a.headers, {
            text: () => Promise.resolve(a.body.toString('utf8')),
            binary: () => Promise.resolve(a.body),
          }),
      );
      return new Observable(answer);
    },
  };
}
