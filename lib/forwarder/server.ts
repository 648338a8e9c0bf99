/** /healthz, /readyz and /metrics. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthServerOptions {
  port: number;
  host?: string;
  registry: Registry;
  /** Alive: the process is not wedged. */
  healthy: () => boolean;
  ready: () => boolean;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    if (path === '/healthz') return options.healthy() ? reply(200, 'ok\n') : reply(503, 'unhealthy\n');
    if (path === '/readyz') return options.ready() ? reply(200, 'ok\n') : reply(503, 'not ready\n');
    if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => reply(200, text, options.registry.contentType),
        (err: unknown) => reply(500, `${String(err)}\n`),
      );
      return;
    }
    reply(404, 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
