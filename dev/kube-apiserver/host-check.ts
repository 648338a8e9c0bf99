/**
 * DNS rebinding protection. The stand-in has no authentication, so anything that can reach its
 * socket may read and write every object. A web page cannot open that socket by its address (the
 * browser refuses cross-origin reads), but it can point a name of its own at 127.0.0.1: the
 * browser then talks to the stand-in as to the page's own origin, and sends the page's name in
 * `Host`. So a request is answered only when `Host` is a name or address of this socket:
 * `127.0.0.1`, `localhost`, `[::1]` (and the address it was told to listen on), with its port.
 * kubectl, client-node and curl send `Host: 127.0.0.1:<port>` (the kubeconfig's server) and pass.
 */
import { ApiError } from './errors.js';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
/** Listening on every interface names no host of its own. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The `Host` values the stand-in answers when it listens on `listenHost`:`port`. */
export function allowedHosts(listenHost: string, port: number): Set<string> {
  const own = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  const names = [...LOOPBACK, ...(WILDCARD.has(own) ? [] : [own.toLowerCase()])];
  // A client omits the port only when it is the scheme's default.
  return new Set(names.flatMap((n) => (port === 80 ? [`${n}:${port}`, n] : [`${n}:${port}`])));
}

/** The 403 a server behind a Host check answers when `host` is not one of `allowed`; else undefined. */
export function hostRefusal(host: string | undefined, allowed: ReadonlySet<string>): ApiError | undefined {
  if (host !== undefined && allowed.has(host.toLowerCase())) return undefined;
  return new ApiError(
    403,
    'Forbidden',
    `Host ${JSON.stringify(host ?? '')} is not a name of this server: the stand-in answers only ${[...allowed].join(', ')} (DNS rebinding protection)`,
    {},
  );
}
