/**
 * The rules Karmada's validating webhook enforces on top of the CRD schema (it reuses the
 * Kubernetes Ingress and ObjectMeta validation), which a schema cannot express: enumerations the
 * CRD leaves as plain strings, one-of choices, port ranges, DNS names, uniqueness.
 *
 * They run on objects the schema may already have rejected, so every rule reads defensively and
 * skips values of the wrong type: the schema reports those, and one cause gets one message.
 * The MultiClusterService's are in semantic-rules-mcs.ts, read only with its validator.
 */
import { isIP } from 'node:net';

export interface ValidationIssue {
  /** Field path such as `spec.rules[0].http.paths[1].pathType`. */
  field: string;
  message: string;
}

type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const isStr = (v: unknown): v is string => typeof v === 'string';

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const PATH_TYPES = ['Exact', 'Prefix', 'ImplementationSpecific'] as const;

/** A checker returns the reason a value is invalid, or undefined when it is fine. */
export type Check = (v: string) => string | undefined;

export const maxLen = (v: string, n: number): string | undefined =>
  v.length > n ? `must be no more than ${n} characters` : undefined;

export const dns1035Label: Check = (v) =>
  maxLen(v, 63) ??
  (DNS1035_LABEL.test(v)
    ? undefined
    : "must be a DNS-1035 label (lowercase alphanumerics and '-', starting with a letter and ending with an alphanumeric)");

const dnsSubdomain: Check = (v) =>
  maxLen(v, 253) ??
  (DNS1123_SUBDOMAIN.test(v)
    ? undefined
    : "must be a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', starting and ending with an alphanumeric)");

/** Ingress hosts may be a wildcard (`*.example.com`), only as the whole first label. */
const hostName: Check = (v) =>
  v.startsWith('*.')
    ? (maxLen(v, 253) ??
      (DNS1123_SUBDOMAIN.test(v.slice(2))
        ? undefined
        : "must be a DNS-1123 subdomain, optionally with '*.' as its first label"))
    : v.includes('*')
      ? "a wildcard is only allowed as the whole first label ('*.example.com')"
      : dnsSubdomain(v);

/** Kubernetes IsValidPortName (an IANA service name). */
const portName: Check = (v) =>
  maxLen(v, 15) ??
  (!/^[-a-z0-9]+$/.test(v)
    ? "must contain only lowercase alphanumerics and '-'"
    : !/[a-z]/.test(v)
      ? 'must contain at least one letter'
      : v.includes('--') || v.startsWith('-') || v.endsWith('-')
        ? "must not begin or end with '-' or contain '--'"
        : undefined);

/** Kubernetes IsValidPathSegmentName: the name goes into a REST path. */
const pathSegment: Check = (v) =>
  v === '.' || v === '..' ? `must not be '${v}'` : /[/%]/.test(v) ? "must not contain '/' or '%'" : undefined;

export const validPort = (v: unknown): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;

export const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const MISSING = 'required field is missing';

export class Collector {
  readonly issues: ValidationIssue[] = [];
  add(field: string, message: string | undefined): void {
    if (message !== undefined) this.issues.push({ field, message });
  }
  /** Runs `check` when `v` is a string; an empty string counts as missing if `required`. */
  str(field: string, v: unknown, check: Check, required = false): void {
    if (!isStr(v)) return;
    this.add(field, v === '' ? (required ? MISSING : undefined) : check(v));
  }
}

export function metadataName(c: Collector, obj: Obj, check: Check): void {
  const name = isObj(obj.metadata) ? obj.metadata.name : undefined;
  if (name === undefined || name === '') c.add('metadata.name', MISSING);
  else if (!isStr(name)) c.add('metadata.name', 'must be a string');
  else c.add('metadata.name', check(name));
}

// ---- MultiClusterIngress (Kubernetes ValidateIngressSpec, as lifted by Karmada) ----

function backendRules(c: Collector, at: string, backend: unknown): void {
  if (!isObj(backend)) return;
  const { service, resource } = backend;
  if (service !== undefined && resource !== undefined) {
    return c.add(at, 'must set exactly one of service or resource, not both');
  }
  if (service === undefined && resource === undefined) {
    return c.add(at, 'must set exactly one of service or resource');
  }
  if (isObj(resource)) {
    c.str(`${at}.resource.apiGroup`, resource.apiGroup, dnsSubdomain);
    c.str(`${at}.resource.kind`, resource.kind, pathSegment, true);
    c.str(`${at}.resource.name`, resource.name, pathSegment, true);
  }
  if (!isObj(service)) return;
  c.str(`${at}.service.name`, service.name, dns1035Label, true);
  const port = service.port;
  if (port !== undefined && !isObj(port)) return;
  const name = port?.name;
  const num = port?.number;
  const hasName = isStr(name) && name !== '';
  // A number of any value counts as set, so `number: 0` reads as out of range, not as missing.
  const hasNumber = num !== undefined;
  if (hasName && hasNumber) c.add(`${at}.service.port`, 'must set exactly one of name or number, not both');
  else if (hasName) c.add(`${at}.service.port.name`, portName(name));
  else if (hasNumber) c.add(`${at}.service.port.number`, validPort(num) ? undefined : PORT_RANGE);
  else c.add(`${at}.service.port`, 'must set exactly one of name or number');
}

function pathRules(c: Collector, at: string, p: unknown): void {
  if (!isObj(p)) return;
  const { path, pathType } = p;
  if (isStr(pathType)) {
    if (!(PATH_TYPES as readonly string[]).includes(pathType)) {
      c.add(`${at}.pathType`, `must be one of ${PATH_TYPES.join(', ')}`);
    } else if (path === undefined || isStr(path)) {
      const value = path ?? '';
      // ImplementationSpecific may leave the path empty; the other two match on it.
      if ((pathType !== 'ImplementationSpecific' || value !== '') && !value.startsWith('/')) {
        c.add(`${at}.path`, "must be an absolute path (start with '/')");
      } else if (pathType !== 'ImplementationSpecific' && value !== '') {
        const bad =
          ['//', '/./', '/../', '%2f', '%2F'].find((seq) => value.includes(seq)) ??
          ['/..', '/.'].find((suffix) => value.endsWith(suffix));
        if (bad !== undefined) c.add(`${at}.path`, `must not contain or end with '${bad}'`);
      }
    }
  }
  backendRules(c, `${at}.backend`, p.backend);
}

/** Webhook rules for a MultiClusterIngress; the schema is checked separately. */
export function multiClusterIngressRules(obj: unknown): ValidationIssue[] {
  const c = new Collector();
  if (!isObj(obj)) return c.issues;
  metadataName(c, obj, dnsSubdomain);
  // A missing spec is validated as an empty one, which is then missing both rules and backend.
  const spec = obj.spec === undefined ? {} : obj.spec;
  if (!isObj(spec)) return c.issues;

  const rules = spec.rules;
  if (spec.defaultBackend === undefined && (rules === undefined || (Array.isArray(rules) && !rules.length))) {
    c.add('spec', 'must set defaultBackend or at least one rule');
  }
  c.str('spec.ingressClassName', spec.ingressClassName, dnsSubdomain);
  backendRules(c, 'spec.defaultBackend', spec.defaultBackend);

  items(rules).forEach((rule, i) => {
    if (!isObj(rule)) return;
    const at = `spec.rules[${i}]`;
    if (isStr(rule.host) && rule.host !== '') {
      c.add(`${at}.host`, isIP(rule.host) ? 'must be a DNS name, not an IP address' : hostName(rule.host));
    }
    if (!isObj(rule.http)) return;
    const paths = rule.http.paths;
    if (Array.isArray(paths) && !paths.length) c.add(`${at}.http.paths`, 'must contain at least one path');
    items(paths).forEach((p, j) => pathRules(c, `${at}.http.paths[${j}]`, p));
  });

  items(spec.tls).forEach((tls, i) => {
    if (!isObj(tls)) return;
    items(tls.hosts).forEach((h, j) => c.str(`spec.tls[${i}].hosts[${j}]`, h, hostName));
    c.str(`spec.tls[${i}].secretName`, tls.secretName, dnsSubdomain);
  });
  return c.issues;
}
