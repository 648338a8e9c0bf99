/** Listener annotations: ports and protocols, TLS certificates and policy, HTTP → HTTPS redirect. */
import type { ALB_KEYS, CommonKeys, NLB_KEYS } from './keys.js';
import type { MutualAuthenticationSpec } from '../types.js';
import { albListenerAttributes } from './listener-attributes.js';
import { albMutualAuthentication } from './mutual-authentication.js';
import { invalid, list, raw, type Annotations } from './parse.js';

/** LBC's default SSL policy for HTTPS/TLS listeners. */
export const DEFAULT_SSL_POLICY = 'ELBSecurityPolicy-2016-08';

export interface TlsSettings {
  /** First = the listener's default certificate. */
  certificates: string[];
  sslPolicy: string;
  /** No certificate-arn: the certificates are discovered in ACM by the hosts (model/certificates.ts). */
  discover?: true;
}

function tls(annotations: Annotations, keys: CommonKeys): TlsSettings | undefined {
  const certificates = list(annotations, keys.certificates);
  for (const arn of certificates ?? []) {
    if (
      !/^arn:aws[a-z-]*:(acm:[a-z0-9-]+:\d{12}:certificate\/.+|iam::\d{12}:server-certificate\/.+)$/.test(arn)
    ) {
      throw invalid(keys.certificates, arn, 'is not an ACM or IAM certificate ARN');
    }
  }
  const policy = sslPolicyOf(annotations, keys);
  if (!certificates?.length) return undefined;
  return { certificates, sslPolicy: policy };
}

function sslPolicyOf(annotations: Annotations, keys: CommonKeys): string {
  const policy = raw(annotations, keys.sslPolicy);
  if (policy !== undefined && !/^ELBSecurityPolicy-[A-Za-z0-9-]+$/.test(policy)) {
    throw invalid(keys.sslPolicy, policy, 'is not an ELBv2 security policy name (ELBSecurityPolicy-...)');
  }
  return policy ?? DEFAULT_SSL_POLICY;
}

export interface AlbListener {
  port: number;
  protocol: 'HTTP' | 'HTTPS';
  /** Only the listener attributes set (listener-attributes.${Protocol}-${Port}). */
  attributes?: Record<string, string>;
  /** HTTPS listeners named by mutual-authentication. */
  mutualAuthentication?: MutualAuthenticationSpec;
}

export interface AlbListenerSettings {
  listeners: AlbListener[];
  tls?: TlsSettings;
  /** HTTP listeners redirect to this HTTPS port and carry no rules. */
  sslRedirectPort?: number;
}

function listenPorts(
  annotations: Annotations,
  key: string,
): Array<{ port: number; protocol: 'HTTP' | 'HTTPS' }> | undefined {
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw invalid(key, v, 'must be JSON like [{"HTTP": 80}, {"HTTPS": 443}]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalid(key, v, 'must be a non-empty JSON array');
  const out = new Map<number, 'HTTP' | 'HTTPS'>();
  for (const entry of parsed as unknown[]) {
    const [pair, ...more] = typeof entry === 'object' && entry !== null ? Object.entries(entry) : [];
    if (!pair || more.length > 0)
      throw invalid(key, v, 'entries must be objects with one "HTTP" or "HTTPS" key');
    const [protocol, port] = pair;
    if (
      (protocol !== 'HTTP' && protocol !== 'HTTPS') ||
      !Number.isInteger(port) ||
      Number(port) < 1 ||
      Number(port) > 65535
    ) {
      throw invalid(key, v, 'entries must map "HTTP" or "HTTPS" to a port number');
    }
    const previous = out.get(Number(port));
    if (previous !== undefined && previous !== protocol)
      throw invalid(key, v, `port ${String(port)} is both HTTP and HTTPS`);
    out.set(Number(port), protocol);
  }
  return [...out].map(([port, protocol]) => ({ port, protocol })).sort((a, b) => a.port - b.port);
}

export function albListeners(annotations: Annotations, keys: typeof ALB_KEYS): AlbListenerSettings {
  const settings = tls(annotations, keys);
  // LBC: HTTPS:443 by default once certificates are given, HTTP:80 otherwise.
  const listeners = listenPorts(annotations, keys.listenPorts) ?? [
    settings ? { port: 443, protocol: 'HTTPS' as const } : { port: 80, protocol: 'HTTP' as const },
  ];
  // HTTPS without certificate-arn: discovered from ACM by the hosts (model/certificates.ts).
  const discovered: TlsSettings | undefined =
    listeners.some((l) => l.protocol === 'HTTPS') && !settings
      ? { certificates: [], sslPolicy: sslPolicyOf(annotations, keys), discover: true }
      : settings;
  const redirect = raw(annotations, keys.sslRedirect);
  let sslRedirectPort: number | undefined;
  if (redirect !== undefined) {
    sslRedirectPort = Number(redirect);
    if (!listeners.some((l) => l.protocol === 'HTTPS' && l.port === sslRedirectPort)) {
      throw invalid(keys.sslRedirect, redirect, 'must name one of the HTTPS listen-ports');
    }
  }
  const attributes = albListenerAttributes(annotations, keys.listenerAttributes, listeners);
  const mtls = albMutualAuthentication(annotations, keys.mutualAuthentication, listeners);
  return {
    listeners: listeners.map((l) => {
      const a = attributes.get(l.port);
      const m = mtls.get(l.port);
      return { ...l, ...(a ? { attributes: a } : {}), ...(m ? { mutualAuthentication: m } : {}) };
    }),
    ...(discovered ? { tls: discovered } : {}),
    ...(sslRedirectPort !== undefined ? { sslRedirectPort } : {}),
  };
}

/** Whether the listeners' certificates are to be discovered in ACM: HTTPS listen-ports without certificate-arn. */
export function wantsCertificateDiscovery(annotations: Annotations, keys: typeof ALB_KEYS): boolean {
  if (list(annotations, keys.certificates)?.length) return false;
  try {
    return (listenPorts(annotations, keys.listenPorts) ?? []).some((l) => l.protocol === 'HTTPS');
  } catch {
    // The build reports the bad listen-ports.
    return false;
  }
}

export interface NlbTlsSettings extends TlsSettings {
  /** Service ports (numbers or names) that get TLS listeners; `*` = all. */
  ports: string[];
}

export function nlbTls(annotations: Annotations, keys: typeof NLB_KEYS): NlbTlsSettings | undefined {
  const settings = tls(annotations, keys);
  const ports = list(annotations, keys.sslPorts);
  if (!settings) {
    if (ports?.length)
      throw invalid(keys.sslPorts, raw(annotations, keys.sslPorts) ?? '', `needs ${keys.certificates}`);
    return undefined;
  }
  return { ...settings, ports: ports?.length ? ports : ['*'] };
}
