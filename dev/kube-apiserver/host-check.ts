/**
 * DNS rebinding protection. The stand-in has no authentication, so anything that can reach its
 * socket may read and write every object. A web page cannot open that socket by its address (the
 * browser refuses cross-origin reads), but it can point a name of its own at 127.0.0.1: the
 * browser then talks to the stand-in as to the page's own origin, and sends the page's name in
 * `Host`. So a request is answered only when the name in `Host` is one of this socket's:
 * `127.0.0.1`, `localhost`, `[::1]` (and the address it was told to listen on). The port is not
 * compared: a browser always sends the port it connected to, and a proxy in front of the stand-in
 * (a test's TCP proxy) passes its own. kubectl, client-node and curl send `Host: 127.0.0.1:<port>`
 * (the kubeconfig's server) and pass.
 */
import { ApiError } from './errors.js';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
/** Listening on every interface names no host of its own. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The host names the stand-in answers when it listens on `listenHost`. */
export function allowedHosts(listenHost: string): Set<string> {
  const own = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  return new Set([...LOOPBACK, ...(WILDCARD.has(own) ? [] : [own.toLowerCase()])]);
}

/**
 * The name in a `Host` header without its port, brackets kept for IPv6 (`[::1]:6443` → `[::1]`);
 * undefined when the header is not `<name>[:<port>]`.
 */
function hostName(host: string): string | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  return m?.[1];
}

/** The 403 a server behind a Host check answers when `host` is not one of `allowed`; else undefined. */
export function hostRefusal(host: string | undefined, allowed: ReadonlySet<string>): ApiError | undefined {
  const name = host === undefined ? undefined : hostName(host);
  if (name !== undefined && allowed.has(name)) return undefined;
  return new ApiError(
    403,
    'Forbidden',
    `Host ${JSON.stringify(host ?? '')} is not a name of this server: the stand-in answers only ${[...allowed].join(', ')} (DNS rebinding protection)`,
    {},
  );
}
