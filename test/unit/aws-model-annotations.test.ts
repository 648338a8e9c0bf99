/**
 * Every annotation parser of the model as a table: the value it returns for each accepted form,
 * and for each refused form the exact error (message, the annotation key as field, the reason).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CHECK } from '../../lib/providers/aws/index.js';
import {
  LOAD_BALANCER_ATTRIBUTE_KEYS,
  loadBalancerAttributes,
  TARGET_GROUP_ATTRIBUTE_KEYS,
  targetGroupAttributes,
} from '../../lib/providers/aws/model/annotations/attributes.js';
import { albHealthCheck, nlbHealthCheck } from '../../lib/providers/aws/model/annotations/health-check.js';
import { ALB_KEYS, NLB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import {
  albListeners,
  nlbTls,
  wantsCertificateDiscovery,
} from '../../lib/providers/aws/model/annotations/listeners.js';
import {
  checkLoadBalancerName,
  parseLoadBalancerAnnotations,
  stackUserTags,
  userTags,
} from '../../lib/providers/aws/model/annotations/load-balancer.js';
import {
  integer,
  keyValues,
  list,
  oneOf,
  raw,
  resourceIds,
} from '../../lib/providers/aws/model/annotations/parse.js';
import { bad, refused } from '../support/invalid-object.js';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
const IAM_CERT = 'arn:aws:iam::123456789012:server-certificate/legacy';
const GOV_CERT = 'arn:aws-us-gov:acm:us-gov-west-1:123456789012:certificate/def';

describe('primitive parsers', () => {
  it.each([
    { value: '  x  ', expected: 'x' },
    { value: '   ', expected: undefined },
    { value: '', expected: undefined },
  ])('raw($value) is $expected', ({ value, expected }) => {
    expect(raw({ k: value }, 'k')).toBe(expected);
  });

  it('raw of a missing key or no annotations is undefined', () => {
    expect(raw({}, 'k')).toBeUndefined();
    expect(raw(undefined, 'k')).toBeUndefined();
  });

  it.each([
    { value: '5', expected: 5 },
    { value: '300', expected: 300 },
    { value: ' 42 ', expected: 42 },
  ])('integer accepts $value within 5..300', ({ value, expected }) => {
    expect(integer({ k: value }, 'k', 5, 300)).toBe(expected);
  });

  it.each(['4', '301', '0', 'x5', '5x', '-5', '1.5'])('integer refuses %s outside 5..300', (value) => {
    expect(refused(() => integer({ k: value }, 'k', 5, 300))).toStrictEqual(
      bad('k', value, 'must be an integer from 5 to 300'),
    );
  });

  it('integer of a missing key is undefined', () => {
    expect(integer({}, 'k', 5, 300)).toBeUndefined();
  });

  it('oneOf matches case-insensitively and returns the canonical spelling', () => {
    expect(oneOf({ k: 'Internet-Facing' }, 'k', ['internal', 'internet-facing'])).toBe('internet-facing');
    expect(oneOf({}, 'k', ['internal', 'internet-facing'])).toBeUndefined();
    expect(refused(() => oneOf({ k: 'public' }, 'k', ['internal', 'internet-facing']))).toStrictEqual(
      bad('k', 'public', 'must be one of internal, internet-facing'),
    );
  });

  it('list drops blanks, keeps order, removes duplicates', () => {
    expect(list({ k: ' b, a,, b ,c' }, 'k')).toStrictEqual(['b', 'a', 'c']);
    expect(list({ k: '  ' }, 'k')).toBeUndefined();
    expect(list({ k: ' , ' }, 'k')).toStrictEqual([]);
  });

  it.each([
    { value: 'a=1, ,b=2', expected: { a: '1', b: '2' } },
    { value: 'a=', expected: { a: '' } },
    { value: ' a = x=y ', expected: { a: 'x=y' } },
  ])('keyValues($value)', ({ value, expected }) => {
    expect(keyValues({ k: value }, 'k')).toStrictEqual(expected);
  });

  it.each(['abc', 'a=1,b', '=v', 'a=1, =v'])('keyValues refuses %s', (value) => {
    expect(refused(() => keyValues({ k: value }, 'k'))).toStrictEqual(
      bad('k', value, 'must be a comma-separated list of key=value pairs'),
    );
  });

  it('resourceIds accepts IDs of the prefix (8 to 17 hex digits)', () => {
    expect(resourceIds({ k: 'subnet-0123abcd, subnet-0123456789abcdef0' }, 'k', 'subnet')).toStrictEqual([
      'subnet-0123abcd',
      'subnet-0123456789abcdef0',
    ]);
    expect(resourceIds({ k: 'sg-0123abcd' }, 'k', 'sg')).toStrictEqual(['sg-0123abcd']);
    expect(resourceIds({}, 'k', 'sg')).toBeUndefined();
  });

  it.each([
    { value: 'subnet-0123abc', id: 'subnet-0123abc' },
    { value: 'subnet-0123456789abcdef01', id: 'subnet-0123456789abcdef01' },
    { value: 'subnet-0123abcd,my-subnet', id: 'my-subnet' },
    { value: 'xsubnet-0123abcd', id: 'xsubnet-0123abcd' },
    { value: 'subnet-0123abcdx', id: 'subnet-0123abcdx' },
    { value: 'sg-0123abcd', id: 'sg-0123abcd' },
  ])('resourceIds refuses $id as a subnet', ({ value, id }) => {
    expect(refused(() => resourceIds({ k: value }, 'k', 'subnet'))).toStrictEqual(
      bad('k', id, 'is not a subnet ID (subnet-<hex>); names are not resolved by this provider'),
    );
  });

  it('resourceIds refuses a list with no IDs', () => {
    expect(refused(() => resourceIds({ k: ' , ' }, 'k', 'sg'))).toStrictEqual(bad('k', ',', 'lists no IDs'));
  });
});

describe('load balancer annotations', () => {
  it.each(['a', 'my-lb', 'A1-b2', 'x'.repeat(32), 'my-internal-lb'])('accepts the name %s', (name) => {
    expect(checkLoadBalancerName('key', name)).toBe(name);
  });

  it('refuses a name longer than 32 characters as LimitExceeded', () => {
    const name = 'x'.repeat(33);
    expect(refused(() => checkLoadBalancerName('key', name))).toStrictEqual({
      message: `annotation key: "${name}" is 33 characters; ELBv2 names allow at most 32`,
      field: 'key',
      reason: 'LimitExceeded',
    });
  });

  it.each(['-ab', 'ab-', 'a_b', 'a b', 'internal-lb', 'Internal-LB', '-'])('refuses the name %s', (name) => {
    expect(refused(() => checkLoadBalancerName('key', name))).toStrictEqual(
      bad(
        'key',
        name,
        'must be alphanumerics and hyphens, not start or end with "-", not start with "internal-"',
      ),
    );
  });

  it('user tags: key=value pairs within the tag limits', () => {
    const tags = { team: 'a', ['k'.repeat(128)]: 'v'.repeat(256) };
    const value = Object.entries(tags)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    expect(userTags({ t: value }, 't')).toStrictEqual(tags);
    expect(userTags({}, 't')).toBeUndefined();
  });

  it.each([
    { value: `${'k'.repeat(129)}=v`, key: 'k'.repeat(129) },
    { value: `k=${'v'.repeat(257)}`, key: 'k' },
  ])('user tags refuse a tag over the limits', ({ value, key }) => {
    expect(refused(() => userTags({ t: value }, 't'))).toStrictEqual(
      bad('t', key, 'exceeds the tag length limits (key 128, value 256)'),
    );
  });

  it.each([
    { key: 'multicluster.karmada.io/owner', owner: 'this provider’s ownership tags' },
    { key: 'elbv2.k8s.aws/cluster', owner: 'another controller’s ownership tags, elbv2.k8s.aws/*' },
    { key: 'aws:cloudformation:stack-name', owner: 'AWS’s own' },
  ])('user tags refuse the reserved key $key', ({ key, owner }) => {
    expect(refused(() => userTags({ t: `a=1,${key}=x` }, 't'))).toStrictEqual(
      bad('t', key, `is a reserved tag key (${owner})`),
    );
  });

  it('stack user tags: the defaults, overridden by the annotation', () => {
    expect(stackUserTags({ team: 'x', env: 'prod' }, { team: 'y' }, ['cost-center'], 'k')).toStrictEqual({
      team: 'y',
      env: 'prod',
    });
    expect(stackUserTags({ team: 'x' }, undefined, undefined, 'k')).toStrictEqual({ team: 'x' });
    expect(stackUserTags({}, { a: '1' }, undefined, 'k')).toStrictEqual({ a: '1' });
  });

  it('stack user tags refuse a key another tool manages', () => {
    expect(
      refused(() => stackUserTags({}, { a: '1', 'cost-center': 'x' }, ['cost-center'], 'k')),
    ).toStrictEqual(bad('k', 'cost-center', 'is an external managed tag key'));
  });

  it('parses every load balancer annotation', () => {
    expect(
      parseLoadBalancerAnnotations(
        {
          [NLB_KEYS.scheme]: 'Internet-facing',
          [NLB_KEYS.subnets]: 'subnet-0123abcd,subnet-4567abcd',
          [NLB_KEYS.securityGroups]: 'sg-0123abcd',
          [NLB_KEYS.name]: ' edge ',
          [NLB_KEYS.tags]: 'team=a',
        },
        NLB_KEYS,
      ),
    ).toStrictEqual({
      scheme: 'internet-facing',
      subnets: ['subnet-0123abcd', 'subnet-4567abcd'],
      securityGroups: ['sg-0123abcd'],
      name: 'edge',
      tags: { team: 'a' },
    });
    expect(parseLoadBalancerAnnotations({ other: 'x' }, ALB_KEYS)).toStrictEqual({});
  });

  it('names the annotation of a bad name, subnet or security group', () => {
    expect(refused(() => parseLoadBalancerAnnotations({ [ALB_KEYS.name]: 'a_b' }, ALB_KEYS)).field).toBe(
      ALB_KEYS.name,
    );
    expect(
      refused(() => parseLoadBalancerAnnotations({ [ALB_KEYS.subnets]: 'subnet-0123abcdx' }, ALB_KEYS)),
    ).toMatchObject({
      field: ALB_KEYS.subnets,
      message: expect.stringContaining('is not a subnet ID (subnet-<hex>) nor a name'),
    });
    // Names (the Name tag) are taken as LBC takes them, resolved by model/subnets.ts.
    expect(
      parseLoadBalancerAnnotations({ [ALB_KEYS.subnets]: 'public-a, subnet-0123abcd' }, ALB_KEYS).subnets,
    ).toStrictEqual(['public-a', 'subnet-0123abcd']);
    expect(
      refused(() => parseLoadBalancerAnnotations({ [ALB_KEYS.subnets]: ' , ' }, ALB_KEYS)).message,
    ).toContain('lists no subnets');
    expect(
      refused(() => parseLoadBalancerAnnotations({ [ALB_KEYS.securityGroups]: 'subnet-0123abcd' }, ALB_KEYS)),
    ).toMatchObject({ field: ALB_KEYS.securityGroups, message: expect.stringContaining('is not a sg ID') });
  });
});

describe('health check annotations', () => {
  const H = ALB_KEYS.healthCheck;
  const N = NLB_KEYS.healthCheck;

  it('ALB: every annotation overrides the configured default', () => {
    expect(
      albHealthCheck(
        {
          [H.path]: '/healthz',
          [H.port]: '8080',
          [H.protocol]: 'https',
          [H.interval]: '30',
          [H.timeout]: '10',
          [H.healthyThreshold]: '4',
          [H.unhealthyThreshold]: '6',
          [H.successCodes]: '200-299',
        },
        ALB_KEYS,
        DEFAULT_HEALTH_CHECK,
      ),
    ).toStrictEqual({
      enabled: true,
      path: '/healthz',
      port: '8080',
      protocol: 'HTTPS',
      intervalSeconds: 30,
      timeoutSeconds: 10,
      healthyThresholdCount: 4,
      unhealthyThresholdCount: 6,
      matcher: { httpCode: '200-299' },
    });
  });

  it('ALB: the configured defaults when no annotation is set (a numeric port as a string)', () => {
    expect(
      albHealthCheck({}, ALB_KEYS, {
        ...DEFAULT_HEALTH_CHECK,
        path: '/ping',
        port: 9000,
        protocol: 'HTTPS',
        intervalSeconds: 20,
        timeoutSeconds: 7,
        healthyThresholdCount: 3,
        unhealthyThresholdCount: 4,
        matcher: '200,204',
      }),
    ).toStrictEqual({
      enabled: true,
      path: '/ping',
      port: '9000',
      protocol: 'HTTPS',
      intervalSeconds: 20,
      timeoutSeconds: 7,
      healthyThresholdCount: 3,
      unhealthyThresholdCount: 4,
      matcher: { httpCode: '200,204' },
    });
  });

  it.each(['traffic-port', '1', '65535', '80', 'http', 'a80', '80a', 'metrics-1', 'x'.repeat(15)])(
    'ALB accepts the port %s (a name is a port of the backend Service)',
    (port) => {
      expect(albHealthCheck({ [H.port]: port }, ALB_KEYS, DEFAULT_HEALTH_CHECK).port).toBe(port);
    },
  );

  it.each(['0', '65536', '-1', 'Http', 'a--b', '-a', 'a-', 'a_b', 'x'.repeat(16)])(
    'ALB refuses the port %s',
    (port) => {
      expect(refused(() => albHealthCheck({ [H.port]: port }, ALB_KEYS, DEFAULT_HEALTH_CHECK))).toStrictEqual(
        bad(
          H.port,
          port,
          'must be "traffic-port", a port number or the name of a port of the backend Service',
        ),
      );
    },
  );

  it.each(['0', '65536', 'http', '80a', '-1'])('NLB refuses the port %s', (port) => {
    expect(refused(() => nlbHealthCheck({ [N.port]: port }, NLB_KEYS))).toStrictEqual(
      bad(N.port, port, 'must be "traffic-port" or a port number'),
    );
  });

  it.each(['/', '/a/b', `/${'p'.repeat(1023)}`])('accepts a path of %#', (path) => {
    expect(albHealthCheck({ [H.path]: path }, ALB_KEYS, DEFAULT_HEALTH_CHECK).path).toBe(path);
  });

  it.each(['healthz', 'x/', `/${'p'.repeat(1024)}`])('refuses the path %#', (path) => {
    expect(refused(() => albHealthCheck({ [H.path]: path }, ALB_KEYS, DEFAULT_HEALTH_CHECK))).toStrictEqual(
      bad(H.path, path, 'must be a path starting with "/"'),
    );
  });

  it.each(['200', '200-399', '200,201', '200-399,404-410', '200,201,202'])(
    'accepts the codes %s',
    (codes) => {
      expect(
        albHealthCheck({ [H.successCodes]: codes }, ALB_KEYS, DEFAULT_HEALTH_CHECK).matcher,
      ).toStrictEqual({
        httpCode: codes,
      });
    },
  );

  it.each(['20', '2000', 'x200', '200x', '200-', '200-39', '200,', '200,2', '200,2000', '200-399,40', 'ok'])(
    'refuses the codes %s',
    (codes) => {
      expect(
        refused(() => albHealthCheck({ [H.successCodes]: codes }, ALB_KEYS, DEFAULT_HEALTH_CHECK)),
      ).toStrictEqual(bad(H.successCodes, codes, 'must be HTTP codes like "200", "200,201" or "200-399"'));
    },
  );

  it.each([
    { key: 'interval' as const, min: 5, max: 300 },
    { key: 'timeout' as const, min: 2, max: 120 },
    { key: 'healthyThreshold' as const, min: 2, max: 10 },
    { key: 'unhealthyThreshold' as const, min: 2, max: 10 },
  ])('$key: $min..$max for ALB and NLB', ({ key, min, max }) => {
    for (const [keys, build] of [
      [ALB_KEYS, (a: Record<string, string>) => albHealthCheck(a, ALB_KEYS, DEFAULT_HEALTH_CHECK)],
      [NLB_KEYS, (a: Record<string, string>) => nlbHealthCheck(a, NLB_KEYS)],
    ] as const) {
      const k = keys.healthCheck[key];
      expect(Object.values(build({ [k]: String(min) }))).toContain(min);
      expect(Object.values(build({ [k]: String(max) }))).toContain(max);
      for (const v of [min - 1, max + 1]) {
        expect(refused(() => build({ [k]: String(v) }))).toStrictEqual(
          bad(k, String(v), `must be an integer from ${min} to ${max}`),
        );
      }
    }
  });

  it('ALB: the protocol is HTTP or HTTPS only', () => {
    expect(
      refused(() => albHealthCheck({ [H.protocol]: 'TCP' }, ALB_KEYS, DEFAULT_HEALTH_CHECK)),
    ).toStrictEqual(bad(H.protocol, 'TCP', 'must be one of HTTP, HTTPS'));
  });

  it('NLB: a TCP check has neither path nor codes, and does not read them', () => {
    expect(
      nlbHealthCheck({ [N.path]: 'not-a-path', [N.successCodes]: 'x', [N.port]: '8080' }, NLB_KEYS),
    ).toStrictEqual({
      enabled: true,
      port: '8080',
      protocol: 'TCP',
      intervalSeconds: 10,
      timeoutSeconds: 10,
      healthyThresholdCount: 3,
      unhealthyThresholdCount: 3,
    });
  });

  it('NLB: an HTTPS check reads path and codes', () => {
    expect(
      nlbHealthCheck(
        {
          [N.protocol]: 'HTTPS',
          [N.path]: '/ready',
          [N.successCodes]: '200',
          [N.interval]: '30',
          [N.timeout]: '6',
          [N.healthyThreshold]: '2',
          [N.unhealthyThreshold]: '5',
        },
        NLB_KEYS,
      ),
    ).toStrictEqual({
      enabled: true,
      path: '/ready',
      port: 'traffic-port',
      protocol: 'HTTPS',
      intervalSeconds: 30,
      timeoutSeconds: 6,
      healthyThresholdCount: 2,
      unhealthyThresholdCount: 5,
      matcher: { httpCode: '200' },
    });
    expect(refused(() => nlbHealthCheck({ [N.protocol]: 'HTTP', [N.path]: 'x' }, NLB_KEYS)).field).toBe(
      N.path,
    );
    expect(refused(() => nlbHealthCheck({ [N.protocol]: 'UDP' }, NLB_KEYS))).toStrictEqual(
      bad(N.protocol, 'UDP', 'must be one of TCP, HTTP, HTTPS'),
    );
  });
});

describe('attribute annotations', () => {
  const A = ALB_KEYS.loadBalancerAttributes;
  const N = NLB_KEYS.loadBalancerAttributes;
  const annotation = (attrs: Record<string, string>) =>
    Object.entries(attrs)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
  const alb = (value: string) => loadBalancerAttributes({ [A]: value }, ALB_KEYS, 'application');

  /** Every key ALB documents (API_LoadBalancerAttribute, SDK 3.1142.0), with a value it takes. */
  const EVERY_ALB_ATTRIBUTE = {
    'access_logs.s3.enabled': 'true',
    'access_logs.s3.bucket': 'my-logs',
    'access_logs.s3.prefix': 'alb',
    'connection_logs.s3.enabled': 'true',
    'connection_logs.s3.bucket': 'my.conn-logs',
    'connection_logs.s3.prefix': '',
    'health_check_logs.s3.enabled': 'false',
    'health_check_logs.s3.bucket': 'hc1',
    'health_check_logs.s3.prefix': 'a/b',
    'deletion_protection.enabled': 'true',
    'ipv6.deny_all_igw_traffic': 'false',
    'zonal_shift.config.enabled': 'true',
    'load_balancing.cross_zone.enabled': 'true',
    'idle_timeout.timeout_seconds': '4000',
    'client_keep_alive.seconds': '60',
    'routing.http.desync_mitigation_mode': 'strictest',
    'routing.http.drop_invalid_header_fields.enabled': 'true',
    'routing.http.preserve_host_header.enabled': 'false',
    'routing.http.x_amzn_tls_version_and_cipher_suite.enabled': 'true',
    'routing.http.xff_client_port.enabled': 'true',
    'routing.http.xff_header_processing.mode': 'remove',
    'routing.http2.enabled': 'false',
    'waf.fail_open.enabled': 'true',
  };
  const EVERY_NLB_ATTRIBUTE = {
    'access_logs.s3.enabled': 'false',
    'access_logs.s3.bucket': 'nlb-logs',
    'access_logs.s3.prefix': 'x',
    'deletion_protection.enabled': 'false',
    'ipv6.deny_all_igw_traffic': 'true',
    'zonal_shift.config.enabled': 'false',
    'load_balancing.cross_zone.enabled': 'false',
    'dns_record.client_routing_policy': 'partial_availability_zone_affinity',
    'secondary_ips.auto_assigned.per_subnet': '7',
  };

  it.each([
    ['application', ALB_KEYS, EVERY_ALB_ATTRIBUTE],
    ['network', NLB_KEYS, EVERY_NLB_ATTRIBUTE],
  ] as const)(
    'every documented %s load balancer attribute is accepted, and only those',
    (type, keys, attrs) => {
      expect(
        loadBalancerAttributes({ [keys.loadBalancerAttributes]: annotation(attrs) }, keys, type),
      ).toStrictEqual(attrs);
      expect([...LOAD_BALANCER_ATTRIBUTE_KEYS[type]].sort()).toStrictEqual(Object.keys(attrs).sort());
    },
  );

  const EVERY_HTTP_TG_ATTRIBUTE = {
    'deregistration_delay.timeout_seconds': '0',
    'stickiness.enabled': 'true',
    'stickiness.type': 'app_cookie',
    'stickiness.lb_cookie.duration_seconds': '604800',
    'stickiness.app_cookie.cookie_name': 'SESSION_id-1.x',
    'stickiness.app_cookie.duration_seconds': '1',
    'slow_start.duration_seconds': '30',
    'load_balancing.algorithm.type': 'least_outstanding_requests',
    'load_balancing.algorithm.anomaly_mitigation': 'on',
    'load_balancing.cross_zone.enabled': 'use_load_balancer_configuration',
    'target_group_health.dns_failover.minimum_healthy_targets.count': 'off',
    'target_group_health.dns_failover.minimum_healthy_targets.percentage': '100',
    'target_group_health.unhealthy_state_routing.minimum_healthy_targets.count': '1',
    'target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage': 'off',
  };
  const EVERY_TCP_TG_ATTRIBUTE = {
    'deregistration_delay.timeout_seconds': '3600',
    'deregistration_delay.connection_termination.enabled': 'true',
    'stickiness.enabled': 'false',
    'stickiness.type': 'source_ip',
    'proxy_protocol_v2.enabled': 'true',
    'preserve_client_ip.enabled': 'false',
    'load_balancing.cross_zone.enabled': 'true',
    'target_health_state.unhealthy.connection_termination.enabled': 'false',
    'target_health_state.unhealthy.draining_interval_seconds': '360000',
    'target_group_health.dns_failover.minimum_healthy_targets.count': '1000',
    'target_group_health.dns_failover.minimum_healthy_targets.percentage': 'off',
    'target_group_health.unhealthy_state_routing.minimum_healthy_targets.count': '1000',
    'target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage': '1',
  };

  it.each([
    ['HTTP', ALB_KEYS, EVERY_HTTP_TG_ATTRIBUTE],
    ['TCP', NLB_KEYS, EVERY_TCP_TG_ATTRIBUTE],
  ] as const)(
    'every documented %s target group attribute is accepted, and only those',
    (family, keys, attrs) => {
      expect(
        targetGroupAttributes({ [keys.targetGroupAttributes]: annotation(attrs) }, keys, family),
      ).toStrictEqual(attrs);
      expect([...TARGET_GROUP_ATTRIBUTE_KEYS[family]].sort()).toStrictEqual(Object.keys(attrs).sort());
    },
  );

  it('no annotation: no attributes', () => {
    expect(loadBalancerAttributes({}, ALB_KEYS, 'application')).toBeUndefined();
    expect(targetGroupAttributes({}, NLB_KEYS, 'TCP')).toBeUndefined();
  });

  it.each(['true', 'false', 'use_load_balancer_configuration'])('target group cross-zone accepts %s', (v) => {
    expect(
      targetGroupAttributes(
        { [NLB_KEYS.targetGroupAttributes]: `load_balancing.cross_zone.enabled=${v}` },
        NLB_KEYS,
        'TCP',
      ),
    ).toStrictEqual({ 'load_balancing.cross_zone.enabled': v });
  });

  it.each<[string, string]>([
    ['deletion_protection.enabled=yes', 'must be true or false'],
    ['deletion_protection.enabled=TRUE', 'must be true or false'],
    ['deletion_protection.enabled=', 'must be true or false'],
    ['waf.fail_open.enabled=use_load_balancer_configuration', 'must be true or false'],
    ['zonal_shift.config.enabled=1', 'must be true or false'],
    ['idle_timeout.timeout_seconds=abc', 'must be a whole number of seconds from 1 to 4000'],
    ['idle_timeout.timeout_seconds=1a', 'must be a whole number of seconds from 1 to 4000'],
    ['idle_timeout.timeout_seconds=', 'must be a whole number of seconds from 1 to 4000'],
    ['idle_timeout.timeout_seconds=0', 'must be a whole number of seconds from 1 to 4000'],
    ['idle_timeout.timeout_seconds=4001', 'must be a whole number of seconds from 1 to 4000'],
    ['client_keep_alive.seconds=1.5', 'must be a whole number of seconds from 60 to 604800'],
    ['client_keep_alive.seconds=59', 'must be a whole number of seconds from 60 to 604800'],
    ['routing.http.desync_mitigation_mode=strict', 'must be one of monitor, defensive, strictest'],
    ['routing.http.xff_header_processing.mode=Append', 'must be one of append, preserve, remove'],
    ['access_logs.s3.bucket=My_Bucket', 'must be an S3 bucket name'],
    ['connection_logs.s3.bucket=ab', 'must be an S3 bucket name'],
    ['health_check_logs.s3.bucket=-logs', 'must be an S3 bucket name'],
    ['load_balancing.cross_zone.enabled=false', 'cannot be changed on an ALB (always true)'],
  ])('ALB refuses %s', (pair, why) => {
    expect(refused(() => alb(pair))).toStrictEqual(bad(A, pair, why));
  });

  it.each<[string, string, string]>([
    [
      NLB_KEYS.loadBalancerAttributes,
      'secondary_ips.auto_assigned.per_subnet=8',
      'must be a whole number from 0 to 7',
    ],
    [
      NLB_KEYS.loadBalancerAttributes,
      'dns_record.client_routing_policy=any',
      'must be one of availability_zone_affinity, partial_availability_zone_affinity, any_availability_zone',
    ],
  ])('NLB refuses %s', (key, pair, why) => {
    expect(refused(() => loadBalancerAttributes({ [key]: pair }, NLB_KEYS, 'network'))).toStrictEqual(
      bad(key, pair, why),
    );
  });

  it.each<[string, string]>([
    ['slow_start.duration_seconds=29', 'must be 0 or a whole number of seconds from 30 to 900'],
    ['stickiness.type=source_ip', 'must be one of lb_cookie, app_cookie'],
    ['stickiness.app_cookie.cookie_name=a b', 'must be a cookie name (letters, digits, "_", ".", "-")'],
    [
      'load_balancing.algorithm.type=random',
      'must be one of round_robin, least_outstanding_requests, weighted_random',
    ],
    ['deregistration_delay.timeout_seconds=3601', 'must be a whole number of seconds from 0 to 3600'],
    [
      'target_group_health.dns_failover.minimum_healthy_targets.percentage=0',
      'must be off or a whole number from 1 to 100',
    ],
  ])('ALB target groups refuse %s', (pair, why) => {
    const key = ALB_KEYS.targetGroupAttributes;
    expect(refused(() => targetGroupAttributes({ [key]: pair }, ALB_KEYS, 'HTTP'))).toStrictEqual(
      bad(key, pair, why),
    );
  });

  it.each(['access_logs', 'connection_logs', 'health_check_logs'])(
    'an enabled %s log needs its bucket in the annotation',
    (log) => {
      expect(refused(() => alb(`${log}.s3.enabled=true,${log}.s3.prefix=p`))).toStrictEqual(
        bad(A, `${log}.s3.enabled=true`, `needs ${log}.s3.bucket in the same annotation`),
      );
      expect(alb(`${log}.s3.enabled=false`)).toStrictEqual({ [`${log}.s3.enabled`]: 'false' });
    },
  );

  it('an unknown attribute is refused with the list of supported ones, naming the annotation', () => {
    expect(
      refused(() => loadBalancerAttributes({ [N]: 'routing.http2.enabled=true' }, NLB_KEYS, 'network')),
    ).toStrictEqual(
      bad(
        N,
        'routing.http2.enabled',
        `is not a supported attribute (${LOAD_BALANCER_ATTRIBUTE_KEYS.network.join(', ')})`,
      ),
    );
    expect(refused(() => alb('zonal_shift.enabled=true')).message).toMatch(
      /^annotation alb\.ingress\.kubernetes\.io\/load-balancer-attributes: "zonal_shift\.enabled" is not a supported attribute \(access_logs\.s3\.enabled, /,
    );
  });
});

describe('listener annotations', () => {
  const LP = ALB_KEYS.listenPorts;
  const withCert = (a: Record<string, string>) => ({ [ALB_KEYS.certificates]: CERT, ...a });

  it('certificates: HTTPS:443 by default, the first certificate the default one, LBC’s policy', () => {
    expect(
      albListeners({ [ALB_KEYS.certificates]: `${CERT}, ${IAM_CERT},${GOV_CERT}` }, ALB_KEYS),
    ).toStrictEqual({
      listeners: [{ port: 443, protocol: 'HTTPS' }],
      tls: { certificates: [CERT, IAM_CERT, GOV_CERT], sslPolicy: 'ELBSecurityPolicy-2016-08' },
    });
  });

  it('an explicit security policy', () => {
    expect(
      albListeners(withCert({ [ALB_KEYS.sslPolicy]: 'ELBSecurityPolicy-TLS13-1-2-2021-06' }), ALB_KEYS).tls,
    ).toStrictEqual({ certificates: [CERT], sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06' });
  });

  it.each([
    'Custom',
    'xELBSecurityPolicy-1',
    'ELBSecurityPolicy-',
    'ELBSecurityPolicy-1 x',
    'ELBSecurityPolicy-a_b',
  ])('refuses the policy %s, even without certificates', (policy) => {
    expect(refused(() => albListeners({ [ALB_KEYS.sslPolicy]: policy }, ALB_KEYS))).toStrictEqual(
      bad(ALB_KEYS.sslPolicy, policy, 'is not an ELBv2 security policy name (ELBSecurityPolicy-...)'),
    );
  });

  it.each([
    'arn:aws:acm:us-east-1:12345678901:certificate/abc',
    'xarn:aws:acm:us-east-1:123456789012:certificate/abc',
    'arn:aws:acm:us-east-1:123456789012:certificate/',
    'arn:aws:iam::12345678901a:server-certificate/x',
    'arn:aws:iam::123456789012:certificate/x',
    'arn:aws:acm:us-east-1:123456789012:certificate/abc\nx',
    'arn:aws1:acm:us-east-1:123456789012:certificate/abc',
  ])('refuses the certificate %j', (arn) => {
    expect(
      refused(() => albListeners({ [ALB_KEYS.certificates]: `${CERT},${arn}` }, ALB_KEYS)),
    ).toStrictEqual(bad(ALB_KEYS.certificates, arn, 'is not an ACM or IAM certificate ARN'));
  });

  it('a policy without certificates gives no TLS settings', () => {
    expect(albListeners({ [ALB_KEYS.sslPolicy]: 'ELBSecurityPolicy-2016-08' }, ALB_KEYS)).toStrictEqual({
      listeners: [{ port: 80, protocol: 'HTTP' }],
    });
  });

  it('listen-ports: de-duplicated, sorted by port, from 1 to 65535', () => {
    expect(
      albListeners(withCert({ [LP]: '[{"HTTPS":65535},{"HTTP":8080},{"HTTP":1},{"HTTP":8080}]' }), ALB_KEYS)
        .listeners,
    ).toStrictEqual([
      { port: 1, protocol: 'HTTP' },
      { port: 8080, protocol: 'HTTP' },
      { port: 65535, protocol: 'HTTPS' },
    ]);
  });

  it.each([
    { value: 'not json', why: 'must be JSON like [{"HTTP": 80}, {"HTTPS": 443}]' },
    { value: '{"HTTP":80}', why: 'must be a non-empty JSON array' },
    { value: '[]', why: 'must be a non-empty JSON array' },
    { value: '[80]', why: 'entries must be objects with one "HTTP" or "HTTPS" key' },
    { value: '[null]', why: 'entries must be objects with one "HTTP" or "HTTPS" key' },
    { value: '[{}]', why: 'entries must be objects with one "HTTP" or "HTTPS" key' },
    { value: '[{"HTTP":80,"HTTPS":443}]', why: 'entries must be objects with one "HTTP" or "HTTPS" key' },
    { value: '["H"]', why: 'entries must be objects with one "HTTP" or "HTTPS" key' },
    { value: '[{"FTP":21}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"http":80}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"HTTP":0}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"HTTP":65536}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"HTTP":80.5}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"HTTP":"80"}]', why: 'entries must map "HTTP" or "HTTPS" to a port number' },
    { value: '[{"HTTP":8443},{"HTTPS":8443}]', why: 'port 8443 is both HTTP and HTTPS' },
  ])('listen-ports refuses $value', ({ value, why }) => {
    expect(refused(() => albListeners(withCert({ [LP]: value }), ALB_KEYS))).toStrictEqual(
      bad(LP, value, why),
    );
  });

  it.each<{ annotations: Record<string, string>; value: string }>([
    { annotations: { [LP]: '[{"HTTP":80},{"HTTPS":443}]' }, value: '' },
    { annotations: { [LP]: '[{"HTTPS":443}]', [ALB_KEYS.certificates]: ' , ' }, value: ',' },
  ])('HTTPS listen-ports without certificates discover them in ACM ($value)', ({ annotations }) => {
    expect(albListeners(annotations, ALB_KEYS).tls).toStrictEqual({
      certificates: [],
      sslPolicy: 'ELBSecurityPolicy-2016-08',
      discover: true,
    });
    expect(wantsCertificateDiscovery(annotations, ALB_KEYS)).toBe(true);
    expect(wantsCertificateDiscovery({ ...annotations, [ALB_KEYS.certificates]: CERT }, ALB_KEYS)).toBe(
      false,
    );
    expect(wantsCertificateDiscovery({ [LP]: '[{"HTTP":80}]' }, ALB_KEYS)).toBe(false);
    expect(wantsCertificateDiscovery({ [LP]: 'not json' }, ALB_KEYS)).toBe(false);
  });

  it('ssl-redirect names the HTTPS port HTTP listeners redirect to', () => {
    expect(
      albListeners(
        withCert({ [LP]: '[{"HTTP":80},{"HTTPS":8443}]', [ALB_KEYS.sslRedirect]: '8443' }),
        ALB_KEYS,
      ),
    ).toStrictEqual({
      listeners: [
        { port: 80, protocol: 'HTTP' },
        { port: 8443, protocol: 'HTTPS' },
      ],
      tls: { certificates: [CERT], sslPolicy: 'ELBSecurityPolicy-2016-08' },
      sslRedirectPort: 8443,
    });
  });

  it.each(['443', '80', 'https'])('ssl-redirect refuses %s when it is not an HTTPS listen-port', (port) => {
    expect(
      refused(() =>
        albListeners(
          withCert({ [LP]: '[{"HTTP":80},{"HTTPS":8443}]', [ALB_KEYS.sslRedirect]: port }),
          ALB_KEYS,
        ),
      ),
    ).toStrictEqual(bad(ALB_KEYS.sslRedirect, port, 'must name one of the HTTPS listen-ports'));
  });

  it('NLB TLS: the ssl-ports, every port by default', () => {
    expect(
      nlbTls({ [NLB_KEYS.certificates]: CERT, [NLB_KEYS.sslPorts]: '443, https' }, NLB_KEYS),
    ).toStrictEqual({
      certificates: [CERT],
      sslPolicy: 'ELBSecurityPolicy-2016-08',
      ports: ['443', 'https'],
    });
    expect(nlbTls({ [NLB_KEYS.certificates]: CERT }, NLB_KEYS)).toStrictEqual({
      certificates: [CERT],
      sslPolicy: 'ELBSecurityPolicy-2016-08',
      ports: ['*'],
    });
    expect(
      nlbTls({ [NLB_KEYS.certificates]: CERT, [NLB_KEYS.sslPorts]: ',' }, NLB_KEYS)?.ports,
    ).toStrictEqual(['*']);
    expect(nlbTls({ [NLB_KEYS.sslPorts]: ',' }, NLB_KEYS)).toBeUndefined();
  });

  it('NLB TLS: ssl-ports without a certificate are refused', () => {
    expect(refused(() => nlbTls({ [NLB_KEYS.sslPorts]: '443 ' }, NLB_KEYS))).toStrictEqual(
      bad(NLB_KEYS.sslPorts, '443', `needs ${NLB_KEYS.certificates}`),
    );
  });
});
