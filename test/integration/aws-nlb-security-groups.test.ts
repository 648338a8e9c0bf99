/**
 * The NLB's managed security group end to end against the ELBv2 and EC2 simulators, linked (the
 * ELBv2 simulator keeps AWS's rule: no group is ever added to an NLB created without, and the last
 * is never taken from one created with): an MCS without security-groups gets a group of its own,
 * owner-tagged, opening its TCP and UDP ports to load-balancer-source-ranges and
 * security-group-prefix-lists (and Path MTU discovery's ICMP when asked); a changed range changes
 * only the rules; a rule revoked by hand is put back on resync; the group goes after the NLB.
 * An NLB of ours created without groups is kept without them, announced, never replaced silently.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { InvalidObjectError } from '../../lib/errors.js';
import { formatPlan, plannedEc2Actions } from '../../lib/providers/aws/deploy/operations.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { collectedSlice, service } from '../fixtures/aws/objects.js';
import { mcs } from './aws-env.js';
import { startManagedGroupEnv, type ManagedGroupEnv } from './aws-managed-sg-env.js';

let world: ManagedGroupEnv | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const S = (k: string) => `service.beta.kubernetes.io/${k}`;
const L = (k: string) => S(`aws-load-balancer-${k}`);
const DEFAULT_SG = SIM_NETWORK.defaultSecurityGroupId;

async function setup() {
  const w = (world = await startManagedGroupEnv([
    service('dns', [
      { port: 53, targetPort: 5353, protocol: 'UDP', name: 'dns' },
      { port: 443, targetPort: 8443, protocol: 'TCP', name: 'https' },
    ]),
    collectedSlice('member1', 'dns', { addresses: ['10.0.128.10'], ports: [{ port: 5353 }, { port: 8443 }] }),
  ]));
  const { e, ec2, provider, ctx, managed } = w;
  const rulesOf = (g: ReturnType<typeof managed>[number]) =>
    g.ingress
      .map(
        (r) => `${r.protocol}/${r.fromPort ?? ''}-${r.toPort ?? ''} ${Object.values(r.source)[0] as string}`,
      )
      .sort();
  const nlb = () => e.sim.snapshot().loadBalancers[0];
  return { e, ec2, provider, ctx, managed, rulesOf, nlb };
}

const dns = (annotations: Record<string, string> = {}) => mcs('dns', {}, annotations);

describe("the NLB's managed security group", () => {
  it('opens the TCP and UDP ports to the source ranges and prefix lists (ICMP too when asked); a changed range changes only rules; a rule revoked by hand is repaired on resync', async () => {
    const { e, ec2, provider, ctx, managed, rulesOf, nlb } = await setup();
    const obj = dns({
      [S('load-balancer-source-ranges')]: '10.0.0.0/8, 192.168.0.0/16',
      [L('security-group-prefix-lists')]: 'pl-0123abcd',
      [L('enable-icmp-for-path-mtu-discovery')]: 'on',
      [L('inbound-sg-rules-on-private-link-traffic')]: 'off',
    });
    const { plan } = await provider.service.plan(ctx(), obj);
    const text = formatPlan(plan);
    expect(text[0]).toMatch(
      /^\+ create SecurityGroup ManagedLBSecurityGroup: k8s-default-dns-[0-9a-f]{10}: ingress udp\/53 from 10\.0\.0\.0\/8, udp\/53 from 192\.168\.0\.0\/16, udp\/53 from pl-0123abcd, tcp\/443 from 10\.0\.0\.0\/8, .*icmp type 3 code 4 from 10\.0\.0\.0\/8, icmp type 3 code 4 from 192\.168\.0\.0\/16 \[CreateSecurityGroup, AuthorizeSecurityGroupIngress\]$/,
    );
    expect(text.find((l) => l.startsWith('+ create LoadBalancer'))).toMatch(
      /PrivateLink inbound rules off.*\[CreateLoadBalancer, SetSecurityGroups\]$/,
    );
    expect(managed()).toEqual([]);

    await provider.service.ensure(ctx(), obj);
    const [group] = managed();
    expect(group?.tags).toMatchObject({ [OWNER_TAG]: 'karmada-test', [STACK_TAG]: 'mcs/default/dns' });
    expect(rulesOf(group!)).toEqual([
      'icmp/3-4 10.0.0.0/8',
      'icmp/3-4 192.168.0.0/16',
      'tcp/443-443 10.0.0.0/8',
      'tcp/443-443 192.168.0.0/16',
      'tcp/443-443 pl-0123abcd',
      'udp/53-53 10.0.0.0/8',
      'udp/53-53 192.168.0.0/16',
      'udp/53-53 pl-0123abcd',
    ]);
    expect(nlb()?.SecurityGroups).toEqual([group!.groupId]);
    expect(nlb()?.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic).toBe('off');
    // Unchanged: no EC2 call at all (the fingerprint fast path).
    ec2.calls.reset();
    await provider.service.update(ctx(), obj);
    expect(ec2.calls.total()).toBe(0);

    // The range changes: revoked and authorized, nothing else; the NLB keeps its group.
    const changed = dns({
      [S('load-balancer-source-ranges')]: '10.0.0.0/8, 172.16.0.0/12',
      [L('security-group-prefix-lists')]: 'pl-0123abcd',
      [L('enable-icmp-for-path-mtu-discovery')]: 'on',
      [L('inbound-sg-rules-on-private-link-traffic')]: 'off',
    });
    const next = (await provider.service.plan(ctx(), changed)).plan;
    expect(formatPlan(next).find((l) => l.includes(' SecurityGroup '))).toBe(
      `~ modify SecurityGroup ${group!.groupName}: ${group!.groupId}: -udp/53 from 192.168.0.0/16; -tcp/443 from 192.168.0.0/16; -icmp type 3 code 4 from 192.168.0.0/16; +udp/53 from 172.16.0.0/12; +tcp/443 from 172.16.0.0/12; +icmp type 3 code 4 from 172.16.0.0/12 [RevokeSecurityGroupIngress, AuthorizeSecurityGroupIngress]`,
    );
    expect(plannedEc2Actions(next)).toEqual(['RevokeSecurityGroupIngress', 'AuthorizeSecurityGroupIngress']);
    e.sim.calls.reset();
    await provider.service.update(ctx(), changed);
    expect(e.mutatingCalls().filter((a) => a !== 'AddTags')).toEqual([]);
    expect(rulesOf(managed()[0]!).filter((r) => r.includes('172.16.0.0/12'))).toEqual([
      'icmp/3-4 172.16.0.0/12',
      'tcp/443-443 172.16.0.0/12',
      'udp/53-53 172.16.0.0/12',
    ]);
    expect(rulesOf(managed()[0]!).some((r) => r.includes('192.168.'))).toBe(false);

    // Drift: a rule revoked and the PrivateLink setting turned back on by hand, both repaired on resync.
    expect(ec2.state.securityGroups.revokeByHand(group!.groupId, (r) => r.protocol === 'udp')).toBe(3);
    e.sim.state.setSecurityGroups({
      LoadBalancerArn: nlb()!.LoadBalancerArn,
      SecurityGroups: [group!.groupId],
      EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: 'on',
    });
    await provider.service.update(ctx(), changed);
    expect(rulesOf(managed()[0]!).filter((r) => r.startsWith('udp'))).toEqual([]);
    const repair = formatPlan((await provider.service.plan(ctx(true), changed)).plan);
    expect(repair.find((l) => l.includes(' SecurityGroup '))).toContain(
      '+udp/53 from 10.0.0.0/8; +udp/53 from 172.16.0.0/12; +udp/53 from pl-0123abcd [AuthorizeSecurityGroupIngress]',
    );
    expect(repair.find((l) => l.includes('PrivateLink'))).toContain(
      'PrivateLink inbound rules on → off [SetSecurityGroups',
    );
    await provider.service.update(ctx(true), changed);
    expect(rulesOf(managed()[0]!).filter((r) => r.startsWith('udp'))).toHaveLength(3);
    expect(nlb()?.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic).toBe('off');
  });

  it('is deleted after the NLB, the dependency violation waited out in the reconcile: nothing is left', async () => {
    const { e, ec2, provider, ctx, managed, rulesOf } = await setup();
    await provider.service.ensure(ctx(), dns());
    // No sources: open to everyone, as in LBC.
    expect(rulesOf(managed()[0]!)).toEqual(['tcp/443-443 0.0.0.0/0', 'udp/53-53 0.0.0.0/0']);
    ec2.calls.reset();
    await provider.service.ensureDeleted(ctx(), dns());
    expect(ec2.calls.get('DeleteSecurityGroup').errorCodes).toEqual({ DependencyViolation: 1 });
    expect(managed()).toEqual([]);
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    expect(e.sim.snapshot().targetGroups).toEqual([]);
  });

  it('an NLB of ours created without security groups keeps none: announced, not replaced; a new name replaces it (announced) with its group', async () => {
    const { e, ec2, provider, ctx, managed, nlb } = await setup();
    // As one this provider made before it managed NLB groups: no security groups.
    await provider.service.ensure(ctx(), dns({ [L('disable-nlb-sg')]: 'true' }));
    const arn = nlb()?.LoadBalancerArn;
    expect(nlb()?.SecurityGroups ?? []).toEqual([]);
    expect(managed()).toEqual([]);

    const restricted = dns({ [S('load-balancer-source-ranges')]: '10.0.0.0/8' });
    const planned = await provider.service.plan(ctx(), restricted);
    expect(planned.plan.some((o) => o.resource === 'SecurityGroup')).toBe(false);
    expect(planned.plan.some((o) => o.op === 'replace')).toBe(false);
    expect(planned.warnings.map((w) => w.reason)).toContain('NlbKeptWithoutSecurityGroups');
    e.announced.length = 0;
    await provider.service.update(ctx(), restricted);
    expect(nlb()?.LoadBalancerArn).toBe(arn);
    expect(nlb()?.SecurityGroups ?? []).toEqual([]);
    expect(managed()).toEqual([]);
    const notice = e.announced.find((a) => a.reason === 'NlbKeptWithoutSecurityGroups');
    expect(notice?.message).toContain('tcp/443 from 10.0.0.0/8');
    expect(notice?.message).toContain(L('name'));
    // A resync changes nothing either.
    await provider.service.update(ctx(true), restricted);
    expect(nlb()?.LoadBalancerArn).toBe(arn);
    expect(managed()).toEqual([]);

    // Asked for by a new name: replaced, announced, with its managed group.
    const renamed = dns({ [S('load-balancer-source-ranges')]: '10.0.0.0/8', [L('name')]: 'dns-with-sg' });
    e.announced.length = 0;
    ec2.calls.reset();
    await provider.service.update(ctx(), renamed);
    expect(e.announced.map((a) => a.reason)).toContain('ReplacingLoadBalancer');
    expect(nlb()?.LoadBalancerName).toBe('dns-with-sg');
    expect(nlb()?.SecurityGroups).toEqual([managed()[0]!.groupId]);
  });

  it('disable-nlb-sg on an NLB that has security groups is refused, naming the key; nothing changes', async () => {
    const { e, provider, ctx, managed, nlb } = await setup();
    await provider.service.ensure(ctx(), dns());
    const groups = nlb()?.SecurityGroups;
    e.sim.calls.reset();
    const err = await provider.service
      .update(ctx(), dns({ [L('disable-nlb-sg')]: 'true' }))
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field: L('disable-nlb-sg'), reason: 'NlbSecurityGroupsRequired' });
    expect(e.mutatingCalls()).toEqual([]);
    expect(nlb()?.SecurityGroups).toEqual(groups);
    expect(managed()).toHaveLength(1);
  });

  it('bad sources name their key before any call; sources beside named groups or disable-nlb-sg are reported, as LBC ignores them', async () => {
    const { e, ec2, provider, ctx } = await setup();
    const cases: Array<[Record<string, string>, string]> = [
      [{ [S('load-balancer-source-ranges')]: '10.0.0.0/33' }, S('load-balancer-source-ranges')],
      [{ [L('security-group-prefix-lists')]: 'pl-xyz' }, L('security-group-prefix-lists')],
      [{ [S('load-balancer-source-ranges')]: '2600:1f18::/32' }, S('load-balancer-source-ranges')],
      [{ [L('disable-nlb-sg')]: 'yes' }, L('disable-nlb-sg')],
      [{ [L('enable-icmp-for-path-mtu-discovery')]: 'true' }, L('enable-icmp-for-path-mtu-discovery')],
      [
        { [L('inbound-sg-rules-on-private-link-traffic')]: 'maybe' },
        L('inbound-sg-rules-on-private-link-traffic'),
      ],
    ];
    for (const [annotations, key] of cases) {
      const err = await provider.service.ensure(ctx(), dns(annotations)).catch((x: unknown) => x);
      expect(err).toBeInstanceOf(InvalidObjectError);
      expect(err).toMatchObject({ field: key, reason: 'InvalidAnnotation' });
    }
    expect(e.sim.calls.total()).toBe(0);
    expect(ec2.calls.total()).toBe(0);

    const named = await provider.service.plan(
      ctx(),
      dns({ [L('security-groups')]: DEFAULT_SG, [S('load-balancer-source-ranges')]: '10.0.0.0/8' }),
    );
    expect(named.warnings.map((w) => w.reason)).toContain('SecurityGroupSourcesIgnored');
    expect(named.plan.some((o) => o.resource === 'SecurityGroup')).toBe(false);
    const disabled = await provider.service.plan(
      ctx(),
      dns({ [L('disable-nlb-sg')]: 'true', [S('load-balancer-source-ranges')]: '10.0.0.0/8' }),
    );
    expect(disabled.warnings.find((w) => w.reason === 'NlbSecurityGroupsDisabled')?.message).toContain(
      S('load-balancer-source-ranges'),
    );
  });
});
