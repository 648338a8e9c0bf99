/**
 * `multiclusterservice` (upstream 5.2): which notifications reach it (only MultiClusterServices of
 * type LoadBalancer, upstream's update filter, the same-named Service, collected EndpointSlices).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectedSlice, serveMultiClusterService } from '../../dev/local/scenario.js';
import type { EndpointSlice, MultiClusterService, Service } from '../../lib/karmada/types.js';
import { MCS_FINALIZER } from '../../lib/karmada/constants.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { edit, notify, notifyChange, ran, startHarness, type Harness } from '../support/harness.js';
import { baseObjects } from '../support/objects.js';

const MCS = Resources.MultiClusterService;
let h: Harness;
let fake: FakeProvider;
const lbMcs = serveMultiClusterService() as MultiClusterService;
const crossCluster = { ...lbMcs, spec: { ...lbMcs.spec, types: ['CrossCluster'] } } as MultiClusterService;
const lbOnly = (items: Awaited<ReturnType<Harness['deliver']>>) =>
  ran(items).filter((r) => r.startsWith('multiclusterservice '));

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
  fake = h.runtime.provider as FakeProvider;
  await h.seed(baseObjects());
});
afterEach(async () => h.close());

describe('MultiClusterService triggers', () => {
  it('create of type LoadBalancer → reconciled; of type CrossCluster only → not requested', async () => {
    await h.seed([crossCluster]);
    const stored = (await h.kube.get<MultiClusterService>(MCS, 'default', 'serve'))!;
    const res = await h.deliver(notifyChange('added', stored));
    // only the export decision looks at it (upstream's serviceexport handler does the same)
    expect(ran(res)).toEqual(['serviceexport-propagation default/serve']);
    expect(fake.calls).toEqual([]);

    await h.kube.delete(MCS, 'default', 'serve');
    await h.seed([lbMcs]);
    const lb = (await h.kube.get<MultiClusterService>(MCS, 'default', 'serve'))!;
    const created = await h.deliver(notifyChange('added', lb));
    expect(created[0]?.results.find((r) => r.controller === 'multiclusterservice')?.outcome).toBe('created');
    expect(fake.callNames()).toEqual(['get', 'create']);
  });

  it('update: only annotations, spec or deletion state count; status-only (our own write) does not', async () => {
    await h.seed([lbMcs]);
    await h.deliver(notify(lbMcs, 'added'));
    const [o1, n1] = await edit<MultiClusterService>(
      h,
      MCS,
      'default',
      'serve',
      (m) => {
        m.status = { ...m.status, conditions: [], loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } };
      },
      'status',
    );
    expect(lbOnly(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const [o2, n2] = await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
      m.metadata.annotations = { note: 'x' };
    });
    expect(lbOnly(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([
      'multiclusterservice default/serve',
    ]);
    const [o3, n3] = await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
      m.metadata.labels = { only: 'labels' };
    });
    expect(lbOnly(await h.deliver(notifyChange('modified', n3, o3)))).toEqual([]);
  });

  it('update where neither version has type LoadBalancer (nor our finalizer) → skipped', async () => {
    await h.seed([crossCluster]);
    const [old, now] = await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
      m.metadata.annotations = { changed: 'yes' };
    });
    expect(lbOnly(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
    // but one that still carries our finalizer is reconciled, so the finalizer can go
    const withFinalizer = { ...now, metadata: { ...now.metadata, finalizers: [MCS_FINALIZER] } };
    expect(lbOnly(await h.deliver(notifyChange('modified', withFinalizer, old)))).toEqual([
      'multiclusterservice default/serve',
    ]);
  });

  it('the same-named Service: create / delete / spec change → the MCS; status-only → nothing', async () => {
    await h.seed([lbMcs]);
    const svc = (await h.kube.get<Service>(Resources.Service, 'default', 'serve'))!;
    expect(lbOnly(await h.deliver(notifyChange('added', svc)))).toEqual([
      'multiclusterservice default/serve',
    ]);
    const [o1, n1] = await edit<Service>(
      h,
      Resources.Service,
      'default',
      'serve',
      (s) => {
        s.status = { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } };
      },
      'status',
    );
    expect(lbOnly(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const [o2, n2] = await edit<Service>(h, Resources.Service, 'default', 'serve', (s) => {
      s.spec!.ports = [{ port: 81, protocol: 'TCP' }];
    });
    expect(lbOnly(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([
      'multiclusterservice default/serve',
    ]);
    expect(lbOnly(await h.deliver(notifyChange('deleted', svc)))).toEqual([
      'multiclusterservice default/serve',
    ]);
  });

  it('an EndpointSlice labelled derived-serve → MCS serve: get + update', async () => {
    await h.seed([lbMcs]);
    await h.deliver(notify(lbMcs, 'added'));
    fake.clearCalls();
    const [old, now] = await edit<EndpointSlice>(
      h,
      Resources.EndpointSlice,
      'default',
      'imported-member2-serve-abcde',
      (s) => {
        s.endpoints = [];
      },
    );
    const res = await h.deliver(notifyChange('modified', now, old));
    expect(res[0]?.results.find((r) => r.controller === 'multiclusterservice')?.outcome).toBe('updated');
    expect(fake.callNames()).toEqual(['get', 'update']);
    // and a slice for another Service does not touch it
    fake.clearCalls();
    await h.deliver(notifyChange('added', collectedSlice('member1', ['10.9.0.1'], 'other') as KubeObject));
    expect(fake.calls.filter((c) => c.kind === 'mcs' && c.key === 'default/serve')).toEqual([]);
  });
});

describe('upstream bugs', () => {
  it('upstream bug 5: a failed delete is reported with a readable Warning Event, not %!(EXTRA …)', async () => {
    await h.seed([lbMcs]);
    await h.deliver(notify(lbMcs, 'added'));
    await h.kube.delete(MCS, 'default', 'serve');
    fake.failNext('delete');
    const [res] = await h.deliver(notify(lbMcs));
    expect(res?.ok).toBe(false);
    const events = await h.kube.list<KubeObject & { type: string; reason: string; message: string }>(
      Resources.Event,
      { namespace: 'default' },
    );
    const warning = events.items.find((e) => e.type === 'Warning');
    expect(warning?.message).toMatch(/^Failed to delete load balancer: .*injected failure of delete/);
    expect(warning?.message).not.toContain('%!(EXTRA');
    // the finalizer is kept, so the next delivery finishes the deletion
    expect((await h.kube.get<MultiClusterService>(MCS, 'default', 'serve'))?.metadata.finalizers).toContain(
      MCS_FINALIZER,
    );
    await h.deliver(notify(lbMcs));
    expect(await h.kube.get(MCS, 'default', 'serve')).toBeUndefined();
  });
});
