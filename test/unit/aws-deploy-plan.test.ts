/**
 * The planners, pure: for a desired resource and what discovery found, the exact operations
 * (kind, subject, detail) and ELBv2 calls a deploy makes, in order.
 */
import { describe, expect, it } from 'vitest';
import type { Rule, TargetGroup } from '@aws-sdk/client-elastic-load-balancing-v2';
import { inventoryStacks, unattachedTargetGroups } from '../../lib/providers/aws/deploy/deletion.js';
import type { ActualStack } from '../../lib/providers/aws/deploy/discover.js';
import { planListenerRules } from '../../lib/providers/aws/deploy/listener-rule.js';
import { planListeners, type ActualListener } from '../../lib/providers/aws/deploy/listener.js';
import {
  planIpAddressType,
  planLoadBalancer,
  requiresReplacement,
} from '../../lib/providers/aws/deploy/load-balancer.js';
import { planDeletion, planStack } from '../../lib/providers/aws/deploy/plan.js';
import {
  attributesToSet,
  matchTargetGroups,
  planTargetGroups,
  type OwnedTargetGroup,
} from '../../lib/providers/aws/deploy/target-group.js';
import { diffTargets, liveTargets, planTargets } from '../../lib/providers/aws/deploy/targets.js';
import { planRules } from '../../lib/providers/aws/deploy/rule-plan.js';
import { DNS_NAME_TAG, LEGACY_TARGETS_TAG_PREFIX } from '../../lib/providers/aws/deploy/targets-only.js';
import {
  loadBalancerResource,
  ResourceTypes,
  type HealthCheckSpec,
  type ListenerResource,
  type ListenerRuleResource,
  type Stack,
  type TargetGroupResource,
} from '../../lib/providers/aws/model/types.js';
import { CREATED_AT_TAG, FINGERPRINT_TAG, RESOURCE_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { arnRef, dnsRef } from '../../lib/providers/aws/deploy/refs.js';

const pc = { externalManagedTags: [] as string[] };
const CERT = (n: string) => `arn:aws:acm:us-east-1:123456789012:certificate/${n}`;

describe('the load balancer', () => {
  const desired = (o: Partial<Parameters<typeof loadBalancerResource>[0]> = {}) =>
    loadBalancerResource({
      name: 'k8s-lb',
      type: 'application',
      scheme: 'internal',
      subnets: ['subnet-a', 'subnet-b'],
      securityGroups: ['sg-1'],
      tags: { team: 'x' },
      ...o,
    });
  const actualLb = (o: Record<string, unknown> = {}) => ({
    lb: {
      LoadBalancerArn: 'arn:lb',
      LoadBalancerName: 'k8s-lb',
      Type: 'application' as const,
      Scheme: 'internal' as const,
      AvailabilityZones: [{ SubnetId: 'subnet-b' }, { SubnetId: 'subnet-a' }, {}],
      SecurityGroups: ['sg-1'],
      ...o,
    },
    tags: { team: 'x' },
  });

  it.each([
    { lb: { Type: 'network' }, expected: 'type network → application' },
    { lb: { Type: undefined }, expected: 'type ? → application' },
    { lb: { Scheme: 'internet-facing' }, expected: 'scheme internet-facing → internal' },
    { lb: { Scheme: undefined }, expected: 'scheme ? → internal' },
    { lb: { LoadBalancerName: 'k8s-old' }, expected: 'name k8s-old → k8s-lb' },
    { lb: { LoadBalancerName: undefined }, expected: 'name ? → k8s-lb' },
    { lb: {}, expected: undefined },
  ])('requiresReplacement($lb) is $expected', ({ lb, expected }) => {
    expect(requiresReplacement(desired(), actualLb(lb).lb)).toBe(expected);
  });

  it.each([
    { from: 'ipv4', to: 'dualstack', when: 'early' },
    { from: 'ipv4', to: 'dualstack-without-public-ipv4', when: 'early' },
    { from: 'dualstack', to: 'dualstack-without-public-ipv4', when: 'early' },
    { from: 'dualstack', to: 'ipv4', when: 'late' },
    { from: 'dualstack-without-public-ipv4', to: 'ipv4', when: 'late' },
  ] as const)('ip address type $from → $to: SetIpAddressType, $when', ({ from, to, when }) => {
    const op = {
      op: 'modify',
      resource: 'LoadBalancer',
      id: 'LoadBalancer',
      detail: `ip address type ${from} → ${to}`,
      calls: [{ action: 'SetIpAddressType', input: { LoadBalancerArn: 'arn:lb', IpAddressType: to } }],
    };
    expect(
      planIpAddressType(desired({ ipAddressType: to }), actualLb({ IpAddressType: from })),
    ).toStrictEqual({
      early: when === 'early' ? [op] : [],
      late: when === 'late' ? [op] : [],
    });
  });

  it('ip address type: nothing when it is the same, unknown, or the load balancer is new', () => {
    const none = { early: [], late: [] };
    expect(
      planIpAddressType(desired({ ipAddressType: 'dualstack' }), actualLb({ IpAddressType: 'dualstack' })),
    ).toStrictEqual(none);
    expect(planIpAddressType(desired({ ipAddressType: 'dualstack' }), actualLb())).toStrictEqual(none);
    expect(planIpAddressType(desired({ ipAddressType: 'dualstack' }), undefined)).toStrictEqual(none);
    const created = planLoadBalancer(pc, desired({ ipAddressType: 'dualstack' }), undefined, []);
    expect(created[0]?.calls[0]?.input).toMatchObject({ IpAddressType: 'dualstack' });
  });

  it('creates it with its attributes; security groups only when there are some', () => {
    expect(planLoadBalancer(pc, desired({ attributes: { b: '2', a: '1' } }), undefined, [])).toStrictEqual([
      {
        op: 'create',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'application internal k8s-lb',
        calls: [
          {
            action: 'CreateLoadBalancer',
            produces: 'LoadBalancer',
            input: {
              Name: 'k8s-lb',
              Type: 'application',
              Scheme: 'internal',
              IpAddressType: 'ipv4',
              Subnets: ['subnet-a', 'subnet-b'],
              SecurityGroups: ['sg-1'],
              Tags: [{ Key: 'team', Value: 'x' }],
            },
          },
          {
            action: 'ModifyLoadBalancerAttributes',
            input: {
              LoadBalancerArn: arnRef('LoadBalancer'),
              Attributes: [
                { Key: 'a', Value: '1' },
                { Key: 'b', Value: '2' },
              ],
            },
          },
        ],
      },
    ]);
    const [op] = planLoadBalancer(pc, desired({ securityGroups: undefined, type: 'network' }), undefined, []);
    expect(op?.calls).toHaveLength(1);
    expect(op?.calls[0]?.input).not.toHaveProperty('SecurityGroups');
    expect(op?.detail).toBe('network internal k8s-lb');
  });

  it('replaces: the stale ones deleted first, in one announced operation', () => {
    const stale = [
      actualLb({ LoadBalancerName: 'k8s-old', LoadBalancerArn: 'arn:old', Scheme: 'internet-facing' }),
      actualLb({ LoadBalancerName: undefined, LoadBalancerArn: 'arn:older' }),
    ];
    expect(planLoadBalancer(pc, desired(), undefined, stale)).toStrictEqual([
      {
        op: 'replace',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail:
          'k8s-old,  (scheme internet-facing → internal) is deleted and k8s-lb created: its DNS name changes',
        calls: [
          { action: 'DeleteLoadBalancer', input: { LoadBalancerArn: 'arn:old' } },
          { action: 'DeleteLoadBalancer', input: { LoadBalancerArn: 'arn:older' } },
          expect.objectContaining({ action: 'CreateLoadBalancer' }),
        ],
      },
    ]);
    expect(planLoadBalancer(pc, desired(), undefined, [actualLb()])[0]?.detail).toBe(
      'k8s-lb (changed) is deleted and k8s-lb created: its DNS name changes',
    );
  });

  it('nothing to change: no operation (subnets compared as a set)', () => {
    expect(planLoadBalancer(pc, desired(), actualLb(), [])).toStrictEqual([]);
    expect(
      planLoadBalancer(
        pc,
        desired({ securityGroups: undefined }),
        actualLb({ SecurityGroups: ['sg-9'] }),
        [],
      ),
    ).toStrictEqual([]);
    // An empty list (the provider config allows `securityGroups: []`) matches none reported.
    expect(
      planLoadBalancer(pc, desired({ securityGroups: [] }), actualLb({ SecurityGroups: undefined }), []),
    ).toStrictEqual([]);
  });

  it('modifies subnets, security groups, attributes and tags in one operation', () => {
    const actual = {
      ...actualLb({ AvailabilityZones: [{ SubnetId: 'subnet-a' }], SecurityGroups: undefined }),
      attributes: { a: '1', b: 'old', c: 'old' },
    };
    actual.tags = { team: 'y', stale: '1' } as typeof actual.tags;
    expect(
      planLoadBalancer(
        pc,
        desired({ attributes: { a: '1', c: '3', b: '2' }, tags: { team: 'x' } }),
        actual,
        [],
      ),
    ).toStrictEqual([
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'subnets +subnet-b; security groups; attributes b, c; untag stale; tags team',
        calls: [
          { action: 'SetSubnets', input: { LoadBalancerArn: 'arn:lb', Subnets: ['subnet-a', 'subnet-b'] } },
          { action: 'SetSecurityGroups', input: { LoadBalancerArn: 'arn:lb', SecurityGroups: ['sg-1'] } },
          {
            action: 'ModifyLoadBalancerAttributes',
            input: {
              LoadBalancerArn: 'arn:lb',
              Attributes: [
                { Key: 'b', Value: '2' },
                { Key: 'c', Value: '3' },
              ],
            },
          },
          { action: 'RemoveTags', input: { ResourceArns: ['arn:lb'], TagKeys: ['stale'] } },
          { action: 'AddTags', input: { ResourceArns: ['arn:lb'], Tags: [{ Key: 'team', Value: 'x' }] } },
        ],
      },
    ]);
  });

  it('a subnet set of the same size but other members, or a superset, is changed', () => {
    for (const [azs, detail] of [
      [[{ SubnetId: 'subnet-a' }, { SubnetId: 'subnet-c' }], 'subnets +subnet-b -subnet-c'],
      [[{ SubnetId: 'subnet-a' }, { SubnetId: 'subnet-b' }, { SubnetId: 'subnet-c' }], 'subnets -subnet-c'],
      [undefined, 'subnets +subnet-a +subnet-b'],
    ] as const) {
      const [op] = planLoadBalancer(
        pc,
        desired(),
        actualLb({ AvailabilityZones: azs ? [...azs] : undefined }),
        [],
      );
      expect(op?.detail).toBe(detail);
    }
    const [sg] = planLoadBalancer(pc, desired(), actualLb({ SecurityGroups: ['sg-1', 'sg-2'] }), []);
    expect(sg?.detail).toBe('security groups');
    const [noArn] = planLoadBalancer(
      pc,
      desired(),
      actualLb({ LoadBalancerArn: undefined, SecurityGroups: [] }),
      [],
    );
    expect(noArn?.calls[0]?.input).toStrictEqual({ LoadBalancerArn: '', SecurityGroups: ['sg-1'] });
  });
});

describe('target groups', () => {
  const hc: HealthCheckSpec = {
    enabled: true,
    path: '/healthz',
    port: 'traffic-port',
    protocol: 'HTTP',
    intervalSeconds: 15,
    timeoutSeconds: 5,
    healthyThresholdCount: 2,
    unhealthyThresholdCount: 3,
    matcher: { httpCode: '200' },
  };
  const tgRes = (id: string, o: Partial<TargetGroupResource['spec']> = {}): TargetGroupResource => ({
    id,
    type: ResourceTypes.TargetGroup,
    spec: {
      name: `k8s-${id}`,
      targetType: 'ip',
      protocol: 'HTTP',
      protocolVersion: 'HTTP1',
      port: 8080,
      ipAddressType: 'ipv4',
      vpcId: 'vpc-1',
      healthCheck: hc,
      targets: [],
      tags: { [RESOURCE_TAG]: id },
      ...o,
    },
  });
  const describedTg = (id: string, o: Partial<TargetGroup> = {}): TargetGroup => ({
    TargetGroupArn: `arn:${id}`,
    TargetGroupName: `k8s-${id}`,
    HealthCheckEnabled: true,
    HealthCheckPath: '/healthz',
    HealthCheckPort: 'traffic-port',
    HealthCheckProtocol: 'HTTP',
    HealthCheckIntervalSeconds: 15,
    HealthCheckTimeoutSeconds: 5,
    HealthyThresholdCount: 2,
    UnhealthyThresholdCount: 3,
    Matcher: { HttpCode: '200' },
    ...o,
  });
  const owned = (
    id: string,
    o: Partial<TargetGroup> = {},
    tags: Record<string, string> = { [RESOURCE_TAG]: id },
  ): OwnedTargetGroup => ({
    tg: describedTg(id, o),
    tags,
  });

  it.each([
    { desired: { a: '1', b: '2' }, actual: { a: '1', b: '3', c: '9' }, expected: [{ Key: 'b', Value: '2' }] },
    {
      desired: { z: '1', a: '2' },
      actual: undefined,
      expected: [
        { Key: 'a', Value: '2' },
        { Key: 'z', Value: '1' },
      ],
    },
    {
      desired: { a: '1', b: '2', c: '3' },
      actual: {},
      expected: [
        { Key: 'a', Value: '1' },
        { Key: 'b', Value: '2' },
        { Key: 'c', Value: '3' },
      ],
    },
    { desired: undefined, actual: { a: '1' }, expected: [] },
  ] as Array<{ desired?: Record<string, string>; actual?: Record<string, string>; expected: unknown }>)(
    'attributesToSet($desired, $actual)',
    ({ desired, actual, expected }) => {
      expect(attributesToSet(desired, actual)).toStrictEqual(expected);
    },
  );

  it('matches on the resource tag and the name, each owned group once', () => {
    const a1 = owned('a');
    const a2 = { ...owned('a'), tg: describedTg('a', { TargetGroupArn: 'arn:a2' }) };
    const renamed = owned('b', { TargetGroupName: 'k8s-other' });
    const kept = matchTargetGroups([tgRes('a'), tgRes('a'), tgRes('b')], [a1, a2, renamed]);
    expect([...kept]).toStrictEqual([['a', a2]]);
    const single = matchTargetGroups([tgRes('a')], [a1]);
    expect(single.get('a')).toBe(a1);
    // The right name under another resource ID is not the group this resource keeps.
    const retagged = owned('a', {}, { [RESOURCE_TAG]: 'b' });
    expect(matchTargetGroups([tgRes('a')], [retagged]).size).toBe(0);
  });

  it('an unchanged group: nothing to do, and it is kept', () => {
    const plan = planTargetGroups(pc, [tgRes('a')], [owned('a')]);
    expect(plan.upserts).toStrictEqual([]);
    expect(plan.deletes).toStrictEqual([]);
    expect(plan.kept.get('a')?.tg.TargetGroupArn).toBe('arn:a');
  });

  it.each([
    { field: 'HealthCheckEnabled', value: false },
    { field: 'HealthCheckPath', value: '/' },
    { field: 'HealthCheckPort', value: '8080' },
    { field: 'HealthCheckProtocol', value: 'HTTPS' },
    { field: 'HealthCheckIntervalSeconds', value: 30 },
    { field: 'HealthCheckTimeoutSeconds', value: 6 },
    { field: 'HealthyThresholdCount', value: 5 },
    { field: 'UnhealthyThresholdCount', value: 5 },
    { field: 'Matcher', value: { HttpCode: '200-399' } },
    { field: 'Matcher', value: undefined },
  ])('a health check differing in $field is modified in full', ({ field, value }) => {
    const plan = planTargetGroups(pc, [tgRes('a')], [owned('a', { [field]: value })]);
    expect(plan.upserts).toStrictEqual([
      {
        op: 'modify',
        resource: 'TargetGroup',
        id: 'a',
        detail: 'health check',
        calls: [
          {
            action: 'ModifyTargetGroup',
            input: {
              TargetGroupArn: 'arn:a',
              HealthCheckEnabled: true,
              HealthCheckPath: '/healthz',
              HealthCheckPort: 'traffic-port',
              HealthCheckProtocol: 'HTTP',
              HealthCheckIntervalSeconds: 15,
              HealthCheckTimeoutSeconds: 5,
              HealthyThresholdCount: 2,
              UnhealthyThresholdCount: 3,
              Matcher: { HttpCode: '200' },
            },
          },
        ],
      },
    ]);
  });

  it('a TCP health check (no path, no matcher) ignores what AWS reports for them; unset enabled means enabled', () => {
    const tcp: HealthCheckSpec = { ...hc, protocol: 'TCP' };
    delete tcp.path;
    delete tcp.matcher;
    const actual = owned('a', {
      HealthCheckProtocol: 'TCP',
      HealthCheckPath: undefined,
      Matcher: undefined,
      HealthCheckEnabled: undefined,
    });
    expect(planTargetGroups(pc, [tgRes('a', { healthCheck: tcp })], [actual]).upserts).toStrictEqual([]);
    // A path or matcher AWS still reports (left from an HTTP check) is not ours to reset.
    const leftOver = owned('a', {
      HealthCheckProtocol: 'TCP',
      HealthCheckPath: '/old',
      Matcher: { HttpCode: '200' },
    });
    expect(planTargetGroups(pc, [tgRes('a', { healthCheck: tcp })], [leftOver]).upserts).toStrictEqual([]);
    const changed = planTargetGroups(pc, [tgRes('a', { healthCheck: { ...tcp, port: '80' } })], [actual]);
    expect(changed.upserts[0]?.calls[0]?.input).toStrictEqual({
      TargetGroupArn: 'arn:a',
      HealthCheckEnabled: true,
      HealthCheckPort: '80',
      HealthCheckProtocol: 'TCP',
      HealthCheckIntervalSeconds: 15,
      HealthCheckTimeoutSeconds: 5,
      HealthyThresholdCount: 2,
      UnhealthyThresholdCount: 3,
    });
  });

  it('attributes and tags of a kept group', () => {
    const actual = {
      ...owned('a', {}, { [RESOURCE_TAG]: 'a', old: '1' }),
      attributes: { x: '1', y: '1', z: '1' },
    };
    const plan = planTargetGroups(pc, [tgRes('a', { attributes: { z: '2', x: '2', y: '1' } })], [actual]);
    expect(plan.upserts).toStrictEqual([
      {
        op: 'modify',
        resource: 'TargetGroup',
        id: 'a',
        detail: 'attributes x, z; untag old',
        calls: [
          {
            action: 'ModifyTargetGroupAttributes',
            input: {
              TargetGroupArn: 'arn:a',
              Attributes: [
                { Key: 'x', Value: '2' },
                { Key: 'z', Value: '2' },
              ],
            },
          },
          { action: 'RemoveTags', input: { ResourceArns: ['arn:a'], TagKeys: ['old'] } },
        ],
      },
    ]);
  });

  it('gRPC: the matcher is the GrpcCode, compared on its own; HttpCode of a gRPC group is not looked at', () => {
    const grpc = tgRes('g', {
      protocolVersion: 'GRPC',
      healthCheck: { ...hc, path: '/AWS.ALB/healthcheck', matcher: { grpcCode: '12' } },
    });
    const same = owned('g', { HealthCheckPath: '/AWS.ALB/healthcheck', Matcher: { GrpcCode: '12' } });
    expect(planTargetGroups(pc, [grpc], [same]).upserts).toStrictEqual([]);
    const other = owned('g', { HealthCheckPath: '/AWS.ALB/healthcheck', Matcher: { GrpcCode: '0-99' } });
    expect(planTargetGroups(pc, [grpc], [other]).upserts[0]?.calls).toStrictEqual([
      {
        action: 'ModifyTargetGroup',
        input: {
          TargetGroupArn: 'arn:g',
          HealthCheckEnabled: true,
          HealthCheckPath: '/AWS.ALB/healthcheck',
          HealthCheckPort: 'traffic-port',
          HealthCheckProtocol: 'HTTP',
          HealthCheckIntervalSeconds: 15,
          HealthCheckTimeoutSeconds: 5,
          HealthyThresholdCount: 2,
          UnhealthyThresholdCount: 3,
          Matcher: { GrpcCode: '12' },
        },
      },
    ]);
    const created = planTargetGroups(pc, [grpc], []).upserts[0];
    expect(created?.detail).toBe('k8s-g (GRPC)');
    expect(created?.calls[0]?.input).toMatchObject({
      ProtocolVersion: 'GRPC',
      HealthCheckPath: '/AWS.ALB/healthcheck',
      Matcher: { GrpcCode: '12' },
    });
  });

  it('a create names what is not HTTP/1.1 over IPv4; a replacement names the immutable settings that changed', () => {
    const v6 = tgRes('a', {
      name: 'k8s-a-v6',
      protocol: 'HTTPS',
      protocolVersion: 'HTTP2',
      ipAddressType: 'ipv6',
    });
    expect(planTargetGroups(pc, [v6], []).upserts[0]?.detail).toBe('k8s-a-v6 (HTTPS, HTTP2, ipv6)');
    const was = owned('a', {
      Protocol: 'HTTP',
      ProtocolVersion: 'HTTP1',
      Port: 8080,
      TargetType: 'ip',
      VpcId: 'vpc-1',
      IpAddressType: 'ipv4',
    });
    expect(planTargetGroups(pc, [v6], [was]).upserts[0]).toMatchObject({
      op: 'replace',
      detail:
        'immutable settings changed (protocol HTTP → HTTPS, protocol version HTTP1 → HTTP2, ip address type ipv4 → ipv6): k8s-a is replaced by k8s-a-v6 (HTTPS, HTTP2, ipv6), deleted once nothing points at it',
    });
    expect(planTargetGroups(pc, [v6], [was]).deletes.map((d) => d.id)).toStrictEqual(['k8s-a']);
  });

  it('creates a new group with its attributes, replaces one whose name changed, deletes what no one keeps', () => {
    const plan = planTargetGroups(
      pc,
      [
        tgRes('new', { attributes: { k: 'v' } }),
        tgRes('moved', { name: 'k8s-moved-2', protocolVersion: undefined }),
      ],
      [
        owned('moved'),
        owned('gone', {}, { [RESOURCE_TAG]: 'gone' }),
        owned('anon', { TargetGroupName: undefined }, {}),
      ],
    );
    expect(plan.upserts).toStrictEqual([
      {
        op: 'create',
        resource: 'TargetGroup',
        id: 'new',
        detail: 'k8s-new',
        calls: [
          {
            action: 'CreateTargetGroup',
            produces: 'new',
            input: {
              Name: 'k8s-new',
              TargetType: 'ip',
              Protocol: 'HTTP',
              ProtocolVersion: 'HTTP1',
              Port: 8080,
              VpcId: 'vpc-1',
              IpAddressType: 'ipv4',
              HealthCheckEnabled: true,
              HealthCheckPath: '/healthz',
              HealthCheckPort: 'traffic-port',
              HealthCheckProtocol: 'HTTP',
              HealthCheckIntervalSeconds: 15,
              HealthCheckTimeoutSeconds: 5,
              HealthyThresholdCount: 2,
              UnhealthyThresholdCount: 3,
              Matcher: { HttpCode: '200' },
              Tags: [{ Key: RESOURCE_TAG, Value: 'new' }],
            },
          },
          {
            action: 'ModifyTargetGroupAttributes',
            input: { TargetGroupArn: arnRef('new'), Attributes: [{ Key: 'k', Value: 'v' }] },
          },
        ],
      },
      {
        op: 'replace',
        resource: 'TargetGroup',
        id: 'moved',
        detail:
          'immutable settings changed (protocol/port/target type/VPC): k8s-moved is replaced by k8s-moved-2, deleted once nothing points at it',
        calls: [expect.objectContaining({ action: 'CreateTargetGroup', produces: 'moved' })],
      },
    ]);
    expect(plan.upserts[1]?.calls[0]?.input).not.toHaveProperty('ProtocolVersion');
    expect(plan.deletes).toStrictEqual([
      {
        op: 'delete',
        resource: 'TargetGroup',
        id: 'k8s-moved',
        detail: 'no longer in the stack (resource moved)',
        calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: 'arn:moved' } }],
      },
      {
        op: 'delete',
        resource: 'TargetGroup',
        id: 'k8s-gone',
        detail: 'no longer in the stack (resource gone)',
        calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: 'arn:gone' } }],
      },
      {
        op: 'delete',
        resource: 'TargetGroup',
        id: 'arn:anon',
        detail: 'no longer in the stack (resource ?)',
        calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: 'arn:anon' } }],
      },
    ]);
  });
});

describe('targets', () => {
  it('diff: in-VPC targets match any zone, off-VPC ones need zone all', () => {
    expect(
      diffTargets(
        [
          { id: '10.0.0.1', port: 80 },
          { id: '10.0.0.2', port: 80 },
          { id: '172.16.0.1', port: 80, availabilityZone: 'all' },
          { id: '172.16.0.2', port: 80, availabilityZone: 'all' },
          { id: '10.0.0.4', port: 80 },
        ],
        [
          { Id: '10.0.0.1', Port: 80, AvailabilityZone: 'us-east-1a' },
          { Id: '10.0.0.2', Port: 80, AvailabilityZone: 'all' },
          { Id: '172.16.0.1', Port: 80, AvailabilityZone: 'all' },
          { Id: '172.16.0.2', Port: 80, AvailabilityZone: 'us-east-1a' },
          { Id: '10.0.0.3', Port: 80 },
          { Id: '10.0.0.4', Port: 81 },
        ],
      ),
    ).toStrictEqual({
      rezone: [
        { Id: '10.0.0.2', Port: 80, AvailabilityZone: 'all' },
        { Id: '172.16.0.2', Port: 80, AvailabilityZone: 'us-east-1a' },
      ],
      register: [
        { Id: '10.0.0.2', Port: 80 },
        { Id: '172.16.0.2', Port: 80, AvailabilityZone: 'all' },
        { Id: '10.0.0.4', Port: 80 },
      ],
      deregister: [
        { Id: '10.0.0.3', Port: 80, AvailabilityZone: undefined },
        { Id: '10.0.0.4', Port: 81, AvailabilityZone: undefined },
      ],
    });
  });

  it('plan: re-zoned out, register, deregister, in calls of at most 200, and the counts in words', () => {
    const desired = Array.from({ length: 201 }, (_, i) => ({
      id: `10.0.${Math.floor(i / 256)}.${i % 256}`,
      port: 80,
    }));
    const ops = planTargets('tg', 'arn:tg', desired, [
      { Id: '10.0.0.0', Port: 80, AvailabilityZone: 'all' },
      { Id: '10.9.9.9', Port: 80 },
    ]);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      op: 'modify',
      resource: 'Targets',
      id: 'tg',
      detail: 'targets +201 -1 1 re-zoned',
    });
    expect(
      ops[0]?.calls.map((c) => [c.action, (c.input as { Targets: unknown[] }).Targets.length]),
    ).toStrictEqual([
      ['DeregisterTargets', 1],
      ['RegisterTargets', 200],
      ['RegisterTargets', 1],
      ['DeregisterTargets', 1],
    ]);
    expect(
      ops[0]?.calls.every((c) => (c.input as { TargetGroupArn: string }).TargetGroupArn === 'arn:tg'),
    ).toBe(true);
  });

  it('plan: only deregistrations, only registrations, or nothing', () => {
    expect(planTargets('tg', 'arn', [], [{ Id: '10.0.0.1', Port: 80 }])[0]?.detail).toBe('targets -1');
    expect(planTargets('tg', arnRef('tg'), [{ id: '10.0.0.1', port: 80 }], undefined)[0]?.detail).toBe(
      'targets +1',
    );
    expect(
      planTargets('tg', 'arn', [{ id: '10.0.0.1', port: 80 }], [{ Id: '10.0.0.1', Port: 80 }]),
    ).toStrictEqual([]);
  });

  it('live targets leave out draining ones and entries without an ID', () => {
    expect(
      liveTargets([
        { Target: { Id: 'a', Port: 1 }, TargetHealth: { State: 'healthy' } },
        { Target: { Id: 'b', Port: 1 }, TargetHealth: { State: 'draining' } },
        { Target: { Port: 1 } as { Id: string; Port: number }, TargetHealth: { State: 'healthy' } },
        { Target: { Id: 'c', Port: 1 } },
        { TargetHealth: { State: 'initial' } },
      ]),
    ).toStrictEqual([
      { Id: 'a', Port: 1 },
      { Id: 'c', Port: 1 },
    ]);
  });
});

describe('listeners', () => {
  const resolve = (id: string) => `arn:${id}`;
  const fwd = [{ type: 'forward' as const, targetGroup: { $ref: 'tg' } }];
  const sdkFwd = [{ Type: 'forward' as const, Order: 1, TargetGroupArn: 'arn:tg' }];
  const listenerRes = (port: number, o: Partial<ListenerResource['spec']> = {}): ListenerResource => ({
    id: String(port),
    type: ResourceTypes.Listener,
    spec: {
      loadBalancer: { $ref: 'LoadBalancer' },
      port,
      protocol: 'HTTP',
      defaultActions: fwd,
      tags: { r: String(port) },
      ...o,
    },
  });
  const actualListener = (
    port: number,
    o: Partial<ActualListener['listener']> = {},
    extra: Partial<ActualListener> = {},
  ): ActualListener => ({
    listener: { ListenerArn: `arn:l${port}`, Port: port, Protocol: 'HTTP', DefaultActions: sdkFwd, ...o },
    extraCertificates: [],
    rules: [],
    ...extra,
  });

  it('retires listeners on ports no longer served, for planStack to delete after the new ones', () => {
    const plan = planListeners(
      pc,
      'arn:lb',
      [listenerRes(80), listenerRes(443)],
      [actualListener(81), actualListener(80), actualListener(0, { Port: undefined, Protocol: undefined })],
      resolve,
    );
    expect(plan.retired).toStrictEqual([
      {
        op: 'delete',
        resource: 'Listener',
        id: 'HTTP:81',
        detail: 'port no longer served',
        calls: [{ action: 'DeleteListener', input: { ListenerArn: 'arn:l81' } }],
      },
      {
        op: 'delete',
        resource: 'Listener',
        id: ':',
        detail: 'port no longer served',
        calls: [{ action: 'DeleteListener', input: { ListenerArn: 'arn:l0' } }],
      },
    ]);
    expect(plan.operations.map((o) => `${o.op} ${o.id}`)).toStrictEqual(['create 443']);
    expect([...plan.deployed].map(([id]) => id)).toStrictEqual(['80', '443']);
  });

  it('deletes them first, as LBC does, when creating first would go over the listener quota', () => {
    const actual = Array.from({ length: 50 }, (_, i) => actualListener(1000 + i));
    const plan = planListeners(pc, 'arn:lb', [listenerRes(80)], actual, resolve);
    expect(plan.retired).toStrictEqual([]);
    expect(plan.operations.map((o) => `${o.op} ${o.id}`)).toStrictEqual([
      ...actual.map((a) => `delete HTTP:${a.listener.Port ?? ''}`),
      'create 80',
    ]);
    // 49 of them and one more: within the quota, so made before broken.
    const within = planListeners(pc, 'arn:lb', [listenerRes(80)], actual.slice(1), resolve);
    expect(within.operations.map((o) => `${o.op} ${o.id}`)).toStrictEqual(['create 80']);
    expect(within.retired).toHaveLength(49);
  });

  it('creates a TLS listener with its default certificate, policy, extra certificates and tags', () => {
    const plan = planListeners(
      pc,
      'arn:lb',
      [
        listenerRes(443, {
          protocol: 'HTTPS',
          certificates: [CERT('a'), CERT('b'), CERT('c')],
          sslPolicy: 'P',
        }),
      ],
      [],
      resolve,
    );
    expect(plan.operations).toStrictEqual([
      {
        op: 'create',
        resource: 'Listener',
        id: '443',
        detail: 'HTTPS:443',
        calls: [
          {
            action: 'CreateListener',
            produces: '443',
            input: {
              LoadBalancerArn: 'arn:lb',
              Port: 443,
              Protocol: 'HTTPS',
              DefaultActions: sdkFwd,
              Certificates: [{ CertificateArn: CERT('a') }],
              SslPolicy: 'P',
              Tags: [{ Key: 'r', Value: '443' }],
            },
          },
          {
            action: 'AddListenerCertificates',
            input: {
              ListenerArn: arnRef('443'),
              Certificates: [{ CertificateArn: CERT('b') }, { CertificateArn: CERT('c') }],
            },
          },
        ],
      },
    ]);
    expect([...plan.deployed]).toStrictEqual([['443', { arn: arnRef('443'), rules: undefined }]]);
  });

  it('an HTTP listener gets no certificates even when some are given; a TLS one without policy gets none', () => {
    const [http] = planListeners(
      pc,
      'arn:lb',
      [listenerRes(80, { certificates: [CERT('a')], sslPolicy: 'P' })],
      [],
      resolve,
    ).operations;
    expect(http?.calls).toHaveLength(1);
    expect(http?.calls[0]?.input).toStrictEqual({
      LoadBalancerArn: 'arn:lb',
      Port: 80,
      Protocol: 'HTTP',
      DefaultActions: sdkFwd,
      Tags: [{ Key: 'r', Value: '80' }],
    });
    const [tls] = planListeners(
      pc,
      'arn:lb',
      [listenerRes(443, { protocol: 'TLS', certificates: [] })],
      [],
      resolve,
    ).operations;
    expect(tls?.calls[0]?.input).not.toHaveProperty('Certificates');
    expect(tls?.calls[0]?.input).not.toHaveProperty('SslPolicy');
  });

  it.each([
    { name: 'protocol', actual: { Protocol: 'HTTPS' as const }, detail: 'protocol HTTPS → HTTP' },
    { name: 'unknown protocol', actual: { Protocol: undefined }, detail: 'protocol  → HTTP' },
    {
      name: 'default action',
      actual: { DefaultActions: [{ Type: 'forward' as const, TargetGroupArn: 'arn:other' }] },
      detail: 'default action',
    },
  ])('modifies a listener whose $name changed', ({ actual, detail }) => {
    const plan = planListeners(pc, 'arn:lb', [listenerRes(80)], [actualListener(80, actual)], resolve);
    expect(plan.operations).toStrictEqual([
      {
        op: 'modify',
        resource: 'Listener',
        id: '80',
        detail,
        calls: [
          {
            action: 'ModifyListener',
            input: { ListenerArn: 'arn:l80', Port: 80, Protocol: 'HTTP', DefaultActions: sdkFwd },
          },
        ],
      },
    ]);
  });

  it('a secure listener: default certificate, policy, extra certificates added and removed', () => {
    const desired = listenerRes(443, {
      protocol: 'HTTPS',
      certificates: [CERT('a'), CERT('b')],
      sslPolicy: 'P2',
    });
    const actual = actualListener(
      443,
      { Protocol: 'HTTPS', Certificates: [{ CertificateArn: CERT('x') }], SslPolicy: 'P1' },
      { extraCertificates: [CERT('c'), CERT('a')] },
    );
    const plan = planListeners(pc, 'arn:lb', [desired], [actual], resolve);
    expect(plan.operations).toStrictEqual([
      {
        op: 'modify',
        resource: 'Listener',
        id: '443',
        detail: 'default certificate; ssl policy; +1 certificate(s); -1 certificate(s)',
        calls: [
          {
            action: 'ModifyListener',
            input: {
              ListenerArn: 'arn:l443',
              Port: 443,
              Protocol: 'HTTPS',
              DefaultActions: sdkFwd,
              Certificates: [{ CertificateArn: CERT('a') }],
              SslPolicy: 'P2',
            },
          },
          {
            action: 'AddListenerCertificates',
            input: { ListenerArn: 'arn:l443', Certificates: [{ CertificateArn: CERT('b') }] },
          },
          {
            action: 'RemoveListenerCertificates',
            input: { ListenerArn: 'arn:l443', Certificates: [{ CertificateArn: CERT('c') }] },
          },
        ],
      },
    ]);
  });

  it('a secure listener matching in full: nothing; no policy wanted: the actual one is left', () => {
    const desired = listenerRes(443, { protocol: 'TLS', certificates: [CERT('a'), CERT('b')] });
    const actual = actualListener(
      443,
      { Protocol: 'TLS', Certificates: [{ CertificateArn: CERT('a') }], SslPolicy: 'P1' },
      { extraCertificates: [CERT('b')] },
    );
    expect(planListeners(pc, 'arn:lb', [desired], [actual], resolve).operations).toStrictEqual([]);
  });

  it.each([undefined, []])(
    'a listener turning secure gets all its extra certificates (what the plain one listed does not count; its certificates: %j)',
    (certificates) => {
      const desired = listenerRes(443, { protocol: 'HTTPS', certificates: [CERT('a'), CERT('b')] });
      const actual = actualListener(
        443,
        { Protocol: 'HTTP', ...(certificates ? { Certificates: certificates } : {}) },
        { extraCertificates: [CERT('b')] },
      );
      const ops = planListeners(pc, 'arn:lb', [desired], [actual], resolve).operations;
      expect(ops[0]?.calls.map((c) => c.action)).toStrictEqual(['ModifyListener', 'AddListenerCertificates']);
      expect(ops[0]?.detail).toBe('protocol HTTP → HTTPS; default certificate; +1 certificate(s)');
    },
  );

  it('the default certificate listed among the extra ones is not removed', () => {
    const desired = listenerRes(443, { protocol: 'HTTPS', certificates: [CERT('a')] });
    const actual = actualListener(
      443,
      { Protocol: 'HTTPS', Certificates: [{ CertificateArn: CERT('a') }] },
      { extraCertificates: [CERT('a')] },
    );
    expect(planListeners(pc, 'arn:lb', [desired], [actual], resolve).operations).toStrictEqual([]);
  });

  it('on a resync, the listener’s tags are repaired and the described tags passed on', () => {
    const tags = new Map([['arn:l80', { r: 'old', extra: '1' }]]);
    const plan = planListeners(pc, 'arn:lb', [listenerRes(80)], [actualListener(80, {}, { tags })], resolve);
    expect(plan.operations).toStrictEqual([
      {
        op: 'modify',
        resource: 'Listener',
        id: '80',
        detail: 'untag extra; tags r',
        calls: [
          { action: 'RemoveTags', input: { ResourceArns: ['arn:l80'], TagKeys: ['extra'] } },
          { action: 'AddTags', input: { ResourceArns: ['arn:l80'], Tags: [{ Key: 'r', Value: '80' }] } },
        ],
      },
    ]);
    expect(plan.deployed.get('80')).toStrictEqual({ arn: 'arn:l80', rules: [], tags });
    const untagged = planListeners(
      pc,
      'arn:lb',
      [listenerRes(80)],
      [actualListener(80, {}, { tags: new Map() })],
      resolve,
    );
    expect(untagged.operations[0]?.calls.map((c) => c.action)).toStrictEqual(['AddTags']);
  });

  it('a described listener without ARN is created anew', () => {
    const plan = planListeners(
      pc,
      'arn:lb',
      [listenerRes(80)],
      [actualListener(80, { ListenerArn: undefined })],
      resolve,
    );
    expect(plan.operations.map((o) => o.op)).toStrictEqual(['create']);
  });
});

describe('listener rules', () => {
  const resolve = (id: string) => `arn:${id}`;
  const ruleRes = (
    id: string,
    priority: number,
    path: string,
    tags: Record<string, string> = { r: id },
  ): ListenerRuleResource => ({
    id,
    type: ResourceTypes.ListenerRule,
    spec: {
      listener: { $ref: '80' },
      priority,
      conditions: [{ field: 'path-pattern', values: [path] }],
      actions: [{ type: 'forward', targetGroup: { $ref: 'tg' } }],
      tags,
    },
  });
  const actualRule = (arn: string, priority: string, path: string, o: Partial<Rule> = {}): Rule => ({
    RuleArn: arn,
    Priority: priority,
    IsDefault: false,
    Conditions: [{ Field: 'path-pattern', Values: [path] }],
    Actions: [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:tg' }],
    ...o,
  });
  const conditions = (path: string) => [{ Field: 'path-pattern', PathPatternConfig: { Values: [path] } }];
  const actions = [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:tg' }];

  it('on a new listener: every rule created, with its tags', () => {
    expect(planListenerRules(pc, arnRef('80'), [ruleRes('a', 1, '/a')], undefined, resolve)).toStrictEqual([
      {
        op: 'create',
        resource: 'ListenerRule',
        id: 'a',
        detail: 'priority 1: path-pattern /a → forward tg',
        calls: [
          {
            action: 'CreateRule',
            input: {
              ListenerArn: arnRef('80'),
              Priority: 1,
              Conditions: conditions('/a'),
              Actions: actions,
              Tags: [{ Key: 'r', Value: 'a' }],
            },
          },
        ],
      },
    ]);
  });

  it('moves, switches in place, creates and deletes, in that order; the default rule is never touched', () => {
    const ops = planListenerRules(
      pc,
      'arn:l',
      [ruleRes('b', 1, '/b'), ruleRes('a', 2, '/a'), ruleRes('c', 3, '/c'), ruleRes('d', 4, '/d')],
      [
        actualRule('r-a', '1', '/a'),
        actualRule('r-x', '3', '/x'),
        actualRule('r-y', '9', '/y'),
        actualRule('r-def', 'default', '', { IsDefault: true }),
        actualRule('', '5', '/z', { RuleArn: undefined }),
      ],
      resolve,
    );
    expect(ops).toStrictEqual([
      {
        op: 'modify',
        resource: 'ListenerRule',
        id: 'arn:l priorities',
        detail: '1 rule(s) re-prioritised atomically',
        calls: [
          { action: 'SetRulePriorities', input: { RulePriorities: [{ RuleArn: 'r-a', Priority: 2 }] } },
        ],
      },
      {
        op: 'modify',
        resource: 'ListenerRule',
        id: 'c',
        detail: 'rule at priority 3 switched in place: path-pattern /c → forward tg',
        calls: [
          { action: 'ModifyRule', input: { RuleArn: 'r-x', Conditions: conditions('/c'), Actions: actions } },
          { action: 'AddTags', input: { ResourceArns: ['r-x'], Tags: [{ Key: 'r', Value: 'c' }] } },
        ],
      },
      expect.objectContaining({ op: 'create', id: 'b', detail: 'priority 1: path-pattern /b → forward tg' }),
      expect.objectContaining({ op: 'create', id: 'd', detail: 'priority 4: path-pattern /d → forward tg' }),
      {
        op: 'delete',
        resource: 'ListenerRule',
        id: 'r-y',
        detail: 'stale rule',
        calls: [{ action: 'DeleteRule', input: { RuleArn: 'r-y' } }],
      },
    ]);
  });

  it('on a resync: a switched rule loses stale tags, kept and moved rules get theirs repaired', () => {
    const tags = new Map<string, Record<string, string>>([
      ['r-a', { r: 'a' }],
      ['r-b', { r: 'old', stale: '1' }],
      ['r-x', { r: 'x', stale: '1' }],
    ]);
    const ops = planListenerRules(
      pc,
      'arn:l',
      [ruleRes('a', 1, '/a'), ruleRes('b', 2, '/b'), ruleRes('c', 3, '/c'), ruleRes('b2', 4, '/b')],
      [
        actualRule('r-a', '1', '/a'),
        actualRule('r-b', '5', '/b'),
        actualRule('r-x', '3', '/x'),
        actualRule('r-def', 'default', '', { IsDefault: true }),
      ],
      resolve,
      tags,
    );
    expect(ops.map((o) => [o.op, o.id, o.detail, o.calls.map((c) => c.action)])).toStrictEqual([
      ['modify', 'arn:l priorities', '1 rule(s) re-prioritised atomically', ['SetRulePriorities']],
      [
        'modify',
        'c',
        'rule at priority 3 switched in place: path-pattern /c → forward tg',
        ['ModifyRule', 'RemoveTags', 'AddTags'],
      ],
      ['create', 'b2', 'priority 4: path-pattern /b → forward tg', ['CreateRule']],
      ['modify', 'b', 'untag stale; tags r', ['RemoveTags', 'AddTags']],
    ]);
    expect(ops[1]?.calls[1]?.input).toStrictEqual({ ResourceArns: ['r-x'], TagKeys: ['stale'] });
  });

  it('on a resync: each kept rule gets the tags of the rule it serves, also among equal rules; a stale one none', () => {
    const old = { r: 'old' };
    const ops = planListenerRules(
      pc,
      'arn:l',
      [ruleRes('a', 1, '/a'), ruleRes('a2', 2, '/a')],
      [actualRule('r-dup', '5', '/a'), actualRule('r-2', '2', '/a'), actualRule('r-1', '1', '/a')],
      resolve,
      new Map([
        ['r-dup', old],
        ['r-2', old],
        ['r-1', old],
      ]),
    );
    expect(ops.map((o) => [o.op, o.id, o.calls])).toStrictEqual([
      [
        'modify',
        'a',
        [{ action: 'AddTags', input: { ResourceArns: ['r-1'], Tags: [{ Key: 'r', Value: 'a' }] } }],
      ],
      [
        'modify',
        'a2',
        [{ action: 'AddTags', input: { ResourceArns: ['r-2'], Tags: [{ Key: 'r', Value: 'a2' }] } }],
      ],
      ['delete', 'r-dup', [{ action: 'DeleteRule', input: { RuleArn: 'r-dup' } }]],
    ]);
  });

  it('on a resync: a rule without described tags gets every tag; an unmatched kept rule is left', () => {
    const ops = planListenerRules(
      pc,
      'arn:l',
      [ruleRes('a', 1, '/a')],
      [actualRule('r-a', '1', '/a')],
      resolve,
      new Map(),
    );
    expect(ops).toStrictEqual([
      {
        op: 'modify',
        resource: 'ListenerRule',
        id: 'a',
        detail: 'tags r',
        calls: [{ action: 'AddTags', input: { ResourceArns: ['r-a'], Tags: [{ Key: 'r', Value: 'a' }] } }],
      },
    ]);
    const switched = planListenerRules(
      pc,
      'arn:l',
      [ruleRes('a', 1, '/a')],
      [actualRule('r-x', '1', '/x')],
      resolve,
      new Map(),
    );
    expect(switched.map((o) => o.calls.map((c) => c.action))).toStrictEqual([['ModifyRule', 'AddTags']]);
  });
});

describe('the stack plan', () => {
  const lbRes = loadBalancerResource({
    name: 'k8s-lb',
    type: 'network',
    scheme: 'internal',
    subnets: ['s'],
    tags: {},
  });
  const stack = (resources: Stack['resources'] = [lbRes]): Stack => ({
    id: 'mcs/default/x',
    ownerId: 'o',
    resources,
  });
  const emptyActual: ActualStack = {
    staleLoadBalancers: [],
    listeners: [],
    targetGroups: [],
    targets: new Map(),
  };
  const withLb = (tags: Record<string, string>): ActualStack => ({
    ...emptyActual,
    loadBalancer: {
      lb: {
        DNSName: 'lb.example',
        LoadBalancerArn: 'arn:lb',
        LoadBalancerName: 'k8s-lb',
        Type: 'network',
        Scheme: 'internal',
        AvailabilityZones: [{ SubnetId: 's' }],
      },
      tags,
    },
  });
  const fp = (v: string, dns = 'lb.example') => ({
    action: 'AddTags',
    input: {
      ResourceArns: ['arn:lb'],
      Tags: [
        { Key: DNS_NAME_TAG, Value: dns },
        { Key: FINGERPRINT_TAG, Value: v },
      ],
    },
  });
  const recorded = (tags: Record<string, string>) => ({ [DNS_NAME_TAG]: 'lb.example', ...tags });

  it('refuses a stack without load balancer', () => {
    expect(() => planStack(stack([]), emptyActual, { ...pc, fingerprint: 'f' })).toThrow(
      'stack mcs/default/x has no load balancer',
    );
  });

  it('nothing changed, fingerprint current: no operation', () => {
    expect(
      planStack(stack(), withLb(recorded({ [FINGERPRINT_TAG]: 'f' })), { ...pc, fingerprint: 'f' }),
    ).toStrictEqual([]);
    // Recorded, but without the DNS name: recorded again.
    expect(planStack(stack(), withLb({ [FINGERPRINT_TAG]: 'f' }), { ...pc, fingerprint: 'f' })).toStrictEqual(
      [
        {
          op: 'modify',
          resource: 'LoadBalancer',
          id: 'LoadBalancer',
          detail: 'fingerprint f',
          calls: [fp('f')],
        },
      ],
    );
  });

  it('nothing changed but another fingerprint: only the fingerprint is written', () => {
    expect(
      planStack(stack(), withLb(recorded({ [FINGERPRINT_TAG]: 'old' })), { ...pc, fingerprint: 'f' }),
    ).toStrictEqual([
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'fingerprint f',
        calls: [fp('f')],
      },
    ]);
  });

  it('changes on a fingerprinted load balancer: invalidated first, written last', () => {
    const ops = planStack(stack(), withLb(recorded({ [FINGERPRINT_TAG]: 'old', stray: '1' })), {
      ...pc,
      fingerprint: 'f',
    });
    expect(ops).toStrictEqual([
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'fingerprint invalidated until this deploy completes',
        calls: [
          {
            action: 'AddTags',
            input: { ResourceArns: ['arn:lb'], Tags: [{ Key: FINGERPRINT_TAG, Value: 'pending' }] },
          },
        ],
      },
      expect.objectContaining({ op: 'modify', detail: 'untag stray' }),
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'fingerprint f',
        calls: [fp('f')],
      },
    ]);
  });

  it('changes when the fingerprint is already pending or absent: no invalidation', () => {
    for (const tags of [
      recorded({ [FINGERPRINT_TAG]: 'pending', stray: '1' }),
      recorded({ stray: '1' }),
    ] as Array<Record<string, string>>) {
      const ops = planStack(stack(), withLb(tags), { ...pc, fingerprint: 'f' });
      expect(ops.map((o) => o.detail)).toStrictEqual(['untag stray', 'fingerprint f']);
    }
  });

  it('a new stack: everything created in LBC’s order, the fingerprint on the placeholder ARN', () => {
    const tg: TargetGroupResource = {
      id: 'tg',
      type: ResourceTypes.TargetGroup,
      spec: {
        name: 'k8s-tg',
        targetType: 'ip',
        protocol: 'TCP',
        port: 80,
        ipAddressType: 'ipv4',
        vpcId: 'v',
        healthCheck: {
          enabled: true,
          port: 'traffic-port',
          protocol: 'TCP',
          intervalSeconds: 10,
          timeoutSeconds: 10,
          healthyThresholdCount: 3,
          unhealthyThresholdCount: 3,
        },
        targets: [{ id: '10.0.0.1', port: 80 }],
        tags: {},
      },
    };
    const listener: ListenerResource = {
      id: '80',
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: { $ref: 'LoadBalancer' },
        port: 80,
        protocol: 'TCP',
        defaultActions: [{ type: 'forward', targetGroup: { $ref: 'tg' } }],
        tags: {},
      },
    };
    const ops = planStack(stack([lbRes, tg, listener]), emptyActual, { ...pc, fingerprint: 'f' });
    // The group is filled before anything forwards to it.
    expect(ops.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'create TargetGroup',
      'modify Targets',
      'create LoadBalancer',
      'create Listener',
      'modify LoadBalancer',
    ]);
    expect(ops[3]?.calls[0]?.input).toMatchObject({
      LoadBalancerArn: arnRef('LoadBalancer'),
      DefaultActions: [{ TargetGroupArn: arnRef('tg') }],
    });
    expect(ops[1]?.calls[0]?.input).toMatchObject({ TargetGroupArn: arnRef('tg') });
    // Recorded last: the DNS name (known once created), the fingerprint, each group's targets.
    expect(ops[4]?.calls[0]?.input).toStrictEqual({
      ResourceArns: [arnRef('LoadBalancer')],
      Tags: [
        { Key: DNS_NAME_TAG, Value: dnsRef('LoadBalancer') },
        { Key: FINGERPRINT_TAG, Value: 'f' },
      ],
    });
  });

  it('per-group targets tags an older version wrote are removed before the record is written', () => {
    const ops = planStack(
      stack(),
      withLb(recorded({ [FINGERPRINT_TAG]: 'f', [`${LEGACY_TARGETS_TAG_PREFIX}k8s-gone`]: 'x' })),
      { ...pc, fingerprint: 'f' },
    );
    expect(ops).toStrictEqual([
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: 'fingerprint f',
        calls: [
          {
            action: 'RemoveTags',
            input: { ResourceArns: ['arn:lb'], TagKeys: [`${LEGACY_TARGETS_TAG_PREFIX}k8s-gone`] },
          },
          fp('f'),
        ],
      },
    ]);
  });

  it('kept target groups: their ARN in actions, their registered targets diffed', () => {
    const tg: TargetGroupResource = {
      id: 'tg',
      type: ResourceTypes.TargetGroup,
      spec: {
        name: 'k8s-tg',
        targetType: 'ip',
        protocol: 'TCP',
        port: 80,
        ipAddressType: 'ipv4',
        vpcId: 'v',
        healthCheck: {
          enabled: true,
          port: 'traffic-port',
          protocol: 'TCP',
          intervalSeconds: 10,
          timeoutSeconds: 10,
          healthyThresholdCount: 3,
          unhealthyThresholdCount: 3,
        },
        targets: [{ id: '10.0.0.1', port: 80 }],
        tags: { [RESOURCE_TAG]: 'tg' },
      },
    };
    const listener: ListenerResource = {
      id: '80',
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: { $ref: 'LoadBalancer' },
        port: 80,
        protocol: 'TCP',
        defaultActions: [{ type: 'forward', targetGroup: { $ref: 'tg' } }],
        tags: {},
      },
    };
    const actual: ActualStack = {
      ...withLb({ [FINGERPRINT_TAG]: 'old' }),
      targetGroups: [
        {
          tg: {
            TargetGroupArn: 'arn:tg',
            TargetGroupName: 'k8s-tg',
            HealthCheckEnabled: true,
            HealthCheckPort: 'traffic-port',
            HealthCheckProtocol: 'TCP',
            HealthCheckIntervalSeconds: 10,
            HealthCheckTimeoutSeconds: 10,
            HealthyThresholdCount: 3,
            UnhealthyThresholdCount: 3,
          },
          tags: { [RESOURCE_TAG]: 'tg' },
        },
      ],
      targets: new Map([['arn:tg', [{ Id: '10.0.0.2', Port: 80 }]]]),
    };
    const ops = planStack(stack([lbRes, tg, listener]), actual, { ...pc, fingerprint: 'f' });
    expect(ops.map((o) => `${o.op} ${o.resource} ${o.detail}`)).toStrictEqual([
      'modify LoadBalancer fingerprint invalidated until this deploy completes',
      // Registrations before the listeners and rules, deregistrations after them.
      'modify Targets targets +1',
      'create Listener TCP:80',
      'modify Targets targets -1',
      'modify LoadBalancer fingerprint f',
    ]);
    expect(ops[2]?.calls[0]?.input).toMatchObject({
      LoadBalancerArn: 'arn:lb',
      DefaultActions: [{ TargetGroupArn: 'arn:tg' }],
    });
    // A kept group with nothing registered yet: every target registered.
    const none = planStack(
      stack([lbRes, tg, listener]),
      { ...actual, targets: new Map() },
      { ...pc, fingerprint: 'f' },
    );
    expect(none.map((o) => o.detail)).toContain('targets +1');
  });

  it('rules are planned per listener; a TCP listener without rules is left alone', () => {
    const http: ListenerResource = {
      id: '80',
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: { $ref: 'LoadBalancer' },
        port: 80,
        protocol: 'HTTP',
        defaultActions: [],
        tags: {},
      },
    };
    const tcp: ListenerResource = { ...http, id: '81', spec: { ...http.spec, port: 81, protocol: 'TCP' } };
    const rule: ListenerRuleResource = {
      id: '80:r',
      type: ResourceTypes.ListenerRule,
      spec: {
        listener: { $ref: '80' },
        priority: 1,
        conditions: [{ field: 'path-pattern', values: ['/'] }],
        actions: [],
        tags: {},
      },
    };
    const actual: ActualStack = {
      ...withLb({ [FINGERPRINT_TAG]: 'f' }),
      listeners: [
        {
          listener: { ListenerArn: 'arn:80', Port: 80, Protocol: 'HTTP', DefaultActions: [] },
          extraCertificates: [],
          rules: [
            { RuleArn: 'arn:stale', Priority: '7', IsDefault: false, Conditions: [], Actions: [] },
            { RuleArn: 'arn:def', IsDefault: true },
          ],
        },
        {
          listener: { ListenerArn: 'arn:81', Port: 81, Protocol: 'TCP', DefaultActions: [] },
          extraCertificates: [],
          rules: [{ RuleArn: 'arn:def81', IsDefault: true }],
        },
      ],
    };
    const ops = planStack(stack([lbRes, http, tcp, rule]), actual, { ...pc, fingerprint: 'f' });
    expect(ops.map((o) => `${o.op} ${o.resource} ${o.id}`)).toStrictEqual([
      'modify LoadBalancer LoadBalancer',
      'create ListenerRule 80:r',
      'delete ListenerRule arn:stale',
      'modify LoadBalancer LoadBalancer',
    ]);
    // A listener of ours with only stale rules: they are deleted.
    const onlyStale = planStack(stack([lbRes, http]), actual, { ...pc, fingerprint: 'f' });
    expect(onlyStale.map((o) => `${o.op} ${o.id}`)).toContain('delete arn:stale');
    // Without a load balancer, described listeners do not count: all created.
    const fresh = planStack(
      stack([lbRes, http]),
      { ...actual, loadBalancer: undefined },
      { ...pc, fingerprint: 'f' },
    );
    expect(fresh.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'create LoadBalancer',
      'create Listener',
      'modify LoadBalancer',
    ]);
  });

  it('deletion: every load balancer first, then the target groups', () => {
    const lb = (name: string | undefined, arn: string) => ({
      lb: { LoadBalancerName: name, LoadBalancerArn: arn },
      tags: {},
    });
    expect(
      planDeletion({
        loadBalancer: lb('a', 'arn:a'),
        staleLoadBalancers: [lb(undefined, 'arn:b')],
        targetGroups: [
          { tg: { TargetGroupName: 'k8s-t', TargetGroupArn: 'arn:t' }, tags: {} },
          { tg: { TargetGroupArn: 'arn:u' }, tags: {} },
        ],
      }),
    ).toStrictEqual([
      {
        op: 'delete',
        resource: 'LoadBalancer',
        id: 'a',
        detail: 'stack deleted',
        calls: [{ action: 'DeleteLoadBalancer', input: { LoadBalancerArn: 'arn:a' } }],
      },
      {
        op: 'delete',
        resource: 'LoadBalancer',
        id: '',
        detail: 'stack deleted',
        calls: [{ action: 'DeleteLoadBalancer', input: { LoadBalancerArn: 'arn:b' } }],
      },
      {
        op: 'delete',
        resource: 'TargetGroup',
        id: 'k8s-t',
        detail: 'stack deleted',
        calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: 'arn:t' } }],
      },
      {
        op: 'delete',
        resource: 'TargetGroup',
        id: '',
        detail: 'stack deleted',
        calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: 'arn:u' } }],
      },
    ]);
    expect(planDeletion({ staleLoadBalancers: [], targetGroups: [] })).toStrictEqual([]);
  });
});

describe('the inventory', () => {
  const at = (s: string) => new Date(s);
  it('one entry per stack, sorted, with the newest creation time any of its resources tells', () => {
    expect(
      inventoryStacks({
        loadBalancers: [
          { lb: { CreatedTime: at('2026-01-01T00:00:00Z') }, tags: { [STACK_TAG]: 'mci/b/x' } },
          { lb: { CreatedTime: at('2026-03-01T00:00:00Z') }, tags: { [STACK_TAG]: 'mci/a/x' } },
          { lb: {}, tags: { [STACK_TAG]: 'mci/c/x' } },
          { lb: { CreatedTime: at('2026-01-01T00:00:00Z') }, tags: {} },
        ],
        targetGroups: [
          { tg: {}, tags: { [STACK_TAG]: 'mci/b/x', [CREATED_AT_TAG]: '2026-02-01T00:00:00Z' } },
          { tg: {}, tags: { [STACK_TAG]: 'mci/a/x', [CREATED_AT_TAG]: '2026-02-01T00:00:00Z' } },
          { tg: {}, tags: { [STACK_TAG]: 'mci/a/x' } },
          { tg: {}, tags: { [STACK_TAG]: 'mci/d/x', [CREATED_AT_TAG]: '2026-04-01T00:00:00Z' } },
          { tg: {}, tags: { [STACK_TAG]: 'mci/c/x', [CREATED_AT_TAG]: '2026-05-01T00:00:00Z' } },
        ],
      }),
    ).toStrictEqual([
      { stackId: 'mci/a/x', createdAt: at('2026-03-01T00:00:00Z') },
      { stackId: 'mci/b/x', createdAt: at('2026-02-01T00:00:00Z') },
      { stackId: 'mci/c/x', createdAt: at('2026-05-01T00:00:00Z') },
      { stackId: 'mci/d/x', createdAt: at('2026-04-01T00:00:00Z') },
    ]);
    expect(
      inventoryStacks({ loadBalancers: [{ lb: {}, tags: { [STACK_TAG]: 'mci/e/x' } }], targetGroups: [] }),
    ).toStrictEqual([{ stackId: 'mci/e/x' }]);
  });

  it('unattached target groups: those no load balancer lists', () => {
    const a = { tg: { TargetGroupArn: 'a', LoadBalancerArns: [] }, tags: {} };
    const b = { tg: { TargetGroupArn: 'b', LoadBalancerArns: ['lb'] }, tags: {} };
    const c = { tg: { TargetGroupArn: 'c' }, tags: {} };
    expect(unattachedTargetGroups({ loadBalancers: [], targetGroups: [a, b, c] })).toStrictEqual([a, c]);
  });
});

describe('rule plan: pushing stale rules out of the way', () => {
  it('a stale rule on a priority a move needs goes to 50000, or below when that is taken', () => {
    const plan = planRules(
      [{ id: 'a', settings: 'A', priority: 1 }],
      [
        { arn: 's', settings: 'S', priority: 1 },
        { arn: 'a', settings: 'A', priority: 5 },
        { arn: 'z', settings: 'Z', priority: 50000 },
      ],
    );
    expect(plan).toStrictEqual({
      setPriorities: [
        { arn: 'a', priority: 1 },
        { arn: 's', priority: 49999 },
      ],
      modify: [],
      create: [],
      delete: ['s', 'z'],
      keep: [{ arn: 'a', desired: { id: 'a', settings: 'A', priority: 1 } }],
      unchanged: 0,
    });
  });
});
