/**
 * The one endpoint the provider under test is configured with: every service's calls (ELBv2, the
 * Tagging API, EC2, ACM, WAFv2, Shield) go to this loopback server, which tells the service and
 * the Region from the request's SigV4 credential scope (as AWS's own endpoints are per service and
 * Region), records the action, and forwards the request to the target's server for that service
 * and Region: moto_server for all of them, or one of our simulators. So the provider's
 * configuration is the same file for both targets, its endpoint fields only, and every call is
 * counted the same way for both.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../../dev/shared/close-server.js';

/** One call as the gateway saw it. */
export interface GatewayCall {
  /** The SigV4 signing name: `elasticloadbalancing`, `ec2`, `tagging`, `acm`, `wafv2`, `shield`. */
  service: string;
  region: string;
  action: string;
  status: number;
  /** The error code of a refused call (`__type`, or the query protocol's `<Code>`). */
  code?: string;
}

/** A request as it is forwarded, and the answer that comes back. */
export interface ServiceRequest {
  service: string;
  region: string;
  action: string;
  headers: IncomingHttpHeaders;
  body: string;
}
export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a request on to the target (a hook may send several, or change what it sends). */
export type Forward = (req: ServiceRequest) => Promise<ServiceResponse>;
/** A hook over one action: answers it, usually by forwarding (changed) requests. */
export type Hook = (req: ServiceRequest, forward: Forward) => Promise<ServiceResponse>;

export interface GatewayOptions {
  /** The target's server for a service in a Region; undefined: the call is refused (503). */
  upstream(service: string, region: string): string | undefined;
  /** Hooks by `service:action`: the moto wrapper's fixes (moto-quirks.ts). */
  hooks?: Readonly<Record<string, Hook>>;
}

export interface Gateway {
  readonly url: string;
  /** Every recorded call since the last reset, in order. */
  calls(): GatewayCall[];
  /** The recorded calls that may change something (neither Describe*, List* nor Get*), refused or not. */
  mutatingCalls(): GatewayCall[];
  resetCalls(): void;
  close(): Promise<void>;
}

/** The user agent of the scenarios' own reads (observe.ts), which are not the provider's calls. */
export const OBSERVER_AGENT = 'conformance-observer';

/** Reads, lists and describes: every other action may change state. */
export const isMutating = (action: string): boolean => !/^(Describe|List|Get)/.test(action);

const scope = (headers: IncomingHttpHeaders): { service: string; region: string } | undefined => {
  const auth = headers.authorization;
  // AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/<service>/aws4_request, SignedHeaders=…
  const m =
    typeof auth === 'string' ? /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(auth) : null;
  return m ? { region: m[1]!, service: m[2]! } : undefined;
};

const actionOf = (headers: IncomingHttpHeaders, body: string): string => {
  const target = headers['x-amz-target'];
  if (typeof target === 'string') return target.slice(target.lastIndexOf('.') + 1);
  return new URLSearchParams(body).get('Action') ?? '';
};

const errorCodeOf = (body: string): string | undefined =>
  /"__type"\s*:\s*"(?:[^"#]*#)?([^"]+)"/.exec(body)?.[1] ?? /<Code>([^<]+)<\/Code>/.exec(body)?.[1];

function send(base: string, req: ServiceRequest): Promise<ServiceResponse> {
  const url = new URL(base);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
  }
  headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const out = request({ host: url.hostname, port: url.port, path: '/', method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (
            typeof v === 'string' &&
            k !== 'content-length' &&
            k !== 'connection' &&
            k !== 'transfer-encoding'
          )
            h[k] = v;
        }
        resolve({ status: res.statusCode ?? 500, headers: h, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(req.body);
  });
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  let recorded: GatewayCall[] = [];
  const forward: Forward = async (req) => {
    const base = options.upstream(req.service, req.region);
    if (!base)
      return {
        status: 503,
        headers: { 'content-type': 'text/plain' },
        body: `no ${req.service} endpoint in ${req.region} on this target`,
      };
    return send(base, req);
  };
  const server: Server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const where = scope(incoming.headers);
      const req: ServiceRequest = {
        service: where?.service ?? '',
        region: where?.region ?? '',
        action: actionOf(incoming.headers, body),
        headers: incoming.headers,
        body,
      };
      const hook = options.hooks?.[`${req.service}:${req.action}`];
      (hook ? hook(req, forward) : forward(req))
        .then((answer) => {
          // CONFORMANCE_TRACE=ModifyRule,DescribeRules (or *): each such call and its answer, to stderr.
          const trace = process.env.CONFORMANCE_TRACE?.split(',');
          if (trace && (trace.includes('*') || trace.includes(req.action)))
            process.stderr.write(
              `--> ${req.service} ${req.region} ${req.body}\n<-- ${answer.status} ${answer.body}\n`,
            );
          const agent = String(incoming.headers['user-agent'] ?? '');
          if (!agent.includes(OBSERVER_AGENT)) {
            const code = answer.status >= 300 ? errorCodeOf(answer.body) : undefined;
            recorded.push({
              service: req.service,
              region: req.region,
              action: req.action,
              status: answer.status,
              ...(code ? { code } : {}),
            });
          }
          res.writeHead(answer.status, {
            ...answer.headers,
            'content-length': Buffer.byteLength(answer.body),
          });
          res.end(answer.body);
        })
        .catch((err: unknown) => {
          // The target went away (a closed simulator): the SDK sees a dropped connection.
          res.destroy(err instanceof Error ? err : new Error(String(err)));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => [...recorded],
    mutatingCalls: () => recorded.filter((c) => isMutating(c.action)),
    resetCalls: () => {
      recorded = [];
    },
    close: () => closeServer(server),
  };
}
