/**
 * MultiClusterService → NLB against the ELBv2 simulator: the lifecycle (create, ports changed,
 * provider clusters changed, type LoadBalancer removed, delete) with exact end-state assertions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterService } from '../../lib/karmada/types.js';
import { collectedSlice, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

let env: AwsEnv;

const ports = [
  { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' as const },
  { name: 'grpc', port: 9000, targetPort: 9090, protocol: 'TCP' as const },
];
const slice = (cluster: string, addresses: string[]) =>
  collectedSlice(cluster, 'serve', {
    addresses,
    ports: [
      { name: 'http', port: 8080 },
      { name: 'grpc', port: 9090 },
    ],
  });

beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', ports),
    slice('member1', ['10.0.1.10', '10.0.1.11']),
    slice('member2', ['172.20.0.20', '!172.20.0.21']),
    slice('member3', ['10.0.3.30']),
  ]);
});
afterEach(async () => {
  await env.close();
});

const lb = () => env.provider.mcsLoadBalancer();
async function expectConverged(m: MultiClusterService) {
  expect(env.state()).toStrictEqual(await env.expectedForMcs(m));
}

describe('AWS provider: MultiClusterService → NLB (simulator)', () => {
  it('creates one NLB, one TCP listener and one IP target group per Service port, from every cluster', async () => {
    const m = mcs('serve');
    expect(await lb().get(env.ctx, m)).toStrictEqual({ exists: false });
    const calls = await env.measured(async () => {
      // A fresh context: on the same one, get() above would have answered the name look-ups.
      const status = await lb().ensure({ ...env.ctx }, m);
      const dns = env.sim.snapshot().loadBalancers[0]?.DNSName ?? '';
      // No ports: Karmada's CRD requires ports[].error, which we have none of.
      expect(status).toStrictEqual({ ingress: [{ hostname: dns.toLowerCase() }] });
    });
    await expectConverged(m);
    const state = env.state();
    // The configuration names the load balancers' groups (aws-env.ts): the NLB's too, none managed.
    expect(state.loadBalancers).toMatchObject([
      { type: 'network', scheme: 'internal', securityGroups: env.config.securityGroups },
    ]);
    expect(state.listeners.map((l) => [l.port, l.protocol])).toStrictEqual([
      [80, 'TCP'],
      [9000, 'TCP'],
    ]);
    expect(state.targetGroups.map((t) => [t.protocol, t.port, t.healthCheck])).toStrictEqual(
      expect.arrayContaining([
        ['TCP', 8080, ' traffic-port TCP 10 10 3 3 '],
        ['TCP', 9090, ' traffic-port TCP 10 10 3 3 '],
      ]),
    );
    expect(state.targets.filter((t) => t.port === 8080).map((t) => `${t.id}/${t.zone}`)).toStrictEqual([
      '10.0.1.10/vpc',
      '10.0.1.11/vpc',
      '10.0.3.30/vpc',
      '172.20.0.20/all',
    ]);
    expect(state.rules).toStrictEqual([]);
    for (const r of [...state.loadBalancers, ...state.targetGroups, ...state.listeners]) {
      expect(r.tags).toMatchObject({
        'multicluster.karmada.io/owner': 'karmada-test',
        'multicluster.karmada.io/stack': 'mcs/default/serve',
      });
    }
    // Two wanted target-group names, both missing: ELBv2 fails the batch look-up, then one per name.
    expect(calls).toStrictEqual({
      DescribeLoadBalancers: 2,
      DescribeTargetGroups: 3,
      CreateTargetGroup: 2,
      CreateLoadBalancer: 1,
      CreateListener: 2,
      RegisterTargets: 2,
      AddTags: 1,
    });
    expect(await lb().get(env.ctx, m)).toMatchObject({ exists: true });
  });

  it('a no-op makes 2 calls; a resync looks at everything and changes nothing', async () => {
    const m = mcs('serve');
    await lb().ensure(env.ctx, m);
    const before = env.sim.snapshot();
    expect(await env.measured(() => lb().update(env.ctx, m))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
    const resync = await env.measured(() => lb().update({ ...env.ctx, resync: true }, m));
    expect(env.sim.snapshot()).toStrictEqual(before);
    // No rules on TCP listeners: nothing to describe there. Each group's attributes are (its
    // proxy protocol is always stated, so that removing the annotation turns it off).
    expect(resync).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 3,
      DescribeTargetGroups: 1,
      DescribeTargetGroupAttributes: 2,
      DescribeListeners: 1,
      DescribeTargetHealth: 2,
    });
  });

  it("the lifecycle's get() then update() on one context: still 2 calls; a deletion in between is not masked", async () => {
    const m = mcs('serve');
    await lb().ensure(env.ctx, m);
    const reconcileCtx = { ...env.ctx };
    const calls = await env.measured(async () => {
      expect(await lb().get(reconcileCtx, m)).toMatchObject({ exists: true });
      await lb().update(reconcileCtx, m);
    });
    expect(calls).toStrictEqual({ DescribeLoadBalancers: 1, DescribeTags: 1 });
    // get() → ensureDeleted() → ensure() on one context: the look-up get() made is forgotten.
    const again = { ...env.ctx };
    await lb().get(again, m);
    await lb().ensureDeleted(again, m);
    await lb().ensure(again, m);
    await expectConverged(m);
  });

  it('exposes only spec.ports, and follows a change of ports', async () => {
    const first = mcs('serve', { ports: [{ port: 80 }] });
    await lb().ensure(env.ctx, first);
    await expectConverged(first);
    expect(env.state().listeners.map((l) => l.port)).toStrictEqual([80]);

    const second = mcs('serve', { ports: [{ port: 9000 }] });
    const calls = await env.measured(() => lb().update(env.ctx, second));
    await expectConverged(second);
    expect(env.state().listeners.map((l) => l.port)).toStrictEqual([9000]);
    expect(calls).toMatchObject({
      DeleteListener: 1,
      CreateListener: 1,
      CreateTargetGroup: 1,
      DeleteTargetGroup: 1,
    });
  });

  it('a Service targetPort change replaces the target group: announced, switched, old one deleted last', async () => {
    const m = mcs('serve', { ports: [{ port: 80 }] });
    await lb().ensure(env.ctx, m);
    const oldGroup = env.state().targetGroups[0]?.name;
    env.kube.put(service('serve', [{ name: 'http', port: 80, targetPort: 8081, protocol: 'TCP' }]));
    const plan = (await env.provider.plan(env.ctx, m)).plan;
    env.sim.calls.reset();
    expect(plan.filter((o) => o.op === 'replace').map((o) => `${o.resource} ${o.id}`)).toStrictEqual([
      'TargetGroup default/serve:80',
    ]);
    await lb().update(env.ctx, m);
    expect(env.announced).toStrictEqual([
      {
        reason: 'ReplacingTargetGroup',
        message: expect.stringContaining(`${oldGroup ?? '?'} is replaced by`),
      },
    ]);
    expect(env.mutatingCalls()).toStrictEqual([
      'AddTags',
      'CreateTargetGroup',
      'RegisterTargets',
      'ModifyListener',
      'DeleteTargetGroup',
      // The new fingerprint is written last (the targets record is a ConfigMap, not a tag).
      'AddTags',
    ]);
    await expectConverged(m);
    expect(env.state().targetGroups.map((t) => t.name)).not.toContain(oldGroup);
  });

  it('restricts targets to spec.providerClusters, and follows a change', async () => {
    const only1 = mcs('serve', { ports: [{ port: 80 }], providerClusters: [{ name: 'member1' }] });
    await lb().ensure(env.ctx, only1);
    await expectConverged(only1);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['10.0.1.10', '10.0.1.11']);

    const twoAndThree = mcs('serve', {
      ports: [{ port: 80 }],
      providerClusters: [{ name: 'member2' }, { name: 'member3' }],
    });
    const calls = await env.measured(() => lb().update(env.ctx, twoAndThree));
    await expectConverged(twoAndThree);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['10.0.3.30', '172.20.0.20']);
    expect(calls).toMatchObject({ RegisterTargets: 1, DeregisterTargets: 1 });
    expect(calls.CreateTargetGroup).toBeUndefined();
  });

  it('honours the deprecated fields: providerClusters, then serviceProvisionClusters, then range.clusterNames', async () => {
    const deprecated = mcs('serve', {
      ports: [{ port: 80 }],
      serviceProvisionClusters: ['member3'],
      range: { clusterNames: ['member1'] },
    });
    await lb().ensure(env.ctx, deprecated);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['10.0.3.30']);
    const range = mcs('serve', { ports: [{ port: 80 }], range: { clusterNames: ['member1'] } });
    await lb().update(env.ctx, range);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['10.0.1.10', '10.0.1.11']);
    const wins = mcs('serve', {
      ports: [{ port: 80 }],
      providerClusters: [{ name: 'member2' }],
      serviceProvisionClusters: ['member3'],
    });
    await lb().update(env.ctx, wins);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['172.20.0.20']);
  });

  it('follows one cluster endpoints changing', async () => {
    const m = mcs('serve', { ports: [{ port: 80 }] });
    await lb().ensure(env.ctx, m);
    env.kube.put(slice('member3', ['10.0.3.31', '10.0.3.32']));
    const calls = await env.measured(() => lb().update(env.ctx, m));
    await expectConverged(m);
    expect(calls).toMatchObject({ RegisterTargets: 1, DeregisterTargets: 1, AddTags: 2 });
  });

  it('refuses an MCS without type LoadBalancer and a missing port, before any call', async () => {
    env.sim.calls.reset();
    await expect(lb().ensure(env.ctx, mcs('serve', { types: ['CrossCluster'] }))).rejects.toMatchObject({
      field: 'spec.types',
    });
    await expect(lb().ensure(env.ctx, mcs('serve', { ports: [{ port: 1234 }] }))).rejects.toMatchObject({
      field: 'spec.ports[0]',
      reason: 'ServicePortNotFound',
    });
    await expect(lb().ensure(env.ctx, mcs('missing'))).rejects.toBeInstanceOf(InvalidObjectError);
    expect(env.sim.calls.total()).toBe(0);
  });

  it('type LoadBalancer removed: ensureDeleted (what the reconciler calls) leaves zero resources', async () => {
    const m = mcs('serve');
    await lb().ensure(env.ctx, m);
    const removed = mcs('serve', { types: ['CrossCluster'] });
    const calls = await env.measured(() => lb().ensureDeleted(env.ctx, removed));
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
    expect(calls).toStrictEqual({
      DescribeLoadBalancers: 2,
      DescribeTags: 2,
      DescribeTargetGroups: 1,
      DeleteLoadBalancer: 1,
      DeleteTargetGroup: 2,
    });
    await lb().ensureDeleted(env.ctx, removed);
    expect(await lb().get(env.ctx, m)).toStrictEqual({ exists: false });
  });

  it('lists owned stacks for the orphan sweep and deletes one by its stack ID', async () => {
    const { minimalIngress } = await import('../fixtures/aws/objects.js');
    await lb().ensure(env.ctx, mcs('serve'));
    env.kube.put(service('web'));
    await env.provider.loadBalancer().ensure(
      env.ctx,
      minimalIngress({
        spec: {
          rules: [
            {
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'web', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      }),
    );
    // createdAt: the newest of the stack's load balancer CreatedTime and target group created-at tags.
    const createdAt = expect.any(Date) as unknown as Date;
    expect(await env.provider.inventory().listOwnedStacks(env.ctx)).toStrictEqual([
      {
        stackId: 'mci/default/minimal-ingress',
        kind: 'mci',
        namespace: 'default',
        name: 'minimal-ingress',
        createdAt,
      },
      { stackId: 'mcs/default/serve', kind: 'mcs', namespace: 'default', name: 'serve', createdAt },
    ]);
    await env.provider.inventory().deleteOwnedStack(env.ctx, 'mcs/default/serve');
    const state = env.state();
    expect(
      state.loadBalancers.map((l) => (l.tags as Record<string, string>)['multicluster.karmada.io/stack']),
    ).toStrictEqual(['mci/default/minimal-ingress']);
    expect(
      state.targetGroups.map((t) => (t.tags as Record<string, string>)['multicluster.karmada.io/stack']),
    ).toStrictEqual(['mci/default/minimal-ingress']);
    expect(await env.provider.inventory().listOwnedStacks(env.ctx)).toHaveLength(1);
  });

  it('measures ELBv2 calls: create, no-op, resync, one cluster changed, delete', async () => {
    const m = mcs('serve', { ports: [{ port: 80 }] });
    const create = await env.measured(() => lb().ensure(env.ctx, m));
    const noop = await env.measured(() => lb().update(env.ctx, m));
    const resync = await env.measured(() => lb().update({ ...env.ctx, resync: true }, m));
    env.kube.put(slice('member2', ['172.20.0.30', '172.20.0.31']));
    const clusterChanged = await env.measured(() => lb().update(env.ctx, m));
    const deleted = await env.measured(() => lb().ensureDeleted(env.ctx, m));
    expect({ create, noop, resync, clusterChanged, deleted }).toStrictEqual({
      create: {
        DescribeLoadBalancers: 2,
        DescribeTargetGroups: 1,
        CreateTargetGroup: 1,
        CreateLoadBalancer: 1,
        CreateListener: 1,
        RegisterTargets: 1,
        AddTags: 1,
      },
      noop: { DescribeLoadBalancers: 1, DescribeTags: 1 },
      resync: {
        DescribeLoadBalancers: 1,
        DescribeTags: 3,
        DescribeTargetGroups: 1,
        DescribeTargetGroupAttributes: 1,
        DescribeListeners: 1,
        DescribeTargetHealth: 1,
      },
      clusterChanged: {
        DescribeLoadBalancers: 1,
        DescribeTags: 2,
        DescribeTargetGroups: 1,
        DescribeTargetGroupAttributes: 1,
        DescribeListeners: 1,
        DescribeTargetHealth: 1,
        AddTags: 2,
        RegisterTargets: 1,
        DeregisterTargets: 1,
      },
      deleted: {
        DescribeLoadBalancers: 2,
        DescribeTags: 2,
        DescribeTargetGroups: 1,
        DeleteLoadBalancer: 1,
        DeleteTargetGroup: 1,
      },
    });
  });
});
