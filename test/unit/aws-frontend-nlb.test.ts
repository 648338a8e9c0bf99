/**
 * The frontend NLB (enable-frontend-nlb, frontend-nlb-*), pure: the model's resources and the
 * exact ELBv2 requests a first deploy makes for them, in order; LBC's defaults; every bad value
 * refused naming its key; and an IngressGroup's members agreeing on it (or the later one left out).
 */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { planDeletion, planStack } from '../../lib/providers/aws/deploy/plan.js';
import type { ActualStack } from '../../lib/providers/aws/deploy/discover.js';
import {
  buildIngressGroupStack,
  GROUP_CONFLICT_REASON,
} from '../../lib/providers/aws/model/ingress-group.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { frontendNlbName } from '../../lib/providers/aws/model/frontend-nlb.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import {
  FRONTEND_NLB_DNS_TAG,
  FRONTEND_NLB_TAG,
  RESOURCE_TAG,
  STACK_TAG,
} from '../../lib/providers/aws/tagging.js';
import { collectedSlice, config, minimalIngress, service } from '../fixtures/aws/objects.js';
import { arnRef, dnsRef } from '../../lib/providers/aws/deploy/refs.js';

const A = 'alb.ingress.kubernetes.io/';
const EIPS = 'eipalloc-0a000000000000001, eipalloc-0a000000000000002';

function mci(annotations: Record<string, string>, name = 'minimal-ingress'): MultiClusterIngress {
  const m = minimalIngress();
  return { ...m, metadata: { ...m.metadata, name, annotations } };
}
function build(annotations: Record<string, string>): Stack {
  return buildIngressStack({
    mci: mci(annotations),
    services: [service('serve')],
    endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })],
    config,
  });
}
const frontendIds = (s: Stack) => s.resources.map((r) => r.id).filter((id) => id.startsWith('FrontendNlb'));
const emptyActual: ActualStack = {
  staleLoadBalancers: [],
  listeners: [],
  targetGroups: [],
  targets: new Map(),
};

describe('the frontend NLB model', () => {
  it('is absent unless enable-frontend-nlb is true (its other keys are then not read, as LBC)', () => {
    expect(frontendIds(build({}))).toStrictEqual([]);
    expect(
      frontendIds(build({ [`${A}enable-frontend-nlb`]: 'false', [`${A}frontend-nlb-scheme`]: 'x' })),
    ).toStrictEqual([]);
  });

  it("has LBC's defaults: internal, one TCP listener per ALB port, an alb-type group per listener", () => {
    const stack = build({
      [`${A}enable-frontend-nlb`]: 'true',
      [`${A}listen-ports`]: '[{"HTTP":80},{"HTTP":8080}]',
    });
    expect(frontendIds(stack)).toStrictEqual([
      'FrontendNlb',
      'FrontendNlb-tg-TCP-80',
      'FrontendNlb-tg-TCP-8080',
      'FrontendNlb-ls-TCP-80',
      'FrontendNlb-ls-TCP-8080',
    ]);
    const [alb, nlb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
    expect(nlb?.spec).toMatchObject({
      name: frontendNlbName(alb?.spec.name ?? ''),
      type: 'network',
      scheme: 'internal',
      ipAddressType: 'ipv4',
      subnets: config.subnets,
      // The ALB's groups, as LBC.
      securityGroups: config.securityGroups,
    });
    expect(nlb?.spec.tags).toMatchObject({
      team: 'platform',
      [RESOURCE_TAG]: 'FrontendNlb',
      [STACK_TAG]: stack.id,
    });
    const tg = resourcesOf(stack, ResourceTypes.TargetGroup).find((t) => t.id === 'FrontendNlb-tg-TCP-8080');
    expect(tg?.spec).toMatchObject({
      targetType: 'alb',
      protocol: 'TCP',
      port: 8080,
      ipAddressType: 'ipv4',
      targets: [],
      albTarget: { loadBalancer: { $ref: 'LoadBalancer' }, port: 8080 },
      healthCheck: {
        enabled: true,
        protocol: 'HTTP',
        port: 'traffic-port',
        path: '/',
        intervalSeconds: 15,
        timeoutSeconds: 5,
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 2,
        matcher: { httpCode: '200' },
      },
    });
  });

  it('names at most 32 characters: the ALB name cut to 28, then -nlb', () => {
    expect(frontendNlbName('a'.repeat(32))).toBe(`${'a'.repeat(28)}-nlb`);
    expect(frontendNlbName('k8s-default-demo-0123456789-abcd')).toBe('k8s-default-demo-0123456789-nlb');
  });

  const FULL = {
    [`${A}enable-frontend-nlb`]: 'true',
    [`${A}listen-ports`]: '[{"HTTP":80},{"HTTP":8080}]',
    [`${A}frontend-nlb-scheme`]: 'internet-facing',
    [`${A}frontend-nlb-subnets`]: 'subnet-0000000000000000a, subnet-0000000000000000b',
    [`${A}frontend-nlb-eip-allocations`]: EIPS,
    [`${A}frontend-nlb-security-groups`]: 'sg-0000000000000000f',
    [`${A}frontend-nlb-listener-port-mapping`]: '443=8080',
    [`${A}frontend-nlb-healthcheck-protocol`]: 'HTTPS',
    [`${A}frontend-nlb-healthcheck-port`]: '8443',
    [`${A}frontend-nlb-healthcheck-path`]: '/ready',
    [`${A}frontend-nlb-healthcheck-interval-seconds`]: '30',
    [`${A}frontend-nlb-healthcheck-timeout-seconds`]: '10',
    [`${A}frontend-nlb-healthcheck-healthy-threshold-count`]: '4',
    [`${A}frontend-nlb-healthcheck-unhealthy-threshold-count`]: '5',
    [`${A}frontend-nlb-healthcheck-success-codes`]: '200-299',
    [`${A}frontend-nlb-tags`]: 'tier=edge',
    [`${A}frontend-nlb-attributes`]: 'load_balancing.cross_zone.enabled=true',
  };

  it('sends exactly these ELBv2 requests on a first deploy, after the ALB and its listeners', () => {
    const stack = build(FULL);
    const plan = planStack(stack, emptyActual, { externalManagedTags: [], fingerprint: 'fp' });
    const ops = plan.map((o) => `${o.op} ${o.resource} ${o.id}`);
    const at = (s: string) => ops.indexOf(s);
    // The ALB's listeners exist before the ALB is registered (ELBv2 needs one on the port).
    expect(at('create Listener 80')).toBeLessThan(at('modify TargetGroup FrontendNlb-tg-TCP-443'));
    expect(at('create LoadBalancer LoadBalancer')).toBeLessThan(at('create LoadBalancer FrontendNlb'));
    const call = (id: string, action: string) =>
      plan.filter((o) => o.id === id).flatMap((o) => o.calls.filter((c) => c.action === action))[0]?.input;
    const tags = (extra: Record<string, string>) =>
      expect.arrayContaining(
        Object.entries({ tier: 'edge', ...extra }).map(([Key, Value]) => ({ Key, Value })),
      );
    const nlb = resourcesOf(stack, ResourceTypes.LoadBalancer)[1];
    expect(call('FrontendNlb', 'CreateLoadBalancer')).toStrictEqual({
      Name: nlb?.spec.name,
      Type: 'network',
      Scheme: 'internet-facing',
      IpAddressType: 'ipv4',
      SubnetMappings: [
        { SubnetId: 'subnet-0000000000000000a', AllocationId: 'eipalloc-0a000000000000001' },
        { SubnetId: 'subnet-0000000000000000b', AllocationId: 'eipalloc-0a000000000000002' },
      ],
      SecurityGroups: ['sg-0000000000000000f'],
      Tags: tags({ [RESOURCE_TAG]: 'FrontendNlb' }),
    });
    expect(call('FrontendNlb', 'ModifyLoadBalancerAttributes')).toStrictEqual({
      LoadBalancerArn: arnRef('FrontendNlb'),
      Attributes: [{ Key: 'load_balancing.cross_zone.enabled', Value: 'true' }],
    });
    const tg = resourcesOf(stack, ResourceTypes.TargetGroup).find((t) => t.id === 'FrontendNlb-tg-TCP-443');
    expect(call('FrontendNlb-tg-TCP-443', 'CreateTargetGroup')).toStrictEqual({
      Name: tg?.spec.name,
      TargetType: 'alb',
      Protocol: 'TCP',
      Port: 443,
      VpcId: config.vpc.id,
      IpAddressType: 'ipv4',
      HealthCheckEnabled: true,
      HealthCheckPath: '/ready',
      HealthCheckPort: '8443',
      HealthCheckProtocol: 'HTTPS',
      HealthCheckIntervalSeconds: 30,
      HealthCheckTimeoutSeconds: 10,
      HealthyThresholdCount: 4,
      UnhealthyThresholdCount: 5,
      Matcher: { HttpCode: '200-299' },
      Tags: tags({ [RESOURCE_TAG]: 'FrontendNlb-tg-TCP-443' }),
    });
    expect(call('FrontendNlb-tg-TCP-443', 'RegisterTargets')).toStrictEqual({
      TargetGroupArn: arnRef('FrontendNlb-tg-TCP-443'),
      Targets: [{ Id: arnRef('LoadBalancer'), Port: 8080 }],
    });
    expect(call('FrontendNlb-ls-TCP-443', 'CreateListener')).toMatchObject({
      LoadBalancerArn: arnRef('FrontendNlb'),
      Port: 443,
      Protocol: 'TCP',
      DefaultActions: [{ Type: 'forward', TargetGroupArn: arnRef('FrontendNlb-tg-TCP-443') }],
    });
    // Only the mapped port: no NLB listener for 80 or 8080.
    expect(ops.filter((o) => o.startsWith('create Listener FrontendNlb'))).toStrictEqual([
      'create Listener FrontendNlb-ls-TCP-443',
    ]);
    // The ALB records the NLB (its name, and its DNS name for the status).
    const record = plan.at(-1)?.calls.find((c) => c.action === 'AddTags')?.input;
    expect(record).toMatchObject({
      Tags: expect.arrayContaining([
        { Key: FRONTEND_NLB_TAG, Value: nlb?.spec.name },
        { Key: FRONTEND_NLB_DNS_TAG, Value: dnsRef('FrontendNlb') },
      ]),
    });
  });

  it('deletes a frontend NLB before its ALB', () => {
    const lb = (name: string, resource: string) => ({
      lb: { LoadBalancerArn: `arn:${name}`, LoadBalancerName: name },
      tags: { [RESOURCE_TAG]: resource },
    });
    const ops = planDeletion({
      staleLoadBalancers: [lb('alb', 'LoadBalancer'), lb('alb-nlb', 'FrontendNlb')],
      targetGroups: [],
    });
    expect(ops.map((o) => o.id)).toStrictEqual(['alb-nlb', 'alb']);
  });

  it.each([
    ['enable-frontend-nlb', { [`${A}enable-frontend-nlb`]: 'yes' }],
    ['frontend-nlb-scheme', { [`${A}frontend-nlb-scheme`]: 'public' }],
    ['frontend-nlb-subnets', { [`${A}frontend-nlb-subnets`]: 'subnet-xyz' }],
    ['frontend-nlb-security-groups', { [`${A}frontend-nlb-security-groups`]: 'web' }],
    ['frontend-nlb-listener-port-mapping', { [`${A}frontend-nlb-listener-port-mapping`]: '80=70000' }],
    ['frontend-nlb-listener-port-mapping', { [`${A}frontend-nlb-listener-port-mapping`]: '80=443' }],
    ['frontend-nlb-healthcheck-port', { [`${A}frontend-nlb-healthcheck-port`]: 'http' }],
    ['frontend-nlb-healthcheck-protocol', { [`${A}frontend-nlb-healthcheck-protocol`]: 'TCP' }],
    ['frontend-nlb-healthcheck-path', { [`${A}frontend-nlb-healthcheck-path`]: 'health' }],
    ['frontend-nlb-healthcheck-interval-seconds', { [`${A}frontend-nlb-healthcheck-interval-seconds`]: '1' }],
    ['frontend-nlb-healthcheck-timeout-seconds', { [`${A}frontend-nlb-healthcheck-timeout-seconds`]: '20' }],
    [
      'frontend-nlb-healthcheck-healthy-threshold-count',
      { [`${A}frontend-nlb-healthcheck-healthy-threshold-count`]: '11' },
    ],
    [
      'frontend-nlb-healthcheck-unhealthy-threshold-count',
      { [`${A}frontend-nlb-healthcheck-unhealthy-threshold-count`]: '0' },
    ],
    ['frontend-nlb-healthcheck-success-codes', { [`${A}frontend-nlb-healthcheck-success-codes`]: 'ok' }],
    ['frontend-nlb-tags', { [`${A}frontend-nlb-tags`]: 'aws:x=1' }],
    // An internal NLB has no Elastic IPs; an internet-facing one needs one per subnet.
    ['frontend-nlb-eip-allocations', { [`${A}frontend-nlb-eip-allocations`]: EIPS }],
    [
      'frontend-nlb-eip-allocations',
      {
        [`${A}frontend-nlb-scheme`]: 'internet-facing',
        [`${A}frontend-nlb-subnets`]: 'subnet-0000000000000000a',
        [`${A}frontend-nlb-eip-allocations`]: EIPS,
      },
    ],
    [
      'frontend-nlb-attributes',
      { [`${A}frontend-nlb-attributes`]: 'dns_record.client_routing_policy=nearest' },
    ],
    ['frontend-nlb-attributes', { [`${A}frontend-nlb-attributes`]: 'no-equals-sign' }],
  ])('refuses a bad %s naming it', (key, bad) => {
    let err: unknown;
    try {
      build({ [`${A}enable-frontend-nlb`]: 'true', ...bad });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field: `${A}${key}` });
  });
});

describe('the frontend NLB of an IngressGroup', () => {
  const member = (name: string, annotations: Record<string, string>) => ({
    mci: mci({ [`${A}group.name`]: 'shared', ...annotations }, name),
    services: [service('serve')],
    endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })],
  });
  const ref = {
    kind: 'mci-group' as const,
    namespace: 'default',
    name: 'shared',
    stackId: 'mci-group/default/shared',
  };

  it('is the group’s: one member turns it on for all, a member that disagrees is left out', () => {
    const model = buildIngressGroupStack({
      ref,
      group: 'shared',
      config,
      members: [
        member('a', { [`${A}enable-frontend-nlb`]: 'true', [`${A}frontend-nlb-healthcheck-path`]: '/a' }),
        member('b', { [`${A}listen-ports`]: '[{"HTTP":8080}]' }),
        member('c', { [`${A}frontend-nlb-healthcheck-path`]: '/c' }),
      ],
    });
    expect(model.served).toStrictEqual(['default/a', 'default/b']);
    expect(model.excluded.get('default/c')).toMatchObject({
      reason: GROUP_CONFLICT_REASON,
      field: `${A}frontend-nlb-healthcheck-path`,
    });
    const stack = model.stack!;
    // The group's listeners are a's and b's ports: the NLB fronts both.
    expect(frontendIds(stack).filter((id) => id.includes('-ls-'))).toStrictEqual([
      'FrontendNlb-ls-TCP-80',
      'FrontendNlb-ls-TCP-8080',
    ]);
    expect(
      resourcesOf(stack, ResourceTypes.TargetGroup)
        .filter((t) => t.spec.targetType === 'alb')
        .map((t) => t.spec.healthCheck.path),
    ).toStrictEqual(['/a', '/a']);
  });
});
