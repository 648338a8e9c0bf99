/**
 * `crd-installation` (upstream 5.4): the ClusterPropagationPolicy `serviceexportpropagation-policy`
 * keeps the ServiceExport CRD on every member cluster.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cluster } from '../../dev/local/scenario.js';
import type { ClusterPropagationPolicy } from '../../lib/karmada/policies.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import {
  CRD_INSTALLATION_REQUEST,
  crdInstallationRequests,
} from '../../lib/reconcile/crd-installation-triggers.js';
import { reconcileCrdInstallation } from '../../lib/reconcile/crd-installation.js';
import { edit, notify, notifyChange, outcomes, ran, startHarness, type Harness } from '../support/harness.js';

const CPP = Resources.ClusterPropagationPolicy;
const CLUSTER = Resources.Cluster;
let h: Harness;
const policy = () => h.kube.get<ClusterPropagationPolicy>(CPP, undefined, 'serviceexportpropagation-policy');
const clusterNames = async () => (await policy())?.spec?.placement?.clusterAffinity?.clusterNames;

async function addCluster(name: string) {
  await h.seed([cluster(name)]);
  return h.deliver(notifyChange('added', (await h.kube.get(CLUSTER, undefined, name))!));
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['crd-installation'] });
  await h.seed([cluster('member1'), cluster('member2')]);
});
afterEach(async () => h.close());

describe('the ServiceExport CRD policy', () => {
  it("a cluster added → the policy is created with every cluster, upstream's selector and tolerations", async () => {
    const res = await addCluster('member3');
    expect(outcomes(res)).toEqual(['crd-installation serviceexportpropagation-policy created']);
    const cpp = await policy();
    expect(cpp).toMatchObject({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'serviceexportpropagation-policy' },
      spec: {
        resourceSelectors: [
          {
            apiVersion: 'apiextensions.k8s.io/v1',
            kind: 'CustomResourceDefinition',
            name: 'serviceexports.multicluster.x-k8s.io',
          },
        ],
        placement: {
          clusterAffinity: { clusterNames: ['member1', 'member2', 'member3'] },
          clusterTolerations: [
            { key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
            { key: 'cluster.karmada.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
          ],
        },
      },
    });
    expect(cpp?.metadata.ownerReferences).toBeUndefined();
    expect(cpp?.spec?.placement?.clusterTolerations?.every((t) => t.tolerationSeconds === undefined)).toBe(
      true,
    );
  });

  it('a cluster added later is appended', async () => {
    await addCluster('member2');
    expect(outcomes(await addCluster('member0'))).toEqual([
      'crd-installation serviceexportpropagation-policy updated',
    ]);
    expect(await clusterNames()).toEqual(['member1', 'member2', 'member0']);
    // again: nothing to do
    expect(outcomes(await addCluster('member0'))).toEqual([
      'crd-installation serviceexportpropagation-policy unchanged',
    ]);
  });

  it('a cluster whose deletion started is removed', async () => {
    await addCluster('member2');
    const [old, now] = await edit<KubeObject>(h, CLUSTER, undefined, 'member2', (c) => {
      c.metadata.finalizers = ['karmada.io/cluster-controller'];
    });
    // a plain update does not count (upstream filter)
    expect(ran(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
    await h.kube.delete(CLUSTER, undefined, 'member2');
    const deleting = (await h.kube.get<KubeObject>(CLUSTER, undefined, 'member2'))!;
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    await h.deliver(notifyChange('modified', deleting, now));
    expect(await clusterNames()).toEqual(['member1']);
  });

  it('deleting the ClusterPropagationPolicy recreates it with every cluster', async () => {
    await addCluster('member2');
    const before = await policy();
    await h.kube.delete(CPP, undefined, 'serviceexportpropagation-policy');
    expect(await policy()).toBeUndefined();
    const res = await h.deliver(notifyChange('deleted', before as KubeObject));
    expect(outcomes(res)).toEqual(['crd-installation serviceexportpropagation-policy created']);
    expect(await clusterNames()).toEqual(['member1', 'member2']);
  });

  it('other policies, and updates of ours, trigger nothing', async () => {
    await addCluster('member2');
    const other = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'other' },
    };
    expect(ran(await h.deliver(notify(other, 'deleted')))).toEqual([]);
    const cpp = (await policy())!;
    expect(ran(await h.deliver(notifyChange('modified', cpp, cpp)))).toEqual([]);
  });
});

describe('upstream bugs', () => {
  it('upstream bug 6: deleting a Cluster removes it from the policy, even once it is gone', async () => {
    await addCluster('member2');
    expect(await clusterNames()).toEqual(['member1', 'member2']);
    const gone = (await h.kube.get(CLUSTER, undefined, 'member2'))!;
    await h.kube.delete(CLUSTER, undefined, 'member2'); // no finalizer: gone at once
    // upstream reconciles the name "" here and never removes member2
    const res = await h.deliver(notify(gone, 'deleted'));
    expect(outcomes(res)).toEqual(['crd-installation serviceexportpropagation-policy updated']);
    expect(await clusterNames()).toEqual(['member1']);
  });

  it("upstream bug 9: the controller records Events on the policy (upstream's recorder is unused)", async () => {
    await addCluster('member2');
    await addCluster('member3');
    const events = await h.kube.list<KubeObject & { involvedObject: { name: string }; reason: string }>(
      Resources.Event,
      { namespace: 'default' },
    );
    expect(
      events.items
        .filter((e) => e.involvedObject.name === 'serviceexportpropagation-policy')
        .map((e) => e.reason)
        .sort(),
    ).toEqual(['PolicyCreated', 'PolicyUpdated']);
  });
});

describe('the result and Events of one reconcile', () => {
  const run = () =>
    reconcileCrdInstallation({
      kube: h.kube,
      provider: h.runtime.provider,
      providerIngressClass: 'karmada.io/fake',
      events: h.runtime.events,
      logger: h.logger,
      signal: new AbortController().signal,
    });
  const result = (outcome: string, detail?: string) => ({
    controller: 'crd-installation',
    key: 'serviceexportpropagation-policy',
    outcome,
    ...(detail ? { detail } : {}),
  });
  async function policyEvents() {
    const list = await h.kube.list<
      KubeObject & { involvedObject: { name: string }; type: string; reason: string; message: string }
    >(Resources.Event, { namespace: 'default' });
    return list.items
      .filter((e) => e.involvedObject.name === 'serviceexportpropagation-policy')
      .map((e) => [e.type, e.reason, e.message]);
  }
  const removeClusters = async (...names: string[]) => {
    for (const name of names) await h.kube.delete(CLUSTER, undefined, name);
  };

  it('created → the clusters in the detail, an Event with their count; again → unchanged, no Event', async () => {
    expect(await run()).toEqual(result('created', 'clusters: member1, member2'));
    expect(await policyEvents()).toEqual([
      ['Normal', 'PolicyCreated', 'Propagating serviceexports.multicluster.x-k8s.io to 2 cluster(s)'],
    ]);
    expect(await run()).toEqual(result('unchanged'));
    expect(await policyEvents()).toHaveLength(1);
  });

  it('created with no cluster at all → "none"', async () => {
    await removeClusters('member1', 'member2');
    expect(await run()).toEqual(result('created', 'clusters: none'));
    expect(await clusterNames()).toEqual([]);
  });

  it('updated → the new list in the detail and the Event; down to no cluster → "none", "no cluster"', async () => {
    await run();
    await h.seed([cluster('member3')]);
    expect(await run()).toEqual(result('updated', 'clusters: member1, member2, member3'));
    await removeClusters('member1', 'member2', 'member3');
    expect(await run()).toEqual(result('updated', 'clusters: none'));
    expect((await policyEvents()).filter(([, r]) => r === 'PolicyUpdated').sort()).toEqual([
      [
        'Normal',
        'PolicyUpdated',
        'Propagating serviceexports.multicluster.x-k8s.io to: member1, member2, member3',
      ],
      ['Normal', 'PolicyUpdated', 'Propagating serviceexports.multicluster.x-k8s.io to: no cluster'],
    ]);
  });

  it('a policy being deleted is left alone until it is gone', async () => {
    await run();
    const cpp = (await policy())!;
    await h.kube.update(CPP, { ...cpp, metadata: { ...cpp.metadata, finalizers: ['example.com/hold'] } });
    await h.kube.delete(CPP, undefined, 'serviceexportpropagation-policy');
    await h.seed([cluster('member3')]);
    expect(await run()).toEqual(result('ignored', 'being deleted'));
    expect(await clusterNames()).toEqual(['member1', 'member2']);
  });

  it('the request is the one cluster-scoped key', () => {
    expect(CRD_INSTALLATION_REQUEST).toEqual({
      controller: 'crd-installation',
      namespace: '',
      name: 'serviceexportpropagation-policy',
    });
  });

  it('a Cluster update that starts its deletion triggers it; one that keeps it does not', async () => {
    const c = (await h.kube.get(CLUSTER, undefined, 'member1'))!;
    const deleting = { ...c, metadata: { ...c.metadata, deletionTimestamp: '2026-12-01T00:00:00Z' } };
    expect(crdInstallationRequests(notifyChange('modified', deleting, c))).toEqual([
      CRD_INSTALLATION_REQUEST,
    ]);
    expect(crdInstallationRequests(notifyChange('modified', deleting, deleting))).toEqual([]);
    const relabelled = { ...c, metadata: { ...c.metadata, labels: { a: 'b' } } };
    expect(crdInstallationRequests(notifyChange('modified', relabelled, c))).toEqual([]);
  });
});
