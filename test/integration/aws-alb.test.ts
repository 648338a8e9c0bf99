/**
 * The AWS provider against the ELBv2 simulator (dev/elbv2-sim): every scenario asserts the
 * simulator's full state — exactly the desired stack and nothing else — not only the calls made.
 */
import { withKarmadaCollection } from '../../dev/local/karmada-collection.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  type Elbv2Simulator,
} from '../../dev/elbv2-sim/index.js';
import { CancelledError, InvalidObjectError, OwnershipConflictError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import type { LoadBalancer, ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider, buildIngressStack, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { readIngressInputs } from '../../lib/providers/aws/inputs.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { MemoryKube } from '../support/memory-kube.js';
import { callCounts, expectedSummary, summarize } from './aws-alb-support.js';
import { simConfig } from './aws-env.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

const config: AwsProviderConfig = simConfig;

interface Env {
  sim: Elbv2Simulator;
  kube: MemoryKube;
  provider: AwsProvider;
  lb: LoadBalancer;
  ctx: ProviderContext;
}

let env: Env;

function member1Slice(addresses = ['10.0.1.10', '10.0.1.11']) {
  return collectedSlice('member1', 'serve', { addresses });
}
// member2's pods live outside the load balancer's VPC: registered with AvailabilityZone "all".
function member2Slice(addresses = ['172.20.0.20', '!172.20.0.21']) {
  return collectedSlice('member2', 'serve', { addresses });
}

async function setup(
  simOptions: Parameters<typeof startElbv2Simulator>[0] = {},
  maxAttempts = 3,
): Promise<Env> {
  const sim = await startElbv2Simulator({ ...simOptions, inProcess: true });
  const kube = new MemoryKube(
    withKarmadaCollection([
      service('serve', [
        { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: 'admin', port: 8081, targetPort: 9090, protocol: 'TCP' },
      ]),
      member1Slice(),
      member2Slice(),
    ]),
  );
  const client = elbv2ClientFor(sim, { maxAttempts, retryDelayMs: 1 });
  const provider = new AwsProvider(
    config,
    { kube, logger: silentLogger },
    {
      client,
      deploy: { resourceInUseAttempts: 5, resourceInUseDelayMs: 5 },
    },
  );
  const ctx: ProviderContext = { signal: new AbortController().signal, logger: silentLogger };
  return { sim, kube, provider, lb: provider.loadBalancer(), ctx };
}

/** The state AWS must hold for `mci` given what is in Kubernetes right now. */
async function expectedFor(mci: MultiClusterIngress) {
  return expectedSummary(buildIngressStack({ mci, ...(await readIngressInputs(env.kube, mci)), config }));
}

async function expectConverged(mci: MultiClusterIngress) {
  expect(summarize(env.sim.snapshot())).toStrictEqual(await expectedFor(mci));
}

/** Runs one reconcile and returns the ELBv2 calls it made. */
async function measured(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  env.sim.calls.reset();
  await fn();
  return callCounts(env.sim.calls.all());
}

const withPaths = (paths: ReturnType<typeof path>[], status?: MultiClusterIngress['status']) =>
  minimalIngress({ spec: { rules: [{ http: { paths } }] }, ...(status ? { status } : {}) });

const testpath = path('/testpath', 'Prefix', 'serve', 80);

beforeEach(async () => {
  env = await setup();
});
afterEach(async () => {
  await env.sim.close();
});

describe('AWS provider: MultiClusterIngress → ALB (simulator)', () => {
  it('creates the README minimal-ingress: one ALB, :80 with 404 default, one rule, one TG with both clusters', async () => {
    // Prepare
    const mci = minimalIngress();
    expect(await env.lb.get(env.ctx, mci)).toStrictEqual({ exists: false });
    // Act
    const calls = await measured(async () => {
      // A fresh context: on the same one, get() above would have answered the name look-ups.
      const status = await env.lb.ensure({ ...env.ctx }, mci);
      const dns = env.sim.snapshot().loadBalancers[0]?.DNSName ?? '';
      expect(status).toStrictEqual({
        ingress: [{ hostname: dns.toLowerCase() }],
      });
    });
    // Assess
    const state = summarize(env.sim.snapshot());
    expect(state).toStrictEqual(await expectedFor(mci));
    expect(state.loadBalancers).toHaveLength(1);
    expect(state.listeners).toMatchObject([
      { port: 80, protocol: 'HTTP', defaultActions: [{ type: 'fixed-response', statusCode: '404' }] },
    ]);
    expect(state.rules).toMatchObject([
      { priority: 1, conditions: [{ field: 'path-pattern', values: ['/testpath', '/testpath/*'] }] },
    ]);
    expect(state.targetGroups).toHaveLength(1);
    expect(state.targets.map(({ id, port, zone }) => ({ id, port, zone }))).toStrictEqual([
      { id: '10.0.1.10', port: 8080, zone: 'vpc' },
      { id: '10.0.1.11', port: 8080, zone: 'vpc' },
      { id: '172.20.0.20', port: 8080, zone: 'all' },
    ]);
    for (const r of [...state.loadBalancers, ...state.targetGroups, ...state.listeners, ...state.rules]) {
      expect(r.tags).toMatchObject({
        'multicluster.karmada.io/owner': 'karmada-test',
        'multicluster.karmada.io/stack': 'mci/default/minimal-ingress',
        team: 'platform',
      });
    }
    // Nothing found by name, so there are no tags to read; the fingerprint is stamped last.
    expect(calls).toStrictEqual({
      DescribeLoadBalancers: 2,
      DescribeTargetGroups: 1,
      AddTags: 1,
      CreateTargetGroup: 1,
      CreateLoadBalancer: 1,
      CreateListener: 1,
      CreateRule: 1,
      RegisterTargets: 1,
    });
    expect(await env.lb.get(env.ctx, mci)).toMatchObject({ exists: true });
    // Kubernetes reads: the backend Service by name, its collected slices by label selector only.
    const lists = env.kube.calls.filter((c) => c.verb === 'list');
    expect(lists.length).toBeGreaterThan(0);
    for (const c of lists) {
      expect(c).toStrictEqual({
        verb: 'list',
        kind: 'EndpointSlice',
        namespace: 'default',
        options: { namespace: 'default', labelSelector: 'kubernetes.io/service-name=derived-serve' },
      });
    }
  });

  it('does nothing but confirm the fingerprint when nothing changed', async () => {
    const mci = minimalIngress();
    await env.lb.ensure(env.ctx, mci);
    const before = env.sim.snapshot();
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    expect(env.sim.snapshot()).toStrictEqual(before);
    expect(calls).toStrictEqual({ DescribeLoadBalancers: 1, DescribeTags: 1 });
    // A resync looks at everything the stack has (and finds nothing to do); nothing account-wide.
    const resync = await measured(() => env.lb.update({ ...env.ctx, resync: true }, mci));
    expect(env.sim.snapshot()).toStrictEqual(before);
    expect(resync).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTargetGroups: 1,
      DescribeTags: 3,
      DescribeListeners: 1,
      DescribeRules: 1,
      DescribeTargetHealth: 1,
    });
  });

  it('adds a path with one CreateRule', async () => {
    await env.lb.ensure(env.ctx, withPaths([testpath]));
    const mci = withPaths([testpath, path('/other', 'Prefix', 'serve', 80)]);
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(summarize(env.sim.snapshot()).rules.map((r) => r.conditions)).toStrictEqual([
      [{ field: 'path-pattern', values: ['/testpath', '/testpath/*'] }],
      [{ field: 'path-pattern', values: ['/other', '/other/*'] }],
    ]);
    expect(calls.CreateRule).toBe(1);
    expect(calls.ModifyRule).toBeUndefined();
    expect(calls.DeleteRule).toBeUndefined();
  });

  it('adds a more specific path in front: moves the old rule atomically, then creates', async () => {
    await env.lb.ensure(env.ctx, withPaths([testpath]));
    const mci = withPaths([testpath, path('/testpath/deeper', 'Prefix', 'serve', 80)]);
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(calls).toMatchObject({ SetRulePriorities: 1, CreateRule: 1 });
    expect(calls.ModifyRule).toBeUndefined();
  });

  it('removes a path', async () => {
    await env.lb.ensure(env.ctx, withPaths([testpath, path('/other', 'Prefix', 'serve', 80)]));
    const mci = withPaths([path('/other', 'Prefix', 'serve', 80)]);
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(calls).toMatchObject({ SetRulePriorities: 1, DeleteRule: 1 });
    expect(calls.ModifyRule).toBeUndefined();
    expect(calls.CreateRule).toBeUndefined();
  });

  it('re-orders paths with exactly one SetRulePriorities and no ModifyRule', async () => {
    const a = path('/a', 'ImplementationSpecific', 'serve', 80);
    const b = path('/b', 'ImplementationSpecific', 'serve', 'admin');
    await env.lb.ensure(env.ctx, withPaths([a, b]));
    const mci = withPaths([b, a]);
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(calls.SetRulePriorities).toBe(1);
    expect(calls.ModifyRule).toBeUndefined();
    expect(calls.CreateRule).toBeUndefined();
    expect(calls.DeleteRule).toBeUndefined();
  });

  it('changes a backend port: new target group, rule switched in place, old group deleted last', async () => {
    await env.lb.ensure(env.ctx, withPaths([testpath]));
    const oldGroup = summarize(env.sim.snapshot()).targetGroups[0]?.name;
    const mci = withPaths([path('/testpath', 'Prefix', 'serve', 'admin')]);
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    const state = summarize(env.sim.snapshot());
    expect(state.targetGroups.map((t) => t.name)).not.toContain(oldGroup);
    expect(state.targets.map((t) => t.port)).toStrictEqual([9090, 9090, 9090]);
    expect(calls).toMatchObject({ CreateTargetGroup: 1, ModifyRule: 1, DeleteTargetGroup: 1 });
    expect(calls.CreateRule).toBeUndefined();
  });

  it('deregisters an endpoint that turned not-ready', async () => {
    const mci = minimalIngress();
    await env.lb.ensure(env.ctx, mci);
    env.kube.put(member1Slice(['10.0.1.10', '!10.0.1.11']));
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(summarize(env.sim.snapshot()).targets.map((t) => t.id)).toStrictEqual([
      '10.0.1.10',
      '172.20.0.20',
    ]);
    // The fingerprint changed: full look, then the fingerprint is invalidated, the diff applied and re-stamped.
    expect(calls).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTargetGroups: 1,
      DescribeTags: 2,
      DescribeListeners: 1,
      DescribeRules: 1,
      DescribeTargetHealth: 1,
      AddTags: 2,
      DeregisterTargets: 1,
    });
  });

  it("follows one cluster's endpoint changes (scale out and move)", async () => {
    const mci = minimalIngress();
    await env.lb.ensure(env.ctx, mci);
    env.kube.put(member2Slice(['172.20.0.20', '172.20.0.22', '172.20.0.23']));
    const calls = await measured(() => env.lb.update(env.ctx, mci));
    await expectConverged(mci);
    expect(calls.RegisterTargets).toBe(1);
    expect(calls.DeregisterTargets).toBeUndefined();
  });

  it('blocks member2 via trafficBlockClusters, and lets it back in', async () => {
    await env.lb.ensure(env.ctx, minimalIngress());
    const blocked = minimalIngress({ status: { trafficBlockClusters: ['member2'] } });
    await env.lb.update(env.ctx, blocked);
    await expectConverged(blocked);
    expect(summarize(env.sim.snapshot()).targets.map((t) => t.id)).toStrictEqual(['10.0.1.10', '10.0.1.11']);
    await env.lb.update(env.ctx, minimalIngress());
    await expectConverged(minimalIngress());
  });

  it('serves the default backend as the listener default action', async () => {
    const mci = minimalIngress({
      spec: { defaultBackend: { service: { name: 'serve', port: { name: 'http' } } } },
    });
    await env.lb.ensure(env.ctx, mci);
    await expectConverged(mci);
    expect(summarize(env.sim.snapshot()).listeners[0]?.defaultActions).toMatchObject([{ type: 'forward' }]);
  });

  it('ensureDeleted leaves zero resources, and is a no-op the second time', async () => {
    const mci = withPaths([testpath, path('/b', 'Exact', 'serve', 'admin')]);
    await env.lb.ensure(env.ctx, mci);
    const calls = await measured(() => env.lb.ensureDeleted(env.ctx, mci));
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
    expect(calls).toMatchObject({ DeleteLoadBalancer: 1, DeleteTargetGroup: 2 });
    await env.lb.ensureDeleted(env.ctx, mci);
    expect(await env.lb.get(env.ctx, mci)).toStrictEqual({ exists: false });
  });

  it('deletes even when the spec no longer builds a model', async () => {
    await env.lb.ensure(env.ctx, minimalIngress());
    const invalid = minimalIngress({
      spec: {
        rules: [
          {
            http: {
              paths: [
                { path: '/x', pathType: 'Prefix', backend: { resource: { kind: 'Bucket', name: 'b' } } },
              ],
            },
          },
        ],
      },
    });
    await expect(env.lb.update(env.ctx, invalid)).rejects.toBeInstanceOf(InvalidObjectError);
    await env.lb.ensureDeleted(env.ctx, invalid);
    expect(env.sim.snapshot().loadBalancers).toStrictEqual([]);
    expect(env.sim.snapshot().targetGroups).toStrictEqual([]);
  });

  it('reports an unknown Service as InvalidObjectError and changes nothing', async () => {
    const mci = withPaths([path('/x', 'Prefix', 'missing', 80)]);
    env.sim.calls.reset();
    await expect(env.lb.ensure(env.ctx, mci)).rejects.toThrow(/Service "missing" does not exist/);
    expect(env.sim.calls.total()).toBe(0);
  });

  it('never touches a foreign load balancer and target group that carry our names', async () => {
    // Prepare: someone else's ALB and TG under exactly the names we would use, without our tags.
    const mci = minimalIngress();
    const stack = buildIngressStack({ mci, ...(await readIngressInputs(env.kube, mci)), config });
    const lbName = stack.resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::LoadBalancer')!
      .spec as { name: string };
    const tgName = stack.resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::TargetGroup')!
      .spec as { name: string };
    env.sim.state.createTargetGroup({
      Name: tgName.name,
      Protocol: 'HTTP',
      Port: 80,
      VpcId: SIM_NETWORK.vpcId,
      TargetType: 'ip',
      Tags: [{ Key: 'owner', Value: 'someone-else' }],
    });
    env.sim.state.createLoadBalancer({
      Name: lbName.name,
      Subnets: config.subnets,
      Type: 'application',
      Scheme: 'internal',
    });
    const before = env.sim.snapshot();
    // Act + Assess
    await expect(env.lb.ensure(env.ctx, mci)).rejects.toBeInstanceOf(OwnershipConflictError);
    await expect(env.lb.update(env.ctx, mci)).rejects.toThrow(
      /exists in AWS but is not owned by this deployment: it is never modified or deleted/,
    );
    expect(await env.lb.get(env.ctx, mci)).toStrictEqual({ exists: false });
    await env.lb.ensureDeleted(env.ctx, mci);
    expect(env.sim.snapshot()).toStrictEqual(before);
  });

  it('only the target group conflicts: still refuses before creating anything', async () => {
    const mci = minimalIngress();
    const stack = buildIngressStack({ mci, ...(await readIngressInputs(env.kube, mci)), config });
    const tgName = stack.resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::TargetGroup')!
      .spec as { name: string };
    env.sim.state.createTargetGroup({
      Name: tgName.name,
      Protocol: 'HTTP',
      Port: 80,
      VpcId: SIM_NETWORK.vpcId,
      TargetType: 'ip',
    });
    const before = env.sim.snapshot();
    await expect(env.lb.ensure(env.ctx, mci)).rejects.toBeInstanceOf(OwnershipConflictError);
    expect(env.sim.snapshot()).toStrictEqual(before);
  });

  it('measures ELBv2 calls: create, no-op, resync, one rule added, one cluster changed, delete', async () => {
    const mci = withPaths([testpath]);
    const create = await measured(() => env.lb.ensure(env.ctx, mci));
    const noop = await measured(() => env.lb.update(env.ctx, mci));
    const resync = await measured(() => env.lb.update({ ...env.ctx, resync: true }, mci));
    const added = withPaths([testpath, path('/other', 'Prefix', 'serve', 80)]);
    const ruleAdded = await measured(() => env.lb.update(env.ctx, added));
    env.kube.put(member2Slice(['172.20.0.30', '172.20.0.31']));
    const clusterChanged = await measured(() => env.lb.update(env.ctx, added));
    const deleted = await measured(() => env.lb.ensureDeleted(env.ctx, added));
    // A changed stack: the load balancer and its tags, then its groups' tags and everything else.
    const looks = {
      DescribeLoadBalancers: 1,
      DescribeTargetGroups: 1,
      DescribeTags: 2,
      DescribeListeners: 1,
      DescribeRules: 1,
      DescribeTargetHealth: 1,
    };
    const withoutTargetReads = ({ DescribeTargetHealth: _read, ...rest }: typeof looks) => rest;
    // Fingerprint set to "pending" before the first change and to the new hash after the last.
    const stamp = { AddTags: 2 };
    expect({ create, noop, resync, ruleAdded, clusterChanged, deleted }).toStrictEqual({
      // 9: both schemes' names probed (a scheme change would replace), nothing else to describe.
      create: {
        DescribeLoadBalancers: 2,
        DescribeTargetGroups: 1,
        CreateTargetGroup: 1,
        CreateLoadBalancer: 1,
        CreateListener: 1,
        CreateRule: 1,
        RegisterTargets: 1,
        AddTags: 1,
      },
      // 2: the load balancer by name and its fingerprint tag.
      noop: { DescribeLoadBalancers: 1, DescribeTags: 1 },
      // 8: the full drift check (listener and rule tags too), this stack's resources only: no
      // account-wide target group sweep, so it costs the same in a busy account.
      resync: { ...looks, DescribeTags: 3 },
      // 9: the group's targets are the recorded ones, so they are not read again.
      ruleAdded: { ...withoutTargetReads(looks), ...stamp, CreateRule: 1 },
      // 11: one register and one deregister call for the whole cluster's change.
      clusterChanged: { ...looks, ...stamp, RegisterTargets: 1, DeregisterTargets: 1 },
      // 7: both schemes' names are probed, then the target groups attached to the load balancer.
      deleted: {
        DescribeLoadBalancers: 2,
        DescribeTags: 2,
        DescribeTargetGroups: 1,
        DeleteLoadBalancer: 1,
        DeleteTargetGroup: 1,
      },
    });
  });

  it('the orphan sweep, not the resync, deletes an owned target group that no rule points at', async () => {
    const mci = minimalIngress();
    env.kube.put(mci);
    await env.lb.ensure(env.ctx, mci);
    // Left behind by an earlier reconcile that died between CreateTargetGroup and CreateRule.
    env.sim.state.createTargetGroup({
      Name: 'k8s-default-serve-0000000000',
      Protocol: 'HTTP',
      Port: 8080,
      VpcId: SIM_NETWORK.vpcId,
      TargetType: 'ip',
      Tags: [
        { Key: 'multicluster.karmada.io/owner', Value: 'karmada-test' },
        { Key: 'multicluster.karmada.io/stack', Value: 'mci/default/minimal-ingress' },
        { Key: 'multicluster.karmada.io/resource', Value: 'default/minimal-ingress-old:80' },
      ],
    });
    await env.lb.update(env.ctx, mci);
    expect(env.sim.snapshot().targetGroups).toHaveLength(2);
    // Neither attached nor under a name the stack wants: a resync no longer lists the account to
    // find it (that made a resync of N objects cost O(N²) calls).
    await env.lb.update({ ...env.ctx, resync: true }, mci);
    expect(env.sim.snapshot().targetGroups).toHaveLength(2);
    // The hourly sweep does, once per sweep; without a created-at tag the group predates it: old.
    const swept = await sweepOrphans(env.kube, env.provider, {
      graceSeconds: 3600,
      signal: env.ctx.signal,
      logger: silentLogger,
    });
    expect(swept.targetGroups.deleted).toStrictEqual(['k8s-default-serve-0000000000']);
    await expectConverged(mci);
  });

  it('stops mid-flight when the signal fires, and the next reconcile converges', async () => {
    const controller = new AbortController();
    env.sim.faults.setForAction('CreateLoadBalancer', { latencyMs: 300 });
    setTimeout(() => controller.abort(new Error('deadline')), 100);
    await expect(
      env.lb.ensure({ ...env.ctx, signal: controller.signal }, minimalIngress()),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(env.sim.calls.get('CreateListener').calls).toBe(0);
    env.sim.faults.clear();
    await new Promise((r) => setTimeout(r, 600));
    await env.lb.update(env.ctx, minimalIngress());
    await expectConverged(minimalIngress());
  });

  it('stops before calling AWS when the signal already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    env.sim.calls.reset();
    await expect(
      env.lb.ensure({ ...env.ctx, signal: controller.signal }, minimalIngress()),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(env.sim.calls.total()).toBe(0);
  });
});
