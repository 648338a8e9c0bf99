/**
 * Endpoint churn without rediscovering the stack: with the Resource Groups Tagging API (served by
 * the simulator on its real wire protocol), a reconcile whose structure is as recorded finds the
 * stack by tags, reads the changed groups' registered targets and changes only those. Driven as
 * the lifecycle drives the provider: get(), then update(), on one context. A warm container (the
 * last describe block) goes below that with its target cache.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider } from '../../lib/providers/aws/index.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { callCounts } from './aws-alb-support.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const slices = (member2: string[]) => [
  collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
  collectedSlice('member2', 'serve', { addresses: member2 }),
];

/** `warm`: the provider keeps its target cache between reconciles; otherwise each starts cold. */
async function setup(objects = [service('serve'), ...slices(['10.0.2.10'])], { warm = false } = {}) {
  const e = (env = await startAwsEnv(objects));
  const provider = new AwsProvider(
    e.config,
    { kube: e.kube, logger: e.logger },
    {
      client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }),
      tagging: taggingClientFor(e.sim),
      ...(warm ? {} : { targetCache: { maxEntries: 0 } }),
    },
  );
  /** One reconcile as the lifecycle makes it: get(), then update() or ensure(), one context. */
  const reconcile = async (obj: MultiClusterIngress | MultiClusterService) => {
    const ctx: ProviderContext = { ...e.ctx, signal: new AbortController().signal };
    const balancer =
      obj.kind === 'MultiClusterService' ? provider.mcsLoadBalancer() : provider.loadBalancer();
    const got = await balancer.get(ctx, obj as never);
    return got.exists ? balancer.update(ctx, obj as never) : balancer.ensure(ctx, obj as never);
  };
  const measured = async (obj: MultiClusterIngress | MultiClusterService) => {
    e.sim.calls.reset();
    e.sim.taggingCalls.reset();
    const status = await reconcile(obj);
    return { elbv2: callCounts(e.sim.calls.all()), tagging: e.sim.taggingCalls.total(), status };
  };
  return { e, provider, reconcile, measured };
}

function setSlice(e: AwsEnv, member2: string[]) {
  e.kube.put(slices(member2)[1]!);
}

describe('endpoint churn (ALB)', () => {
  it('no-op: no ELBv2 call at all; one endpoint added: DescribeTargetHealth, RegisterTargets, AddTags', async () => {
    const { e, measured } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const noop = await measured(mci);
    expect(noop.elbv2).toEqual({});
    expect(noop.status?.ingress?.[0]?.hostname).toMatch(/elb\.amazonaws\.com$/);

    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    const added = await measured(mci);
    expect(added.elbv2).toEqual({ DescribeTargetHealth: 1, RegisterTargets: 1, AddTags: 1 });
    expect(added.tagging).toBe(1);
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));

    setSlice(e, ['10.0.2.11']);
    const removed = await measured(mci);
    expect(removed.elbv2).toEqual({ DescribeTargetHealth: 1, DeregisterTargets: 1, AddTags: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
    // ...and the next notification for the same state costs nothing again.
    expect((await measured(mci)).elbv2).toEqual({});
  });

  it('never deregisters a desired target, whatever the record says: the diff is against DescribeTargetHealth', async () => {
    const { e, measured } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const tg = e.sim.snapshot().targetGroups[0]!;
    // By hand: a desired target deregistered, a stranger registered; the record left as it was.
    e.sim.state.deregisterTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.1.10', Port: 8080 }],
    });
    e.sim.state.registerTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.9.9', Port: 8080 }],
    });
    setSlice(e, ['10.0.2.10', '10.0.2.12']);
    const r = await measured(mci);
    expect(r.elbv2).toMatchObject({ DescribeTargetHealth: 1, RegisterTargets: 1, DeregisterTargets: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
  });

  it('a structure change, or no Tagging API answer, takes the full path and still converges', async () => {
    const { e, measured } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const changed: MultiClusterIngress = {
      ...mci,
      spec: {
        rules: [
          {
            http: {
              paths: [path('/testpath', 'Prefix', 'serve', 80), path('/other', 'Prefix', 'serve', 80)],
            },
          },
        ],
      },
    };
    const full = await measured(changed);
    expect(full.elbv2.CreateRule).toBe(1);
    expect(e.state()).toStrictEqual(await e.expectedForMci(changed));

    e.sim.faults.setForAction('GetResources', { internal: 1 });
    setSlice(e, ['10.0.2.10', '10.0.2.13']);
    const without = await measured(changed);
    expect(without.elbv2.DescribeLoadBalancers).toBeGreaterThan(0);
    expect(e.state()).toStrictEqual(await e.expectedForMci(changed));
    e.sim.faults.clear();
    expect((await measured(changed)).elbv2).toEqual({});
  });
});

describe('endpoint churn (NLB)', () => {
  it('one port: 3 calls; two ports, both changed: one DescribeTargetHealth and one RegisterTargets per group, one AddTags', async () => {
    const { e, measured } = await setup();
    const one = mcs('serve');
    await measured(one);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    expect((await measured(one)).elbv2).toEqual({ DescribeTargetHealth: 1, RegisterTargets: 1, AddTags: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMcs(one));

    const ports = [
      { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' as const },
      { name: 'https', port: 8443, targetPort: 8443, protocol: 'TCP' as const },
    ];
    e.kube.put(service('serve', ports));
    const twoPorts = (member2: string[]) =>
      ['member1', 'member2'].map((c, i) =>
        collectedSlice(c, 'serve', {
          addresses: i === 0 ? ['10.0.1.10', '10.0.1.11'] : member2,
          ports: [
            { name: 'http', port: 8080 },
            { name: 'https', port: 8443 },
          ],
        }),
      );
    for (const s of twoPorts(['10.0.2.10', '10.0.2.11'])) e.kube.put(s);
    await measured(one);
    for (const s of twoPorts(['10.0.2.10', '10.0.2.11', '10.0.2.12'])) e.kube.put(s);
    const both = await measured(one);
    expect(both.elbv2).toEqual({ DescribeTargetHealth: 2, RegisterTargets: 2, AddTags: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMcs(one));
  });
});

describe('endpoint churn on a warm container (its target cache)', () => {
  it('after one change: each further one is its registration call and the record, nothing read', async () => {
    const { e, measured } = await setup(undefined, { warm: true });
    const mci = minimalIngress();
    await measured(mci);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    // The first change is cold: it reads the group once, then remembers what it registered.
    expect((await measured(mci)).elbv2).toEqual({ DescribeTargetHealth: 1, RegisterTargets: 1, AddTags: 1 });

    setSlice(e, ['10.0.2.10', '10.0.2.11', '10.0.2.12']);
    const added = await measured(mci);
    expect(added.elbv2).toEqual({ RegisterTargets: 1, AddTags: 1 });
    // The one Tagging API call is get()'s status read, outside the ELBv2 budget.
    expect(added.tagging).toBe(1);
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));

    setSlice(e, ['10.0.2.12']);
    const removed = await measured(mci);
    expect(removed.elbv2).toEqual({ DeregisterTargets: 1, AddTags: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
    expect((await measured(mci)).elbv2).toEqual({});
  });

  it('a stale memory never deregisters a desired target; a refused deregistration sends it to the truth', async () => {
    const { e, measured } = await setup(undefined, { warm: true });
    const mci = minimalIngress();
    await measured(mci);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    await measured(mci);
    const tg = e.sim.snapshot().targetGroups[0]!;
    // Behind this container's back: a remembered target deregistered, a stranger registered.
    e.sim.state.deregisterTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.2.11', Port: 8080 }],
    });
    e.sim.state.registerTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.9.9', Port: 8080 }],
    });

    // The remembered-but-gone target leaves the desired set: its deregistration is refused
    // (InvalidTarget), the memory is dropped, and the cold path diffs against DescribeTargetHealth.
    setSlice(e, ['10.0.2.10']);
    const r = await measured(mci);
    expect(r.elbv2).toMatchObject({ DeregisterTargets: 2, DescribeTargetHealth: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));

    // Whatever the memory says, every desired target stays registered through warm changes.
    setSlice(e, ['10.0.2.10', '10.0.2.14']);
    await measured(mci);
    const registered = e.sim.snapshot().targets.map((t) => t.Id);
    expect(registered).toEqual(expect.arrayContaining(['10.0.1.10', '10.0.1.11', '10.0.2.10', '10.0.2.14']));
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
  });

  it('forgets a stack whose structure changed or that was deleted', async () => {
    const { e, provider, measured } = await setup(undefined, { warm: true });
    const mci = minimalIngress();
    await measured(mci);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    await measured(mci);
    const changed: MultiClusterIngress = {
      ...mci,
      spec: {
        rules: [
          { http: { paths: [path('/testpath', 'Prefix', 'serve', 80), path('/b', 'Prefix', 'serve', 80)] } },
        ],
      },
    };
    expect((await measured(changed)).elbv2.CreateRule).toBe(1);
    setSlice(e, ['10.0.2.10', '10.0.2.15']);
    // Cold again: the full path dropped what was remembered.
    expect((await measured(changed)).elbv2).toMatchObject({ DescribeTargetHealth: 1 });

    await provider.loadBalancer().ensureDeleted({ ...e.ctx, signal: new AbortController().signal }, changed);
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    await measured(changed);
    expect(e.state()).toStrictEqual(await e.expectedForMci(changed));
  });
});
