/**
 * What a resync costs in a busy account, and who cleans up target groups a reconcile cannot find:
 * a resync discovers only its own stack (the same calls in an empty and a crowded account); an
 * owned target group no load balancer uses, under a name the stack no longer wants, is the hourly
 * orphan sweep's, after the grace period, and a foreign one is never touched.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { GROUP_NAME_ANNOTATION } from '../../lib/karmada/ingress-group.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { CREATED_AT_TAG, OWNER_TAG, RESOURCE_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv;

beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const lb = () => env.provider.loadBalancer();
const mci = (name: string): MultiClusterIngress =>
  minimalIngress({
    metadata: { name, namespace: 'default', uid: `mci-${name}` },
    spec: { rules: [{ http: { paths: [path('/testpath', 'Prefix', 'serve', 80)] } }] },
  });
const HOUR_MS = 3600_000;

/** A target group made behind the provider's back (a leftover), tagged as `tags` say. */
function leftover(name: string, tags: Record<string, string>): string {
  const res = env.sim.state.createTargetGroup({
    Name: name,
    Protocol: 'HTTP',
    Port: 8080,
    VpcId: SIM_NETWORK.vpcId,
    TargetType: 'ip',
    Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
  });
  return res.TargetGroups?.[0]?.TargetGroupArn ?? '';
}

const ours = (stack: string, createdAt?: Date): Record<string, string> => ({
  [OWNER_TAG]: env.config.ownerId,
  [STACK_TAG]: stack,
  [RESOURCE_TAG]: 'default/old:80',
  ...(createdAt ? { [CREATED_AT_TAG]: createdAt.toISOString() } : {}),
});

const tgNames = () =>
  env.sim
    .snapshot()
    .targetGroups.map((t) => t.TargetGroupName ?? '')
    .sort();

describe('AWS provider: resync cost and unattached target groups (simulator)', () => {
  it("a resync of one stack makes the same calls whether the account holds 30 other stacks' target groups or none", async () => {
    const mine = mci('mine');
    await lb().ensure(env.ctx, mine);
    const empty = await env.measured(() => lb().update({ ...env.ctx, resync: true }, mine));

    for (let i = 0; i < 30; i++) await lb().ensure({ ...env.ctx }, mci(`other-${i}`));
    // And some of those stacks' target groups unattached, which the old sweep had to tag-describe.
    for (let i = 0; i < 30; i++)
      leftover(`k8s-default-serve-leftov${String(i).padStart(4, '0')}`, ours(`mci/default/other-${i}`));
    expect(env.sim.snapshot().targetGroups).toHaveLength(61);

    const busy = await env.measured(() => lb().update({ ...env.ctx, resync: true }, mine));
    expect(busy).toStrictEqual(empty);
    // 8: the load balancer and its tags, its target group (by load balancer) and tags, listener,
    // rules and their tags, target health.
    expect(empty).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 3,
      DescribeTargetGroups: 1,
      DescribeListeners: 1,
      DescribeRules: 1,
      DescribeTargetHealth: 1,
    });
  });

  it('a resync still finds an unattached group of its own under a name it wants (a reconcile that died before the rule)', async () => {
    const mine = mci('mine');
    await lb().ensure(env.ctx, mine);
    const [rule] = env.sim.snapshot().rules.filter((r) => !r.IsDefault);
    env.sim.state.deleteRule({ RuleArn: rule?.RuleArn });
    expect(env.state().targetGroups[0]?.loadBalancers).toStrictEqual([]);
    await lb().update({ ...env.ctx, resync: true }, mine);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mine));
  });

  it('the sweep deletes an unattached owned group older than the grace, defers a young one, keeps a wanted one and never touches a foreign one', async () => {
    const mine = mci('mine');
    env.kube.put(mine);
    await lb().ensure(env.ctx, mine);
    const now = Date.now();
    leftover('k8s-default-serve-old0000000', ours('mci/default/mine', new Date(now - 2 * HOUR_MS)));
    leftover('k8s-default-serve-untagged00', ours('mci/default/mine'));
    leftover('k8s-default-serve-young00000', ours('mci/default/mine', new Date(now - 60_000)));
    leftover('k8s-default-serve-foreign000', {});
    leftover('k8s-default-serve-otherowner', { ...ours('mci/default/mine'), [OWNER_TAG]: 'someone-else' });
    // Another object whose reconcile died after CreateTargetGroup: its group is unattached, old,
    // but its name is the one the object wants.
    const web = mci('web');
    env.kube.put(web);
    env.sim.faults.failNext('CreateLoadBalancer', 1, { code: 'InvalidConfigurationRequest', status: 400 });
    await expect(lb().ensure(env.ctx, web)).rejects.toThrow();
    const wanted = env.sim
      .snapshot()
      .targetGroups.find(
        (t) => env.sim.state.tagsOf(t.TargetGroupArn ?? '')[STACK_TAG] === 'mci/default/web',
      );
    expect(wanted).toBeDefined();
    env.sim.state.addTags({
      ResourceArns: [wanted?.TargetGroupArn ?? ''],
      Tags: [{ Key: CREATED_AT_TAG, Value: new Date(now - 2 * HOUR_MS).toISOString() }],
    });
    const before = tgNames();

    env.sim.calls.reset();
    const result = await sweepOrphans(env.kube, env.provider, {
      graceSeconds: 3600,
      signal: new AbortController().signal,
      logger: env.logger,
    });

    expect(result).toMatchObject({ owned: 2, orphaned: [], deleted: [], errors: [] });
    expect(result.targetGroups.unattached).toBe(4);
    // A group without the created-at tag predates it: old.
    expect([...result.targetGroups.deleted].sort()).toStrictEqual([
      'k8s-default-serve-old0000000',
      'k8s-default-serve-untagged00',
    ]);
    expect(result.targetGroups.deferred).toStrictEqual(['k8s-default-serve-young00000']);
    expect(result.targetGroups.kept).toStrictEqual([wanted?.TargetGroupName]);
    expect(tgNames()).toStrictEqual(
      before.filter((n) => n !== 'k8s-default-serve-old0000000' && n !== 'k8s-default-serve-untagged00'),
    );
    // The account was listed once for the whole sweep: one page of load balancers and of target
    // groups; the other DescribeTargetGroups are the re-checks by ARN of the 3 groups acted on.
    expect(env.sim.calls.get('DescribeLoadBalancers').calls).toBe(1);
    expect(env.sim.calls.get('DescribeTargetGroups').calls).toBe(1 + 3);
    // The stack itself is untouched and the object's next reconcile converges.
    await lb().update({ ...env.ctx, resync: true }, mine);
    expect(env.state().loadBalancers).toHaveLength(1);

    // Later, the young one is old enough; the foreign ones are still never touched.
    const later = await sweepOrphans(env.kube, env.provider, {
      graceSeconds: 3600,
      signal: new AbortController().signal,
      logger: env.logger,
      now: () => new Date(now + 2 * HOUR_MS),
    });
    expect(later.targetGroups.deleted).toStrictEqual(['k8s-default-serve-young00000']);
    expect(tgNames()).toContain('k8s-default-serve-foreign000');
    expect(tgNames()).toContain('k8s-default-serve-otherowner');
    expect(tgNames()).toContain(wanted?.TargetGroupName);
  });

  it("a group under a name the object's own model gives is not wanted once an IngressGroup serves the object: deleted", async () => {
    // A reconcile died after CreateTargetGroup; the object then joined a group, whose stack serves it.
    const web = mci('web');
    env.kube.put(web);
    env.sim.faults.failNext('CreateLoadBalancer', 1, { code: 'InvalidConfigurationRequest', status: 400 });
    await expect(lb().ensure(env.ctx, web)).rejects.toThrow();
    const [left] = env.sim.snapshot().targetGroups;
    expect(left).toBeDefined();
    env.sim.state.addTags({
      ResourceArns: [left?.TargetGroupArn ?? ''],
      Tags: [{ Key: CREATED_AT_TAG, Value: new Date(Date.now() - 2 * HOUR_MS).toISOString() }],
    });
    const sweep = () =>
      sweepOrphans(env.kube, env.provider, {
        graceSeconds: 3600,
        signal: new AbortController().signal,
        logger: env.logger,
      });
    // Standalone, the object still wants it: kept.
    expect((await sweep()).targetGroups.kept).toStrictEqual([left?.TargetGroupName]);

    env.kube.put({
      ...web,
      metadata: { ...web.metadata, annotations: { [GROUP_NAME_ANNOTATION]: 'shop' } },
    });
    const result = await sweep();
    expect(result.targetGroups.deleted).toStrictEqual([left?.TargetGroupName]);
    expect(tgNames()).toStrictEqual([]);
  });

  it('an orphaned stack is deleted whole by the sweep, from the one listing', async () => {
    const gone = mci('gone');
    await lb().ensure(env.ctx, gone);
    leftover('k8s-default-serve-old0000000', ours('mci/default/gone', new Date(Date.now() - 2 * HOUR_MS)));
    const result = await sweepOrphans(env.kube, env.provider, {
      graceSeconds: 0,
      signal: new AbortController().signal,
      logger: env.logger,
    });
    expect(result).toMatchObject({ owned: 1, orphaned: ['mci/default/gone'], deleted: ['mci/default/gone'] });
    expect(result.targetGroups.deleted).toStrictEqual([]);
    expect(env.sim.snapshot()).toMatchObject({ loadBalancers: [], targetGroups: [] });
  });
});
