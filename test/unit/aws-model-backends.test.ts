/**
 * ALB target groups as LBC builds them (pkg/ingress/model_build_target_group.go): backend protocol
 * and version with their health-check defaults, target type, the backend Service's annotations
 * over the MultiClusterIngress's, and ipv6 groups behind a dualstack ALB. Exact shapes throughout.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, MultiClusterIngress, Service } from '../../lib/karmada/types.js';
import { DEFAULT_HEALTH_CHECK } from '../../lib/providers/aws/index.js';
import { ALB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import {
  albTargetGroupSettings,
  serviceOverrides,
  targetGroupKeys,
} from '../../lib/providers/aws/model/annotations/target-group.js';
import { buildIngressStack, type IngressStackInput } from '../../lib/providers/aws/model/ingress.js';
import { formatIPv6, inCidr6, isRegistrableIPv6, parseIPv6 } from '../../lib/providers/aws/model/ip.js';
import {
  resourcesOf,
  ResourceTypes,
  type Stack,
  type TargetGroupResource,
} from '../../lib/providers/aws/model/types.js';
import { targetGroupName } from '../../lib/providers/aws/naming.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { bad, refused } from '../support/invalid-object.js';

const K = ALB_KEYS;
const H = K.healthCheck;
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/grpc';

const targetGroups = (stack: Stack): TargetGroupResource[] => resourcesOf(stack, ResourceTypes.TargetGroup);
const settings = (a: Record<string, string>) => albTargetGroupSettings(a, K, DEFAULT_HEALTH_CHECK);

const HTTP_CHECK = {
  enabled: true,
  path: '/',
  port: 'traffic-port',
  protocol: 'HTTP',
  intervalSeconds: 15,
  timeoutSeconds: 5,
  healthyThresholdCount: 2,
  unhealthyThresholdCount: 2,
  matcher: { httpCode: '200' },
} as const;

describe('backend protocol, version and target type', () => {
  it('no annotation: HTTP/1.1, LBC’s HTTP health check, no attributes, no target type asked', () => {
    expect(settings({})).toStrictEqual({
      protocol: 'HTTP',
      protocolVersion: 'HTTP1',
      healthCheck: HTTP_CHECK,
      attributes: undefined,
      targetType: undefined,
    });
  });

  it('HTTPS: the health check follows the backend protocol, as in LBC', () => {
    expect(settings({ [K.backendProtocol]: 'HTTPS' })).toStrictEqual({
      protocol: 'HTTPS',
      protocolVersion: 'HTTP1',
      healthCheck: { ...HTTP_CHECK, protocol: 'HTTPS' },
      attributes: undefined,
      targetType: undefined,
    });
    // An explicit health-check protocol still wins.
    expect(settings({ [K.backendProtocol]: 'HTTPS', [H.protocol]: 'HTTP' }).healthCheck.protocol).toBe(
      'HTTP',
    );
    // An explicit HTTP backend protocol overrides a configured HTTPS default, as LBC's HTTP default would.
    expect(
      albTargetGroupSettings({ [K.backendProtocol]: 'HTTP' }, K, {
        ...DEFAULT_HEALTH_CHECK,
        protocol: 'HTTPS',
      }).healthCheck.protocol,
    ).toBe('HTTP');
    expect(
      albTargetGroupSettings({}, K, { ...DEFAULT_HEALTH_CHECK, protocol: 'HTTPS' }).healthCheck.protocol,
    ).toBe('HTTPS');
  });

  it('GRPC: LBC’s gRPC health check, /AWS.ALB/healthcheck for gRPC code 12', () => {
    expect(settings({ [K.backendProtocolVersion]: 'GRPC' })).toStrictEqual({
      protocol: 'HTTP',
      protocolVersion: 'GRPC',
      healthCheck: { ...HTTP_CHECK, path: '/AWS.ALB/healthcheck', matcher: { grpcCode: '12' } },
      attributes: undefined,
      targetType: undefined,
    });
    expect(
      settings({
        [K.backendProtocolVersion]: 'GRPC',
        [H.path]: '/grpc.health.v1.Health/Check',
        [H.successCodes]: '0',
      }).healthCheck,
    ).toStrictEqual({ ...HTTP_CHECK, path: '/grpc.health.v1.Health/Check', matcher: { grpcCode: '0' } });
  });

  it('HTTP2 keeps the HTTP health check', () => {
    expect(settings({ [K.backendProtocolVersion]: 'http2', [K.backendProtocol]: 'https' })).toStrictEqual({
      protocol: 'HTTPS',
      protocolVersion: 'HTTP2',
      healthCheck: { ...HTTP_CHECK, protocol: 'HTTPS' },
      attributes: undefined,
      targetType: undefined,
    });
  });

  it.each(['0', '12', '0-99', '0,12', '1-2,4,99'])('GRPC accepts the codes %s', (codes) => {
    expect(
      settings({ [K.backendProtocolVersion]: 'GRPC', [H.successCodes]: codes }).healthCheck.matcher,
    ).toStrictEqual({
      grpcCode: codes,
    });
  });

  it.each(['200', '100', '12-', 'x', '1,,2'])('GRPC refuses the codes %s', (codes) => {
    expect(
      refused(() => settings({ [K.backendProtocolVersion]: 'GRPC', [H.successCodes]: codes })),
    ).toStrictEqual(
      bad(
        H.successCodes,
        codes,
        'must be gRPC status codes from 0 to 99 like "12", "0,12" or "0-99" (backend-protocol-version GRPC)',
      ),
    );
  });

  it.each<[string, string, string]>([
    [K.backendProtocol, 'TCP', 'must be one of HTTP, HTTPS'],
    [K.backendProtocolVersion, 'HTTP3', 'must be one of HTTP1, HTTP2, GRPC'],
    [K.targetType, 'lambda', 'must be one of ip, instance'],
  ])('%s refuses %s', (key, value, why) => {
    expect(refused(() => settings({ [key]: value }))).toStrictEqual(bad(key, value, why));
  });

  it.each(['ip', 'instance'] as const)(
    'target-type %s is read (instance is reported, targets stay ip)',
    (t) => {
      expect(settings({ [K.targetType]: t }).targetType).toBe(t);
    },
  );
});

/** LBC's docs/examples/grpc: grpcserver-ingress.yaml and grpcserver-service.yaml (cert ARN given, not discovered). */
function grpcExample(): IngressStackInput {
  const mci: MultiClusterIngress = {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: 'grpcserver',
      namespace: 'grpcserver',
      labels: { app: 'grpcserver', environment: 'dev' },
      annotations: {
        'alb.ingress.kubernetes.io/ssl-redirect': '443',
        'alb.ingress.kubernetes.io/backend-protocol-version': 'GRPC',
        'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP": 80}, {"HTTPS":443}]',
        'alb.ingress.kubernetes.io/scheme': 'internet-facing',
        'alb.ingress.kubernetes.io/target-type': 'ip',
        'alb.ingress.kubernetes.io/certificate-arn': CERT,
      },
    },
    spec: {
      ingressClassName: 'alb',
      rules: [
        {
          host: 'grpcserver.example.com',
          http: { paths: [path('/helloworld.Greeter', 'Prefix', 'grpcserver', 50051)] },
        },
      ],
    },
  };
  const svc: Service = {
    ...service('grpcserver', [{ port: 50051, protocol: 'TCP', targetPort: 50051 }]),
    metadata: { name: 'grpcserver', namespace: 'grpcserver', uid: 'svc-grpc' },
  };
  svc.spec = { ...svc.spec, clusterIP: 'None', selector: { app: 'grpcserver' } };
  return {
    mci,
    services: [svc],
    endpointSlices: [
      collectedSlice('member1', 'grpcserver', {
        namespace: 'grpcserver',
        addresses: ['10.0.1.50'],
        ports: [{ port: 50051 }],
      }),
    ],
    config,
  };
}

describe('Function: buildIngressStack (LBC’s gRPC example)', () => {
  it('produces LBC’s target group: HTTP, GRPC, port 50051, ip, the gRPC health check', () => {
    const stack = buildIngressStack(grpcExample());
    const id = 'grpcserver/grpcserver-grpcserver:50051';
    expect(targetGroups(stack)).toStrictEqual([
      {
        id,
        type: ResourceTypes.TargetGroup,
        spec: {
          name: targetGroupName({
            ownerId: 'karmada-test',
            stackId: 'mci/grpcserver/grpcserver',
            serviceNamespace: 'grpcserver',
            serviceName: 'grpcserver',
            servicePort: '50051',
            port: 50051,
            protocol: 'HTTP',
            protocolVersion: 'GRPC',
            targetType: 'ip',
            vpcId: 'vpc-0a1b2c3d',
          }),
          targetType: 'ip',
          protocol: 'HTTP',
          protocolVersion: 'GRPC',
          port: 50051,
          ipAddressType: 'ipv4',
          vpcId: 'vpc-0a1b2c3d',
          healthCheck: {
            enabled: true,
            path: '/AWS.ALB/healthcheck',
            port: 'traffic-port',
            protocol: 'HTTP',
            intervalSeconds: 15,
            timeoutSeconds: 5,
            healthyThresholdCount: 2,
            unhealthyThresholdCount: 2,
            matcher: { grpcCode: '12' },
          },
          targets: [{ id: '10.0.1.50', port: 50051 }],
          tags: {
            team: 'platform',
            'multicluster.karmada.io/owner': 'karmada-test',
            'multicluster.karmada.io/stack': 'mci/grpcserver/grpcserver',
            'multicluster.karmada.io/resource': id,
          },
        },
      },
    ]);
    // The HTTPS listener's rule forwards /helloworld.Greeter* to it; HTTP redirects (ssl-redirect).
    const rules = resourcesOf(stack, ResourceTypes.ListenerRule).map((r) => ({
      listener: r.spec.listener.$ref,
      conditions: r.spec.conditions,
      actions: r.spec.actions,
    }));
    expect(rules).toContainEqual({
      listener: '443',
      conditions: [
        { field: 'host-header', values: ['grpcserver.example.com'] },
        { field: 'path-pattern', values: ['/helloworld.Greeter', '/helloworld.Greeter/*'] },
      ],
      actions: [{ type: 'forward', targetGroup: { $ref: id } }],
    });
  });

  it('the group’s name changes with the version (an immutable setting), not for HTTP1', () => {
    const name = (version: string | undefined, family?: string) =>
      targetGroupName({
        ownerId: 'o',
        stackId: 's',
        serviceNamespace: 'n',
        serviceName: 'svc',
        servicePort: '80',
        port: 80,
        protocol: 'HTTP',
        protocolVersion: version,
        targetType: 'ip',
        vpcId: 'vpc-1',
        ipAddressType: family,
      });
    expect(name('HTTP1')).toBe(name(undefined));
    expect(name(undefined, 'ipv4')).toBe(name(undefined));
    expect(
      new Set([name('HTTP1'), name('HTTP2'), name('GRPC'), name('HTTP1', 'ipv6'), name('GRPC', 'ipv6')]).size,
    ).toBe(5);
  });
});

describe('Function: buildIngressStack (Service annotations over the MCI’s)', () => {
  /** An MCI with two backends; `api` carries its own target-group annotations. */
  function twoBackends(apiAnnotations: Record<string, string>, mciAnnotations: Record<string, string> = {}) {
    const mci = minimalIngress({
      metadata: { name: 'shop', namespace: 'default', annotations: mciAnnotations },
      spec: {
        rules: [
          {
            http: {
              paths: [path('/api', 'Prefix', 'api', 80), path('/', 'Prefix', 'web', 80)],
            },
          },
        ],
      },
    });
    const api = service('api');
    api.metadata.annotations = apiAnnotations;
    return {
      mci,
      services: [api, service('web')],
      endpointSlices: [
        collectedSlice('member1', 'api', { addresses: ['10.0.1.1'] }),
        collectedSlice('member1', 'web', { addresses: ['10.0.1.2'] }),
      ],
      config,
    };
  }
  const byService = (stack: Stack) =>
    Object.fromEntries(targetGroups(stack).map((t) => [t.id.replace('default/shop-', ''), t.spec]));

  it('override per target group, key by key: the Service wins, the rest of the MCI’s stays', () => {
    const stack = buildIngressStack(
      twoBackends(
        {
          [K.backendProtocol]: 'HTTPS',
          [K.backendProtocolVersion]: 'HTTP2',
          [H.path]: '/api/healthz',
          [K.targetGroupAttributes]: 'deregistration_delay.timeout_seconds=10',
          // Not a target-group key: a Service cannot change the load balancer.
          [K.scheme]: 'internet-facing',
        },
        {
          [H.path]: '/mci-health',
          [H.interval]: '30',
          [K.targetGroupAttributes]: 'slow_start.duration_seconds=60',
        },
      ),
    );
    const groups = byService(stack);
    expect(groups['api:80']).toMatchObject({
      protocol: 'HTTPS',
      protocolVersion: 'HTTP2',
      healthCheck: { ...HTTP_CHECK, protocol: 'HTTPS', path: '/api/healthz', intervalSeconds: 30 },
      // The annotation is one value: the Service's replaces the MCI's whole, as in LBC.
      attributes: { 'deregistration_delay.timeout_seconds': '10' },
    });
    expect(groups['web:80']).toMatchObject({
      protocol: 'HTTP',
      protocolVersion: 'HTTP1',
      healthCheck: { ...HTTP_CHECK, path: '/mci-health', intervalSeconds: 30 },
      attributes: { 'slow_start.duration_seconds': '60' },
    });
    expect(resourcesOf(stack, ResourceTypes.LoadBalancer)[0]?.spec.scheme).toBe('internal');
  });

  it('a Service asking for gRPC gets LBC’s gRPC check even though the MCI set HTTP success codes', () => {
    const groups = byService(
      buildIngressStack(twoBackends({ [K.backendProtocolVersion]: 'GRPC' }, { [H.interval]: '20' })),
    );
    expect(groups['api:80']?.healthCheck).toStrictEqual({
      ...HTTP_CHECK,
      path: '/AWS.ALB/healthcheck',
      intervalSeconds: 20,
      matcher: { grpcCode: '12' },
    });
    expect(groups['api:80']?.protocolVersion).toBe('GRPC');
  });

  it('a bad value on the Service names the Service and the annotation', () => {
    expect(refused(() => buildIngressStack(twoBackends({ [H.interval]: '1' })))).toStrictEqual({
      message: `Service default/api (its annotations override the MultiClusterIngress's for its target groups): annotation ${H.interval}: "1" must be an integer from 5 to 300`,
      field: H.interval,
      reason: 'InvalidAnnotation',
    });
    // A combination: the MCI's HTTP codes are no gRPC codes once the Service asks for GRPC.
    expect(
      refused(() =>
        buildIngressStack(twoBackends({ [K.backendProtocolVersion]: 'GRPC' }, { [H.successCodes]: '200' })),
      ).message,
    ).toMatch(
      /^Service default\/api \(its annotations override .*\): annotation .*success-codes: "200" must be gRPC status codes/,
    );
  });

  it('a named healthcheck-port is the numeric targetPort of that port of each backend Service, as in LBC', () => {
    const input = twoBackends({}, { [H.port]: 'admin' });
    input.services = [
      service('api', [
        { port: 80, targetPort: 8080 },
        { name: 'admin', port: 9000, targetPort: 9090 },
      ]),
      service('web', [
        { port: 80, targetPort: 8080 },
        { name: 'admin', port: 9001 },
      ]),
    ];
    const groups = byService(buildIngressStack(input));
    expect(groups['api:80']?.healthCheck.port).toBe('9090');
    expect(groups['web:80']?.healthCheck.port).toBe('9001');

    input.services = [
      service('api', [
        { port: 80, targetPort: 8080 },
        { name: 'admin', port: 9000, targetPort: 'adm' },
      ]),
    ];
    expect(refused(() => buildIngressStack(input))).toStrictEqual(
      bad(
        H.port,
        'admin',
        'is a port of Service default/api whose targetPort is named (adm): ip targets need a number, so give the container port',
      ),
    );
    input.services = [service('api')];
    expect(refused(() => buildIngressStack(input))).toStrictEqual(
      bad(H.port, 'admin', 'names no port of Service default/api'),
    );
  });

  it('only the target-group keys are taken from the Service; a blank one is no override', () => {
    expect(targetGroupKeys(K)).toStrictEqual([
      K.backendProtocol,
      K.backendProtocolVersion,
      K.targetType,
      K.targetGroupAttributes,
      H.path,
      H.port,
      H.protocol,
      H.interval,
      H.timeout,
      H.healthyThreshold,
      H.unhealthyThreshold,
      H.successCodes,
    ]);
    expect(serviceOverrides({ a: '1' }, { [K.scheme]: 'internal', [H.path]: ' ' }, K)).toBeUndefined();
    expect(serviceOverrides({ a: '1', [H.path]: '/m' }, { [H.path]: '/s', [K.name]: 'x' }, K)).toStrictEqual({
      a: '1',
      [H.path]: '/s',
    });
  });
});

function v6Slice(cluster: string, svc: string, addresses: string[]): EndpointSlice {
  return { ...collectedSlice(cluster, svc, { addresses, sliceName: `${svc}-v6` }), addressType: 'IPv6' };
}

describe('Function: buildIngressStack (target-type instance is reported)', () => {
  const input = (mciType: string | undefined, serviceType: string | undefined): IngressStackInput => {
    const serve = service('serve');
    if (serviceType) serve.metadata.annotations = { [K.targetType]: serviceType };
    return {
      mci: minimalIngress({
        metadata: {
          name: 'minimal-ingress',
          namespace: 'default',
          annotations: mciType ? { [K.targetType]: mciType } : {},
        },
      }),
      services: [serve],
      endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })],
      config,
    };
  };
  const warning = (where: string) => ({
    reason: 'UnsupportedTargetType',
    message: `annotation alb.ingress.kubernetes.io/target-type: instance on ${where} is not supported by the aws provider: targets are the pods' IPs from the member clusters' EndpointSlices, so target type ip is used`,
    object: { namespace: 'default', name: 'minimal-ingress' },
  });

  it.each<[string | undefined, string | undefined, unknown[] | undefined]>([
    ['instance', undefined, [warning('MultiClusterIngress default/minimal-ingress')]],
    [undefined, 'instance', [warning('Service default/serve')]],
    [
      'instance',
      'instance',
      [warning('MultiClusterIngress default/minimal-ingress'), warning('Service default/serve')],
    ],
    // The Service's ip wins for its groups; the MCI still asked for instance.
    ['instance', 'ip', [warning('MultiClusterIngress default/minimal-ingress')]],
    ['ip', undefined, undefined],
    [undefined, 'ip', undefined],
  ])(
    'MCI %s, Service %s: the warnings, and an ip target group all the same',
    (mciType, serviceType, warnings) => {
      const stack = buildIngressStack(input(mciType, serviceType));
      expect(stack.warnings).toStrictEqual(warnings);
      expect(targetGroups(stack).map((t) => t.spec.targetType)).toStrictEqual(['ip']);
    },
  );
});

describe('Function: buildIngressStack (dualstack)', () => {
  const V6_CIDR = '2600:1f18:e1b5:5000::/56';
  function dualstack(
    families: Array<'IPv4' | 'IPv6'>,
    lbType: string | null = 'dualstack',
  ): IngressStackInput {
    const svc = service('serve');
    svc.spec = { ...svc.spec, ipFamilies: families };
    return {
      mci: minimalIngress({
        metadata: {
          name: 'minimal-ingress',
          namespace: 'default',
          annotations: {
            ...(lbType !== null ? { [K.ipAddressType]: lbType } : {}),
            [K.scheme]: 'internet-facing',
          },
        },
      }),
      services: [svc],
      endpointSlices: [
        collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
        v6Slice('member1', 'serve', ['2600:1F18:E1B5:5080:0:0:0:A', '!2600:1f18:e1b5:5080::b']),
        v6Slice('member2', 'serve', ['fd00:ec2::10']),
      ],
      config: { ...config, vpc: { ...config.vpc, ipv6Cidrs: [V6_CIDR] } },
    };
  }

  it('a Service with the IPv6 family: an ipv6 group of its IPv6 slices, outside the VPC’s IPv6 blocks in zone all', () => {
    const stack = buildIngressStack(dualstack(['IPv6', 'IPv4']));
    expect(resourcesOf(stack, ResourceTypes.LoadBalancer)[0]?.spec.ipAddressType).toBe('dualstack');
    const [tg] = targetGroups(stack);
    expect(tg?.spec.ipAddressType).toBe('ipv6');
    expect(tg?.spec.targets).toStrictEqual([
      { id: '2600:1f18:e1b5:5080::a', port: 8080 },
      { id: 'fd00:ec2::10', port: 8080, availabilityZone: 'all' },
    ]);
    // Another family, another name: a family change replaces the group.
    expect(tg?.spec.name).not.toBe(targetGroups(buildIngressStack(dualstack(['IPv4'])))[0]?.spec.name);
  });

  it('an IPv4-only Service keeps an ipv4 group behind a dualstack ALB', () => {
    const [tg] = targetGroups(buildIngressStack(dualstack(['IPv4'], 'dualstack-without-public-ipv4')));
    expect(tg?.spec.ipAddressType).toBe('ipv4');
    expect(tg?.spec.targets).toStrictEqual([{ id: '10.0.1.10', port: 8080 }]);
  });

  it('without configured IPv6 blocks every IPv6 target is registered as outside the VPC', () => {
    const input = dualstack(['IPv6']);
    input.config = config;
    expect(
      targetGroups(buildIngressStack(input))[0]?.spec.targets.map((t) => t.availabilityZone),
    ).toStrictEqual(['all', 'all']);
  });

  it.each([null, 'ipv4'])(
    'an IPv6 Service behind an ALB of ip-address-type %s is refused, as in LBC',
    (type) => {
      expect(refused(() => buildIngressStack(dualstack(['IPv6'], type)))).toStrictEqual({
        message: `spec.rules[0].http.paths[0].backend.service.name: Service "serve" has the IPv6 family (spec.ipFamilies), so its target group is ipv6, which needs annotation ${K.ipAddressType}: dualstack (or dualstack-without-public-ipv4)`,
        field: K.ipAddressType,
        reason: 'DualstackRequired',
      });
    },
  );

  it('refuses an unknown ip-address-type, and dualstack-without-public-ipv4 on an internal ALB', () => {
    const input = dualstack(['IPv4'], 'ipv6');
    expect(refused(() => buildIngressStack(input))).toStrictEqual(
      bad(K.ipAddressType, 'ipv6', 'must be one of ipv4, dualstack, dualstack-without-public-ipv4'),
    );
    const internal = dualstack(['IPv4'], 'dualstack-without-public-ipv4');
    internal.mci.metadata.annotations = { [K.ipAddressType]: 'dualstack-without-public-ipv4' };
    expect(refused(() => buildIngressStack(internal))).toStrictEqual(
      bad(
        K.ipAddressType,
        'dualstack-without-public-ipv4',
        'needs scheme internet-facing (an internal ALB has no public IPv4 addresses)',
      ),
    );
  });

  it.each(['fe80::1', '::1', 'ff02::1', '::ffff:10.0.0.1', 'not-an-address', '10.0.1.1'])(
    'refuses the IPv6 endpoint %s',
    (address) => {
      const input = dualstack(['IPv6']);
      input.endpointSlices = [v6Slice('member1', 'serve', [address])];
      expect(refused(() => buildIngressStack(input))).toStrictEqual({
        message: `Service default/serve: endpoint address ${address} (EndpointSlice imported-member1-serve-v6) cannot be an IPv6 target: unspecified, loopback, IPv4-mapped, link-local and multicast addresses cannot be registered`,
        field: undefined,
        reason: 'UnregistrableTarget',
      });
    },
  );
});

describe('IPv6 helpers', () => {
  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['2600:1f18::', 0x26001f18n << 96n],
    ['::ffff:10.0.0.1', (0xffffn << 32n) | 0x0a000001n],
    ['1:2:3:4:5:6:7:8', 0x00010002000300040005000600070008n],
    ['FD00::A', (0xfd00n << 112n) | 0xan],
  ])('parses %s', (text, n) => {
    expect(parseIPv6(text)).toBe(n);
  });

  it.each([
    '',
    ':',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::',
    'g::',
    '1.2.3.4',
    '::1.2.3',
    '1:2:3:4:5:6:7::8',
  ])('refuses %j', (text) => {
    expect(parseIPv6(text)).toBeUndefined();
  });

  it.each([
    ['2600:1F18:E1B5:5080:0:0:0:A', '2600:1f18:e1b5:5080::a'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:0:2:0:3:0:4:0', '1:0:2:0:3:0:4:0'],
    ['0:0:1:0:0:0:0:0', '0:0:1::'],
    // A tie: the first run of zeros is the one shortened.
    ['1:0:0:2:0:0:3:4', '1::2:0:0:3:4'],
    ['fd00:0000:0000:0000:0000:0000:0000:0010', 'fd00::10'],
  ])('formats %s as %s (RFC 5952)', (text, canonical) => {
    expect(formatIPv6(parseIPv6(text) ?? -1n)).toBe(canonical);
  });

  it('CIDR membership and what can be registered', () => {
    const a = parseIPv6('2600:1f18:e1b5:5081::7') ?? 0n;
    expect(inCidr6(a, '2600:1f18:e1b5:5000::/56')).toBe(true);
    expect(inCidr6(a, '2600:1f18:e1b5:5100::/56')).toBe(false);
    expect(inCidr6(a, '::/0')).toBe(true);
    expect(inCidr6(a, 'x::/56')).toBe(false);
    expect(inCidr6(a, '2600::/129')).toBe(false);
    expect(inCidr6(a, '2600::')).toBe(false);
    expect(isRegistrableIPv6(a)).toBe(true);
    expect(isRegistrableIPv6(parseIPv6('fd00::1') ?? 0n)).toBe(true);
    expect(isRegistrableIPv6(parseIPv6('fe80::1') ?? 0n)).toBe(false);
    expect(isRegistrableIPv6(parseIPv6('::') ?? 1n)).toBe(false);
  });
});
