/**
 * Certificate discovery (LBC pkg/certs/cert_discovery.go and model_build_listener.go
 * `computeIngressInferredTLSCertARNs`): an HTTPS listener without `certificate-arn` gets every
 * issued ACM certificate that covers one of the MultiClusterIngresses' hosts (their `spec.tls[].hosts`
 * and rule hosts). A certificate name covers a host when it is the host, or when it is a wildcard
 * `*.<rest>` and the host is one label followed by `<rest>` (a wildcard covers exactly one label,
 * as in LBC). Pure: the provider reads the account's certificates (edge/acm-client.ts, kept per
 * container) before the model is built, and only for a stack that needs them.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { MultiClusterIngress } from '../../../karmada/types.js';
import { patternMatches } from './wildcard.js';

/** One issued ACM certificate and the names it covers (its SubjectAlternativeNames). */
export interface CatalogCertificate {
  arn: string;
  names: readonly string[];
}

/**
 * What certificate discovery may pick under the tenant policy (tenant-policy.ts
 * `allowedCertificates`): one entry per applicable rule that lists certificates.
 */
export interface CertificateAllowList {
  /** A certificate is a candidate only when one ARN pattern of every rule matches it. */
  rules: ReadonlyArray<{ name: string; arns: readonly string[] }>;
}

/** The rules of `allowed` that do not allow `arn` (empty: it is allowed). */
function refusingRules(allowed: CertificateAllowList | undefined, arn: string): string[] {
  return (allowed?.rules ?? []).filter((r) => !r.arns.some((p) => patternMatches(p, arn))).map((r) => r.name);
}

/** LBC's `domainMatchesHost`: exact, or a wildcard over exactly one leading label. */
export function certificateNameCovers(name: string, host: string): boolean {
  if (!name.startsWith('*.')) return name === host;
  const n = name.split('.');
  const h = host.split('.');
  return n.length === h.length && n.slice(1).every((label, i) => label === h[i + 1]);
}

/** The hosts certificates are discovered for: every rule host and every `spec.tls[].hosts` entry. */
export function discoveryHosts(mcis: readonly Readonly<MultiClusterIngress>[]): string[] {
  const hosts = new Set<string>();
  for (const mci of mcis) {
    for (const r of mci.spec?.rules ?? []) if (r.host) hosts.add(r.host);
    for (const t of mci.spec?.tls ?? []) for (const h of t.hosts ?? []) if (h) hosts.add(h);
  }
  return [...hosts].sort();
}

/**
 * The certificates covering `hosts`, sorted by ARN (the first is the listener's default, as in
 * LBC). Only the certificates the tenant policy allows (`allowed`) are candidates, so a host
 * covered by an allowed and a disallowed certificate gets the allowed one. A host no certificate
 * covers is an error naming `key`, as in LBC; a host only disallowed certificates cover is one
 * naming the host, the certificates and the rule that refuses them.
 */
export function discoverCertificates(
  hosts: readonly string[],
  catalog: readonly CatalogCertificate[],
  key: string,
  allowed?: CertificateAllowList,
): string[] {
  if (hosts.length === 0) {
    throw new InvalidObjectError(
      `annotation ${key}: an HTTPS listener needs a certificate: give its ARN, or hosts (spec.tls[].hosts or rule hosts) to discover one in ACM by`,
      { field: key, reason: 'InvalidAnnotation' },
    );
  }
  const found = new Set<string>();
  const uncovered: string[] = [];
  for (const host of hosts) {
    const covering = catalog.filter((c) => c.names.some((n) => certificateNameCovers(n, host)));
    if (covering.length === 0) uncovered.push(host);
    const candidates = covering.filter((c) => refusingRules(allowed, c.arn).length === 0);
    if (covering.length > 0 && candidates.length === 0) {
      const refusing = new Set(covering.flatMap((c) => refusingRules(allowed, c.arn)));
      // In the policy's order.
      const rules = (allowed?.rules ?? []).map((r) => r.name).filter((r) => refusing.has(r));
      throw new InvalidObjectError(
        `annotation ${key}: host ${JSON.stringify(host)} is covered only by ACM certificates the tenant policy does not allow (${covering.map((c) => c.arn).join(', ')}; discovered by the hosts, since no certificate ARN is given): forbidden by tenant policy rule${rules.length > 1 ? 's' : ''} ${rules.map((r) => JSON.stringify(r)).join(', ')}; request or import a certificate the policy allows, or give an allowed ARN`,
        { field: key, reason: 'TenantPolicyViolation' },
      );
    }
    for (const c of candidates) found.add(c.arn);
  }
  if (uncovered.length > 0) {
    throw new InvalidObjectError(
      `annotation ${key}: no issued ACM certificate in this Region covers ${uncovered.map((h) => JSON.stringify(h)).join(', ')} (discovered by the hosts, since no certificate ARN is given): request or import one, or give its ARN`,
      { field: key, reason: 'InvalidAnnotation' },
    );
  }
  return [...found].sort();
}
