/**
 * Endpoint churn without rediscovering the stack: with the Resource Groups Tagging API (served by
 * the simulator on its real wire protocol), a reconcile whose structure is as recorded finds the
 * stack by tags, takes what the changed groups hold from the targets record (a ConfigMap on the
 * Karmada API server, target-records.ts) and changes only those: one ELBv2 call per change.
 * Without a record it reads the truth. Driven as the lifecycle drives the provider: get(), then
 * update(), on one context.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { KubeTargetRecords, RECORD_OWNER_LABEL } from '../../lib/providers/aws/deploy/target-records.js';
import { AwsProvider } from '../../lib/providers/aws/index.js';
import { MemoryLogger } from '../../lib/log/logger.js';
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

async function setup(objects = [service('serve'), ...slices(['10.0.2.10'])]) {
  const e = (env = await startAwsEnv(objects));
  const provider = new AwsProvider(
    e.config,
    { kube: e.kube, logger: e.logger },
    { client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }), tagging: taggingClientFor(e.sim) },
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
  const records = new KubeTargetRecords(
    e.kube,
    e.config.recordNamespace,
    e.config.ownerId,
    new MemoryLogger(),
  );
  return { e, provider, reconcile, measured, records };
}

function setSlice(e: AwsEnv, member2: string[]) {
  e.kube.put(slices(member2)[1]!);
}

describe('endpoint churn (ALB)', () => {
  it('no-op: no ELBv2 call at all; one endpoint added: RegisterTargets alone; one removed: DeregisterTargets alone', async () => {
    const { e, measured, records } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const noop = await measured(mci);
    expect(noop.elbv2).toEqual({});
    expect(noop.status?.ingress?.[0]?.hostname).toMatch(/elb\.amazonaws\.com$/);

    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    const added = await measured(mci);
    expect(added.elbv2).toEqual({ RegisterTargets: 1 });
    expect(added.tagging).toBe(1);
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));

    setSlice(e, ['10.0.2.11']);
    const removed = await measured(mci);
    expect(removed.elbv2).toEqual({ DeregisterTargets: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
    // ...and the next notification for the same state costs nothing again.
    expect((await measured(mci)).elbv2).toEqual({});
    // The record says exactly what the target group holds.
    const record = await records.read('mci/default/minimal-ingress');
    const [group] = Object.values(record?.groups ?? {});
    expect(group?.targets.map((t) => t.Id).sort()).toStrictEqual(
      e.sim
        .snapshot()
        .targets.map((t) => t.Id)
        .sort(),
    );
  });

  it('without a record (lost, unreadable, or written under another structure) the targets are read from ELBv2, and the record written again', async () => {
    const { e, measured, records } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const stackId = 'mci/default/minimal-ingress';
    const name = records.nameOf(stackId);
    const ns = e.config.recordNamespace;

    await records.forget(stackId);
    setSlice(e, ['10.0.2.10', '10.0.2.12']);
    expect((await measured(mci)).elbv2).toEqual({ DescribeTargetHealth: 1, RegisterTargets: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
    expect(await records.read(stackId)).toBeDefined();

    // Unreadable: a warning naming the ConfigMap, then the truth.
    const cm = await e.kube.get(Resources.ConfigMap, ns, name);
    e.kube.put({ ...cm!, data: { record: '{"fingerprint": 7}' } } as never);
    expect((await measured(mci)).elbv2).toEqual({ DescribeTargetHealth: 1 });
    expect(
      e.logger.lines.find((l) => l.message.startsWith('unreadable targets record'))?.fields,
    ).toMatchObject({
      configMap: `${ns}/${name}`,
      error: 'not a targets record',
    });
    // Written again, so the next notification for the same state is free.
    expect((await measured(mci)).elbv2).toEqual({});

    // Another stack's record under this name (an annotation that does not match) is no record.
    const mine = await e.kube.get(Resources.ConfigMap, ns, name);
    e.kube.put({
      ...mine!,
      metadata: { ...mine!.metadata, annotations: { 'multicluster.karmada.io/stack': 'mci/default/other' } },
    } as never);
    expect((await measured(mci)).elbv2).toEqual({ DescribeTargetHealth: 1 });
    expect(mine?.metadata.labels?.[RECORD_OWNER_LABEL]).toBe(e.config.ownerId);
  });

  it('a wrong record never deregisters a desired target; a refused deregistration sends the reconcile to the truth', async () => {
    const { e, measured } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    await measured(mci);
    const tg = e.sim.snapshot().targetGroups[0]!;
    // By hand, behind the record's back: a recorded target deregistered, a stranger registered.
    e.sim.state.deregisterTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.2.11', Port: 8080 }],
    });
    e.sim.state.registerTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.9.9', Port: 8080 }],
    });

    // The recorded-but-gone target leaves the desired set: its deregistration is refused
    // (InvalidTarget), and the reconcile diffs against DescribeTargetHealth instead.
    setSlice(e, ['10.0.2.10']);
    const r = await measured(mci);
    expect(r.elbv2).toEqual({ DeregisterTargets: 2, DescribeTargetHealth: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));

    // A desired target someone deregistered by hand, with the record left claiming it: no change
    // notification can deregister it (it is desired), and the deep check (a resync) puts it back.
    e.sim.state.deregisterTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.1.10', Port: 8080 }],
    });
    setSlice(e, ['10.0.2.10', '10.0.2.14']);
    expect((await measured(mci)).elbv2).toEqual({ RegisterTargets: 1 });
    expect(e.sim.snapshot().targets.map((t) => t.Id)).not.toContain('10.0.1.10');
    const resynced = await e.provider
      .loadBalancer()
      .update({ ...e.ctx, signal: new AbortController().signal, resync: true }, mci);
    expect(resynced?.ingress?.[0]?.hostname).toMatch(/elb\.amazonaws\.com$/);
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
  });

  it("a structure change takes unchanged groups' targets from the record, and reads the truth of a changed group", async () => {
    const { e, measured } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    await measured(mci);
    const withRule = (extra: string): MultiClusterIngress => ({
      ...mci,
      spec: {
        rules: [
          {
            http: {
              paths: [path('/testpath', 'Prefix', 'serve', 80), path(extra, 'Prefix', 'serve', 80)],
            },
          },
        ],
      },
    });
    // A rule added: the full path, but the group's targets come from the record, not ELBv2.
    const first = await measured(withRule('/a'));
    expect(first.elbv2.CreateRule).toBe(1);
    expect(first.elbv2.DescribeTargetHealth).toBeUndefined();
    expect(e.state()).toStrictEqual(await e.expectedForMci(withRule('/a')));

    // A recorded target deregistered by hand, then a rule change that also drops it: the group's
    // targets changed, so its truth is read and nothing deregisters a target that is gone.
    const tg = e.sim.snapshot().targetGroups[0]!;
    e.sim.state.deregisterTargets({
      TargetGroupArn: tg.TargetGroupArn,
      Targets: [{ Id: '10.0.2.11', Port: 8080 }],
    });
    setSlice(e, ['10.0.2.10']);
    const second = await measured(withRule('/b'));
    expect(second.elbv2.DescribeTargetHealth).toBe(1);
    expect(second.elbv2.DeregisterTargets).toBeUndefined();
    expect(e.state()).toStrictEqual(await e.expectedForMci(withRule('/b')));
    // Recorded again: the next reconcile of the same state is free.
    expect((await measured(withRule('/b'))).elbv2).toEqual({});
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
  it('one port: 1 call; two ports, both changed: one RegisterTargets per group', async () => {
    const { e, measured } = await setup();
    const one = mcs('serve');
    await measured(one);
    setSlice(e, ['10.0.2.10', '10.0.2.11']);
    expect((await measured(one)).elbv2).toEqual({ RegisterTargets: 1 });
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
    expect(both.elbv2).toEqual({ RegisterTargets: 2 });
    expect(e.state()).toStrictEqual(await e.expectedForMcs(one));
  });
});

describe('the record through structure changes and deletion', () => {
  it('a structure change rewrites the record; a deletion removes it', async () => {
    const { e, provider, measured, records } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const stackId = 'mci/default/minimal-ingress';
    const before = await records.read(stackId);
    const changed: MultiClusterIngress = {
      ...mci,
      spec: {
        rules: [
          { http: { paths: [path('/testpath', 'Prefix', 'serve', 80), path('/b', 'Prefix', 'serve', 80)] } },
        ],
      },
    };
    expect((await measured(changed)).elbv2.CreateRule).toBe(1);
    const after = await records.read(stackId);
    expect(after?.fingerprint).not.toBe(before?.fingerprint);
    // Written under the new structure: the next endpoint change is one call again.
    setSlice(e, ['10.0.2.10', '10.0.2.15']);
    expect((await measured(changed)).elbv2).toEqual({ RegisterTargets: 1 });

    await provider.loadBalancer().ensureDeleted({ ...e.ctx, signal: new AbortController().signal }, changed);
    expect(e.sim.snapshot().loadBalancers).toEqual([]);
    expect(await records.read(stackId)).toBeUndefined();
    await measured(changed);
    expect(e.state()).toStrictEqual(await e.expectedForMci(changed));
  });

  it('a deploy that fails half-way leaves no record to trust', async () => {
    const { e, measured, records } = await setup();
    const mci = minimalIngress();
    await measured(mci);
    const stackId = 'mci/default/minimal-ingress';
    setSlice(e, ['10.0.2.10', '10.0.2.16']);
    e.sim.faults.failNext('RegisterTargets', 5, { code: 'ValidationError', message: 'no' });
    await expect(measured(mci)).rejects.toThrow('no');
    expect(await records.read(stackId)).toBeUndefined();
    e.sim.faults.clear();
    expect((await measured(mci)).elbv2).toEqual({ DescribeTargetHealth: 1, RegisterTargets: 1 });
    expect(e.state()).toStrictEqual(await e.expectedForMci(mci));
  });
});
