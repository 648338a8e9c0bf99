/**
 * The deploy layer on its own against the ELBv2 simulator (no provider, no Kubernetes): apply's
 * call-by-call execution and its error tolerance, the deployer's fast path, dry run and
 * announcements, deletion and the unattached-group check, the describe calls' batching and
 * fall-backs, look-ups by name and the call-rate middleware.
 */
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  taggingClientFor,
  type Elbv2Simulator,
} from '../../dev/elbv2-sim/index.js';
import { CancelledError, OwnershipConflictError, RetryLaterError } from '../../lib/errors.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { applyPlan, withCreatedAt, withInstance } from '../../lib/providers/aws/deploy/apply.js';
import {
  DEFAULT_DEPLOY_OPTIONS,
  LookupMemo,
  type DeployContext,
} from '../../lib/providers/aws/deploy/context.js';
import {
  deleteStack,
  deleteUnattachedTargetGroup,
  listOwnerInventory,
} from '../../lib/providers/aws/deploy/deletion.js';
import { deployStack } from '../../lib/providers/aws/deploy/deployer.js';
import {
  describeExtraCertificates,
  describeListeners,
  describeLoadBalancerAttributes,
  describeRules,
  describeTags,
  describeTargetGroupAttributes,
  describeTargets,
  findLoadBalancerByName,
  findTargetGroupByArn,
  findTargetGroupsByLoadBalancer,
  findTargetGroupsByNames,
  sweepOwnedLoadBalancers,
  sweepOwnedTargetGroups,
} from '../../lib/providers/aws/deploy/describe.js';
import { findOwnedLoadBalancer, ownedByName } from '../../lib/providers/aws/deploy/lookup.js';
import type { Operation } from '../../lib/providers/aws/deploy/operations.js';
import { limitCallsPerSecond, TokenBucket } from '../../lib/providers/aws/deploy/rate-limit.js';
import { DEFAULT_HEALTH_CHECK } from '../../lib/providers/aws/index.js';
import {
  KubeTargetRecords,
  recordOf,
  type TargetRecordStore,
} from '../../lib/providers/aws/deploy/target-records.js';
import { deployTargetsOnly } from '../../lib/providers/aws/deploy/targets-only.js';
import { stackFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import type { ModelConfig, Stack } from '../../lib/providers/aws/model/types.js';
import {
  CREATED_AT_TAG,
  FINGERPRINT_TAG,
  INSTANCE_TAG,
  OWNER_TAG,
  STACK_TAG,
} from '../../lib/providers/aws/tagging.js';
import { collectedSlice, service } from '../fixtures/aws/objects.js';
import { MemoryKube } from '../support/memory-kube.js';
import { CERT_A, CERT_B, mcs } from './aws-env.js';
import { arnRef } from '../../lib/providers/aws/deploy/refs.js';

const config: ModelConfig = {
  ownerId: 'karmada-test',
  scheme: 'internal',
  vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr] },
  subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
  // Named, as a configuration does when the provider manages no groups (this context has no EC2).
  securityGroups: [SIM_NETWORK.defaultSecurityGroupId],
  defaultTags: {},
  healthCheck: { ...DEFAULT_HEALTH_CHECK },
};
const RULE_ARN =
  'arn:aws:elasticloadbalancing:us-east-1:123456789012:listener-rule/app/x/0123456789abcdef/0123456789abcdef/0123456789abcdef';
const TG_ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-x/0123456789abcdef';
const owner = { ownerId: 'karmada-test', stackId: 'mcs/default/serve' };

let sim: Elbv2Simulator;
let logger: MemoryLogger;
let ctx: DeployContext;
beforeEach(async () => {
  sim = await startElbv2Simulator({ inProcess: true });
  logger = new MemoryLogger();
  ctx = {
    client: elbv2ClientFor(sim, { maxAttempts: 1, retryDelayMs: 1 }),
    signal: new AbortController().signal,
    logger,
    owner,
    vpcId: SIM_NETWORK.vpcId,
    options: { resourceInUseAttempts: 3, resourceInUseDelayMs: 1 },
    records: new KubeTargetRecords(new MemoryKube(), 'records', owner.ownerId, logger),
  };
});
afterEach(async () => {
  await sim.close();
});

const stackOf = (
  ports = [{ port: 80, targetPort: 8080 }],
  annotations?: Record<string, string>,
  ownerId = config.ownerId,
): Stack =>
  buildServiceStack({
    mcs: mcs('serve', {}, annotations),
    service: service('serve', ports),
    endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.128.10'] })],
    config: { ...config, ownerId },
  });
/** The AWS name of a stack's resource (load balancer, target group). */
const nameOf = (stack: Stack, i: number) => (stack.resources[i]?.spec as { name: string }).name;
const FACING = { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' };
/** Makes a resource someone else's, as another tool would tag it. */
const retag = (arn: string | undefined, tags: Record<string, string>) =>
  applyPlan(ctx, [
    {
      op: 'modify',
      resource: 'LoadBalancer',
      id: 'x',
      detail: '',
      calls: [
        {
          action: 'AddTags',
          input: {
            ResourceArns: [arn ?? ''],
            Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
          },
        },
      ],
    },
  ]);
const mutating = () =>
  sim.calls
    .history()
    .filter((r) => r.outcome === 'ok' && !r.action.startsWith('Describe'))
    .map((r) => r.action);
const rejection = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
};
const tagsOf = (arn: string | undefined) =>
  describeTags(ctx, [arn ?? '']).then((m) => m.get(arn ?? '') ?? {});

describe('deployStack', () => {
  it('creates the stack; the next deploy takes the fingerprint fast path (2 calls, nothing changed)', async () => {
    const stack = stackOf();
    const first = await deployStack(ctx, stack);
    expect(first).toMatchObject({ skipped: false, applied: true });
    const lb = sim.snapshot().loadBalancers[0];
    expect(first.dnsName).toBe(lb?.DNSName);
    expect(mutating()).toStrictEqual([
      'CreateTargetGroup',
      'RegisterTargets',
      'CreateLoadBalancer',
      'CreateListener',
      'AddTags',
    ]);
    const tg = sim.snapshot().targetGroups[0];
    const tgTags = await tagsOf(tg?.TargetGroupArn);
    expect(Date.parse(tgTags[CREATED_AT_TAG] ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(tgTags[INSTANCE_TAG]).toBeUndefined();
    expect((await tagsOf(lb?.LoadBalancerArn))[FINGERPRINT_TAG]).toMatch(/^v2-/);

    sim.calls.reset();
    const again = await deployStack(ctx, stack);
    expect(again).toStrictEqual({
      dnsName: lb?.DNSName,
      loadBalancerArn: lb?.LoadBalancerArn,
      plan: [],
      skipped: true,
      applied: false,
    });
    expect(sim.calls.history().map((r) => r.action)).toStrictEqual(['DescribeLoadBalancers', 'DescribeTags']);
  });

  it('with a Karmada instance, every created resource carries the instance tag', async () => {
    const withInstanceCtx = { ...ctx, owner: { ...owner, instanceId: 'uid-1' } };
    await deployStack(withInstanceCtx, stackOf());
    const snap = sim.snapshot();
    for (const arn of [
      snap.loadBalancers[0]?.LoadBalancerArn,
      snap.targetGroups[0]?.TargetGroupArn,
      snap.listeners[0]?.ListenerArn,
    ]) {
      expect((await tagsOf(arn))[INSTANCE_TAG]).toBe('uid-1');
    }
  });

  it('a dry run plans and changes nothing; dnsName is the current one (none yet)', async () => {
    const dry = await deployStack(ctx, stackOf(), { dryRun: true });
    expect(dry.applied).toBe(false);
    expect(dry.skipped).toBe(false);
    expect(dry.dnsName).toBeUndefined();
    expect(dry.plan.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'create TargetGroup',
      'modify Targets',
      'create LoadBalancer',
      'create Listener',
      'modify LoadBalancer',
    ]);
    expect(mutating()).toStrictEqual([]);
    expect(logger.lines.some((l) => l.message === 'change plan (dry run: not applied)')).toBe(true);
    // No previous names: one look-up, under the name wanted.
    expect(sim.calls.history().filter((r) => r.action === 'DescribeLoadBalancers')).toHaveLength(1);
  });

  it('a resync after a deploy describes everything and changes nothing', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    sim.calls.reset();
    const resync = await deployStack(ctx, stack, { resync: true });
    expect(resync).toMatchObject({ skipped: false, applied: true, plan: [] });
    expect(mutating()).toStrictEqual([]);
  });

  it('announces a replacement before applying it, and a failing announcement does not stop it', async () => {
    const scheme = 'service.beta.kubernetes.io/aws-load-balancer-scheme';
    const internal = stackOf();
    await deployStack(ctx, internal);
    const oldName = sim.snapshot().loadBalancers[0]?.LoadBalancerName ?? '';
    const announced: Array<[string, string]> = [];
    const facing = stackOf(undefined, { [scheme]: 'internet-facing' });
    await deployStack(
      {
        ...ctx,
        announce: async (reason, message) => {
          announced.push([reason, message]);
          throw new Error('events are down');
        },
      },
      facing,
      { previousNames: [oldName, nameOf(facing, 0)] },
    );
    expect(announced).toHaveLength(1);
    expect(announced[0]?.[0]).toBe('ReplacingLoadBalancer');
    expect(announced[0]?.[1]).toMatch(
      /^replacing LoadBalancer: k8s-default-serve-[0-9a-f]{10} \(scheme internal → internet-facing\) is deleted/,
    );
    expect(sim.snapshot().loadBalancers.map((l) => l.Scheme)).toStrictEqual(['internet-facing']);
    expect(logger.lines.find((l) => l.message === 'could not announce a replacement')?.fields).toMatchObject({
      error: 'events are down',
    });
  });

  it('refuses a foreign load balancer under our name', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    await retag(sim.snapshot().loadBalancers[0]?.LoadBalancerArn, { [OWNER_TAG]: 'someone-else' });
    const err = await rejection(deployStack(ctx, stack));
    expect(err).toBeInstanceOf(OwnershipConflictError);
    expect(err.message).toBe(
      `load balancer "${nameOf(stack, 0)}" exists in AWS but is not owned by this deployment: it is never modified or deleted`,
    );
    // Who holds it is the operator's (the log), not the object's users' (the message).
    expect((err as OwnershipConflictError).holder).toBe(
      'owner "someone-else", instance "", stack "mcs/default/serve"',
    );
  });
});

describe('discovery', () => {
  const removeTags = (arn: string | undefined, keys: string[]) =>
    applyPlan(ctx, [
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'x',
        detail: '',
        calls: [{ action: 'RemoveTags', input: { ResourceArns: [arn ?? ''], TagKeys: keys } }],
      },
    ]);

  it('refuses a stack without load balancer', async () => {
    const empty = { id: 'mcs/default/empty', ownerId: config.ownerId, resources: [] };
    const err = await rejection(deployStack(ctx, empty, { resync: true }));
    expect(err.message).toBe('stack mcs/default/empty has no load balancer');
    // With the Tagging API too: the shortcut does not apply to it.
    const tagged = await rejection(deployStack({ ...ctx, tagging: taggingClientFor(sim) }, empty));
    expect(tagged.message).toBe('stack mcs/default/empty has no load balancer');
  });

  it('a load balancer whose scheme changed under the same (explicit) name is replaced', async () => {
    const named = { 'service.beta.kubernetes.io/aws-load-balancer-name': 'k8s-fixed-name' };
    await deployStack(ctx, stackOf(undefined, named));
    await deployStack(ctx, stackOf(undefined, { ...named, ...FACING }));
    expect(sim.snapshot().loadBalancers.map((l) => [l.LoadBalancerName, l.Scheme])).toStrictEqual([
      ['k8s-fixed-name', 'internet-facing'],
    ]);
    // Nobody to announce it to: nothing fails.
    expect(logger.lines.map((l) => l.message)).not.toContain('could not announce a replacement');
  });

  it('a deploy right after get() takes its look-ups of the previous names too', async () => {
    const internal = stackOf();
    await deployStack(ctx, internal);
    const facing = stackOf(undefined, FACING);
    const mctx = { ...ctx, lookups: new LookupMemo() };
    await ownedByName(mctx, nameOf(facing, 0), 'record');
    await ownedByName(mctx, nameOf(internal, 0), 'record');
    sim.calls.reset();
    await deployStack(mctx, facing, { previousNames: [nameOf(internal, 0), nameOf(facing, 0)] });
    expect(sim.calls.history().filter((r) => r.action === 'DescribeLoadBalancers')).toStrictEqual([]);
    expect(sim.snapshot().loadBalancers.map((l) => l.Scheme)).toStrictEqual(['internet-facing']);
  });

  it('describes the certificates of the listeners it keeps only', async () => {
    const tls = { 'service.beta.kubernetes.io/aws-load-balancer-ssl-cert': `${CERT_A},${CERT_B}` };
    const port = (p: number) => ({ port: p, targetPort: p + 8000 });
    await deployStack(ctx, stackOf([port(80), port(81)], tls));
    sim.calls.reset();
    await deployStack(ctx, stackOf([port(80)], tls));
    expect(sim.calls.history().filter((r) => r.action === 'DescribeListenerCertificates')).toHaveLength(1);
    expect(sim.snapshot().listeners.map((l) => l.Port)).toStrictEqual([80]);
  });

  it('ownership conflicts say what they found under our name', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    const snap = sim.snapshot();
    const expected = (kind: string, name: string) =>
      `${kind} "${name}" exists in AWS but is not owned by this deployment: it is never modified or deleted`;
    const holder = (err: Error) => (err as OwnershipConflictError).holder;
    await retag(snap.targetGroups[0]?.TargetGroupArn, { [OWNER_TAG]: 'someone-else' });
    const tgErr = await rejection(deployStack(ctx, stack, { resync: true }));
    expect(tgErr).toBeInstanceOf(OwnershipConflictError);
    expect(tgErr.message).toBe(expected('target group', nameOf(stack, 1)));
    expect(holder(tgErr)).toBe('owner "someone-else", instance "", stack "mcs/default/serve"');
    const lb = snap.loadBalancers[0]?.LoadBalancerArn;
    await removeTags(lb, [OWNER_TAG, STACK_TAG]);
    const bare = await rejection(deployStack(ctx, stack, { resync: true }));
    expect(bare.message).toBe(expected('load balancer', nameOf(stack, 0)));
    expect(holder(bare)).toBe('no multicluster ownership tags');
    await retag(lb, { [OWNER_TAG]: 'other' });
    const noStack = await rejection(deployStack(ctx, stack, { resync: true }));
    expect(noStack.message).toBe(expected('load balancer', nameOf(stack, 0)));
    expect(holder(noStack)).toBe('owner "other", instance "", stack ""');
    // Our owner, another stack: another object of ours has the name.
    await retag(lb, { [OWNER_TAG]: 'karmada-test', [STACK_TAG]: 'mcs/default/other' });
    const ours = await rejection(deployStack(ctx, stack, { resync: true }));
    expect(ours.message).toBe(
      `load balancer "${nameOf(stack, 0)}" is in use by MultiClusterService default/other: two objects cannot share one name`,
    );
    expect((ours as OwnershipConflictError).reason).toBe('LoadBalancerNameInUse');
  });

  it('a foreign target group attached to our load balancer is left alone, not a conflict', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    const lbArn = sim.snapshot().loadBalancers[0]?.LoadBalancerArn ?? '';
    const created = await applyPlan(ctx, [
      {
        op: 'create',
        resource: 'TargetGroup',
        id: 'foreign',
        detail: '',
        calls: [
          {
            action: 'CreateTargetGroup',
            produces: 'foreign',
            input: {
              Name: 'k8s-foreign',
              TargetType: 'ip',
              Protocol: 'TCP',
              Port: 9999,
              VpcId: SIM_NETWORK.vpcId,
              Tags: [{ Key: OWNER_TAG, Value: 'someone-else' }],
            },
          },
          {
            action: 'CreateListener',
            produces: '9999',
            input: {
              LoadBalancerArn: lbArn,
              Port: 9999,
              Protocol: 'TCP',
              DefaultActions: [{ Type: 'forward', TargetGroupArn: arnRef('foreign') }],
            },
          },
        ],
      },
    ]);
    await deployStack(ctx, stack, { resync: true });
    const snap = sim.snapshot();
    expect(snap.listeners.map((l) => l.Port)).toStrictEqual([80]);
    expect(snap.targetGroups.map((t) => t.TargetGroupArn)).toContain(created.arns.get('foreign'));
  });
});

describe('the targets record and the targets-only path', () => {
  const withAddresses = (addresses: string[]) =>
    buildServiceStack({
      mcs: mcs('serve', {}),
      service: service('serve', [{ port: 80, targetPort: 8080 }]),
      endpointSlices: [collectedSlice('member1', 'serve', { addresses })],
      config,
    });
  /** The context's record store, with what is asked of it. */
  const counted = (c: DeployContext) => {
    const asked: string[] = [];
    const inner = c.records;
    const records: TargetRecordStore = {
      read: (id) => (asked.push('read'), inner.read(id)),
      forget: (id) => (asked.push('forget'), inner.forget(id)),
      write: (id, r) => (asked.push('write'), inner.write(id, r)),
      list: () => (asked.push('list'), inner.list()),
    };
    return { ctx: { ...c, records }, asked };
  };
  const recordNow = () => ctx.records.read(owner.stackId);

  it('the full path: writes the record; kept when nothing changed; forgotten first when it changes something', async () => {
    const stack = withAddresses(['10.0.128.10']);
    await deployStack(ctx, stack);
    expect(await recordNow()).toStrictEqual(recordOf(stack, stackFingerprint(stack)));
    // Nothing to change and the record holds: neither forgotten nor written again.
    const quiet = counted(ctx);
    await deployStack(quiet.ctx, stack, { resync: true });
    expect(quiet.asked).toStrictEqual(['read']);
    // No record, nothing to change: written again.
    await ctx.records.forget(owner.stackId);
    await deployStack(ctx, stack, { resync: true });
    expect(await recordNow()).toStrictEqual(recordOf(stack, stackFingerprint(stack)));
    // A resync that repairs drift (a tag removed by hand) writes the record again after forgetting it.
    const lb = sim.snapshot().loadBalancers[0]?.LoadBalancerArn;
    await applyPlan(ctx, [
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'x',
        detail: '',
        calls: [{ action: 'RemoveTags', input: { ResourceArns: [lb ?? ''], TagKeys: [FINGERPRINT_TAG] } }],
      },
    ]);
    const repair = counted(ctx);
    expect((await deployStack(repair.ctx, stack, { resync: true })).plan).not.toStrictEqual([]);
    expect(repair.asked).toStrictEqual(['read', 'forget', 'write']);
    expect(await recordNow()).toStrictEqual(recordOf(stack, stackFingerprint(stack)));
    // A change that fails half-way leaves no record behind.
    sim.faults.failNext('CreateListener', 1, { code: 'ValidationError' });
    const moved = stackOf([{ port: 81, targetPort: 8080 }]);
    await rejection(deployStack(ctx, moved));
    expect(await recordNow()).toBeUndefined();
  });

  it('with the Tagging API: nothing changed is skipped, a dry run plans only, a change costs one call', async () => {
    const tctx = { ...ctx, tagging: taggingClientFor(sim) };
    const before = withAddresses(['10.0.128.10']);
    await deployStack(tctx, before);
    const dnsName = sim.snapshot().loadBalancers[0]?.DNSName;
    const loadBalancerArn = sim.snapshot().loadBalancers[0]?.LoadBalancerArn;
    logger.lines.length = 0;
    sim.calls.reset();
    expect(await deployStack(tctx, before)).toStrictEqual({
      dnsName,
      loadBalancerArn,
      plan: [],
      skipped: true,
      applied: false,
    });
    expect(sim.calls.history()).toStrictEqual([]);
    expect(logger.lines.map((l) => l.message)).toContain('stack unchanged');

    const after = withAddresses(['10.0.128.10', '10.0.128.11']);
    logger.lines.length = 0;
    const dry = await deployStack(tctx, after, { dryRun: true });
    expect([dry.skipped, dry.applied, dry.plan.map((o) => `${o.op} ${o.resource}`)]).toStrictEqual([
      false,
      false,
      ['modify Targets'],
    ]);
    expect(mutating()).toStrictEqual([]);
    expect(await recordNow()).toStrictEqual(recordOf(before, stackFingerprint(before)));
    expect(logger.lines.map((l) => l.message)).not.toContain('stack unchanged');

    const real = await deployStack(tctx, after);
    expect([real.dnsName, real.skipped, real.applied, real.plan.length]).toStrictEqual([
      dnsName,
      false,
      true,
      1,
    ]);
    expect(mutating()).toStrictEqual(['RegisterTargets']);
    expect(await recordNow()).toStrictEqual(recordOf(after, stackFingerprint(after)));

    // No record, targets already right: read from ELBv2, nothing to apply, the record written.
    await ctx.records.forget(owner.stackId);
    expect(await deployStack(tctx, after, { dryRun: true })).toStrictEqual({
      dnsName,
      loadBalancerArn,
      plan: [],
      skipped: true,
      applied: false,
    });
    sim.calls.reset();
    expect(await deployStack(tctx, after)).toStrictEqual({
      dnsName,
      loadBalancerArn,
      plan: [],
      skipped: false,
      applied: false,
    });
    expect(sim.calls.history().map((r) => r.action)).toStrictEqual(['DescribeTargetHealth']);
    expect(await recordNow()).toStrictEqual(recordOf(after, stackFingerprint(after)));

    // No record and a change: nothing to forget before it, the record written after.
    await ctx.records.forget(owner.stackId);
    const third = counted(tctx);
    await deployStack(third.ctx, withAddresses(['10.0.128.11']));
    expect(third.asked).toStrictEqual(['read', 'write']);

    // A resync never takes the shortcut.
    sim.calls.reset();
    await deployStack(tctx, after, { resync: true });
    expect(sim.calls.history().map((r) => r.action)).toContain('DescribeListeners');
  });

  it('deployTargetsOnly: a group not visible by tags sends the deploy the long way; refusals', async () => {
    const before = withAddresses(['10.0.128.10']);
    await deployStack(ctx, before);
    const fingerprint = stackFingerprint(before);
    const lb = sim.snapshot().loadBalancers[0];
    const tg = sim.snapshot().targetGroups[0]?.TargetGroupArn;
    const after = withAddresses(['10.0.128.10', '10.0.128.11']);
    const view = {
      loadBalancer: { arn: lb?.LoadBalancerArn ?? '', dnsName: lb?.DNSName ?? '', fingerprint },
      groupArn: () => tg,
      record: recordOf(before, fingerprint),
    };
    expect(
      await deployTargetsOnly(ctx, after, fingerprint, { ...view, groupArn: () => undefined }, true),
    ).toBeUndefined();
    // Any other refusal than InvalidTarget fails the deploy, record or not; so does InvalidTarget
    // without a record (nothing to distrust).
    sim.faults.failNext('RegisterTargets', 1, { code: 'ValidationError' });
    expect((await rejection(deployTargetsOnly(ctx, after, fingerprint, view, false))).name).toBe(
      'ValidationError',
    );
    sim.faults.failNext('RegisterTargets', 1, { code: 'InvalidTarget' });
    const noRecord = { ...view, record: undefined };
    expect((await rejection(deployTargetsOnly(ctx, after, fingerprint, noRecord, false))).name).toBe(
      'InvalidTargetException',
    );
  });
});

describe('applyPlan', () => {
  const deleteTg = (arn: string): Operation => ({
    op: 'delete',
    resource: 'TargetGroup',
    id: 'x',
    detail: '',
    calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: arn } }],
  });

  it('retries DeleteTargetGroup while the group is in use, then gives up with RetryLaterError', async () => {
    // Deleting a target group that does not exist succeeds: only the scripted answers say "in use".
    const arn = TG_ARN;
    sim.faults.failNext('DeleteTargetGroup', 2, { code: 'ResourceInUse', message: 'in use' });
    sim.calls.reset();
    await applyPlan(ctx, [deleteTg(arn)]);
    expect(sim.calls.history().map((r) => [r.action, r.outcome])).toStrictEqual([
      ['DeleteTargetGroup', 'fault'],
      ['DeleteTargetGroup', 'fault'],
      ['DeleteTargetGroup', 'ok'],
    ]);
    sim.faults.failNext('DeleteTargetGroup', 3, { code: 'ResourceInUse', message: 'in use' });
    const err = (await rejection(applyPlan(ctx, [deleteTg(TG_ARN)]))) as RetryLaterError;
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err.message).toBe(`target group ${TG_ARN} is still in use`);
    expect(err.retryAfterSeconds).toBe(10);
    expect(sim.faults.pending('DeleteTargetGroup')).toBe(0);
  });

  it.each([
    { action: 'DeleteLoadBalancer', code: 'LoadBalancerNotFound', input: { LoadBalancerArn: 'arn:lb' } },
    { action: 'DeleteTargetGroup', code: 'TargetGroupNotFound', input: { TargetGroupArn: 'arn:tg' } },
    { action: 'DeleteRule', code: 'RuleNotFound', input: { RuleArn: 'arn:rule' } },
  ] as const)('a $action of something already gone ($code) is done', async ({ action, code, input }) => {
    sim.faults.failNext(action, 1, { code });
    await expect(
      applyPlan(ctx, [
        {
          op: 'delete',
          resource: 'LoadBalancer',
          id: 'x',
          detail: '',
          calls: [{ action, input } as Operation['calls'][number]],
        },
      ]),
    ).resolves.toBeDefined();
  });

  it.each([
    { action: 'DeleteLoadBalancer', code: 'TargetGroupNotFound', input: { LoadBalancerArn: 'arn:lb' } },
    { action: 'DeleteRule', code: 'LoadBalancerNotFound', input: { RuleArn: 'arn:rule' } },
    { action: 'DeleteTargetGroup', code: 'RuleNotFound', input: { TargetGroupArn: 'arn:tg' } },
    { action: 'DeleteLoadBalancer', code: 'ResourceInUse', input: { LoadBalancerArn: 'arn:lb' } },
  ] as const)(
    'any other error of $action ($code) fails the apply at once',
    async ({ action, code, input }) => {
      sim.faults.failNext(action, 2, { code });
      sim.calls.reset();
      const err = await rejection(
        applyPlan(ctx, [
          {
            op: 'delete',
            resource: 'LoadBalancer',
            id: 'x',
            detail: '',
            calls: [{ action, input } as Operation['calls'][number]],
          },
        ]),
      );
      expect(err.name).toBe(`${code}Exception`);
      expect(sim.calls.history()).toHaveLength(1);
    },
  );

  it('stops between calls once the signal fired', async () => {
    const c = new AbortController();
    const plan: Operation[] = [
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'x',
        detail: '',
        calls: [
          { action: 'DeleteRule', input: { RuleArn: RULE_ARN } },
          { action: 'DeleteRule', input: { RuleArn: RULE_ARN } },
        ],
      },
    ];
    sim.calls.reset();
    sim.faults.failNext('DeleteRule', 4, { code: 'RuleNotFound' });
    const p = applyPlan(
      { ...ctx, signal: c.signal, logger: { ...logger, info: () => c.abort() } as unknown as MemoryLogger },
      [...plan, ...plan],
    );
    const err = await rejection(p);
    expect(err).toBeInstanceOf(CancelledError);
    expect(sim.calls.history().map((r) => r.action)).toStrictEqual(['DeleteRule', 'DeleteRule']);
  });

  it.each([
    { action: 'CreateLoadBalancer', answer: {}, input: { Name: 'k8s-x' } },
    { action: 'CreateLoadBalancer', answer: { LoadBalancers: [] }, input: { Name: 'k8s-x' } },
    { action: 'CreateTargetGroup', answer: {}, input: { Name: 'k8s-x' } },
    { action: 'CreateTargetGroup', answer: { TargetGroups: [] }, input: { Name: 'k8s-x' } },
    { action: 'CreateListener', answer: {}, input: { LoadBalancerArn: 'arn:lb', DefaultActions: [] } },
    {
      action: 'CreateListener',
      answer: { Listeners: [] },
      input: { LoadBalancerArn: 'arn:lb', DefaultActions: [] },
    },
  ] as const)(
    'a $action answered with $answer fails the apply: no ARN',
    async ({ action, answer, input }) => {
      const mute = {
        ...ctx,
        client: { send: () => Promise.resolve(answer) } as unknown as ElasticLoadBalancingV2Client,
      };
      const err = await rejection(
        applyPlan(mute, [
          {
            op: 'create',
            resource: 'Listener',
            id: '80',
            detail: '',
            calls: [{ action, produces: '80', input } as Operation['calls'][number]],
          },
        ]),
      );
      expect(err.message).toBe(`${action} for 80 returned no ARN`);
    },
  );

  it('logs each operation it applied, but target registrations (one line per reconcile at most)', async () => {
    const op = (o: Pick<Operation, 'op' | 'resource'>): Operation => ({
      ...o,
      id: 'i',
      detail: 'd',
      calls: [],
    });
    await applyPlan(ctx, [
      op({ op: 'modify', resource: 'Targets' }),
      op({ op: 'modify', resource: 'TargetGroup' }),
      op({ op: 'delete', resource: 'Targets' }),
    ]);
    expect(logger.lines.map((l) => [l.message, l.fields])).toStrictEqual([
      ['modify TargetGroup', { id: 'i', detail: 'd' }],
      ['delete Targets', { id: 'i', detail: 'd' }],
    ]);
  });

  it('changes subnets and security groups in place', async () => {
    const sgKey = 'service.beta.kubernetes.io/aws-load-balancer-security-groups';
    const build = (subnets: string[], sg: string) =>
      buildServiceStack({
        mcs: mcs('serve', {}, { [sgKey]: sg }),
        service: service('serve', [{ port: 80, targetPort: 8080 }]),
        endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.128.10'] })],
        config: { ...config, subnets },
      });
    await deployStack(ctx, build(config.subnets!, 'sg-0e1b5000000000001'));
    const fewer = config.subnets!.slice(0, 2);
    sim.calls.reset();
    await deployStack(ctx, build(fewer, 'sg-0123456789abcdef0'));
    expect(mutating()).toStrictEqual(['AddTags', 'SetSubnets', 'SetSecurityGroups', 'AddTags']);
    const lb = sim.snapshot().loadBalancers[0];
    expect(lb?.AvailabilityZones?.map((z) => z.SubnetId).sort()).toStrictEqual([...fewer].sort());
    expect(lb?.SecurityGroups).toStrictEqual(['sg-0123456789abcdef0']);
  });

  it('fills in the ARNs the plan creates and reports the DNS names of created load balancers', async () => {
    const plan = (await deployStack(ctx, stackOf(), { dryRun: true })).plan;
    const applied = await applyPlan(ctx, plan);
    const snap = sim.snapshot();
    expect([...applied.arns.keys()].sort()).toStrictEqual(['80', 'LoadBalancer', 'default/serve:80']);
    expect(applied.arns.get('LoadBalancer')).toBe(snap.loadBalancers[0]?.LoadBalancerArn);
    expect([...applied.dnsNames]).toStrictEqual([['LoadBalancer', snap.loadBalancers[0]?.DNSName]]);
  });

  it('withCreatedAt replaces a created-at tag; withInstance adds the instance only when there is one', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(
      withCreatedAt(
        {
          Name: 'n',
          Tags: [
            { Key: CREATED_AT_TAG, Value: 'old' },
            { Key: 'a', Value: '1' },
          ],
        },
        at,
      ).Tags,
    ).toStrictEqual([
      { Key: 'a', Value: '1' },
      { Key: CREATED_AT_TAG, Value: '2026-01-02T03:04:05.000Z' },
    ]);
    expect(withCreatedAt({ Name: 'n' }, at).Tags).toStrictEqual([
      { Key: CREATED_AT_TAG, Value: '2026-01-02T03:04:05.000Z' },
    ]);
    const input = {
      Tags: [
        { Key: INSTANCE_TAG, Value: 'old' },
        { Key: 'a', Value: '1' },
      ],
    };
    expect(withInstance(input, { owner })).toBe(input);
    expect(withInstance(input, { owner: { ...owner, instanceId: 'i' } }).Tags).toStrictEqual([
      { Key: 'a', Value: '1' },
      { Key: INSTANCE_TAG, Value: 'i' },
    ]);
    expect(
      withInstance<{ Tags?: Array<{ Key?: string; Value?: string }> }>(
        {},
        { owner: { ...owner, instanceId: 'i' } },
      ).Tags,
    ).toStrictEqual([{ Key: INSTANCE_TAG, Value: 'i' }]);
  });
});

describe('deletion', () => {
  it('deleteStack by names: a dry run plans, a real one deletes load balancer and target groups', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    const lbName = nameOf(stack, 0);
    const tgName = nameOf(stack, 1);
    const target = { loadBalancerNames: ['k8s-nothing-here', lbName], targetGroupNames: [tgName] };
    const dry = await deleteStack(ctx, target, { dryRun: true });
    expect(dry.map((o) => `${o.op} ${o.resource} ${o.id}`)).toStrictEqual([
      `delete LoadBalancer ${lbName}`,
      `delete TargetGroup ${tgName}`,
    ]);
    expect(sim.snapshot().loadBalancers).toHaveLength(1);
    await deleteStack(ctx, target);
    expect(sim.snapshot().loadBalancers).toHaveLength(0);
    expect(sim.snapshot().targetGroups).toHaveLength(0);
  });

  it('deleteStack leaves a foreign load balancer under one of the names alone', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    await retag(sim.snapshot().loadBalancers[0]?.LoadBalancerArn, { [STACK_TAG]: 'mcs/other/serve' });
    const plan = await deleteStack(ctx, {
      loadBalancerNames: [nameOf(stack, 0)],
      targetGroupNames: [],
    });
    expect(plan).toStrictEqual([]);
    expect(sim.snapshot().loadBalancers).toHaveLength(1);
    expect(logger.lines.map((l) => l.message)).toContain(
      'a load balancer with our name is not ours; leaving it alone',
    );
  });

  it('the owner inventory and the unattached-group check', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    await deployStack(ctx, stackOf(undefined, undefined, 'someone-else'));
    const inventory = await listOwnerInventory(ctx);
    expect(inventory.loadBalancers.map((l) => l.tags[STACK_TAG])).toStrictEqual(['mcs/default/serve']);
    expect(inventory.targetGroups.map((t) => t.tags[OWNER_TAG])).toStrictEqual(['karmada-test']);

    const tg = inventory.targetGroups[0]?.tg;
    const arn = tg?.TargetGroupArn ?? '';
    const never = () => Promise.reject(new Error('not asked'));
    expect(await deleteUnattachedTargetGroup(ctx, arn, never)).toBe('attached');
    expect(
      await deleteUnattachedTargetGroup(
        ctx,
        'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/gone/0123456789abcdef',
        never,
      ),
    ).toBe('gone');

    // Detach it: delete the load balancer only.
    await applyPlan(ctx, [
      {
        op: 'delete',
        resource: 'LoadBalancer',
        id: 'x',
        detail: '',
        calls: [
          {
            action: 'DeleteLoadBalancer',
            input: { LoadBalancerArn: inventory.loadBalancers[0]?.lb.LoadBalancerArn },
          },
        ],
      },
    ]);
    expect(
      await deleteUnattachedTargetGroup(
        { ...ctx, owner: { ...owner, stackId: 'mcs/default/other' } },
        arn,
        never,
      ),
    ).toBe('not-owned');
    expect(await deleteUnattachedTargetGroup(ctx, arn, async () => undefined)).toBe('wanted');
    expect(
      await deleteUnattachedTargetGroup(ctx, arn, async () => new Set([tg?.TargetGroupName ?? ''])),
    ).toBe('wanted');
    expect(
      await deleteUnattachedTargetGroup(ctx, arn, async () => new Set(['other']), { dryRun: true }),
    ).toBe('deleted');
    expect(await findTargetGroupByArn(ctx, arn)).toBeDefined();
    expect(await deleteUnattachedTargetGroup(ctx, arn, async () => new Set())).toBe('deleted');
    expect(await findTargetGroupByArn(ctx, arn)).toBeUndefined();
  });
});

describe('describe and look-ups', () => {
  it.each([
    ['DescribeTags', () => describeTags(ctx, [TG_ARN])],
    ['DescribeLoadBalancers', () => findLoadBalancerByName(ctx, 'k8s-x')],
    ['DescribeLoadBalancers', () => sweepOwnedLoadBalancers(ctx, owner)],
    ['DescribeTargetGroups', () => findTargetGroupsByLoadBalancer(ctx, 'arn:lb')],
    ['DescribeTargetGroups', () => findTargetGroupsByNames(ctx, ['k8s-x'])],
    ['DescribeTargetGroups', () => findTargetGroupByArn(ctx, TG_ARN)],
    ['DescribeTargetGroups', () => sweepOwnedTargetGroups(ctx, () => true)],
    ['DescribeRules', () => describeRules(ctx, 'arn:l')],
    ['DescribeListeners', () => describeListeners(ctx, 'arn:lb')],
    ['DescribeListenerCertificates', () => describeExtraCertificates(ctx, 'arn:l')],
    ['DescribeTargetHealth', () => describeTargets(ctx, TG_ARN)],
    ['DescribeLoadBalancerAttributes', () => describeLoadBalancerAttributes(ctx, 'arn:lb')],
    ['DescribeTargetGroupAttributes', () => describeTargetGroupAttributes(ctx, TG_ARN)],
  ] as const)(
    'a %s still throttled after the SDK retries: RetryLaterError naming it',
    async (action, run) => {
      sim.faults.failNext(action, 1, { code: 'Throttling' });
      const err = await rejection(run());
      expect(err).toBeInstanceOf(RetryLaterError);
      expect(err.message).toMatch(new RegExp(`^ELBv2 throttled ${action} through the SDK's retries`));
    },
  );

  it('findLoadBalancerByName: not found is undefined, any other error fails', async () => {
    expect(await findLoadBalancerByName(ctx, 'k8s-none')).toBeUndefined();
    sim.faults.failNext('DescribeLoadBalancers', 1, { code: 'ValidationError' });
    expect((await rejection(findLoadBalancerByName(ctx, 'k8s-none'))).name).toBe('ValidationError');
  });

  it('describeExtraCertificates: the listener’s certificates but its default one', async () => {
    const tls = {
      'service.beta.kubernetes.io/aws-load-balancer-ssl-cert': `${CERT_A},${CERT_B}`,
    };
    await deployStack(ctx, stackOf(undefined, tls));
    const listener = sim.snapshot().listeners[0]?.ListenerArn ?? '';
    expect(await describeExtraCertificates(ctx, listener)).toStrictEqual([CERT_B]);
  });

  it('the sweeps: only groups named and placed as ours are described, only resources with a stack tag count', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    const tg = sim.snapshot().targetGroups[0]?.TargetGroupArn ?? '';
    const lb = sim.snapshot().loadBalancers[0]?.LoadBalancerArn ?? '';
    const all = () => true;
    expect((await sweepOwnedTargetGroups(ctx, all)).map((e) => e.tg.TargetGroupArn)).toStrictEqual([tg]);
    // Ours by its tags, but in another VPC than the context's: not a candidate.
    expect(await sweepOwnedTargetGroups({ ...ctx, vpcId: 'vpc-0other' }, all)).toStrictEqual([]);
    // Ours by its tags and VPC, but not under our naming scheme.
    await applyPlan(ctx, [
      {
        op: 'create',
        resource: 'TargetGroup',
        id: 'x',
        detail: '',
        calls: [
          {
            action: 'CreateTargetGroup',
            input: {
              Name: 'other-tool',
              TargetType: 'ip',
              Protocol: 'TCP',
              Port: 80,
              VpcId: SIM_NETWORK.vpcId,
              Tags: [
                { Key: OWNER_TAG, Value: owner.ownerId },
                { Key: STACK_TAG, Value: owner.stackId },
              ],
            },
          },
        ],
      },
    ]);
    expect((await sweepOwnedTargetGroups(ctx, all)).map((e) => e.tg.TargetGroupArn)).toStrictEqual([tg]);
    expect((await sweepOwnedLoadBalancers(ctx, owner)).map((e) => e.lb.LoadBalancerArn)).toStrictEqual([lb]);
    // Without the stack tag, an owner's resource is no stack's: in neither listing nor the inventory.
    await applyPlan(ctx, [
      {
        op: 'modify',
        resource: 'LoadBalancer',
        id: 'x',
        detail: '',
        calls: [{ action: 'RemoveTags', input: { ResourceArns: [lb, tg], TagKeys: [STACK_TAG] } }],
      },
    ]);
    expect(await sweepOwnedLoadBalancers(ctx, owner)).toStrictEqual([]);
    expect(await listOwnerInventory(ctx)).toStrictEqual({ loadBalancers: [], targetGroups: [] });
  });

  it('describeTags: 20 ARNs per call, each ARN once', async () => {
    await deployStack(
      ctx,
      stackOf(Array.from({ length: 21 }, (_, i) => ({ port: 1000 + i, targetPort: 2000 + i }))),
    );
    const arns = sim.snapshot().targetGroups.map((t) => t.TargetGroupArn ?? '');
    expect(arns).toHaveLength(21);
    sim.calls.reset();
    const tags = await describeTags(ctx, [...arns, arns[0] ?? '']);
    expect(tags.size).toBe(21);
    expect(sim.calls.history().map((r) => r.action)).toStrictEqual(['DescribeTags', 'DescribeTags']);
    expect(await describeTags(ctx, [])).toStrictEqual(new Map());
  });

  it('findTargetGroupsByNames: one call, then one per name when one is missing', async () => {
    const stack = stackOf([
      { port: 80, targetPort: 8080 },
      { port: 81, targetPort: 8081 },
    ]);
    await deployStack(ctx, stack);
    const [a, b] = sim.snapshot().targetGroups.map((t) => t.TargetGroupName ?? '');
    sim.calls.reset();
    expect(
      (await findTargetGroupsByNames(ctx, [a ?? '', b ?? ''])).map((t) => t.TargetGroupName).sort(),
    ).toStrictEqual([a, b].sort());
    expect(sim.calls.history()).toHaveLength(1);
    sim.calls.reset();
    expect(
      (await findTargetGroupsByNames(ctx, [a ?? '', 'k8s-missing'])).map((t) => t.TargetGroupName),
    ).toStrictEqual([a]);
    expect(sim.calls.history().map((r) => r.outcome)).toStrictEqual(['error', 'ok', 'error']);
    expect(await findTargetGroupsByNames(ctx, ['k8s-missing'])).toStrictEqual([]);
    expect(await findTargetGroupsByNames(ctx, [])).toStrictEqual([]);
    sim.faults.failNext('DescribeTargetGroups', 1, { code: 'ValidationError' });
    expect((await rejection(findTargetGroupsByNames(ctx, [a ?? '', b ?? '']))).name).toBe('ValidationError');
    sim.faults.failNext('DescribeTargetGroups', 1, { code: 'ValidationError' });
    expect((await rejection(findTargetGroupByArn(ctx, 'arn:x'))).name).toBe('ValidationError');
  });

  it('ownedByName: a recorded look-up is used once, "record" remembers one', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    const name = nameOf(stack, 0);
    const memo = new LookupMemo();
    const mctx = { ...ctx, lookups: memo };
    memo.record(name, null);
    sim.calls.reset();
    expect(await ownedByName(mctx, name, 'use')).toBeUndefined();
    expect(sim.calls.history()).toHaveLength(0);
    const found = await ownedByName(mctx, name, 'record');
    expect(found?.tags[STACK_TAG]).toBe('mcs/default/serve');
    expect(sim.calls.history().map((r) => r.action)).toStrictEqual(['DescribeLoadBalancers', 'DescribeTags']);
    sim.calls.reset();
    expect(await ownedByName(mctx, name, 'use')).toStrictEqual(found);
    expect(sim.calls.history()).toHaveLength(0);
    // Used up: asked again, and "skip" records nothing.
    expect(await ownedByName(mctx, name, 'skip')).toStrictEqual(found);
    expect(memo.take(name)).toBeUndefined();
    expect(sim.calls.history()).toHaveLength(2);
    await ownedByName(mctx, 'k8s-none', 'record');
    expect(memo.take('k8s-none')).toBeNull();
  });

  it('findOwnedLoadBalancer: the first of the names that is ours, foreign ones skipped, each look-up recorded', async () => {
    const stack = stackOf();
    await deployStack(ctx, stack);
    await retag(sim.snapshot().loadBalancers[0]?.LoadBalancerArn, { [OWNER_TAG]: 'someone-else' });
    const facing = stackOf([{ port: 81, targetPort: 8081 }], FACING);
    await deployStack(ctx, facing);
    const [foreign, ours] = [nameOf(stack, 0), nameOf(facing, 0)];
    const memo = new LookupMemo();
    const found = await findOwnedLoadBalancer({ ...ctx, lookups: memo }, ['k8s-none', foreign, ours]);
    expect(found?.lb.LoadBalancerName).toBe(ours);
    expect(memo.take('k8s-none')).toBeNull();
    expect(memo.take(foreign)?.tags[OWNER_TAG]).toBe('someone-else');
    expect(memo.take(ours)?.lb.LoadBalancerName).toBe(ours);
    // A context without a memo (lookups is optional) looks up all the same.
    expect(await findOwnedLoadBalancer(ctx, [foreign])).toBeUndefined();
    expect((await findOwnedLoadBalancer(ctx, [ours]))?.lb.LoadBalancerName).toBe(ours);
    expect(logger.lines.filter((l) => l.level === 'WARN').map((l) => l.fields.name)).toStrictEqual([
      foreign,
      foreign,
    ]);
  });
});

describe('limitCallsPerSecond', () => {
  it('installs once per client, and every call (retries included) takes a token', async () => {
    const client = elbv2ClientFor(sim, { maxAttempts: 3, retryDelayMs: 1 });
    let taken = 0;
    const bucket = new TokenBucket(1000);
    const take = bucket.take.bind(bucket);
    bucket.take = () => {
      taken++;
      return take();
    };
    limitCallsPerSecond(client, bucket);
    limitCallsPerSecond(client, bucket);
    const stack = client.middlewareStack.identify();
    expect(stack.filter((m) => m.startsWith('karmadaElbv2CallsPerSecond'))).toStrictEqual([
      'karmadaElbv2CallsPerSecond - finalizeRequest',
    ]);
    // Inside the retry loop: after the retry middleware of the same step.
    expect(stack.indexOf('karmadaElbv2CallsPerSecond - finalizeRequest')).toBeGreaterThan(
      stack.indexOf('retryMiddleware - finalizeRequest'),
    );
    sim.faults.failNext('DescribeLoadBalancers', 1, { code: 'Throttling' });
    await ownedByName({ ...ctx, client }, 'k8s-none', 'skip');
    expect(taken).toBe(2);
  });

  it('a target group still in use is retried as LBC does: 10 times, 2 s apart (20 s)', () => {
    expect(DEFAULT_DEPLOY_OPTIONS).toStrictEqual({ resourceInUseAttempts: 10, resourceInUseDelayMs: 2000 });
  });
});
