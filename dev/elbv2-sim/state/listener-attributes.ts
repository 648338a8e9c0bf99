import type {
  DescribeListenerAttributesInput,
  DescribeListenerAttributesOutput,
  ListenerAttribute,
  ModifyListenerAttributesInput,
  ModifyListenerAttributesOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import type { ListenerRecord } from './model.js';
import type { Store } from './store.js';

type Check = (value: string) => boolean;

const headerName: Check = (v) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,40}$/.test(v);
const bool: Check = (v) => v === 'true' || v === 'false';
const text: Check = (v) => v.length <= 1024 && !/[\r\n]/.test(v);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']);

/** Request-header renames (ALB): key suffix -> default header name. */
const REQUEST_HEADERS: Record<string, string> = {
  x_amzn_mtls_clientcert_serial_number: 'X-Amzn-Mtls-Clientcert-Serial-Number',
  x_amzn_mtls_clientcert_issuer: 'X-Amzn-Mtls-Clientcert-Issuer',
  x_amzn_mtls_clientcert_subject: 'X-Amzn-Mtls-Clientcert-Subject',
  x_amzn_mtls_clientcert_validity: 'X-Amzn-Mtls-Clientcert-Validity',
  x_amzn_mtls_clientcert_leaf: 'X-Amzn-Mtls-Clientcert-Leaf',
  x_amzn_mtls_clientcert: 'X-Amzn-Mtls-Clientcert',
  x_amzn_tls_version: 'X-Amzn-Tls-Version',
  x_amzn_tls_cipher_suite: 'X-Amzn-Tls-Cipher-Suite',
};

/** Response headers (ALB): key suffix -> value check. An empty value means "not added". */
const RESPONSE_HEADERS: Record<string, Check> = {
  strict_transport_security: text,
  access_control_allow_origin: text,
  access_control_allow_methods: (v) => v.split(',').every((m) => METHODS.has(m.trim())),
  access_control_allow_headers: text,
  access_control_allow_credentials: (v) => v === 'true',
  access_control_expose_headers: text,
  access_control_max_age: (v) => /^\d+$/.test(v) && Number(v) <= 86400,
  content_security_policy: text,
  x_content_type_options: (v) => v === 'nosniff',
  x_frame_options: (v) => v === 'DENY' || v === 'SAMEORIGIN' || /^ALLOW-FROM \S+$/.test(v),
};

interface AttributeSpec {
  default: string;
  check: Check;
}

/** The attributes a listener has (API_ListenerAttribute), by load balancer type and protocol. */
function specsFor(listener: ListenerRecord): Map<string, AttributeSpec> {
  const specs = new Map<string, AttributeSpec>();
  if (listener.protocol === 'HTTP' || listener.protocol === 'HTTPS') {
    for (const [suffix, name] of Object.entries(REQUEST_HEADERS))
      specs.set(`routing.http.request.${suffix}.header_name`, { default: name, check: headerName });
    specs.set('routing.http.response.server.enabled', { default: 'true', check: bool });
    for (const [suffix, check] of Object.entries(RESPONSE_HEADERS))
      specs.set(`routing.http.response.${suffix}.header_value`, {
        default: '',
        check: (v) => v === '' || check(v),
      });
  } else if (listener.protocol === 'TCP') {
    const seconds = (v: string) => /^\d+$/.test(v) && Number(v) >= 60 && Number(v) <= 6000;
    specs.set('tcp.idle_timeout.seconds', { default: '350', check: seconds });
  }
  return specs;
}

export function defaultListenerAttributes(listener: ListenerRecord): Map<string, string> {
  return new Map([...specsFor(listener)].map(([k, spec]) => [k, spec.default]));
}

const list = (l: ListenerRecord): ListenerAttribute[] =>
  [...l.attributes].map(([Key, Value]) => ({ Key, Value }));

export function describeListenerAttributes(
  store: Store,
  input: DescribeListenerAttributesInput,
): DescribeListenerAttributesOutput {
  return { Attributes: list(store.listener(input.ListenerArn)) };
}

/** All-or-nothing: every key and value is checked before any attribute changes. */
export function modifyListenerAttributes(
  store: Store,
  input: ModifyListenerAttributesInput,
): ModifyListenerAttributesOutput {
  const listener = store.listener(input.ListenerArn);
  if (!input.Attributes?.length) throw required('attributes');
  const specs = specsFor(listener);
  for (const { Key, Value = '' } of input.Attributes) {
    const spec = Key !== undefined ? specs.get(Key) : undefined;
    if (!spec)
      throw validation(
        `Listener attribute key '${Key}' is not recognized for ${listener.protocol} listeners`,
      );
    if (!spec.check(Value)) throw validation(`Listener attribute '${Key}' cannot have the value '${Value}'`);
  }
  for (const { Key, Value = '' } of input.Attributes) listener.attributes.set(Key!, Value);
  return { Attributes: list(listener) };
}

/** A protocol change (ModifyListener) keeps the values of keys the new protocol still has. */
export function attributesAfterProtocolChange(listener: ListenerRecord): Map<string, string> {
  const next = defaultListenerAttributes(listener);
  for (const [k, v] of listener.attributes) if (next.has(k)) next.set(k, v);
  return next;
}
