/**
 * Load balancer and target group attributes (`key=value,...`): every key ELBv2 documents for the
 * type (API_LoadBalancerAttribute, API_TargetGroupAttribute), each with its value check. Checked
 * here because ELBv2 rejects an unknown key or a bad value only when the Modify*Attributes call
 * runs, i.e. after other resources were already changed.
 */
import type { CommonKeys } from './keys.js';
import { invalid, keyValues, type Annotations } from './parse.js';

/** Why a value is wrong, or undefined when it is right. */
type Check = (value: string) => string | undefined;

const bool: Check = (v) => (v === 'true' || v === 'false' ? undefined : 'must be true or false');
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v) ? undefined : `must be one of ${values.join(', ')}`;
const wholeNumber = (v: string, min: number, max: number) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;
const seconds =
  (min: number, max: number): Check =>
  (v) =>
    wholeNumber(v, min, max) ? undefined : `must be a whole number of seconds from ${min} to ${max}`;
const count =
  (min: number, max: number): Check =>
  (v) =>
    wholeNumber(v, min, max) ? undefined : `must be a whole number from ${min} to ${max}`;
const offOr =
  (min: number, max: number): Check =>
  (v) =>
    v === 'off' || wholeNumber(v, min, max)
      ? undefined
      : `must be off or a whole number from ${min} to ${max}`;
// S3 bucket naming rules: 3-63 lower-case letters, digits, dots and hyphens, a letter or digit at each end.
const bucket: Check = (v) =>
  /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v) ? undefined : 'must be an S3 bucket name';
const anything: Check = () => undefined;

type Specs = ReadonlyArray<readonly [string, Check]>;

/** S3 logs (access, connection, health check) share one shape; an enabled log needs its bucket. */
const LOGS = ['access_logs', 'connection_logs', 'health_check_logs'] as const;
const logs = (prefix: (typeof LOGS)[number]): Specs => [
  [`${prefix}.s3.enabled`, bool],
  [`${prefix}.s3.bucket`, bucket],
  [`${prefix}.s3.prefix`, anything],
];

const COMMON_LB: Specs = [
  ...logs('access_logs'),
  ['deletion_protection.enabled', bool],
  ['ipv6.deny_all_igw_traffic', bool],
  ['zonal_shift.config.enabled', bool],
];

const LB_SPECS = {
  application: new Map<string, Check>([
    ...COMMON_LB,
    // "The default for Application Load Balancers is true, and can't be changed."
    [
      'load_balancing.cross_zone.enabled',
      (v) => (v === 'true' ? undefined : 'cannot be changed on an ALB (always true)'),
    ],
    ...logs('connection_logs'),
    ...logs('health_check_logs'),
    ['idle_timeout.timeout_seconds', seconds(1, 4000)],
    ['client_keep_alive.seconds', seconds(60, 604800)],
    ['routing.http.desync_mitigation_mode', oneOf('monitor', 'defensive', 'strictest')],
    ['routing.http.drop_invalid_header_fields.enabled', bool],
    ['routing.http.preserve_host_header.enabled', bool],
    ['routing.http.x_amzn_tls_version_and_cipher_suite.enabled', bool],
    ['routing.http.xff_client_port.enabled', bool],
    ['routing.http.xff_header_processing.mode', oneOf('append', 'preserve', 'remove')],
    ['routing.http2.enabled', bool],
    ['waf.fail_open.enabled', bool],
  ]),
  network: new Map<string, Check>([
    ...COMMON_LB,
    ['load_balancing.cross_zone.enabled', bool],
    [
      'dns_record.client_routing_policy',
      oneOf('availability_zone_affinity', 'partial_availability_zone_affinity', 'any_availability_zone'),
    ],
    // AWS also refuses a decrease, which needs the current value: left to AWS.
    ['secondary_ips.auto_assigned.per_subnet', count(0, 7)],
  ]),
} as const;

const CROSS_ZONE = oneOf('true', 'false', 'use_load_balancer_configuration');
/** Target group health thresholds (DNS failover and unhealthy-state routing), ALB and NLB alike. */
const TG_HEALTH: Specs = [
  ['target_group_health.dns_failover.minimum_healthy_targets.count', offOr(1, 1000)],
  ['target_group_health.dns_failover.minimum_healthy_targets.percentage', offOr(1, 100)],
  ['target_group_health.unhealthy_state_routing.minimum_healthy_targets.count', count(1, 1000)],
  ['target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage', offOr(1, 100)],
];

const TG_SPECS = {
  HTTP: new Map<string, Check>([
    ['deregistration_delay.timeout_seconds', seconds(0, 3600)],
    ['stickiness.enabled', bool],
    ['stickiness.type', oneOf('lb_cookie', 'app_cookie')],
    ['stickiness.lb_cookie.duration_seconds', seconds(1, 604800)],
    [
      'stickiness.app_cookie.cookie_name',
      (v) =>
        /^[\w.-]{1,255}$/.test(v) ? undefined : 'must be a cookie name (letters, digits, "_", ".", "-")',
    ],
    ['stickiness.app_cookie.duration_seconds', seconds(1, 604800)],
    [
      'slow_start.duration_seconds',
      (v) =>
        v === '0' || wholeNumber(v, 30, 900)
          ? undefined
          : 'must be 0 or a whole number of seconds from 30 to 900',
    ],
    ['load_balancing.algorithm.type', oneOf('round_robin', 'least_outstanding_requests', 'weighted_random')],
    ['load_balancing.algorithm.anomaly_mitigation', oneOf('on', 'off')],
    ['load_balancing.cross_zone.enabled', CROSS_ZONE],
    ...TG_HEALTH,
  ]),
  TCP: new Map<string, Check>([
    ['deregistration_delay.timeout_seconds', seconds(0, 3600)],
    ['deregistration_delay.connection_termination.enabled', bool],
    ['stickiness.enabled', bool],
    ['stickiness.type', oneOf('source_ip')],
    ['proxy_protocol_v2.enabled', bool],
    ['preserve_client_ip.enabled', bool],
    ['load_balancing.cross_zone.enabled', CROSS_ZONE],
    ['target_health_state.unhealthy.connection_termination.enabled', bool],
    ['target_health_state.unhealthy.draining_interval_seconds', seconds(0, 360000)],
    ...TG_HEALTH,
  ]),
} as const;

export const LOAD_BALANCER_ATTRIBUTE_KEYS = {
  application: [...LB_SPECS.application.keys()],
  network: [...LB_SPECS.network.keys()],
} as const;

export const TARGET_GROUP_ATTRIBUTE_KEYS = {
  HTTP: [...TG_SPECS.HTTP.keys()],
  TCP: [...TG_SPECS.TCP.keys()],
} as const;

function checked(
  annotations: Annotations,
  key: string,
  specs: ReadonlyMap<string, Check>,
): Record<string, string> | undefined {
  const attrs = keyValues(annotations, key);
  return attrs === undefined ? undefined : checkAttributes(key, attrs, specs);
}

function checkAttributes(
  key: string,
  attrs: Record<string, string>,
  specs: ReadonlyMap<string, Check>,
): Record<string, string> {
  for (const [k, v] of Object.entries(attrs)) {
    const check = specs.get(k);
    if (!check) throw invalid(key, k, `is not a supported attribute (${[...specs.keys()].join(', ')})`);
    const problem = check(v);
    if (problem) throw invalid(key, `${k}=${v}`, problem);
  }
  for (const log of LOGS) {
    // AWS would refuse it only at the Modify call; a bucket set by hand is not ours to rely on.
    if (attrs[`${log}.s3.enabled`] === 'true' && attrs[`${log}.s3.bucket`] === undefined) {
      throw invalid(key, `${log}.s3.enabled=true`, `needs ${log}.s3.bucket in the same annotation`);
    }
  }
  return attrs;
}

export function loadBalancerAttributes(
  annotations: Annotations,
  keys: CommonKeys,
  type: keyof typeof LB_SPECS,
): Record<string, string> | undefined {
  return checked(annotations, keys.loadBalancerAttributes, LB_SPECS[type]);
}

/** The attributes under `key` (not the type's usual annotation), checked as a load balancer of `type`'s. */
export function loadBalancerAttributesOf(
  annotations: Annotations,
  key: string,
  type: keyof typeof LB_SPECS,
): Record<string, string> | undefined {
  return checked(annotations, key, LB_SPECS[type]);
}

export function targetGroupAttributes(
  annotations: Annotations,
  keys: CommonKeys,
  family: keyof typeof TG_SPECS,
): Record<string, string> | undefined {
  return checked(annotations, keys.targetGroupAttributes, TG_SPECS[family]);
}

/**
 * One Service port's own target group attributes (`target-group-attributes.<port>`, an NLB key):
 * each key's value checked as the MultiClusterService-wide annotation's; an empty value keeps the
 * wide one (LBC's rule), so it is dropped here.
 */
export function portTargetGroupAttributes(
  annotations: Annotations,
  key: string,
): Record<string, string> | undefined {
  const attrs = keyValues(annotations, key);
  if (attrs === undefined) return undefined;
  const given = Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== ''));
  return checkAttributes(key, given, TG_SPECS.TCP);
}
