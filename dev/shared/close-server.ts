import type { Server } from 'node:http';

/**
 * Stops a simulator's HTTP server. Keep-alive sockets from SDK clients would otherwise hold
 * close() open, so every connection is dropped with it.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}
