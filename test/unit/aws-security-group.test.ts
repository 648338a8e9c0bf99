import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import {
  planSecurityGroups,
  type ActualSecurityGroup,
} from '../../lib/providers/aws/deploy/security-group.js';
import {
  ingressRules,
  managedSecurityGroupName,
  securityGroupSources,
} from '../../lib/providers/aws/model/security-group.js';
import type { ManagedSecurityGroupSpec } from '../../lib/providers/aws/model/types.js';
import { arnRef } from '../../lib/providers/aws/deploy/refs.js';

const CIDRS = 'alb.ingress.kubernetes.io/inbound-cidrs';
const LISTS = 'alb.ingress.kubernetes.io/security-group-prefix-lists';
const pc = { externalManagedTags: ['cost-center'] };

describe('the managed group in the model', () => {
  it('reads IPv4 and IPv6 CIDRs and prefix lists, naming the key of a bad one', () => {
    expect(
      securityGroupSources({ [CIDRS]: '10.0.0.0/8, 2600:1F18::/32', [LISTS]: 'pl-0123abcd' }, CIDRS, LISTS),
    ).toEqual([{ cidrIpv4: '10.0.0.0/8' }, { cidrIpv6: '2600:1f18::/32' }, { prefixListId: 'pl-0123abcd' }]);
    expect(securityGroupSources({}, CIDRS, LISTS)).toBeUndefined();
    for (const bad of ['10.0.0.0/33', '10.0.0.300/24', '10.0.0.0', 'any', '10.0.0.0/8/1']) {
      const err = (() => {
        try {
          securityGroupSources({ [CIDRS]: bad }, CIDRS, LISTS);
        } catch (e) {
          return e;
        }
      })();
      expect(err, bad).toBeInstanceOf(InvalidObjectError);
      expect(err).toMatchObject({ field: CIDRS, reason: 'InvalidAnnotation' });
    }
    expect(() => securityGroupSources({ [LISTS]: 'prefix-1' }, CIDRS, LISTS)).toThrow(
      /is not a prefix list ID/,
    );
  });

  it('opens every port to every source; to everyone without sources; IPv6 only on a dualstack ALB', () => {
    const ports = [
      { port: 443, protocol: 'tcp' as const },
      { port: 80, protocol: 'tcp' as const },
    ];
    expect(ingressRules(ports, [], 'ipv4').map((r) => `${r.port} ${Object.values(r.source)[0]}`)).toEqual([
      '80 0.0.0.0/0',
      '443 0.0.0.0/0',
    ]);
    expect(ingressRules(ports.slice(1), [], 'dualstack').map((r) => Object.values(r.source)[0])).toEqual([
      '0.0.0.0/0',
      '::/0',
    ]);
    const sources = [{ cidrIpv4: '10.0.0.0/8' }, { cidrIpv6: '2600::/16' }];
    expect(ingressRules(ports.slice(1), sources, 'ipv4')).toEqual([
      { protocol: 'tcp', port: 80, source: { cidrIpv4: '10.0.0.0/8' } },
    ]);
    expect(ingressRules(ports.slice(1), sources, 'dualstack')).toHaveLength(2);
  });

  it("adds Path MTU discovery's ICMP from each CIDR when asked (not from prefix lists), once whatever the ports", () => {
    const ports = [
      { port: 53, protocol: 'udp' as const },
      { port: 53, protocol: 'tcp' as const },
    ];
    const sources = [{ cidrIpv4: '10.0.0.0/8' }, { cidrIpv6: '2600::/16' }, { prefixListId: 'pl-0123abcd' }];
    const text = (rules: ReturnType<typeof ingressRules>) =>
      rules.map((r) => `${r.protocol}/${r.port}-${r.toPort ?? r.port} ${Object.values(r.source)[0]}`);
    expect(text(ingressRules(ports, sources, 'dualstack', true))).toEqual([
      'tcp/53-53 10.0.0.0/8',
      'tcp/53-53 2600::/16',
      'tcp/53-53 pl-0123abcd',
      'udp/53-53 10.0.0.0/8',
      'udp/53-53 2600::/16',
      'udp/53-53 pl-0123abcd',
      'icmp/3-4 10.0.0.0/8',
      'icmpv6/2-0 2600::/16',
    ]);
    // Without sources, from everyone: the ICMP too.
    expect(text(ingressRules(ports.slice(0, 1), [], 'ipv4', true))).toEqual([
      'udp/53-53 0.0.0.0/0',
      'icmp/3-4 0.0.0.0/0',
    ]);
    expect(ingressRules(ports, sources, 'dualstack').some((r) => r.protocol.startsWith('icmp'))).toBe(false);
  });

  it("is named as LBC names it: k8s-<namespace>-<name>-<hash>, a group's k8s-<group>-<hash>", () => {
    const name = managedSecurityGroupName('prod', {
      stackId: 'mci/web-team/shop.front',
      namespace: 'web-team',
      name: 'shop.front',
    });
    expect(name).toMatch(/^k8s-webteam-shopfron-[0-9a-f]{10}$/);
    expect(
      managedSecurityGroupName('other', {
        stackId: 'mci/web-team/shop.front',
        namespace: 'web-team',
        name: 'shop.front',
      }),
    ).not.toBe(name);
    expect(
      managedSecurityGroupName('prod', {
        stackId: 'mci-group/shared',
        namespace: '',
        name: 'shared',
        group: 'shared-edge',
      }),
    ).toMatch(/^k8s-sharededge-[0-9a-f]{10}$/);
  });
});

const desired: ManagedSecurityGroupSpec = {
  name: 'k8s-web-shop-0123456789',
  description: '[k8s] Managed SecurityGroup for LoadBalancer',
  vpcId: 'vpc-1',
  ingress: [
    { protocol: 'tcp', port: 80, source: { cidrIpv4: '10.0.0.0/8' } },
    { protocol: 'tcp', port: 80, source: { prefixListId: 'pl-0123abcd' } },
  ],
  tags: { owner: 'o', team: 'a' },
};

const actual = (over: Partial<ActualSecurityGroup> = {}): ActualSecurityGroup => ({
  groupId: 'sg-1',
  groupName: desired.name,
  tags: { owner: 'o', team: 'a' },
  ingress: [
    { protocol: 'tcp', fromPort: 80, toPort: 80, source: { cidrIpv4: '10.0.0.0/8' } },
    { protocol: 'tcp', fromPort: 80, toPort: 80, source: { prefixListId: 'pl-0123abcd' } },
  ],
  ...over,
});

describe('the managed group in the plan', () => {
  it('creates it tagged, with its rules, and names it by placeholder until it exists', () => {
    const plan = planSecurityGroups(pc, desired, []);
    expect(plan.groupId).toStrictEqual(arnRef('ManagedLBSecurityGroup'));
    expect(plan.upserts).toEqual([
      {
        op: 'create',
        resource: 'SecurityGroup',
        id: 'ManagedLBSecurityGroup',
        detail: 'k8s-web-shop-0123456789: ingress tcp/80 from 10.0.0.0/8, tcp/80 from pl-0123abcd',
        calls: [
          {
            action: 'CreateSecurityGroup',
            produces: 'ManagedLBSecurityGroup',
            input: {
              GroupName: desired.name,
              Description: desired.description,
              VpcId: 'vpc-1',
              TagSpecifications: [
                {
                  ResourceType: 'security-group',
                  Tags: [
                    { Key: 'owner', Value: 'o' },
                    { Key: 'team', Value: 'a' },
                  ],
                },
              ],
            },
          },
          {
            action: 'AuthorizeSecurityGroupIngress',
            input: {
              GroupId: arnRef('ManagedLBSecurityGroup'),
              IpPermissions: [
                { IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '10.0.0.0/8' }] },
                {
                  IpProtocol: 'tcp',
                  FromPort: 80,
                  ToPort: 80,
                  PrefixListIds: [{ PrefixListId: 'pl-0123abcd' }],
                },
              ],
            },
          },
        ],
      },
    ]);
  });

  it('plans nothing for a group as desired; revokes before it authorizes; spares external tags', () => {
    expect(
      planSecurityGroups(pc, desired, [actual({ tags: { owner: 'o', team: 'a', 'cost-center': 'x' } })]),
    ).toEqual({
      upserts: [],
      deletes: [],
      groupId: 'sg-1',
    });
    const drifted = actual({
      tags: { owner: 'o', team: 'b', stale: '1' },
      ingress: [
        { protocol: 'tcp', fromPort: 80, toPort: 80, source: { cidrIpv4: '0.0.0.0/0' } },
        { protocol: 'tcp', fromPort: 80, toPort: 80, source: { prefixListId: 'pl-0123abcd' } },
        { protocol: '-1', source: { groupId: 'sg-9' } },
      ],
    });
    const [op] = planSecurityGroups(pc, desired, [drifted]).upserts;
    expect(op?.detail).toBe(
      'sg-1: -tcp/80 from 0.0.0.0/0; -all/all from sg-9; +tcp/80 from 10.0.0.0/8; untag stale; tags team',
    );
    expect(op?.calls.map((c) => c.action)).toEqual([
      'RevokeSecurityGroupIngress',
      'AuthorizeSecurityGroupIngress',
      'DeleteTags',
      'CreateTags',
    ]);
  });

  it('deletes the groups of the stack it no longer wants, last, and any but the one under its name', () => {
    const old = actual({ groupId: 'sg-2', groupName: 'k8s-old' });
    const plan = planSecurityGroups(pc, desired, [old, actual()]);
    expect(plan.groupId).toBe('sg-1');
    expect(plan.deletes.map((d) => d.calls)).toEqual([
      [{ action: 'DeleteSecurityGroup', input: { GroupId: 'sg-2' } }],
    ]);
    const none = planSecurityGroups(pc, undefined, [actual()]);
    expect(none.groupId).toBeUndefined();
    expect(none.deletes).toHaveLength(1);
  });
});

describe('the managed group under a tenant policy', () => {
  it('is refused by a rule that pins the security groups, naming the annotation to set', async () => {
    const { buildIngressStack } = await import('../../lib/providers/aws/model/ingress.js');
    const { checkTenantPolicy, policyDefaults } = await import('../../lib/providers/aws/tenant-policy.js');
    const { config, minimalIngress, service, collectedSlice } = await import('../fixtures/aws/objects.js');
    const mci = minimalIngress();
    const stack = buildIngressStack({
      mci,
      services: [service('serve')],
      endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })],
      config: { ...config, securityGroups: undefined },
    });
    expect(stack.securityGroup).toBeDefined();
    const reads = {
      namespaceLabels: () => Promise.resolve({}),
      loadBalancerHolders: () => Promise.resolve([]),
      defaultIngressClassName: () => Promise.resolve(undefined),
    };
    const subject = { kind: 'MultiClusterIngress' as const, metadata: mci.metadata };
    // The configuration names no security groups: the managed one is its default.
    const defaults = policyDefaults({ ...config, securityGroups: undefined });
    await expect(
      checkTenantPolicy(
        { rules: [{ name: 'pinned', securityGroups: ['sg-0123456789abcdef0'] }] },
        defaults,
        subject,
        stack,
        reads,
      ),
    ).rejects.toMatchObject({
      field: 'alb.ingress.kubernetes.io/security-groups',
      message:
        'a managed security group (no annotation alb.ingress.kubernetes.io/security-groups, none configured) is not allowed; name allowed groups in alb.ingress.kubernetes.io/security-groups: forbidden by tenant policy rule "pinned"',
    });
    await expect(
      checkTenantPolicy(
        { rules: [{ name: 'open', schemes: ['internal'] }] },
        defaults,
        subject,
        stack,
        reads,
      ),
    ).resolves.toBeUndefined();
  });
});
