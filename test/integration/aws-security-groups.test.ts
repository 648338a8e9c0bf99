/**
 * Managed security groups end to end against the ELBv2 and EC2 simulators, linked (one account:
 * a load balancer may only name groups EC2 has, and a group in use, or just let go of, cannot be
 * deleted): with no security-groups annotation and none configured, the ALB gets a group of its
 * own, owner-tagged, opening its listen ports to inbound-cidrs and security-group-prefix-lists;
 * a changed list changes only the rules; a rule revoked by hand is put back on resync; the group
 * goes after the load balancer, the dependency violation retried later, and nothing is left.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { InvalidObjectError, RetryLaterError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { formatPlan, plannedEc2Actions } from '../../lib/providers/aws/deploy/operations.js';
import { OWNER_TAG, SECURITY_GROUP_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { startManagedGroupEnv, type ManagedGroupEnv } from './aws-managed-sg-env.js';

let world: ManagedGroupEnv | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const DEFAULT_SG = SIM_NETWORK.defaultSecurityGroupId;

async function setup(options?: { releaseAttempts?: number }) {
  const w = (world = await startManagedGroupEnv(
    [service('serve'), collectedSlice('member1', 'serve', { addresses: ['10.0.128.10'] })],
    options,
  ));
  const { e, ec2, provider, ctx, managed } = w;
  const rulesOf = (g: ReturnType<typeof managed>[number]) =>
    g.ingress.map((r) => `${r.protocol}/${r.fromPort ?? ''} ${Object.values(r.source)[0] as string}`).sort();
  const albGroups = () => e.sim.snapshot().loadBalancers[0]?.SecurityGroups;
  return { e, ec2, provider, ctx, managed, rulesOf, albGroups };
}

const mciWith = (annotations: Record<string, string>): MultiClusterIngress =>
  minimalIngress({ metadata: { ...minimalIngress().metadata, annotations } });

describe('the managed frontend security group', () => {
  it('is created owner-tagged with the listen ports open to inbound-cidrs and prefix lists; a changed list changes only rules', async () => {
    const { e, ec2, provider, ctx, managed, rulesOf, albGroups } = await setup();
    const mci = mciWith({
      [A('listen-ports')]: '[{"HTTP":80},{"HTTP":8080}]',
      [A('inbound-cidrs')]: '10.0.0.0/8, 192.168.0.0/16',
      [A('security-group-prefix-lists')]: 'pl-0123abcd',
    });
    const { plan } = await provider.ingress.plan(ctx(), mci);
    const text = formatPlan(plan);
    expect(text[0]).toMatch(
      /^\+ create SecurityGroup ManagedLBSecurityGroup: k8s-default-minimali-[0-9a-f]{10}: ingress tcp\/80 from 10\.0\.0\.0\/8, tcp\/80 from 192\.168\.0\.0\/16, tcp\/80 from pl-0123abcd, tcp\/8080 from 10\.0\.0\.0\/8, .* \[CreateSecurityGroup, AuthorizeSecurityGroupIngress\]$/,
    );
    expect(managed()).toEqual([]);

    await provider.ingress.ensure(ctx(), mci);
    const [group] = managed();
    expect(group?.tags).toMatchObject({
      [OWNER_TAG]: 'karmada-test',
      [STACK_TAG]: 'mci/default/minimal-ingress',
      team: 'platform',
    });
    expect(rulesOf(group!)).toEqual([
      'tcp/80 10.0.0.0/8',
      'tcp/80 192.168.0.0/16',
      'tcp/80 pl-0123abcd',
      'tcp/8080 10.0.0.0/8',
      'tcp/8080 192.168.0.0/16',
      'tcp/8080 pl-0123abcd',
    ]);
    expect(albGroups()).toEqual([group!.groupId]);
    expect(e.sim.snapshot().tags.find((t) => t.Tags[SECURITY_GROUP_TAG])?.Tags[SECURITY_GROUP_TAG]).toBe(
      group!.groupId,
    );
    // Unchanged: no EC2 call at all (the fingerprint fast path).
    ec2.calls.reset();
    await provider.ingress.update(ctx(), mci);
    expect(ec2.calls.total()).toBe(0);

    // The CIDR list changes: revoked and authorized, nothing else; the ALB keeps its group.
    const changed = mciWith({
      [A('listen-ports')]: '[{"HTTP":80},{"HTTP":8080}]',
      [A('inbound-cidrs')]: '10.0.0.0/8, 172.16.0.0/12',
      [A('security-group-prefix-lists')]: 'pl-0123abcd',
    });
    const next = (await provider.ingress.plan(ctx(), changed)).plan;
    expect(formatPlan(next).find((l) => l.includes(' SecurityGroup '))).toBe(
      `~ modify SecurityGroup ${group!.groupName}: ${group!.groupId}: -tcp/80 from 192.168.0.0/16; -tcp/8080 from 192.168.0.0/16; +tcp/80 from 172.16.0.0/12; +tcp/8080 from 172.16.0.0/12 [RevokeSecurityGroupIngress, AuthorizeSecurityGroupIngress]`,
    );
    expect(plannedEc2Actions(next)).toEqual(['RevokeSecurityGroupIngress', 'AuthorizeSecurityGroupIngress']);
    e.sim.calls.reset();
    await provider.ingress.update(ctx(), changed);
    expect(e.mutatingCalls().filter((a) => a !== 'AddTags')).toEqual([]);
    expect(rulesOf(managed()[0]!)).toEqual([
      'tcp/80 10.0.0.0/8',
      'tcp/80 172.16.0.0/12',
      'tcp/80 pl-0123abcd',
      'tcp/8080 10.0.0.0/8',
      'tcp/8080 172.16.0.0/12',
      'tcp/8080 pl-0123abcd',
    ]);
  });

  it('without sources the ports are open to everyone (LBC); a rule revoked by hand is put back on resync', async () => {
    const { ec2, provider, ctx, managed, rulesOf } = await setup();
    const mci = minimalIngress();
    await provider.ingress.ensure(ctx(), mci);
    const [group] = managed();
    expect(rulesOf(group!)).toEqual(['tcp/80 0.0.0.0/0']);
    expect(ec2.state.securityGroups.revokeByHand(group!.groupId, () => true)).toBe(1);
    // An ordinary reconcile trusts the fingerprint; the resync looks and repairs.
    await provider.ingress.update(ctx(), mci);
    expect(rulesOf(managed()[0]!)).toEqual([]);
    const { plan } = await provider.ingress.plan(ctx(true), mci);
    expect(formatPlan(plan).find((l) => l.includes(' SecurityGroup '))).toContain(
      `+tcp/80 from 0.0.0.0/0 [AuthorizeSecurityGroupIngress]`,
    );
    await provider.ingress.update(ctx(true), mci);
    expect(rulesOf(managed()[0]!)).toEqual(['tcp/80 0.0.0.0/0']);
  });

  it('is deleted after the load balancer, the dependency violation waited out in the reconcile (LBC polls): nothing is left', async () => {
    const { e, ec2, provider, ctx, managed } = await setup();
    const mci = minimalIngress();
    await provider.ingress.ensure(ctx(), mci);
    expect(managed()).toHaveLength(1);
    ec2.calls.reset();
    // The deleted ALB's interfaces hold the group for one more call: the deletion asks again.
    await provider.ingress.ensureDeleted(ctx(), mci);
    expect(ec2.calls.get('DeleteSecurityGroup')).toMatchObject({
      calls: 2,
      ok: 1,
      errorCodes: { DependencyViolation: 1 },
    });
    expect(managed()).toEqual([]);
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    expect(e.sim.snapshot().targetGroups).toEqual([]);
  });

  it('held longer than a reconcile waits: retried later, and the next deletion leaves nothing', async () => {
    const { e, ec2, provider, ctx, managed } = await setup({ releaseAttempts: 2 });
    const mci = minimalIngress();
    await provider.ingress.ensure(ctx(), mci);
    const first = await provider.ingress.ensureDeleted(ctx(), mci).catch((err: unknown) => err);
    expect(first).toBeInstanceOf(RetryLaterError);
    expect(first).toMatchObject({ retryAfterSeconds: 20 });
    expect((first as Error).message).toMatch(/^security group sg-[0-9a-f]+ is still in use$/);
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    expect(managed()).toHaveLength(1);
    expect(ec2.calls.get('DeleteSecurityGroup').errorCodes).toEqual({ DependencyViolation: 2 });
    await provider.ingress.ensureDeleted(ctx(), mci);
    expect(managed()).toEqual([]);
    expect(e.sim.snapshot().targetGroups).toEqual([]);
  });

  it('named groups replace it: the ALB takes them, the managed group is deleted once free (its tag goes with it)', async () => {
    const { e, ec2, provider, ctx, managed, albGroups } = await setup();
    await provider.ingress.ensure(ctx(), minimalIngress());
    const own = mciWith({ [A('security-groups')]: DEFAULT_SG, [A('inbound-cidrs')]: '10.0.0.0/8' });
    ec2.calls.reset();
    // The ALB lets go of the group in the same reconcile; its deletion asks until it may.
    await provider.ingress.update(ctx(), own);
    expect(albGroups()).toEqual([DEFAULT_SG]);
    expect(managed()).toEqual([]);
    expect(ec2.calls.get('DeleteSecurityGroup')).toMatchObject({
      ok: 1,
      errorCodes: { DependencyViolation: 1 },
    });
    expect(e.sim.snapshot().tags.some((t) => t.Tags[SECURITY_GROUP_TAG] !== undefined)).toBe(false);
    // inbound-cidrs beside named groups is reported, as LBC ignores it.
    const built = await provider.ingress.plan(ctx(), own);
    expect(built.warnings?.map((w) => w.reason)).toContain('SecurityGroupSourcesIgnored');
  });

  it("the orphan sweep deletes an orphaned stack's group too, once its load balancer let go of it", async () => {
    const { e, provider, ctx, managed } = await setup({ releaseAttempts: 2 });
    await provider.ingress.ensure(ctx(), minimalIngress());
    const inventory = provider.inventory();
    const stacks = await inventory.listOwnedStacks(ctx(true));
    expect(stacks.map((s) => s.stackId)).toEqual(['mci/default/minimal-ingress']);
    // The first sweep deletes the load balancer; the group is still held: the next sweep retries.
    await expect(inventory.deleteOwnedStack(ctx(true), 'mci/default/minimal-ingress')).rejects.toBeInstanceOf(
      RetryLaterError,
    );
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    // The group alone still makes a stack of the inventory, so the next sweep finds it.
    expect((await inventory.listOwnedStacks(ctx(true))).map((s) => s.stackId)).toEqual([
      'mci/default/minimal-ingress',
    ]);
    await inventory.deleteOwnedStack(ctx(true), 'mci/default/minimal-ingress');
    expect(managed()).toEqual([]);
    expect(await inventory.listOwnedStacks(ctx(true))).toEqual([]);
  });

  it('a bad CIDR in inbound-cidrs names the key before any call', async () => {
    const { e, ec2, provider, ctx } = await setup();
    const err = await provider.ingress
      .ensure(ctx(), mciWith({ [A('inbound-cidrs')]: '10.0.0.0/8, 10.0.0.300/24' }))
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field: A('inbound-cidrs'), reason: 'InvalidAnnotation' });
    expect((err as Error).message).toContain('"10.0.0.300/24"');
    expect(e.sim.calls.total()).toBe(0);
    expect(ec2.calls.total()).toBe(0);
  });
});
