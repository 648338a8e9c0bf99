/**
 * Weights from Karmada's placement, end to end (karmada/placement.ts, reconcile/placement-triggers.ts):
 * the functions' code (processBatch, every controller) with the AWS provider against the ELBv2
 * simulator and the Kubernetes API stand-in. A Deployment placed 3/1 across member1/member2 gives
 * the rule a 75/25 forward; Karmada rescheduling it to 2/2 moves the forward to 50/50 through the
 * ResourceBinding's notification alone; a scale that keeps the split asks for nothing (no ELBv2
 * call); a cluster scaled to 0 is drained (ClusterDrained); the MCI's explicit weights override
 * placement and give it back when removed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Action as SdkAction } from '@aws-sdk/client-elastic-load-balancing-v2';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { cluster, ingressClass } from '../../dev/local/scenario.js';
import type { MultiClusterIngress, ResourceBinding } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { RESOURCE_TAG } from '../../lib/providers/aws/tagging.js';
import { edit, notify, notifyChange, outcomes, startHarness, type Harness } from '../support/harness.js';
import { forwardsToMissingOrEmpty } from '../support/elbv2-state.js';

const FROM = 'multicluster.karmada.io/cluster-weights-from';
const WEIGHTS = 'multicluster.karmada.io/cluster-weights';
const CONDITION = 'multicluster.karmada.io/load-balancer-condition';
const ns = 'default';

let sim: Elbv2Simulator;
let h: Harness;

function slice(clusterName: string, addresses: string[]): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `imported-${clusterName}-web-abcde`,
      namespace: ns,
      labels: { 'kubernetes.io/service-name': 'derived-web' },
      annotations: { 'work.karmada.io/namespace': `karmada-es-${clusterName}` },
    },
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: true } })),
    ports: [{ port: 8080, protocol: 'TCP' }],
  } as KubeObject;
}

function objects(): KubeObject[] {
  return [
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: ns },
      spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], selector: { app: 'web' } },
    } as KubeObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', tier: 'front' } },
          spec: { containers: [{ name: 'web', image: 'web:1' }] },
        },
      },
    } as KubeObject,
    {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'web-deployment', namespace: ns },
      spec: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: 'web' },
        replicas: 4,
        clusters: [
          { name: 'member1', replicas: 3 },
          { name: 'member2', replicas: 1 },
        ],
      },
    } as KubeObject,
    {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'web-service', namespace: ns },
      spec: {
        resource: { apiVersion: 'v1', kind: 'Service', namespace: ns, name: 'web' },
        clusters: [{ name: 'member1' }, { name: 'member2' }],
      },
    } as KubeObject,
    slice('member1', ['10.1.0.11', '10.1.0.12', '10.1.0.13']),
    slice('member2', ['10.2.0.21']),
    shop(),
  ];
}

function shop(): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name: 'shop', namespace: ns, annotations: { [FROM]: 'placement' } },
    spec: {
      ingressClassName: 'fake',
      rules: [
        {
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
            ],
          },
        },
      ],
    },
  } as KubeObject;
}

/** Delivers until nothing changes any more (the controllers feed each other through status). */
async function settle() {
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(shop(), 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

/** `cluster:member1 75`, …: the one rule's forward as DescribeRules reports it, by group resource ID. */
function forward(): string[] {
  const snap = sim.snapshot();
  const tags = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags]));
  const rules = snap.rules.filter((r) => !r.IsDefault);
  expect(rules).toHaveLength(1);
  const action = rules[0]!.Actions![0] as SdkAction;
  expect(action.Type).toBe('forward');
  return (action.ForwardConfig?.TargetGroups ?? []).map((g) => {
    const id = tags.get(g.TargetGroupArn ?? '')?.[RESOURCE_TAG] ?? '?';
    return `${id.slice(id.indexOf('@') + 1)} ${g.Weight ?? '?'}`;
  });
}

/** Karmada reschedules: the binding's spec.clusters changes, and its notification is delivered. */
async function reschedule(clusters: Array<{ name: string; replicas: number }>) {
  const [before, after] = await edit<ResourceBinding>(
    h,
    Resources.ResourceBinding,
    ns,
    'web-deployment',
    (rb) => {
      rb.spec = { ...rb.spec, clusters };
    },
  );
  const calls = sim.calls.history().length;
  const results = await h.deliver(notifyChange('modified', after, before));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  return {
    ran: outcomes(results).filter((o) => o.startsWith('multiclusteringress')),
    mcs: outcomes(results).filter((o) => o.startsWith('multiclusterservice')),
    calls: sim.calls.history().length - calls,
  };
}

async function events(): Promise<string[]> {
  const list = await h.kube.list<
    KubeObject & { reason: string; message: string; involvedObject: { name: string } }
  >(Resources.Event, { namespace: ns });
  return list.items.filter((e) => e.involvedObject.name === 'shop').map((e) => `${e.reason}: ${e.message}`);
}

async function condition(): Promise<{ status: string; message: string }> {
  const mci = await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, ns, 'shop');
  return JSON.parse(mci?.metadata.annotations?.[CONDITION] ?? '{}') as { status: string; message: string };
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: awsConfigFor(sim) });
  await h.seed(objects());
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('cluster weights from Karmada placement', () => {
  it('3/1 gives 75/25; rescheduling to 2/2 moves it to 50/50; the same split again costs no call', async () => {
    await settle();
    expect(forward()).toStrictEqual(['cluster:member1 75', 'cluster:member2 25']);
    expect((await condition()).message).toContain(
      'cluster weights: web:80 member1=75 member2=25 (Karmada placement of Deployment web)',
    );
    expect(forwardsToMissingOrEmpty(sim.snapshot())).toStrictEqual([]);

    const moved = await reschedule([
      { name: 'member1', replicas: 2 },
      { name: 'member2', replicas: 2 },
    ]);
    expect(moved.ran).toStrictEqual(['multiclusteringress default/shop updated']);
    expect(forward()).toStrictEqual(['cluster:member1 50', 'cluster:member2 50']);

    // Scaled up with the same split: the trigger compares the weights, nothing is reconciled.
    const same = await reschedule([
      { name: 'member1', replicas: 4 },
      { name: 'member2', replicas: 4 },
    ]);
    expect(same).toStrictEqual({ ran: [], mcs: [], calls: 0 });
    expect(forward()).toStrictEqual(['cluster:member1 50', 'cluster:member2 50']);
  });

  it('a cluster scaled to 0 is drained (ClusterDrained), and gets its share back when rescheduled to', async () => {
    await settle();
    await reschedule([
      { name: 'member1', replicas: 4 },
      { name: 'member2', replicas: 0 },
    ]);
    expect(forward()).toStrictEqual(['cluster:member1 100', 'cluster:member2 0']);
    // Its target stays registered while in-flight requests finish.
    const snap = sim.snapshot();
    const tags = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags[RESOURCE_TAG]]));
    const member2 = snap.targets.filter((t) => tags.get(t.TargetGroupArn)?.endsWith('@cluster:member2'));
    expect(member2.map((t) => t.Id)).toStrictEqual(['10.2.0.21']);
    expect(await events()).toContainEqual(
      expect.stringMatching(
        /^ClusterDrained: cluster member2 drained from default\/shop-web:80@cluster:member2/,
      ),
    );

    await reschedule([
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 1 },
    ]);
    expect(forward()).toStrictEqual(['cluster:member1 75', 'cluster:member2 25']);
    expect(await events()).toContainEqual(expect.stringMatching(/^ClusterRestored: cluster member2/));
  });

  it("the MCI's explicit weights override placement (rescheduling then asks for nothing) and give it back when removed", async () => {
    await settle();
    const [oldMci, newMci] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      ns,
      'shop',
      (m) => {
        m.metadata.annotations = { ...m.metadata.annotations, [WEIGHTS]: 'member1=10,member2=90' };
      },
    );
    await h.deliver(notifyChange('modified', newMci, oldMci));
    expect(forward()).toStrictEqual(['cluster:member1 10', 'cluster:member2 90']);

    expect(
      await reschedule([
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 3 },
      ]),
    ).toStrictEqual({ ran: [], mcs: [], calls: 0 });
    expect(forward()).toStrictEqual(['cluster:member1 10', 'cluster:member2 90']);

    const [withList, without] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      ns,
      'shop',
      (m) => {
        const { [WEIGHTS]: _removed, ...rest } = m.metadata.annotations ?? {};
        m.metadata.annotations = rest;
      },
    );
    await h.deliver(notifyChange('modified', without, withList));
    expect(forward()).toStrictEqual(['cluster:member1 25', 'cluster:member2 75']);
  });

  it('a workload without a ResourceBinding: a Warning Event naming the annotation, no ELBv2 call; served once Karmada binds it', async () => {
    const rb = (await h.kube.get<ResourceBinding>(Resources.ResourceBinding, ns, 'web-deployment'))!;
    await h.kube.delete(Resources.ResourceBinding, ns, 'web-deployment');
    const [res] = await h.deliver(notify(shop(), 'modified'));
    expect(res?.results.find((r) => r.controller === 'multiclusteringress')?.outcome).toBe('invalid');
    expect(sim.calls.history().filter((c) => c.action.startsWith('Create'))).toStrictEqual([]);
    expect(await events()).toContainEqual(
      expect.stringContaining(
        `PlacementWeightsUnavailable: annotation ${FROM}: placement: backend Service default/web is served by Deployment web, which has no ResourceBinding yet: no PropagationPolicy selects it, or Karmada has not scheduled it; give its weights with ${WEIGHTS} meanwhile. Next: `,
      ),
    );
    expect(await condition()).toMatchObject({ status: 'False' });

    // Karmada binds it: the binding's creation alone reconciles the MCI.
    const { metadata, ...rest } = rb;
    const created = await h.kube.create(Resources.ResourceBinding, {
      ...rest,
      metadata: { name: metadata.name, namespace: ns },
    } as KubeObject);
    const results = await h.deliver(notifyChange('added', created));
    expect(outcomes(results)).toStrictEqual(['multiclusteringress default/shop created']);
    expect(forward()).toStrictEqual(['cluster:member1 75', 'cluster:member2 25']);
  });

  it("MultiClusterService: the NLB listener's forward follows placement, and rescheduling moves it", async () => {
    const mcs = {
      apiVersion: 'networking.karmada.io/v1alpha1',
      kind: 'MultiClusterService',
      metadata: { name: 'web', namespace: ns, annotations: { [FROM]: 'placement' } },
      spec: { types: ['LoadBalancer'], ports: [{ port: 80 }] },
    } as KubeObject;
    await h.seed([mcs]);
    for (let i = 0; i < 2; i++) await h.deliver(notify(mcs, 'modified'));
    const listenerForward = () => {
      const snap = sim.snapshot();
      const tags = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags[RESOURCE_TAG] ?? '?']));
      const nlb = snap.loadBalancers.find((lb) => lb.Type === 'network');
      const listener = snap.listeners.find((l) => l.LoadBalancerArn === nlb?.LoadBalancerArn);
      return (listener?.DefaultActions?.[0]?.ForwardConfig?.TargetGroups ?? []).map((g) => {
        const id = tags.get(g.TargetGroupArn ?? '') ?? '?';
        return `${id.slice(id.indexOf('@') + 1)} ${g.Weight ?? '?'}`;
      });
    };
    expect(listenerForward()).toStrictEqual(['cluster:member1 75', 'cluster:member2 25']);
    const moved = await reschedule([
      { name: 'member1', replicas: 1 },
      { name: 'member2', replicas: 1 },
    ]);
    // The MCI of the same backend (never reconciled before here) follows too.
    expect(moved.ran).toStrictEqual(['multiclusteringress default/shop created']);
    expect(moved.mcs).toStrictEqual(['multiclusterservice default/web updated']);
    expect(listenerForward()).toStrictEqual(['cluster:member1 50', 'cluster:member2 50']);
  });
});
