/**
 * `listener-attributes.${Protocol}-${Port}` (LBC's stringMap, one key per listener): the ALB
 * listener attributes of API_ListenerAttribute, keys and values checked here because ELBv2 only
 * refuses a bad one when ModifyListenerAttributes runs, after other resources were changed.
 */
import { invalid, raw, type Annotations } from './parse.js';

type Check = (value: string) => boolean;

/** RFC 9110 token characters, at most 40 (the length ALB takes for a renamed header). */
const headerName: Check = (v) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,40}$/.test(v);
const text: Check = (v) => v.length <= 1024 && !/[\r\n]/.test(v);
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'];

/** The request headers ALB adds (mTLS and TLS) that a listener attribute renames. */
const RENAMED_HEADERS = [
  'x_amzn_mtls_clientcert_serial_number',
  'x_amzn_mtls_clientcert_issuer',
  'x_amzn_mtls_clientcert_subject',
  'x_amzn_mtls_clientcert_validity',
  'x_amzn_mtls_clientcert_leaf',
  'x_amzn_mtls_clientcert',
  'x_amzn_tls_version',
  'x_amzn_tls_cipher_suite',
];

/** The response headers ALB can add, each with what its value may be. */
const RESPONSE_HEADERS: ReadonlyArray<[string, Check, string]> = [
  ['strict_transport_security', text, 'at most 1024 characters on one line'],
  ['access_control_allow_origin', text, 'at most 1024 characters on one line'],
  [
    'access_control_allow_methods',
    (v) => v.split(',').every((m) => METHODS.includes(m.trim())),
    `a comma-separated list of ${METHODS.join(', ')}`,
  ],
  ['access_control_allow_headers', text, 'at most 1024 characters on one line'],
  ['access_control_allow_credentials', (v) => v === 'true', '"true"'],
  ['access_control_expose_headers', text, 'at most 1024 characters on one line'],
  [
    'access_control_max_age',
    (v) => /^\d+$/.test(v) && Number(v) <= 86400,
    'a number of seconds from 0 to 86400',
  ],
  ['content_security_policy', text, 'at most 1024 characters on one line'],
  ['x_content_type_options', (v) => v === 'nosniff', '"nosniff"'],
  [
    'x_frame_options',
    (v) => v === 'DENY' || v === 'SAMEORIGIN' || /^ALLOW-FROM \S+$/.test(v),
    'DENY, SAMEORIGIN or ALLOW-FROM <origin>',
  ],
];

/** Every ALB listener attribute (HTTP and HTTPS listeners alike), with its value check. */
export const ALB_LISTENER_ATTRIBUTES: ReadonlyMap<string, { check: Check; expected: string }> = new Map([
  ...RENAMED_HEADERS.map((h): [string, { check: Check; expected: string }] => [
    `routing.http.request.${h}.header_name`,
    { check: headerName, expected: 'a header name of 1 to 40 token characters' },
  ]),
  [
    'routing.http.response.server.enabled',
    { check: (v: string) => v === 'true' || v === 'false', expected: 'true or false' },
  ],
  // An empty value: the header is not added.
  ...RESPONSE_HEADERS.map(([h, check, expected]): [string, { check: Check; expected: string }] => [
    `routing.http.response.${h}.header_value`,
    { check: (v) => v === '' || check(v), expected: `empty or ${expected}` },
  ]),
]);

/** LBC's stringMap with its escape: `\,` is a comma inside a value (a header value may hold one). */
function pairs(key: string, value: string): Record<string, string> {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (c === '\\' && i + 1 < value.length) {
      current += value.charAt(++i);
    } else if (c === ',') {
      items.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  items.push(current);
  const out: Record<string, string> = {};
  for (const item of items) {
    if (!item.trim()) continue;
    const eq = item.indexOf('=');
    const k = item.slice(0, Math.max(eq, 0)).trim();
    if (!k) throw invalid(key, value, 'must be a comma-separated list of key=value pairs');
    out[k] = item.slice(eq + 1).trim();
  }
  return out;
}

/** The annotation key of one listener's attributes. */
export function listenerAttributesKey(template: string, protocol: string, port: number): string {
  return template.replace('${Protocol}', protocol).replace('${Port}', String(port));
}

/**
 * The attributes set for each listener (by port); listeners without the annotation are absent.
 * A key for a listener the object does not have is refused: it would have no effect.
 */
export function albListenerAttributes(
  annotations: Annotations,
  template: string,
  listeners: ReadonlyArray<{ port: number; protocol: string }>,
): Map<number, Record<string, string>> {
  const prefix = template.slice(0, template.indexOf('${'));
  const out = new Map<number, Record<string, string>>();
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!key.startsWith(prefix)) continue;
    const value = raw(annotations, key);
    if (value === undefined) continue;
    const m = /^(HTTP|HTTPS)-(\d{1,5})$/.exec(key.slice(prefix.length));
    const listener = m && listeners.find((l) => l.protocol === m[1] && l.port === Number(m[2]));
    if (!listener) {
      const have = listeners.map((l) => listenerAttributesKey(template, l.protocol, l.port)).join(', ');
      throw invalid(key, value, `names no listener of listen-ports (the keys here are ${have})`);
    }
    const attributes = pairs(key, value);
    for (const [k, v] of Object.entries(attributes)) {
      const spec = ALB_LISTENER_ATTRIBUTES.get(k);
      if (!spec) throw invalid(key, k, 'is not an ALB listener attribute (see API_ListenerAttribute)');
      if (!spec.check(v)) throw invalid(key, `${k}=${v}`, `must be ${spec.expected}`);
    }
    if (Object.keys(attributes).length > 0) out.set(listener.port, attributes);
  }
  return out;
}
