/**
 * The lifecycle functions' code (processBatch, every controller) with the AWS provider, against the
 * ELBv2 simulator and the Kubernetes API stand-in: the README's minimal-ingress scenario with
 * endpoints in member1 and member2, and the changes an operator makes, each converging to exactly
 * the expected AWS state (the simulator's full state is compared, not the calls).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { edit, notify, startHarness, type Harness } from '../support/harness.js';

const OWNER = 'multicluster.karmada.io/owner';
let sim: Elbv2Simulator;
let h: Harness;
const mciRef = minimalIngress();

async function settle(...objects: KubeObject[]) {
  // Deliver until nothing changes any more: several controllers feed each other through status.
  for (let i = 0; i < 4; i++) {
    const results = await h.deliver(...objects.map((o) => notify(o, 'modified')));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

function owned() {
  const snap = sim.snapshot();
  const ours = new Set(snap.tags.filter((t) => t.Tags[OWNER] === 'local').map((t) => t.ResourceArn));
  return {
    loadBalancers: snap.loadBalancers.filter((lb) => ours.has(lb.LoadBalancerArn!)),
    targetGroups: snap.targetGroups.filter((tg) => ours.has(tg.TargetGroupArn!)),
    rules: snap.rules.filter((r) => !r.IsDefault && ours.has(r.RuleArn!)),
    targets: snap.targets.filter((t) => ours.has(t.TargetGroupArn)),
  };
}

beforeEach(async () => {
  // The SDK insists on credentials; the simulator ignores them.
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  // What these tests annotate (a scheme change among them) is allowed.
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, { tenantPolicy: ALLOW_ALL }),
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.1.0.11', '10.1.0.12']),
    collectedSlice('member2', ['10.2.0.21']),
    mciRef,
  ]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('MultiClusterIngress → ALB through the lifecycle', () => {
  it('creates exactly the ALB the scenario needs and writes its hostname; delete leaves nothing', async () => {
    await settle(mciRef);
    const state = owned();
    expect(state.loadBalancers).toHaveLength(1);
    expect(state.loadBalancers[0]).toMatchObject({ Type: 'application', Scheme: 'internal' });
    expect(state.rules.map((r) => r.Conditions?.find((c) => c.Field === 'path-pattern')?.Values)).toEqual([
      ['/testpath', '/testpath/*'],
    ]);
    expect(state.targetGroups).toHaveLength(1);
    expect(state.targets.map((t) => `${t.Id}:${t.Port}`).sort()).toEqual([
      '10.1.0.11:8080',
      '10.1.0.12:8080',
      '10.2.0.21:8080',
    ]);
    const mci = await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    );
    expect(mci?.status?.loadBalancer).toEqual({
      ingress: [{ hostname: state.loadBalancers[0]!.DNSName!.toLowerCase() }],
    });
    expect(mci?.status?.serviceLocations).toEqual([{ name: 'serve', clusters: ['member1', 'member2'] }]);

    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
    await h.deliver(notify(mciRef));
    expect(await h.kube.get(Resources.MultiClusterIngress, 'default', 'minimal-ingress')).toBeUndefined();
    expect(owned()).toEqual({ loadBalancers: [], targetGroups: [], rules: [], targets: [] });
    expect(sim.snapshot().tags.filter((t) => t.Tags[OWNER])).toEqual([]);
  });

  it('one change, one Event: reconciles that find the ALB as the object asks record none', async () => {
    await settle(mciRef);
    const served = async () =>
      (
        await h.kube.list<KubeObject & { reason: string; count?: number; involvedObject: { name: string } }>(
          Resources.Event,
          { namespace: 'default' },
        )
      ).items
        .filter((e) => e.involvedObject.name === 'minimal-ingress' && /LoadBalancer$/.test(e.reason))
        .map((e) => [e.reason, e.count ?? 1]);
    expect(await served()).toEqual([['EnsuredLoadBalancer', 1]]);
    await edit<MultiClusterIngress>(h, Resources.MultiClusterIngress, 'default', 'minimal-ingress', (m) => {
      m.spec!.rules![0]!.http!.paths[0]!.path = '/other';
    });
    await settle(mciRef);
    expect(await served()).toEqual(
      expect.arrayContaining([
        ['EnsuredLoadBalancer', 1],
        ['UpdatedLoadBalancer', 1],
      ]),
    );
    expect(await served()).toHaveLength(2);
    // an endpoint change is a change too (one RegisterTargets): the Event's count goes to 2
    await edit<KubeObject & { endpoints: unknown[] }>(
      h,
      Resources.EndpointSlice,
      'default',
      'imported-member2-serve-abcde',
      (slice) => {
        slice.endpoints.push({ addresses: ['10.2.0.22'], conditions: { ready: true } });
      },
    );
    await settle(mciRef);
    expect(owned().targets.map((t) => t.Id)).toContain('10.2.0.22');
    expect(await served()).toEqual(expect.arrayContaining([['UpdatedLoadBalancer', 2]]));
  });

  it('blocking member2 with TrafficControl deregisters its endpoints; unblocking registers them again', async () => {
    await settle(mciRef);
    const blocked = cluster('member2', true);
    const current = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, 'member2'))!;
    await h.kube.updateStatus(Resources.Cluster, {
      ...current,
      status: (blocked as { status?: unknown }).status,
    } as KubeObject);
    await h.deliver({
      ...notify(blocked, 'modified'),
      object: { ...blocked },
      oldObject: cluster('member2'),
    });
    await settle(mciRef);
    const mci = await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    );
    expect(mci?.status?.trafficBlockClusters).toEqual(['member2']);
    expect(
      owned()
        .targets.map((t) => t.Id)
        .sort(),
    ).toEqual(['10.1.0.11', '10.1.0.12']);

    const again = (await h.kube.get<KubeObject>(Resources.Cluster, undefined, 'member2'))!;
    await h.kube.updateStatus(Resources.Cluster, { ...again, status: {} } as KubeObject);
    await h.deliver(notify(cluster('member2'), 'modified'));
    await settle(mciRef);
    expect(
      owned()
        .targets.map((t) => t.Id)
        .sort(),
    ).toEqual(['10.1.0.11', '10.1.0.12', '10.2.0.21']);
  });

  it('announces a replacement (scheme change) with an Event before it happens, and leaves one ALB', async () => {
    await settle(mciRef);
    const before = owned().loadBalancers[0]!;
    const mci = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    mci.metadata.annotations = {
      ...mci.metadata.annotations,
      'alb.ingress.kubernetes.io/scheme': 'internet-facing',
    };
    await h.kube.update(Resources.MultiClusterIngress, mci);
    await settle(mciRef);
    const after = owned().loadBalancers;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ Scheme: 'internet-facing' });
    expect(after[0]!.LoadBalancerArn).not.toBe(before.LoadBalancerArn);
    const events = await h.kube.list<KubeObject & { reason: string; type: string }>(Resources.Event, {
      namespace: 'default',
    });
    expect(events.items.map((e) => `${e.type} ${e.reason}`)).toContain('Warning ReplacingLoadBalancer');
  });

  it('a bad annotation value → Warning Event and condition naming the key, and no AWS change', async () => {
    await settle(mciRef);
    const snapshot = JSON.stringify(sim.snapshot());
    const mci = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    mci.metadata.annotations = {
      ...mci.metadata.annotations,
      'alb.ingress.kubernetes.io/healthcheck-interval-seconds': 'often',
    };
    await h.kube.update(Resources.MultiClusterIngress, mci);
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.results.find((r) => r.controller === 'multiclusteringress')?.outcome).toBe('invalid');
    expect(JSON.stringify(sim.snapshot())).toBe(snapshot);
    const stored = (await h.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      'default',
      'minimal-ingress',
    ))!;
    const condition = JSON.parse(
      stored.metadata.annotations!['multicluster.karmada.io/load-balancer-condition']!,
    );
    expect(condition).toMatchObject({ status: 'False' });
    expect(condition.message).toContain('alb.ingress.kubernetes.io/healthcheck-interval-seconds');
  });
});
