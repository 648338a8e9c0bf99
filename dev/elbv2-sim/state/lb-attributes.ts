import type { LoadBalancerAttribute } from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import { bool, free, oneOf, range } from './attribute-checks.js';
import type { Check as BaseCheck } from './attribute-checks.js';
import type { LoadBalancerKind, LoadBalancerRecord } from './model.js';

type Check = BaseCheck<LoadBalancerRecord>;

const bucket: Check = (v) =>
  v === '' || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v) ? undefined : 'is not a valid S3 bucket name';

interface Spec {
  default: (lb: LoadBalancerRecord) => string;
  check: Check;
}
const fixed = (value: string, check: Check): Spec => ({ default: () => value, check });

/** S3 log settings share one shape: access_logs, connection_logs, health_check_logs. */
const logs = (prefix: string): [string, Spec][] => [
  [`${prefix}.s3.enabled`, fixed('false', bool)],
  [`${prefix}.s3.bucket`, fixed('', bucket)],
  [`${prefix}.s3.prefix`, fixed('', free)],
];

const COMMON: [string, Spec][] = [
  ...logs('access_logs'),
  ['deletion_protection.enabled', fixed('false', bool)],
  ['ipv6.deny_all_igw_traffic', { default: (lb) => String(lb.scheme === 'internal'), check: bool }],
  ['zonal_shift.config.enabled', fixed('false', bool)],
];

/** Every attribute key per type (API_LoadBalancerAttribute), its default and its value check. */
const SPECS: Record<LoadBalancerKind, Map<string, Spec>> = {
  application: new Map([
    ...COMMON,
    ...logs('connection_logs'),
    ...logs('health_check_logs'),
    ['idle_timeout.timeout_seconds', fixed('60', range(1, 4000))],
    ['client_keep_alive.seconds', fixed('3600', range(60, 604800))],
    ['routing.http.desync_mitigation_mode', fixed('defensive', oneOf('monitor', 'defensive', 'strictest'))],
    ['routing.http.drop_invalid_header_fields.enabled', fixed('false', bool)],
    ['routing.http.preserve_host_header.enabled', fixed('false', bool)],
    ['routing.http.x_amzn_tls_version_and_cipher_suite.enabled', fixed('false', bool)],
    ['routing.http.xff_client_port.enabled', fixed('false', bool)],
    ['routing.http.xff_header_processing.mode', fixed('append', oneOf('append', 'preserve', 'remove'))],
    ['routing.http2.enabled', fixed('true', bool)],
    ['waf.fail_open.enabled', fixed('false', bool)],
    // "The default for Application Load Balancers is true, and can't be changed."
    [
      'load_balancing.cross_zone.enabled',
      fixed('true', (v) => (v === 'true' ? undefined : 'cannot be changed for Application Load Balancers')),
    ],
  ]),
  network: new Map([
    ...COMMON,
    ['load_balancing.cross_zone.enabled', fixed('false', bool)],
    [
      'dns_record.client_routing_policy',
      fixed(
        'any_availability_zone',
        oneOf('availability_zone_affinity', 'partial_availability_zone_affinity', 'any_availability_zone'),
      ),
    ],
    [
      'secondary_ips.auto_assigned.per_subnet',
      {
        default: () => '0',
        check: (v, lb) =>
          range(0, 7)(v, lb) ??
          (Number(v) < Number(lb.attributes.get('secondary_ips.auto_assigned.per_subnet') ?? '0')
            ? 'cannot be decreased'
            : undefined),
      },
    ],
  ]),
};

export function defaultLoadBalancerAttributes(lb: LoadBalancerRecord): Map<string, string> {
  return new Map([...SPECS[lb.type]].map(([k, spec]) => [k, spec.default(lb)]));
}

/**
 * Validates a ModifyLoadBalancerAttributes request against the keys, values and cross-key rules
 * (a log that is enabled needs a bucket), and returns the attributes it would leave.
 */
export function modifiedAttributes(
  lb: LoadBalancerRecord,
  attrs: readonly LoadBalancerAttribute[] | undefined,
): Map<string, string> {
  if (!attrs?.length) throw required('attributes');
  const next = new Map(lb.attributes);
  for (const { Key, Value = '' } of attrs) {
    const spec = Key !== undefined ? SPECS[lb.type].get(Key) : undefined;
    if (!spec) throw validation(`Load balancer attribute key '${Key}' is not recognized`);
    const problem = spec.check(Value, lb);
    if (problem) throw validation(`Load balancer attribute '${Key}' value '${Value}' ${problem}`);
    next.set(Key!, Value);
  }
  for (const log of ['access_logs', 'connection_logs', 'health_check_logs']) {
    if (next.get(`${log}.s3.enabled`) === 'true' && !next.get(`${log}.s3.bucket`))
      throw validation(`The value of '${log}.s3.bucket' cannot be empty when '${log}.s3.enabled' is true`);
  }
  return next;
}
