import type { TargetGroupAttribute } from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import { bool, offOr, oneOf, range } from './attribute-checks.js';
import type { Check } from './attribute-checks.js';
import type { TargetGroupRecord } from './model.js';

type Group = Pick<TargetGroupRecord, 'protocol' | 'targetType'>;
interface Spec {
  default: string;
  check: Check;
}
const entry = (key: string, d: string, check: Check): [string, Spec] => [key, { default: d, check }];

const CROSS_ZONE = oneOf('true', 'false', 'use_load_balancer_configuration');
/** Target group health thresholds (DNS failover and unhealthy-state routing), ALB and NLB alike. */
const HEALTH: [string, Spec][] = [
  entry('target_group_health.dns_failover.minimum_healthy_targets.count', 'off', offOr(1, 1000)),
  entry('target_group_health.dns_failover.minimum_healthy_targets.percentage', 'off', offOr(1, 100)),
  entry('target_group_health.unhealthy_state_routing.minimum_healthy_targets.count', '1', range(1, 1000)),
  entry(
    'target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage',
    'off',
    offOr(1, 100),
  ),
];

const HTTP: [string, Spec][] = [
  entry('deregistration_delay.timeout_seconds', '300', range(0, 3600)),
  entry('stickiness.enabled', 'false', bool),
  entry('stickiness.type', 'lb_cookie', oneOf('lb_cookie', 'app_cookie')),
  entry('stickiness.lb_cookie.duration_seconds', '86400', range(1, 604800)),
  entry('stickiness.app_cookie.cookie_name', '', (v) =>
    /^[\w.-]{0,255}$/.test(v) ? undefined : 'is not a valid cookie name',
  ),
  entry('stickiness.app_cookie.duration_seconds', '86400', range(1, 604800)),
  entry('slow_start.duration_seconds', '0', (v, c) =>
    v === '0' ? undefined : range(30, 900)(v, c) && 'must be 0 or between 30 and 900',
  ),
  entry(
    'load_balancing.algorithm.type',
    'round_robin',
    oneOf('round_robin', 'least_outstanding_requests', 'weighted_random'),
  ),
  entry('load_balancing.algorithm.anomaly_mitigation', 'off', oneOf('on', 'off')),
  entry('load_balancing.cross_zone.enabled', 'use_load_balancer_configuration', CROSS_ZONE),
  ...HEALTH,
];

const network = (tg: Group): [string, Spec][] => [
  entry('deregistration_delay.timeout_seconds', '300', range(0, 3600)),
  entry('deregistration_delay.connection_termination.enabled', 'false', bool),
  entry('stickiness.enabled', 'false', bool),
  entry('stickiness.type', 'source_ip', oneOf('source_ip')),
  entry('proxy_protocol_v2.enabled', 'false', bool),
  entry('preserve_client_ip.enabled', tg.targetType === 'ip' ? 'false' : 'true', bool),
  entry('load_balancing.cross_zone.enabled', 'use_load_balancer_configuration', CROSS_ZONE),
  entry('target_health_state.unhealthy.connection_termination.enabled', 'true', bool),
  entry('target_health_state.unhealthy.draining_interval_seconds', '0', range(0, 360000)),
  ...HEALTH,
];

/** Every attribute key a target group has (API_TargetGroupAttribute), by target type and protocol. */
function specsFor(tg: Group): Map<string, Spec> {
  if (tg.targetType === 'lambda')
    return new Map([entry('lambda.multi_value_headers.enabled', 'false', bool)]);
  return new Map(tg.protocol === 'HTTP' || tg.protocol === 'HTTPS' ? HTTP : network(tg));
}

export function defaultTargetGroupAttributes(tg: Group): Map<string, string> {
  return new Map([...specsFor(tg)].map(([k, s]) => [k, s.default]));
}

/** Validates a ModifyTargetGroupAttributes request and returns the attributes it would leave. */
export function modifiedTargetGroupAttributes(
  tg: TargetGroupRecord,
  attrs: readonly TargetGroupAttribute[] | undefined,
): Map<string, string> {
  if (!attrs?.length) throw required('attributes');
  const specs = specsFor(tg);
  const next = new Map(tg.attributes);
  for (const { Key, Value = '' } of attrs) {
    const s = Key !== undefined ? specs.get(Key) : undefined;
    if (!s) throw validation(`Target group attribute key '${Key}' is not recognized`);
    const problem = s.check(Value, tg);
    if (problem) throw validation(`Target group attribute '${Key}' value '${Value}' ${problem}`);
    next.set(Key!, Value);
  }
  if (
    next.get('stickiness.type') === 'app_cookie' &&
    next.get('stickiness.enabled') === 'true' &&
    !next.get('stickiness.app_cookie.cookie_name')
  )
    throw validation(`'stickiness.app_cookie.cookie_name' must be set for app_cookie stickiness`);
  if (
    next.get('load_balancing.algorithm.anomaly_mitigation') === 'on' &&
    next.get('load_balancing.algorithm.type') !== 'weighted_random'
  )
    throw validation(`Anomaly mitigation is supported only with the weighted_random algorithm`);
  return next;
}
