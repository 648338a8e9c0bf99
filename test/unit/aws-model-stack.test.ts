/**
 * The model core and the two builders, case by case: load balancer names (wanted, derived,
 * remembered), listeners and rules, target groups, the stack's own checks and the errors that
 * name the field at fault; the fingerprint's canonical form; IP and CIDR rules; quotas.
 */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type {
  EndpointSlice,
  HTTPIngressPath,
  IngressBackend,
  MultiClusterIngress,
  MultiClusterService,
  PathType,
  Service,
} from '../../lib/karmada/types.js';
import { albListenerResources, type Route } from '../../lib/providers/aws/model/alb-listeners.js';
import { backendServiceNames, resolveBackend } from '../../lib/providers/aws/model/backends.js';
import {
  canonicalJson,
  stackFingerprint,
  targetsFingerprint,
} from '../../lib/providers/aws/model/fingerprint.js';
import { buildIngressStack, ingressLoadBalancerNames } from '../../lib/providers/aws/model/ingress.js';
import { inAnyCidr, inCidr, parseIPv4 } from '../../lib/providers/aws/model/ip.js';
import { checkLimits } from '../../lib/providers/aws/model/limits.js';
import { sortPaths, pathPatterns } from '../../lib/providers/aws/model/rules.js';
import {
  buildServiceStack,
  providerClusters,
  serviceLoadBalancerNames,
} from '../../lib/providers/aws/model/service.js';
import { stackOwner, stackRefOf } from '../../lib/providers/aws/model/stack.js';
import { buildTargets, endpointPortFor, sourceClusterOf } from '../../lib/providers/aws/model/targets.js';
import {
  ResourceTypes,
  type Action,
  type ListenerResource,
  type ListenerRuleResource,
  type Stack,
  type StackResource,
  type TargetGroupResource,
} from '../../lib/providers/aws/model/types.js';
import { loadBalancerName } from '../../lib/providers/aws/naming.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';

function refusal(fn: () => unknown): { message: string; field: string | undefined; reason: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidObjectError);
    const err = e as InvalidObjectError;
    return { message: err.message, field: err.field, reason: err.reason };
  }
  throw new Error('expected an InvalidObjectError, nothing was thrown');
}

const ofType = <T extends StackResource['type']>(stack: Stack, type: T) =>
  stack.resources.filter((r) => r.type === type) as Array<Extract<StackResource, { type: T }>>;
const targetGroups = (s: Stack) => ofType(s, ResourceTypes.TargetGroup);
const listeners = (s: Stack) => ofType(s, ResourceTypes.Listener);
const rules = (s: Stack) => ofType(s, ResourceTypes.ListenerRule);
const lb = (s: Stack) => ofType(s, ResourceTypes.LoadBalancer)[0]!;

const mciWith = (annotations: Record<string, string>, spec?: MultiClusterIngress['spec']) =>
  minimalIngress({
    metadata: { name: 'minimal-ingress', namespace: 'default', annotations },
    ...(spec ? { spec } : {}),
  });
const ingress = (mci: MultiClusterIngress, o: { services?: Service[]; slices?: EndpointSlice[] } = {}) =>
  buildIngressStack({
    mci,
    services: o.services ?? [service('serve')],
    endpointSlices: o.slices ?? [],
    config,
  });

const mcs = (spec: Partial<MultiClusterService['spec']> = {}, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name: 'serve', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { types: ['LoadBalancer'], ...spec },
  }) as MultiClusterService;
const nlb = (m: MultiClusterService, o: { svc?: Service | undefined; slices?: EndpointSlice[] } = {}) =>
  buildServiceStack({
    mcs: m,
    service: 'svc' in o ? o.svc : service('serve'),
    endpointSlices: o.slices ?? [],
    config,
  });

describe('load balancer names', () => {
  const derived = (
    stackId: string,
    name: string,
    type: 'application' | 'network',
    scheme: 'internal' | 'internet-facing',
  ) => loadBalancerName({ ownerId: config.ownerId, stackId, namespace: 'default', name, type, scheme });
  const alb = (scheme: 'internal' | 'internet-facing') =>
    derived('mci/default/minimal-ingress', 'minimal-ingress', 'application', scheme);
  const net = (scheme: 'internal' | 'internet-facing') =>
    derived('mcs/default/serve', 'serve', 'network', scheme);

  it('no annotation: the derived name of the configured scheme, then of the other', () => {
    expect(ingressLoadBalancerNames(mciWith({}), config)).toStrictEqual([
      alb('internal'),
      alb('internet-facing'),
    ]);
    expect(ingressLoadBalancerNames(mciWith({}), { ...config, scheme: 'internet-facing' })).toStrictEqual([
      alb('internet-facing'),
      alb('internal'),
    ]);
    expect(serviceLoadBalancerNames(mcs(), config)).toStrictEqual([net('internal'), net('internet-facing')]);
  });

  it('the scheme annotation decides which derived name comes first', () => {
    const m = mciWith({ 'alb.ingress.kubernetes.io/scheme': 'internet-facing' });
    expect(ingressLoadBalancerNames(m, config)).toStrictEqual([alb('internet-facing'), alb('internal')]);
  });

  it('an explicit name first, and the names of the status hostnames last, each once', () => {
    const m: MultiClusterService = {
      ...mcs({}, { 'service.beta.kubernetes.io/aws-load-balancer-name': 'edge' }),
      status: {
        loadBalancer: {
          ingress: [
            { hostname: 'old-edge-0123456789abcdef.elb.us-east-1.amazonaws.com' },
            { hostname: 'example.com' },
            {},
            { hostname: 'edge-0123456789abcdef.elb.us-east-1.amazonaws.com' },
          ],
        },
      },
    } as MultiClusterService;
    expect(serviceLoadBalancerNames(m, config)).toStrictEqual([
      'edge',
      net('internal'),
      net('internet-facing'),
      'old-edge',
    ]);
  });

  it('invalid annotations: the derived names (deletion must still find the load balancer)', () => {
    const m = mciWith({
      'alb.ingress.kubernetes.io/scheme': 'public',
      'alb.ingress.kubernetes.io/load-balancer-name': 'edge',
    });
    expect(ingressLoadBalancerNames(m, config)).toStrictEqual([alb('internal'), alb('internet-facing')]);
  });
});

describe('stack identity', () => {
  it.each([
    { metadata: { name: 'a' } },
    { metadata: { namespace: 'ns' } },
    { metadata: { name: '', namespace: 'ns' } },
  ])('refuses an object without name or namespace: %j', (obj) => {
    expect(refusal(() => stackRefOf('mci', obj))).toStrictEqual({
      message: 'metadata.name and metadata.namespace are required',
      field: 'metadata',
      reason: 'InvalidSpec',
    });
  });

  it('the stack of an object, and its owner', () => {
    const obj = { metadata: { name: 'web', namespace: 'shop' } };
    expect(stackRefOf('mcs', obj)).toStrictEqual({
      kind: 'mcs',
      namespace: 'shop',
      name: 'web',
      stackId: 'mcs/shop/web',
    });
    expect(stackOwner('mci', obj, 'me')).toStrictEqual({ ownerId: 'me', stackId: 'mci/shop/web' });
  });
});

describe('ALB listeners and rules', () => {
  const fwd = (tg: string): Action => ({ type: 'forward', targetGroup: { $ref: tg } });
  const route = (key: string, field: string, tg = 'tg'): Route => ({
    key,
    field,
    conditions: [{ field: 'path-pattern', values: [`/${key}`] }],
    action: fwd(tg),
  });
  const tags = (id: string) => ({ resource: id });
  const tls = { certificates: [CERT], sslPolicy: 'ELBSecurityPolicy-2016-08' };

  it('ssl-redirect: HTTP listeners redirect and carry no rules; HTTPS listeners get TLS and the rules', () => {
    const out = albListenerResources({
      settings: {
        listeners: [
          { port: 80, protocol: 'HTTP' },
          { port: 443, protocol: 'HTTPS' },
        ],
        tls,
        sslRedirectPort: 443,
      },
      routes: [route('a', 'f0'), route('b', 'f1', 'tg2')],
      defaultAction: fwd('default'),
      loadBalancer: 'LB',
      tags,
    });
    expect(out.listeners).toStrictEqual([
      {
        id: '80',
        type: ResourceTypes.Listener,
        spec: {
          loadBalancer: { $ref: 'LB' },
          port: 80,
          protocol: 'HTTP',
          defaultActions: [
            { type: 'redirect', redirect: { protocol: 'HTTPS', port: '443', statusCode: 'HTTP_301' } },
          ],
          tags: { resource: '80' },
        },
      },
      {
        id: '443',
        type: ResourceTypes.Listener,
        spec: {
          loadBalancer: { $ref: 'LB' },
          port: 443,
          protocol: 'HTTPS',
          defaultActions: [fwd('default')],
          certificates: [CERT],
          sslPolicy: 'ELBSecurityPolicy-2016-08',
          tags: { resource: '443' },
        },
      },
    ]);
    expect(out.rules).toStrictEqual([
      {
        id: '443:a',
        type: ResourceTypes.ListenerRule,
        spec: {
          listener: { $ref: '443' },
          priority: 1,
          conditions: [{ field: 'path-pattern', values: ['/a'] }],
          actions: [fwd('tg')],
          tags: { resource: '443:a' },
        },
      },
      {
        id: '443:b',
        type: ResourceTypes.ListenerRule,
        spec: {
          listener: { $ref: '443' },
          priority: 2,
          conditions: [{ field: 'path-pattern', values: ['/b'] }],
          actions: [fwd('tg2')],
          tags: { resource: '443:b' },
        },
      },
    ]);
    expect([...out.ruleFields]).toStrictEqual([
      ['443:a', { field: 'f0' }],
      ['443:b', { field: 'f1' }],
    ]);
  });

  it('without ssl-redirect every listener serves the rules; HTTP listeners get no certificates', () => {
    const out = albListenerResources({
      settings: {
        listeners: [
          { port: 80, protocol: 'HTTP' },
          { port: 443, protocol: 'HTTPS' },
        ],
        tls,
      },
      routes: [route('a', 'f0')],
      defaultAction: fwd('default'),
      loadBalancer: 'LB',
      tags,
    });
    expect(out.listeners.map((l) => [l.id, l.spec.defaultActions, l.spec.certificates])).toStrictEqual([
      ['80', [fwd('default')], undefined],
      ['443', [fwd('default')], [CERT]],
    ]);
    expect(out.rules.map((r) => [r.id, r.spec.listener.$ref, r.spec.priority])).toStrictEqual([
      ['80:a', '80', 1],
      ['443:a', '443', 1],
    ]);
  });

  it('the same route key twice on a listener: #2, #3 … keep rule IDs unique', () => {
    const out = albListenerResources({
      settings: { listeners: [{ port: 80, protocol: 'HTTP' }] },
      routes: [route('k', 'f0'), route('k', 'f1'), route('k', 'f2'), route('j', 'f3')],
      defaultAction: fwd('default'),
      loadBalancer: 'LB',
      tags,
    });
    expect(out.rules.map((r) => [r.id, r.spec.priority, r.spec.tags])).toStrictEqual([
      ['80:k', 1, { resource: '80:k' }],
      ['80:k#2', 2, { resource: '80:k#2' }],
      ['80:k#3', 3, { resource: '80:k#3' }],
      ['80:j', 4, { resource: '80:j' }],
    ]);
    expect(out.ruleFields.get('80:k#3')).toStrictEqual({ field: 'f2' });
  });
});

describe('Function: buildIngressStack', () => {
  it('an MCI without spec: a listener answering 404, no rules, no target group', () => {
    const stack = ingress({ ...minimalIngress(), spec: undefined } as unknown as MultiClusterIngress);
    expect(listeners(stack).map((l) => l.spec.defaultActions)).toStrictEqual([
      [{ type: 'fixed-response', fixedResponse: { statusCode: '404', contentType: 'text/plain' } }],
    ]);
    expect(rules(stack)).toStrictEqual([]);
    expect(targetGroups(stack)).toStrictEqual([]);
  });

  it('a rule without http adds nothing; rule IDs name host, path type and path', () => {
    const stack = ingress(
      mciWith(
        {},
        {
          rules: [
            { host: 'a.example.com' },
            {
              http: {
                paths: [
                  {
                    path: '/x',
                    backend: { service: { name: 'serve', port: { number: 80 } } },
                  } as HTTPIngressPath,
                  { pathType: 'Prefix', backend: { service: { name: 'serve', port: { number: 80 } } } },
                ],
              },
            },
            { host: 'b.example.com', http: { paths: [path('/y', 'Exact', 'serve', 80)] } },
          ],
        },
      ),
    );
    expect(rules(stack).map((r) => [r.id, r.spec.priority, r.spec.conditions])).toStrictEqual([
      ['80:*:Prefix:', 1, [{ field: 'path-pattern', values: ['/*'] }]],
      ['80:*:ImplementationSpecific:/x', 2, [{ field: 'path-pattern', values: ['/x'] }]],
      [
        '80:b.example.com:Exact:/y',
        3,
        [
          { field: 'host-header', values: ['b.example.com'] },
          { field: 'path-pattern', values: ['/y'] },
        ],
      ],
    ]);
  });

  it('one target group per service and port, sorted by ID, shared by the rules that use it', () => {
    const services = [
      service('zeta', [{ port: 80, targetPort: 8080 }]),
      service('alpha', [{ name: 'web', port: 80, targetPort: 'http' }, { port: 81 }]),
    ];
    const stack = ingress(
      mciWith(
        {},
        {
          // First seen: alpha:web, zeta:80, alpha:81 (neither sorted nor the reverse of it).
          defaultBackend: { service: { name: 'alpha', port: { name: 'web' } } },
          rules: [
            {
              http: {
                paths: [
                  path('/z', 'Exact', 'zeta', 80),
                  path('/a', 'Exact', 'alpha', 'web'),
                  path('/b', 'Exact', 'alpha', 81),
                  path('/c', 'Exact', 'alpha', 'web'),
                ],
              },
            },
          ],
        },
      ),
      { services },
    );
    expect(
      targetGroups(stack).map((t) => [t.id, t.spec.port, t.spec.protocol, t.spec.protocolVersion]),
    ).toStrictEqual([
      ['default/minimal-ingress-alpha:81', 81, 'HTTP', 'HTTP1'],
      ['default/minimal-ingress-alpha:web', 1, 'HTTP', 'HTTP1'],
      ['default/minimal-ingress-zeta:80', 8080, 'HTTP', 'HTTP1'],
    ]);
    expect(rules(stack).map((r) => r.spec.actions)).toStrictEqual(
      [
        'default/minimal-ingress-zeta:80',
        'default/minimal-ingress-alpha:web',
        'default/minimal-ingress-alpha:81',
        'default/minimal-ingress-alpha:web',
      ].map((id) => [{ type: 'forward', targetGroup: { $ref: id } }]),
    );
    expect(listeners(stack)[0]?.spec.defaultActions).toStrictEqual([
      { type: 'forward', targetGroup: { $ref: 'default/minimal-ingress-alpha:web' } },
    ]);
  });

  it('an MCI with only a default backend: no rules, one target group', () => {
    const stack = ingress(
      mciWith({}, { defaultBackend: { service: { name: 'serve', port: { number: 80 } } } }),
    );
    expect(rules(stack)).toStrictEqual([]);
    expect(targetGroups(stack).map((t) => t.id)).toStrictEqual(['default/minimal-ingress-serve:80']);
  });

  it('services and slices of other namespaces are ignored; unset namespaces are the MCI’s', () => {
    const elsewhere = { ...service('serve'), metadata: { name: 'serve', namespace: 'other' } };
    expect(refusal(() => ingress(minimalIngress(), { services: [elsewhere] }))).toMatchObject({
      field: 'spec.rules[0].http.paths[0].backend.service.name',
      reason: 'ServiceNotFound',
    });
    const unset = { ...service('serve'), metadata: { name: 'serve' } };
    const slices = [
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.1'] }),
      collectedSlice('member2', 'serve', { addresses: ['10.0.1.2'], namespace: 'other' }),
      {
        ...collectedSlice('member3', 'serve', { addresses: ['10.0.1.3'] }),
        metadata: {
          name: 'imported-member3-x',
          labels: { 'kubernetes.io/service-name': 'derived-serve' },
          annotations: { 'work.karmada.io/namespace': 'karmada-es-member3' },
        },
      },
      {
        ...collectedSlice('member4', 'serve', { addresses: ['10.0.1.4'] }),
        metadata: { name: 'imported-member4-x', namespace: 'default' },
      },
      {
        ...collectedSlice('member5', 'serve', { addresses: ['10.0.1.5'] }),
        metadata: {
          name: 'imported-member5-x',
          namespace: 'default',
          labels: { 'kubernetes.io/service-name': 'serve' },
        },
      },
      collectedSlice('member6', 'serve', { addresses: ['10.0.1.6'], sliceName: 'second' }),
    ] as EndpointSlice[];
    const stack = ingress(minimalIngress(), { services: [unset], slices });
    expect(targetGroups(stack)[0]?.spec.targets.map((t) => t.id)).toStrictEqual([
      '10.0.1.1',
      '10.0.1.3',
      '10.0.1.6',
    ]);
  });

  it('clusters named in serviceLocations tell slices apart by name prefix (longest wins)', () => {
    // "imported-east-1-…" starts like cluster "east"'s slices; only knowing "east-1" tells them apart.
    const slices = [collectedSlice('east-1', 'serve', { addresses: ['10.0.1.1'], noAnnotation: true })];
    const targets = (status: MultiClusterIngress['status']) =>
      targetGroups(ingress(minimalIngress({ status }), { slices }))[0]?.spec.targets.map((t) => t.id);
    expect(targets({ trafficBlockClusters: ['east'] })).toStrictEqual([]);
    expect(
      targets({
        trafficBlockClusters: ['east'],
        serviceLocations: [{ name: 'a' }, { name: 'serve', clusters: ['east-1'] }],
      }),
    ).toStrictEqual(['10.0.1.1']);
  });

  it('target group attributes are read with the HTTP family for an ALB', () => {
    const stack = ingress(
      mciWith({ 'alb.ingress.kubernetes.io/target-group-attributes': 'slow_start.duration_seconds=30' }),
    );
    expect(targetGroups(stack)[0]?.spec.attributes).toStrictEqual({ 'slow_start.duration_seconds': '30' });
    expect(
      refusal(() =>
        ingress(
          mciWith({ 'alb.ingress.kubernetes.io/target-group-attributes': 'proxy_protocol_v2.enabled=true' }),
        ),
      ).field,
    ).toBe('alb.ingress.kubernetes.io/target-group-attributes');
  });

  it('the load balancer: annotation subnets and security groups win over the configured ones', () => {
    const stack = ingress(
      mciWith({
        'alb.ingress.kubernetes.io/subnets': 'subnet-0000aaaa',
        'alb.ingress.kubernetes.io/security-groups': 'sg-0000bbbb',
        'alb.ingress.kubernetes.io/load-balancer-attributes': 'idle_timeout.timeout_seconds=60',
      }),
    );
    expect(lb(stack).spec).toMatchObject({
      type: 'application',
      subnets: ['subnet-0000aaaa'],
      securityGroups: ['sg-0000bbbb'],
      attributes: { 'idle_timeout.timeout_seconds': '60' },
    });
    expect(lb(ingress(mciWith({}))).spec).toMatchObject({
      subnets: config.subnets,
      securityGroups: config.securityGroups,
    });
    expect(lb(ingress(mciWith({}))).spec.attributes).toBeUndefined();
    expect(targetGroups(ingress(mciWith({})))[0]?.spec.attributes).toBeUndefined();
  });
});

describe('Function: buildServiceStack', () => {
  it('refuses an MCS that is not of type LoadBalancer', () => {
    expect(refusal(() => nlb(mcs({ types: ['CrossCluster'] })))).toStrictEqual({
      message: 'spec.types does not contain LoadBalancer: no load balancer to build',
      field: 'spec.types',
      reason: 'NotLoadBalancer',
    });
  });

  it('refuses when the namesake Service is missing, has no ports, or lacks a wanted port', () => {
    expect(refusal(() => nlb(mcs(), { svc: undefined }))).toStrictEqual({
      message: 'Service "serve" (the MultiClusterService\'s namesake) does not exist',
      field: 'metadata.name',
      reason: 'ServiceNotFound',
    });
    const noSpec = { ...service('serve'), spec: undefined } as unknown as Service;
    for (const svc of [noSpec, service('serve', [])]) {
      expect(refusal(() => nlb(mcs(), { svc }))).toStrictEqual({
        message: 'Service "serve" has no ports to expose',
        field: 'spec.ports',
        reason: 'NoPorts',
      });
    }
    expect(refusal(() => nlb(mcs({ ports: [{ port: 80 }, { port: 81 }] })))).toStrictEqual({
      message: 'spec.ports[1]: Service "serve" has no port 81',
      field: 'spec.ports[1]',
      reason: 'ServicePortNotFound',
    });
  });

  it('exposes only the wanted ports, in the order asked', () => {
    const svc = service('serve', [
      { port: 80, targetPort: 8080 },
      { port: 443, targetPort: 8443 },
      { port: 53, protocol: 'UDP' },
    ]);
    const stack = nlb(mcs({ ports: [{ port: 53 }, { port: 80 }] }), { svc });
    expect(stack.resources.map((r) => r.id)).toStrictEqual([
      'LoadBalancer',
      'default/serve:53',
      'default/serve:80',
      '53',
      '80',
    ]);
    expect(targetGroups(stack).map((t) => [t.spec.protocol, t.spec.port])).toStrictEqual([
      ['UDP', 53],
      ['TCP', 8080],
    ]);
    expect(listeners(stack).map((l) => [l.spec.protocol, l.spec.defaultActions])).toStrictEqual([
      ['UDP', [{ type: 'forward', targetGroup: { $ref: 'default/serve:53' } }]],
      ['TCP', [{ type: 'forward', targetGroup: { $ref: 'default/serve:80' } }]],
    ]);
  });

  it('refuses a port protocol NLB cannot carry', () => {
    const svc = service('serve', [{ port: 80 }, { port: 9000, protocol: 'SCTP' as 'TCP' }]);
    expect(refusal(() => nlb(mcs(), { svc }))).toStrictEqual({
      message: 'Service "serve" port 9000: protocol SCTP is not supported by NLB',
      field: 'spec.ports[1]',
      reason: 'UnsupportedProtocol',
    });
  });

  it("the NLB: network type, the annotation's security groups over the configuration's, TCP family attributes, the NLB health check", () => {
    const stack = nlb(
      mcs(
        {},
        {
          'service.beta.kubernetes.io/aws-load-balancer-attributes':
            'dns_record.client_routing_policy=any_availability_zone',
          'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes':
            'proxy_protocol_v2.enabled=true',
        },
      ),
    );
    expect(lb(stack).spec).toMatchObject({
      type: 'network',
      attributes: { 'dns_record.client_routing_policy': 'any_availability_zone' },
    });
    // The configuration names groups: no managed one.
    expect(lb(stack).spec.securityGroups).toStrictEqual(config.securityGroups);
    expect(stack.securityGroup).toBeUndefined();
    expect(targetGroups(stack)[0]?.spec).toMatchObject({
      attributes: { 'proxy_protocol_v2.enabled': 'true' },
      healthCheck: { enabled: true, protocol: 'TCP', port: 'traffic-port', intervalSeconds: 10 },
      vpcId: config.vpc.id,
      targetType: 'ip',
      ipAddressType: 'ipv4',
    });
    expect(targetGroups(stack)[0]?.spec.protocolVersion).toBeUndefined();
    expect(
      lb(nlb(mcs({}, { 'service.beta.kubernetes.io/aws-load-balancer-security-groups': 'sg-0000cccc' }))).spec
        .securityGroups,
    ).toStrictEqual(['sg-0000cccc']);
  });

  it('only the slices of the namesake Service in the MCS’s namespace', () => {
    const slices = [
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.1'] }),
      collectedSlice('member1', 'other', { addresses: ['10.0.1.2'] }),
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.3'], namespace: 'elsewhere' }),
      {
        ...collectedSlice('member1', 'serve', { addresses: ['10.0.1.4'] }),
        metadata: {
          name: 'imported-member1-y',
          annotations: { 'work.karmada.io/namespace': 'karmada-es-member1' },
          labels: { 'kubernetes.io/service-name': 'derived-serve' },
        },
      },
      {
        ...collectedSlice('member1', 'serve', { addresses: ['10.0.1.5'] }),
        metadata: { name: 'imported-member1-z', namespace: 'default' },
      },
    ] as EndpointSlice[];
    expect(targetGroups(nlb(mcs(), { slices }))[0]?.spec.targets.map((t) => t.id)).toStrictEqual([
      '10.0.1.1',
      '10.0.1.4',
    ]);
  });

  it('provider clusters also recognise slices by their name prefix', () => {
    const slices = [
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.1'], noAnnotation: true }),
      collectedSlice('member2', 'serve', { addresses: ['10.0.2.1'], noAnnotation: true }),
    ];
    const stack = nlb(mcs({ providerClusters: [{ name: 'member1' }] }), { slices });
    expect(targetGroups(stack)[0]?.spec.targets.map((t) => t.id)).toStrictEqual(['10.0.1.1']);
    // No provider clusters: every cluster, even one that cannot be told.
    expect(targetGroups(nlb(mcs(), { slices }))[0]?.spec.targets.map((t) => t.id)).toStrictEqual([
      '10.0.1.1',
      '10.0.2.1',
    ]);
  });

  it('an unregistrable endpoint names the Service and the slice', () => {
    const slices = [collectedSlice('member1', 'serve', { addresses: ['8.8.8.8'] })];
    expect(refusal(() => nlb(mcs(), { slices }))).toStrictEqual({
      message:
        'Service default/serve: endpoint address 8.8.8.8 (EndpointSlice imported-member1-serve-abcde) cannot be an IP target: only RFC 1918 and 100.64.0.0/10 addresses can be registered',
      field: undefined,
      reason: 'UnregistrableTarget',
    });
  });

  it('TLS listeners: on every TCP port by default, else on the ports named by number or name', () => {
    const svc = service('serve', [
      { name: 'https', port: 443, targetPort: 8443 },
      { name: 'alt', port: 8443, targetPort: 8443, protocol: 'TCP' },
      { name: 'plain', port: 80, targetPort: 8080 },
      { name: 'dns', port: 53, protocol: 'UDP' },
    ]);
    const protocols = (annotations: Record<string, string>) =>
      listeners(nlb(mcs({}, annotations), { svc })).map((l) => [
        l.id,
        l.spec.protocol,
        l.spec.certificates,
        l.spec.sslPolicy,
      ]);
    const cert = 'service.beta.kubernetes.io/aws-load-balancer-ssl-cert';
    const policy = 'ELBSecurityPolicy-2016-08';
    expect(protocols({ [cert]: CERT })).toStrictEqual([
      ['443', 'TLS', [CERT], policy],
      ['8443', 'TLS', [CERT], policy],
      ['80', 'TLS', [CERT], policy],
      ['53', 'UDP', undefined, undefined],
    ]);
    expect(
      protocols({ [cert]: CERT, 'service.beta.kubernetes.io/aws-load-balancer-ssl-ports': 'https,8443' }),
    ).toStrictEqual([
      ['443', 'TLS', [CERT], policy],
      ['8443', 'TLS', [CERT], policy],
      ['80', 'TCP', undefined, undefined],
      ['53', 'UDP', undefined, undefined],
    ]);
    expect(protocols({})).toStrictEqual([
      ['443', 'TCP', undefined, undefined],
      ['8443', 'TCP', undefined, undefined],
      ['80', 'TCP', undefined, undefined],
      ['53', 'UDP', undefined, undefined],
    ]);
  });

  it('more than 100 ports: the target group quota names spec.ports', () => {
    const svc = service(
      'serve',
      Array.from({ length: 101 }, (_, i) => ({ port: 1000 + i })),
    );
    expect(refusal(() => nlb(mcs(), { svc }))).toStrictEqual({
      message: 'spec.ports: 101 target groups exceed the quota of 100 per load balancer',
      field: 'spec.ports',
      reason: 'LimitExceeded',
    });
  });
});

describe('Function: providerClusters', () => {
  it.each([
    { spec: { providerClusters: [{ name: '' }], serviceProvisionClusters: ['b'] }, expected: ['b'] },
    { spec: { providerClusters: [{ name: 'a' }, { name: '' }] }, expected: ['a'] },
    { spec: { range: {} }, expected: undefined },
    { spec: { serviceProvisionClusters: [], range: { clusterNames: [] } }, expected: undefined },
  ] as Array<{ spec: Partial<MultiClusterService['spec']>; expected: string[] | undefined }>)(
    '$spec → $expected',
    ({ spec, expected }) => {
      expect(providerClusters(mcs(spec))).toStrictEqual(expected);
    },
  );
});

describe('backends', () => {
  const services = new Map([
    ['serve', service('serve', [{ name: 'http', port: 80 }, { port: 81 }])],
    ['bare', { ...service('bare'), spec: undefined } as unknown as Service],
    ['portless', { ...service('portless'), spec: { type: 'ClusterIP' } } as Service],
  ]);
  const resolve = (b: IngressBackend) => resolveBackend(b, 'f', services);

  it('every Service name the backends refer to, once, in first-seen order', () => {
    expect(
      backendServiceNames([
        undefined,
        { service: { name: 'b', port: { number: 1 } } },
        { resource: { apiGroup: 'x', kind: 'Bucket', name: 'r' } },
        { service: { name: '', port: { number: 1 } } },
        { service: { name: 'a', port: { name: 'http' } } },
        { service: { name: 'b', port: { number: 2 } } },
      ]),
    ).toStrictEqual(['b', 'a']);
  });

  it('resolves a port by name or by number', () => {
    expect(resolve({ service: { name: 'serve', port: { name: 'http' } } })).toMatchObject({
      serviceName: 'serve',
      portKey: 'http',
      servicePort: { name: 'http', port: 80 },
    });
    expect(resolve({ service: { name: 'serve', port: { number: 81 } } })).toMatchObject({
      portKey: '81',
      servicePort: { port: 81 },
    });
  });

  it.each([
    {
      backend: { resource: { apiGroup: 'x', kind: 'Bucket', name: 'r' } },
      error: {
        message:
          'f.resource: resource backends (Bucket r) are not supported by the aws provider; use a service backend',
        field: 'f.resource',
        reason: 'UnsupportedBackend',
      },
    },
    {
      backend: {},
      error: { message: 'f: a backend needs service.name', field: 'f.service', reason: 'InvalidBackend' },
    },
    {
      backend: { service: { name: '' } },
      error: { message: 'f: a backend needs service.name', field: 'f.service', reason: 'InvalidBackend' },
    },
    {
      backend: { service: { name: 'nope', port: { number: 80 } } },
      error: {
        message: 'f.service.name: Service "nope" does not exist',
        field: 'f.service.name',
        reason: 'ServiceNotFound',
      },
    },
    {
      backend: { service: { name: 'serve' } },
      error: {
        message: 'f.service.port: a service backend needs port.name or port.number',
        field: 'f.service.port',
        reason: 'InvalidBackend',
      },
    },
    {
      backend: { service: { name: 'serve', port: {} } },
      error: {
        message: 'f.service.port: a service backend needs port.name or port.number',
        field: 'f.service.port',
        reason: 'InvalidBackend',
      },
    },
    {
      backend: { service: { name: 'serve', port: { name: 'grpc' } } },
      error: {
        message: 'f.service.port: Service "serve" has no port "grpc"',
        field: 'f.service.port',
        reason: 'ServicePortNotFound',
      },
    },
    {
      backend: { service: { name: 'bare', port: { number: 80 } } },
      error: {
        message: 'f.service.port: Service "bare" has no port "80"',
        field: 'f.service.port',
        reason: 'ServicePortNotFound',
      },
    },
    {
      backend: { service: { name: 'portless', port: { name: 'http' } } },
      error: {
        message: 'f.service.port: Service "portless" has no port "http"',
        field: 'f.service.port',
        reason: 'ServicePortNotFound',
      },
    },
  ] as Array<{ backend: IngressBackend; error: object }>)('refuses $backend', ({ backend, error }) => {
    expect(refusal(() => resolve(backend))).toStrictEqual(error);
  });
});

describe('targets', () => {
  const base = collectedSlice('m', 's', { addresses: [] });

  it('a slice with neither annotations nor labels: the name prefix of a known cluster', () => {
    const slice = { ...base, metadata: { name: 'imported-member1-x' } } as EndpointSlice;
    expect(sourceClusterOf(slice, ['member1'])).toBe('member1');
    expect(sourceClusterOf({ ...base, metadata: {} } as EndpointSlice, ['member1'])).toBeUndefined();
  });

  it('an empty execution space falls back to the name prefix; the longest known prefix wins in any order', () => {
    const slice = {
      ...base,
      metadata: { name: 'imported-a-b-x', annotations: { 'work.karmada.io/namespace': 'karmada-es-' } },
    } as EndpointSlice;
    expect(sourceClusterOf(slice, ['a-b', 'a'])).toBe('a-b');
    expect(sourceClusterOf(slice, ['a', 'a-b'])).toBe('a-b');
    expect(sourceClusterOf(slice, ['b'])).toBeUndefined();
  });

  it('endpoint ports: an unnamed slice port matches an unnamed Service port; a port-less entry is skipped', () => {
    const slice = (ports: EndpointSlice['ports']) => ({ ...base, ports }) as EndpointSlice;
    expect(endpointPortFor(slice([{ port: 9000 }]), { port: 80, targetPort: 1 })).toBe(9000);
    expect(
      endpointPortFor(slice([{ name: 'http' }, { name: 'http', port: 8081 }]), { name: 'http', port: 80 }),
    ).toBe(8081);
    expect(endpointPortFor(slice(undefined), { port: 80, targetPort: 7000 })).toBe(7000);
  });

  const targetsOf = (slices: EndpointSlice[], o: Partial<Parameters<typeof buildTargets>[0]> = {}) =>
    buildTargets({
      serviceKey: 'default/s',
      servicePort: { port: 80 },
      slices,
      blockedClusters: new Set(),
      knownClusters: [],
      vpcCidrs: ['10.0.0.0/16'],
      ...o,
    });

  it('skips IPv6 slices, slices without a port and endpoints not ready; unset ready means ready', () => {
    const v4 = collectedSlice('c1', 's', { addresses: ['10.0.0.2', '!10.0.0.3'], ports: [{ port: 8080 }] });
    const v6 = {
      ...collectedSlice('c2', 's', { addresses: ['10.0.0.4'] }),
      addressType: 'IPv6',
    } as EndpointSlice;
    const noConditions = {
      ...collectedSlice('c3', 's', { addresses: [] }),
      endpoints: [{ addresses: ['10.0.0.5'] }],
      ports: [{ name: '', port: 8080 }],
    } as EndpointSlice;
    const noEndpoints = {
      ...collectedSlice('c4', 's', { addresses: [] }),
      endpoints: undefined,
    } as unknown as EndpointSlice;
    const namedOnly = collectedSlice('c5', 's', { addresses: ['10.0.0.6'], ports: [{ name: 'x', port: 1 }] });
    expect(
      targetsOf([v4, v6, noConditions, noEndpoints, namedOnly], {
        servicePort: { port: 80, targetPort: 'web' },
      }),
    ).toStrictEqual([
      { id: '10.0.0.2', port: 8080 },
      { id: '10.0.0.5', port: 8080 },
    ]);
  });

  it('blocked clusters are skipped; with allowed clusters, only those (and never an unknown one)', () => {
    const slices = [
      collectedSlice('a', 's', { addresses: ['10.0.0.1'] }),
      collectedSlice('b', 's', { addresses: ['10.0.0.2'] }),
      collectedSlice('c', 's', { addresses: ['10.0.0.3'], noAnnotation: true }),
    ];
    expect(targetsOf(slices, { blockedClusters: new Set(['a']) }).map((t) => t.id)).toStrictEqual([
      '10.0.0.2',
      '10.0.0.3',
    ]);
    expect(targetsOf(slices, { allowedClusters: new Set(['a', 'c']) }).map((t) => t.id)).toStrictEqual([
      '10.0.0.1',
    ]);
  });

  it('targets are sorted by address, then port; off-VPC addresses go to every zone', () => {
    const slices = [
      collectedSlice('a', 's', { addresses: ['10.0.0.10'], ports: [{ name: 'p', port: 9000 }] }),
      collectedSlice('b', 's', { addresses: ['10.0.0.9', '10.0.0.10'], ports: [{ name: 'p', port: 8000 }] }),
      collectedSlice('c', 's', { addresses: ['172.16.0.1'], ports: [{ name: 'p', port: 8000 }] }),
    ];
    expect(targetsOf(slices, { servicePort: { name: 'p', port: 80 } })).toStrictEqual([
      { id: '10.0.0.9', port: 8000 },
      { id: '10.0.0.10', port: 8000 },
      { id: '10.0.0.10', port: 9000 },
      { id: '172.16.0.1', port: 8000, availabilityZone: 'all' },
    ]);
  });

  it('a non-IPv4 address, or a slice without a name, still gets a clear error', () => {
    const slice = {
      ...collectedSlice('a', 's', { addresses: ['not-an-ip'] }),
      metadata: { namespace: 'default' },
    } as EndpointSlice;
    expect(refusal(() => targetsOf([slice])).message).toBe(
      'Service default/s: endpoint address not-an-ip (EndpointSlice ) cannot be an IP target: only RFC 1918 and 100.64.0.0/10 addresses can be registered',
    );
  });
});

describe('IPv4 and CIDRs', () => {
  it.each(['a1.2.3.4', '1a.2.3.4', '1.2.3.1000', '1.2.3.', ''])('parseIPv4 refuses %j', (ip) => {
    expect(parseIPv4(ip)).toBeUndefined();
  });

  it('parseIPv4 of nothing is nothing', () => {
    expect(parseIPv4(undefined)).toBeUndefined();
  });

  it('parseIPv4 gives the 32-bit number', () => {
    expect(parseIPv4('1.2.3.4')).toBe(0x01020304);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
  });

  it.each([
    { ip: '10.0.0.0', cidr: '10.0.0.0/32', expected: true },
    { ip: '10.0.0.1', cidr: '10.0.0.0/32', expected: false },
    { ip: '10.0.0.0', cidr: '10.0.0.0/33', expected: false },
    { ip: '10.0.0.0', cidr: '10.0.0.0/-1', expected: false },
    { ip: '10.0.0.1', cidr: '10.0.0.0/8.5', expected: false },
    { ip: '10.0.0.1', cidr: '10.0.0.1', expected: false },
    { ip: '10.0.0.1', cidr: 'x/0', expected: false },
    { ip: '10.0.0.1', cidr: '/0', expected: false },
    { ip: '255.255.255.255', cidr: '0.0.0.0/0', expected: true },
    { ip: '10.255.255.255', cidr: '10.0.0.0/8', expected: true },
    { ip: '11.0.0.0', cidr: '10.0.0.0/8', expected: false },
  ])('$ip in $cidr: $expected', ({ ip, cidr, expected }) => {
    expect(inCidr(parseIPv4(ip)!, cidr)).toBe(expected);
  });

  it('inAnyCidr: in one of them is enough', () => {
    expect(inAnyCidr(parseIPv4('10.1.0.1')!, ['10.0.0.0/16', '10.1.0.0/16'])).toBe(true);
    expect(inAnyCidr(parseIPv4('10.2.0.1')!, ['10.0.0.0/16', '10.1.0.0/16'])).toBe(false);
    expect(inAnyCidr(parseIPv4('10.2.0.1')!, [])).toBe(false);
  });
});

describe('rules', () => {
  const p = (path: string | undefined, pathType?: PathType): HTTPIngressPath =>
    ({
      ...(path !== undefined ? { path } : {}),
      ...(pathType ? { pathType } : {}),
      backend: { service: { name: 's', port: { number: 80 } } },
    }) as HTTPIngressPath;

  it('an unset path type sorts as ImplementationSpecific; an unset Prefix path is the shortest', () => {
    expect(
      sortPaths([p('/x'), p(undefined, 'Prefix'), p('/ab', 'Prefix'), p('/y', 'ImplementationSpecific')]).map(
        (x) => x.index,
      ),
    ).toStrictEqual([2, 1, 0, 3]);
  });

  it('an unset Prefix path sorts after a set one in either order', () => {
    expect(sortPaths([p('/ab', 'Prefix'), p(undefined, 'Prefix')]).map((x) => x.index)).toStrictEqual([0, 1]);
    expect(sortPaths([p(undefined, 'Prefix'), p('/ab', 'Prefix')]).map((x) => x.index)).toStrictEqual([1, 0]);
  });

  it('equal-length Prefix paths keep their order, however many', () => {
    const paths = ['/a', '/b', '/c', '/d', '/e'].map((x) => p(x, 'Prefix'));
    expect(sortPaths(paths).map((x) => x.index)).toStrictEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    { path: '/a*', type: 'Exact' as const, kind: 'exact' },
    { path: '/a?', type: 'Prefix' as const, kind: 'prefix' },
  ])('a wildcard in a $kind path names the field', ({ path, type, kind }) => {
    expect(refusal(() => pathPatterns(path, type, 'f'))).toStrictEqual({
      message: `f: ${kind} path shouldn't contain wildcards: ${path}`,
      field: 'f',
      reason: 'InvalidPath',
    });
  });
});

describe('quotas (checkLimits on hand-built stacks)', () => {
  const stackOf = (resources: StackResource[]): Stack => ({ id: 's', ownerId: 'o', resources });
  const tg = (id: string, name = `tg-${id}`): TargetGroupResource =>
    ({ id, type: ResourceTypes.TargetGroup, spec: { name, targets: [] } }) as unknown as TargetGroupResource;
  const listener = (id: string): ListenerResource =>
    ({ id, type: ResourceTypes.Listener, spec: { defaultActions: [] } }) as unknown as ListenerResource;
  const rule = (id: string, values: number): ListenerRuleResource =>
    ({
      id,
      type: ResourceTypes.ListenerRule,
      spec: {
        conditions: [{ field: 'path-pattern', values: Array.from({ length: values }, (_, i) => `/${i}`) }],
        actions: [],
      },
    }) as unknown as ListenerRuleResource;
  const fields = { rules: 'R', targetGroups: 'T' };

  it('at the quotas: accepted', () => {
    expect(() =>
      checkLimits(
        stackOf([
          ...Array.from({ length: 99 }, (_, i) => tg(String(i))),
          tg('long', 'x'.repeat(32)),
          ...Array.from({ length: 50 }, (_, i) => listener(String(i))),
          ...Array.from({ length: 100 }, (_, i) => rule(String(i), 5)),
        ]),
        fields,
      ),
    ).not.toThrow();
  });

  it('one condition value too many: the rule’s field, else the rules field', () => {
    expect(refusal(() => checkLimits(stackOf([rule('r1', 6)]), fields))).toStrictEqual({
      message: 'R: rule r1 has 6 condition values; ELBv2 allows 5 per rule',
      field: 'R',
      reason: 'LimitExceeded',
    });
    expect(
      refusal(() => checkLimits(stackOf([rule('r1', 6)]), { ...fields, ruleField: () => undefined })).field,
    ).toBe('R');
    expect(
      refusal(() =>
        checkLimits(stackOf([rule('r1', 6)]), { ...fields, ruleField: (id) => ({ field: `path of ${id}` }) }),
      ).field,
    ).toBe('path of r1');
  });

  it('51 listeners', () => {
    expect(
      refusal(() => checkLimits(stackOf(Array.from({ length: 51 }, (_, i) => listener(String(i)))), fields)),
    ).toStrictEqual({
      message: 'T: 51 listeners exceed the quota of 50 per load balancer',
      field: 'T',
      reason: 'LimitExceeded',
    });
  });

  it.each([
    { resource: tg('tg1', 'x'.repeat(33)) },
    {
      resource: {
        id: 'LoadBalancer',
        type: ResourceTypes.LoadBalancer,
        spec: { name: 'x'.repeat(33) },
      } as StackResource,
    },
  ])('a name over 32 characters ($resource.id)', ({ resource }) => {
    expect(refusal(() => checkLimits(stackOf([resource]), fields))).toStrictEqual({
      message: `${resource.id}: name "${'x'.repeat(33)}" is longer than 32 characters`,
      field: resource.id,
      reason: 'LimitExceeded',
    });
  });
});

describe('the fingerprint’s canonical JSON', () => {
  it.each([
    { value: { b: 1, a: [{ d: 2, c: null }], c: undefined }, json: '{"a":[{"c":null,"d":2}],"b":1}' },
    { value: [1, 'x', true, null, [2]], json: '[1,"x",true,null,[2]]' },
    { value: { Z: 1, a: 2, '10': 3, '9': 4 }, json: '{"10":3,"9":4,"Z":1,"a":2}' },
    { value: 'a"b', json: '"a\\"b"' },
    { value: null, json: 'null' },
    { value: {}, json: '{}' },
  ])('$json', ({ value, json }) => {
    expect(canonicalJson(value)).toBe(json);
  });

  it('equal stacks built in another key order hash equal; another value does not', () => {
    const a: Stack = { id: 's', ownerId: 'o', resources: [] };
    const b = { resources: [], ownerId: 'o', id: 's' } as Stack;
    expect(stackFingerprint(b)).toBe(stackFingerprint(a));
    expect(stackFingerprint({ ...a, id: 't' })).not.toBe(stackFingerprint(a));
    expect(stackFingerprint(a)).toMatch(/^v2-[0-9a-f]{40}$/);
  });
});

describe('the targets fingerprint', () => {
  const a = { id: '10.0.0.1', port: 80 };
  const b = { id: '10.0.0.2', port: 80 };
  it('is the same in any order, 32 hex digits', () => {
    expect(targetsFingerprint([a, b])).toBe(targetsFingerprint([b, a]));
    expect(targetsFingerprint([a, b])).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    { name: 'another port', other: [{ ...a, port: 81 }, b] },
    { name: 'zone all', other: [{ ...a, availabilityZone: 'all' as const }, b] },
    { name: 'a target less', other: [a] },
    { name: 'another address', other: [{ ...a, id: '10.0.0.3' }, b] },
  ])('changes with $name', ({ other }) => {
    expect(targetsFingerprint(other)).not.toBe(targetsFingerprint([a, b]));
  });

  it('a stack’s fingerprint leaves the targets out (they have their own)', () => {
    const stack = buildServiceStack({
      mcs: mcs(),
      service: service('serve'),
      endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.1'] })],
      config,
    });
    const moved = buildServiceStack({
      mcs: mcs(),
      service: service('serve'),
      endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.2'] })],
      config,
    });
    expect(stackFingerprint(moved)).toBe(stackFingerprint(stack));
    expect(stackFingerprint({ ...stack, id: 'other' })).not.toBe(stackFingerprint(stack));
  });
});
