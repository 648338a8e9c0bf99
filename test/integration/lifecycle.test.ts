import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../lib/karmada/constants.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { edit, notify, startHarness, type Harness } from '../support/harness.js';

const MCI = Resources.MultiClusterIngress;
const MCS = Resources.MultiClusterService;

let h: Harness;
let fake: FakeProvider;

const getMci = () => h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress');
const getMcs = () => h.kube.get<MultiClusterService>(MCS, 'default', 'serve');
const mciRef = minimalIngress();
const mcsRef = serveMultiClusterService();

async function events(name: string) {
  const list = await h.kube.list<
    KubeObject & {
      involvedObject: { name: string };
      reason: string;
      message: string;
      type: string;
      count?: number;
    }
  >(Resources.Event, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name);
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['multiclusteringress', 'multiclusterservice'] });
  fake = h.runtime.provider as FakeProvider;
  await h.seed([ingressClass(), cluster('member1'), serveService(), collectedSlice('member1', ['10.1.0.1'])]);
});
afterEach(async () => h.close());

describe('MultiClusterIngress lifecycle with the fake provider', () => {
  it('create → finalizer added, get + create, status 1.2.3.4, an Event', async () => {
    await h.seed([mciRef]);
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res).toMatchObject({ ok: true, results: [{ outcome: 'created' }] });
    const mci = await getMci();
    expect(mci?.metadata.finalizers).toContain(MCI_FINALIZER);
    expect(mci?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    expect(fake.callNames()).toEqual(['get', 'create']);
    expect(
      JSON.parse(mci!.metadata.annotations!['multicluster.karmada.io/load-balancer-condition']!),
    ).toMatchObject({
      status: 'True',
      reason: 'LoadBalancerCreated',
    });
    expect((await events('minimal-ingress')).map((e) => [e.type, e.reason, e.message])).toEqual([
      ['Normal', 'EnsuredLoadBalancer', 'Created load balancer: 1.2.3.4'],
    ]);
  });

  it('keeps a label index of the Services and Secrets it references', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    expect((await getMci())?.metadata.labels).toEqual({ 'backend.multicluster.karmada.io/serve': 'true' });
  });

  it('spec change → get + update, the address kept (1.2.3.4), one UpdatedLoadBalancer Event', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    fake.clearCalls();
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.rules![0]!.http!.paths[0]!.path = '/other';
    });
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.results[0]?.outcome).toBe('updated');
    expect(fake.callNames()).toEqual(['get', 'update']);
    expect((await getMci())?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    const stored = (await fake.snapshot()).mci['default/minimal-ingress']?.object as MultiClusterIngress;
    expect(stored.spec?.rules?.[0]?.http?.paths[0]?.path).toBe('/other');
    // The reconciles our own writes cause (the condition's new observedGeneration) change nothing:
    // still one Event for the one change.
    await h.deliver(notify(mciRef));
    await h.deliver(notify(mciRef));
    // Sorted: a LIST returns Events by name, and an Event's name has a random suffix.
    expect(
      (await events('minimal-ingress'))
        .map((e) => [e.reason, e.message, e.count ?? 1])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['EnsuredLoadBalancer', 'Created load balancer: 1.2.3.4', 1],
      ['UpdatedLoadBalancer', 'Updated load balancer: 1.2.3.4', 1],
    ]);
  });

  it('the reconciles that follow a creation (its finalizer, status and condition writes) record no Event', async () => {
    await h.seed([mciRef]);
    for (let i = 0; i < 3; i++) await h.deliver(notify(mciRef, i === 0 ? 'added' : 'modified'));
    expect((await events('minimal-ingress')).map((e) => [e.reason, e.count ?? 1])).toEqual([
      ['EnsuredLoadBalancer', 1],
    ]);
    expect((await getMci())?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('delete → ensureDeleted, then the finalizer is removed, then the object is gone', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    expect((await getMci())?.metadata.deletionTimestamp).toBeDefined();
    fake.clearCalls();
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.results[0]?.outcome).toBe('deleted');
    expect(fake.callNames()).toEqual(['delete']);
    expect(await getMci()).toBeUndefined();
    expect((await fake.snapshot()).mci).toEqual({});
    expect((await events('minimal-ingress')).map((e) => e.reason)).toContain('DeletedLoadBalancer');
  });

  it('a class that does not match → nothing is done', async () => {
    await h.seed([
      {
        ...mciRef,
        spec: { ...(mciRef as MultiClusterIngress).spec, ingressClassName: 'nginx' },
      } as KubeObject,
    ]);
    await h.seed([ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res).toMatchObject({ ok: true, results: [{ outcome: 'ignored' }] });
    expect(fake.calls).toEqual([]);
    expect((await getMci())?.metadata.finalizers ?? []).toEqual([]);
  });

  it('no default IngressClass (or two) → nothing is done', async () => {
    await h.seed([mciRef, ingressClass('second', 'karmada.io/fake', true)]);
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res?.results[0]).toMatchObject({
      outcome: 'ignored',
      detail: expect.stringContaining('2 default IngressClasses'),
    });
    expect(fake.calls).toEqual([]);
  });

  it('class changed away from ours on an object with our finalizer → load balancer deleted, finalizer removed', async () => {
    await h.seed([mciRef, ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    await h.deliver(notify(mciRef, 'added'));
    expect((await fake.snapshot()).mci['default/minimal-ingress']).toBeDefined();
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.ingressClassName = 'nginx';
    });
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.results[0]).toMatchObject({ outcome: 'deleted' });
    const mci = await getMci();
    expect(mci?.metadata.finalizers ?? []).not.toContain(MCI_FINALIZER);
    expect(mci?.status?.loadBalancer ?? {}).toEqual({});
    expect((await fake.snapshot()).mci).toEqual({});
    // and it can now be deleted without hanging
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    expect(await getMci()).toBeUndefined();
  });

  it('duplicated, reordered and stale notifications converge to the same end state', async () => {
    await h.seed([mciRef]);
    const added = notify(mciRef, 'added');
    const stale = { ...notify(mciRef, 'modified'), ref: { ...notify(mciRef).ref, resourceVersion: '1' } };
    await h.deliver(stale, added, added);
    await h.deliver(added);
    await h.deliver(stale);
    const mci = await getMci();
    expect(mci?.status?.loadBalancer?.ingress?.[0]?.ip).toMatch(/^1\.2\.3\.[45]$/);
    expect(Object.keys((await fake.snapshot()).mci)).toEqual(['default/minimal-ingress']);
    expect(fake.callNames().filter((c) => c === 'create')).toHaveLength(1);
    // a deletion notification that arrives before the deletion is stale too: nothing is deleted
    await h.deliver(notify(mciRef, 'deleted'));
    expect((await fake.snapshot()).mci['default/minimal-ingress']).toBeDefined();
  });

  it('a provider failure → reported for that item, an Event, finalizer kept; the next delivery succeeds', async () => {
    await h.seed([mciRef]);
    fake.failNext('create');
    const [first] = await h.deliver(notify(mciRef, 'added'));
    expect(first).toMatchObject({ ok: false, error: expect.stringContaining('injected failure of create') });
    const mci = await getMci();
    expect(mci?.metadata.finalizers).toContain(MCI_FINALIZER);
    expect(mci?.status?.loadBalancer ?? {}).toEqual({});
    expect((await events('minimal-ingress')).map((e) => [e.type, e.reason])).toContainEqual([
      'Warning',
      'SyncLoadBalancerFailed',
    ]);
    const [second] = await h.deliver(notify(mciRef, 'added'));
    expect(second).toMatchObject({ ok: true, results: [{ outcome: 'created' }] });
    expect((await getMci())?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('a 409 Conflict on the status write is retried', async () => {
    await h.seed([mciRef]);
    let statusWrites = 0;
    h.api.injectConflicts({
      probability: 1,
      pathFilter: (p) => p.endsWith('/status') && statusWrites++ === 0,
    });
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res?.ok).toBe(true);
    expect(h.api.injectedConflicts).toBe(1);
    expect((await getMci())?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('two concurrent invocations for the same key create one load balancer, not two', async () => {
    await h.seed([mciRef]);
    const results = await Promise.all([
      h.deliver(notify(mciRef, 'added')),
      h.deliver(notify(mciRef, 'added')),
    ]);
    expect(results.flat().every((r) => r.ok)).toBe(true);
    expect(fake.callNames().filter((c) => c === 'create')).toHaveLength(1);
    expect(Object.keys((await fake.snapshot()).mci)).toHaveLength(1);
    // the lock Lease is released afterwards
    expect(await h.kube.list(Resources.Lease, { namespace: 'karmada-system' })).toMatchObject({ items: [] });
  });

  it('an invalid spec → a Warning Event naming the field, no provider call, and it can still be deleted', async () => {
    const bad = {
      ...mciRef,
      spec: { rules: [{ http: { paths: [{ path: '/x', pathType: 'Prefix', backend: {} }] } }] },
    };
    await h.seed([bad as KubeObject]);
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res).toMatchObject({ ok: true, results: [{ outcome: 'invalid' }] });
    expect(fake.calls).toEqual([]);
    const evs = await events('minimal-ingress');
    expect(evs[0]).toMatchObject({ type: 'Warning', reason: 'InvalidSpec' });
    expect(evs[0]?.message).toContain('spec.rules[0].http.paths[0].backend');
    // the MultiClusterIngress CRD has no status.conditions: the condition is kept in an annotation
    const condition = JSON.parse(
      (await getMci())!.metadata.annotations!['multicluster.karmada.io/load-balancer-condition']!,
    );
    expect(condition).toMatchObject({ type: 'LoadBalancerReady', status: 'False', reason: 'InvalidSpec' });
    expect(condition.message).toContain('spec.rules[0].http.paths[0].backend');
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    expect(await getMci()).toBeUndefined();
  });

  it('a resource backend is reported, not a crash (upstream bug 1)', async () => {
    const withResource = {
      ...mciRef,
      spec: {
        defaultBackend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' } },
        rules: (mciRef as MultiClusterIngress).spec?.rules,
      },
    };
    await h.seed([withResource as KubeObject]);
    const [res] = await h.deliver(notify(mciRef, 'added'));
    expect(res?.ok).toBe(true);
    // the fake provider serves it; its index only names the Service backend
    expect((await fake.snapshot()).mci['default/minimal-ingress']?.services).toEqual(['serve']);
  });
});

describe('MultiClusterService lifecycle with the fake provider', () => {
  it('create → finalizer, get + create, status 1.2.3.4; conditions kept', async () => {
    await h.seed([mcsRef]);
    const condition = {
      type: 'ServiceApplied',
      status: 'True',
      reason: 'ServiceAppliedSucceed',
      message: 'applied',
      lastTransitionTime: '2026-11-29T00:00:00Z',
    };
    const mcs = (await getMcs())!;
    await h.kube.updateStatus(MCS, { ...mcs, status: { conditions: [condition] } });
    const [res] = await h.deliver(notify(mcsRef, 'added'));
    expect(res).toMatchObject({ ok: true, results: [{ outcome: 'created' }] });
    const after = await getMcs();
    expect(after?.metadata.finalizers).toContain(MCS_FINALIZER);
    expect(after?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    expect(after?.status?.conditions).toEqual([
      condition,
      {
        type: 'LoadBalancerReady',
        status: 'True',
        reason: 'LoadBalancerCreated',
        message: 'Load balancer ready: 1.2.3.4',
        observedGeneration: 1,
        lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
    ]);
  });

  it('LoadBalancer removed from the types → load balancer deleted, finalizer dropped, status cleared', async () => {
    await h.seed([mcsRef]);
    await h.deliver(notify(mcsRef, 'added'));
    await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
      m.spec.types = ['CrossCluster'];
    });
    fake.clearCalls();
    h.api.requests.reset();
    const [res] = await h.deliver(notify(mcsRef));
    expect(res?.results[0]?.outcome).toBe('deleted');
    expect(fake.callNames()).toEqual(['delete']);
    // The status is cleared while the finalizer still marks the object as ours, then the finalizer
    // goes: a reconcile stopped between the two finds it still ours and finishes the job.
    const writes = h.api.requests.entries
      .filter((e) => e.method === 'PUT' && e.path.includes('/multiclusterservices/serve'))
      .map((e) => (e.path.endsWith('/status') ? 'status' : 'finalizer'));
    expect(writes).toEqual(['status', 'finalizer']);
    const mcs = await getMcs();
    expect(mcs?.metadata.finalizers ?? []).not.toContain(MCS_FINALIZER);
    expect(mcs?.status?.loadBalancer ?? {}).toEqual({});
    expect((await fake.snapshot()).mcs).toEqual({});
  });

  it('a MultiClusterService without LoadBalancer type is ignored', async () => {
    await h.seed([{ ...mcsRef, spec: { types: ['CrossCluster'] } } as KubeObject]);
    const [res] = await h.deliver(notify(mcsRef, 'added'));
    expect(res?.results[0]?.outcome).toBe('ignored');
    expect(fake.calls).toEqual([]);
  });

  it('delete → load balancer deleted, then finalizer removed, then gone', async () => {
    await h.seed([mcsRef]);
    await h.deliver(notify(mcsRef, 'added'));
    await h.kube.delete(MCS, 'default', 'serve');
    await h.deliver(notify(mcsRef));
    expect(await getMcs()).toBeUndefined();
    expect((await fake.snapshot()).mcs).toEqual({});
  });
});

describe('dependent objects', () => {
  it('an EndpointSlice change for derived-serve re-reconciles the MCI that routes to serve and the MCS serve', async () => {
    await h.seed([mciRef, mcsRef]);
    await h.deliver(notify(mciRef, 'added'), notify(mcsRef, 'added'));
    fake.clearCalls();
    const slice = collectedSlice('member1', ['10.1.0.1']);
    const [res] = await h.deliver(notify(slice));
    expect(res?.results.map((r) => `${r.controller}:${r.outcome}`).sort()).toEqual([
      'multiclusteringress:updated',
      'multiclusterservice:updated',
    ]);
  });
});
