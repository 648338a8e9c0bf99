/**
 * Load balancer and target group attributes (`key=value,...`). Keys and value shapes are checked
 * here because ELBv2 rejects an unknown key only when the Modify*Attributes call runs, i.e. after
 * other resources were already changed.
 */
import type { CommonKeys } from './keys.js';
import { invalid, keyValues, type Annotations } from './parse.js';

const COMMON_LB = [
  'access_logs.s3.enabled',
  'access_logs.s3.bucket',
  'access_logs.s3.prefix',
  'deletion_protection.enabled',
  'load_balancing.cross_zone.enabled',
];

export const LOAD_BALANCER_ATTRIBUTE_KEYS = {
  application: [
    ...COMMON_LB,
    'idle_timeout.timeout_seconds',
    'client_keep_alive.seconds',
    'routing.http.desync_mitigation_mode',
    'routing.http.drop_invalid_header_fields.enabled',
    'routing.http.preserve_host_header.enabled',
    'routing.http.x_amzn_tls_version_and_cipher_suite.enabled',
    'routing.http.xff_client_port.enabled',
    'routing.http.xff_header_processing.mode',
    'routing.http2.enabled',
    'waf.fail_open.enabled',
  ],
  network: [...COMMON_LB, 'dns_record.client_routing_policy'],
} as const;

export const TARGET_GROUP_ATTRIBUTE_KEYS = {
  HTTP: [
    'deregistration_delay.timeout_seconds',
    'stickiness.enabled',
    'stickiness.type',
    'stickiness.lb_cookie.duration_seconds',
    'slow_start.duration_seconds',
    'load_balancing.algorithm.type',
    'load_balancing.cross_zone.enabled',
  ],
  TCP: [
    'deregistration_delay.timeout_seconds',
    'deregistration_delay.connection_termination.enabled',
    'stickiness.enabled',
    'stickiness.type',
    'proxy_protocol_v2.enabled',
    'preserve_client_ip.enabled',
    'load_balancing.cross_zone.enabled',
    'target_health_state.unhealthy.connection_termination.enabled',
  ],
} as const;

function checked(
  annotations: Annotations,
  key: string,
  allowed: readonly string[],
): Record<string, string> | undefined {
  const attrs = keyValues(annotations, key);
  if (attrs === undefined) return undefined;
  for (const [k, v] of Object.entries(attrs)) {
    if (!allowed.includes(k)) throw invalid(key, k, `is not a supported attribute (${allowed.join(', ')})`);
    if (k.endsWith('.enabled') && v !== 'true' && v !== 'false' && v !== 'use_load_balancer_configuration') {
      throw invalid(key, `${k}=${v}`, 'must be true or false');
    }
    if ((k.endsWith('_seconds') || k.endsWith('.seconds')) && !/^\d+$/.test(v)) {
      throw invalid(key, `${k}=${v}`, 'must be a whole number of seconds');
    }
  }
  return attrs;
}

export function loadBalancerAttributes(
  annotations: Annotations,
  keys: CommonKeys,
  type: keyof typeof LOAD_BALANCER_ATTRIBUTE_KEYS,
): Record<string, string> | undefined {
  return checked(annotations, keys.loadBalancerAttributes, LOAD_BALANCER_ATTRIBUTE_KEYS[type]);
}

export function targetGroupAttributes(
  annotations: Annotations,
  keys: CommonKeys,
  family: keyof typeof TARGET_GROUP_ATTRIBUTE_KEYS,
): Record<string, string> | undefined {
  return checked(annotations, keys.targetGroupAttributes, TARGET_GROUP_ATTRIBUTE_KEYS[family]);
}
