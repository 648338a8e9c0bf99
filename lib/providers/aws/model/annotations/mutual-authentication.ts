/**
 * `mutual-authentication` (LBC's JSON list, pkg/ingress/model_build_listener.go): mutual TLS per
 * HTTPS listener. Trust stores are referenced, never created (as in LBC): by ARN, or by name, which
 * the deploy resolves with DescribeTrustStores (the model stays pure).
 */
import type { MutualAuthenticationSpec } from '../types.js';
import { invalid, raw, type Annotations } from './parse.js';

const MODES = ['off', 'passthrough', 'verify'] as const;
const FIELDS = ['port', 'mode', 'trustStore', 'ignoreClientCertificateExpiry', 'advertiseTrustStoreCaNames'];

/** A trust store ARN (API_TrustStore); anything else is a name. */
export const TRUST_STORE_ARN =
  /^arn:aws[a-z-]*:elasticloadbalancing:[a-z0-9-]+:\d{12}:truststore\/[A-Za-z0-9-]+\/[0-9a-f]+$/;
/** CreateTrustStore's Name: up to 32 alphanumerics and hyphens, not starting or ending with one. */
const TRUST_STORE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$/;

/** AWS: at most this many different trust stores among the listeners of one load balancer. */
export const TRUST_STORES_PER_LOAD_BALANCER = 2;

/**
 * The mutual authentication of each HTTPS listener the annotation names, by port. Refused: a port
 * that is not an HTTPS listen-port (LBC ignores it), `verify` without a trust store, the verify-only
 * fields with another mode, unknown fields, a port twice.
 */
export function albMutualAuthentication(
  annotations: Annotations,
  key: string,
  listeners: ReadonlyArray<{ port: number; protocol: string }>,
): Map<number, MutualAuthenticationSpec> {
  const out = new Map<number, MutualAuthenticationSpec>();
  const v = raw(annotations, key);
  if (v === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw invalid(key, v, 'must be JSON like [{"port": 443, "mode": "verify", "trustStore": "my-store"}]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalid(key, v, 'must be a non-empty JSON array');
  const https = listeners.filter((l) => l.protocol === 'HTTPS').map((l) => l.port);
  for (const entry of parsed as unknown[]) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw invalid(key, v, 'entries must be objects with "port" and "mode"');
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((f) => !FIELDS.includes(f));
    if (unknown.length > 0)
      throw invalid(key, v, `has unknown field(s) ${unknown.join(', ')} (allowed: ${FIELDS.join(', ')})`);
    const {
      port,
      mode,
      trustStore,
      ignoreClientCertificateExpiry: ignore,
      advertiseTrustStoreCaNames: advertise,
    } = e;
    if (typeof port !== 'number' || !https.includes(port)) {
      throw invalid(
        key,
        v,
        `port ${JSON.stringify(port)} is not an HTTPS listen-port (${https.length ? https.join(', ') : 'there is none'})`,
      );
    }
    if (out.has(port)) throw invalid(key, v, `names port ${port} twice`);
    if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode))
      throw invalid(key, v, `port ${port}: mode must be one of ${MODES.join(', ')}`);
    if (mode !== 'verify') {
      if (trustStore !== undefined || ignore !== undefined || advertise !== undefined) {
        throw invalid(
          key,
          v,
          `port ${port}: trustStore, ignoreClientCertificateExpiry and advertiseTrustStoreCaNames apply only to mode verify`,
        );
      }
      out.set(port, { mode: mode as 'off' | 'passthrough' });
      continue;
    }
    if (
      typeof trustStore !== 'string' ||
      !(TRUST_STORE_ARN.test(trustStore) || TRUST_STORE_NAME.test(trustStore))
    ) {
      throw invalid(key, v, `port ${port}: mode verify needs a trustStore (a trust store ARN or name)`);
    }
    if (ignore !== undefined && typeof ignore !== 'boolean')
      throw invalid(key, v, `port ${port}: ignoreClientCertificateExpiry must be true or false`);
    if (advertise !== undefined && advertise !== 'on' && advertise !== 'off')
      throw invalid(key, v, `port ${port}: advertiseTrustStoreCaNames must be "on" or "off"`);
    out.set(port, {
      mode: 'verify',
      trustStore,
      // AWS's defaults, stated: the comparison with DescribeListeners is then exact.
      ignoreClientCertificateExpiry: ignore ?? false,
      advertiseTrustStoreCaNames: advertise ?? 'off',
    });
  }
  const stores = new Set([...out.values()].flatMap((m) => (m.mode === 'verify' ? [m.trustStore] : [])));
  if (stores.size > TRUST_STORES_PER_LOAD_BALANCER) {
    throw invalid(
      key,
      v,
      `names ${stores.size} trust stores: an ALB's listeners can use at most ${TRUST_STORES_PER_LOAD_BALANCER}`,
    );
  }
  return out;
}
