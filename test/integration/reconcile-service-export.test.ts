/**
 * `serviceexport-propagation` (upstream 5.3): a ServiceExport and a PropagationPolicy
 * `propagate-service-<svc>` for each Service a MultiClusterIngress of our class or a LoadBalancer
 * MultiClusterService needs, removed when nothing needs it; and its triggers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingressClass, resourceBinding, serveMultiClusterService } from '../../dev/local/scenario.js';
import type { PropagationPolicy } from '../../lib/karmada/policies.js';
import type {
  MultiClusterIngress,
  MultiClusterService,
  ResourceBinding,
  Service,
} from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { edit, notify, notifyChange, outcomes, ran, startHarness, type Harness } from '../support/harness.js';
import { baseObjects, ingressTo, MCI, service } from '../support/objects.js';

const SE = Resources.ServiceExport;
const PP = Resources.PropagationPolicy;
const RB = Resources.ResourceBinding;
let h: Harness;
const exportOf = (svc: string) => h.kube.get(SE, 'default', svc);
const policyOf = (svc: string) => h.kube.get<PropagationPolicy>(PP, 'default', `propagate-service-${svc}`);
const exportsRan = (items: Awaited<ReturnType<Harness['deliver']>>) =>
  ran(items).filter((r) => r.startsWith('serviceexport-propagation '));

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['serviceexport-propagation'] });
  await h.seed([...baseObjects(), service('api'), resourceBinding('api', ['member2'])]);
});
afterEach(async () => h.close());

describe('ServiceExport and PropagationPolicy', () => {
  it('a Service routed to by an MCI of our class → ServiceExport owned by it, policy with its clusters', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    const res = await h.deliver(notify(mci, 'added'));
    expect(exportsRan(res)).toEqual(['serviceexport-propagation default/serve']);
    const svc = (await h.kube.get<Service>(Resources.Service, 'default', 'serve'))!;
    const owner = {
      apiVersion: 'v1',
      kind: 'Service',
      name: 'serve',
      uid: svc.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    expect(await exportOf('serve')).toMatchObject({
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ServiceExport',
      metadata: { name: 'serve', namespace: 'default', ownerReferences: [owner] },
    });
    expect(await policyOf('serve')).toMatchObject({
      metadata: { ownerReferences: [owner] },
      spec: {
        resourceSelectors: [
          { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport', name: 'serve' },
        ],
        placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
      },
    });
  });

  it('a Service that stops being referenced loses its ServiceExport and PropagationPolicy', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    const [old, now] = await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.rules![0]!.http!.paths[0]!.backend.service!.name = 'api';
    });
    const res = await h.deliver(notifyChange('modified', now, old));
    // the symmetric difference of the references: serve (removed) and api (added)
    expect(outcomes(res).filter((o) => o.startsWith('serviceexport'))).toEqual([
      'serviceexport-propagation default/api created',
      'serviceexport-propagation default/serve deleted',
    ]);
    expect(await exportOf('serve')).toBeUndefined();
    expect(await policyOf('serve')).toBeUndefined();
    expect(await exportOf('api')).toBeDefined();
    expect((await policyOf('api'))?.spec?.placement?.clusterAffinity?.clusterNames).toEqual(['member2']);
  });

  it('an update without the old object reconciles the current references and the exports we made', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.rules![0]!.http!.paths[0]!.backend.service!.name = 'api';
    });
    expect(exportsRan(await h.deliver(notify(mci)))).toEqual([
      'serviceexport-propagation default/api',
      'serviceexport-propagation default/serve',
    ]);
    expect(await exportOf('serve')).toBeUndefined();
    expect(await exportOf('api')).toBeDefined();
  });

  it('an MCI update that keeps its references triggers nothing; its deletion removes the export', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    const [o1, n1] = await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.metadata.annotations = { changed: 'yes' };
    });
    expect(exportsRan(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const before = (await h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress'))!;
    await h.kube.delete(MCI, 'default', 'minimal-ingress'); // our finalizer: deletion starts
    const deleting = (await h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress'))!;
    const res = await h.deliver(notifyChange('modified', deleting, before));
    expect(outcomes(res)).toContain('serviceexport-propagation default/serve deleted');
    expect(await exportOf('serve')).toBeUndefined();
  });

  it('a MultiClusterService of type LoadBalancer needs its Service exported; CrossCluster alone does not', async () => {
    const mcs = serveMultiClusterService() as MultiClusterService;
    await h.seed([{ ...mcs, spec: { ...mcs.spec, types: ['CrossCluster'] } } as KubeObject]);
    await h.deliver(notify(mcs, 'added'));
    expect(await exportOf('serve')).toBeUndefined();
    await h.kube.delete(Resources.MultiClusterService, 'default', 'serve');
    await h.seed([mcs]);
    expect(exportsRan(await h.deliver(notify(mcs, 'added')))).toEqual([
      'serviceexport-propagation default/serve',
    ]);
    expect(await exportOf('serve')).toBeDefined();
    // status-only MCS updates do not count; ports do
    const [o1, n1] = await edit<MultiClusterService>(
      h,
      Resources.MultiClusterService,
      'default',
      'serve',
      (m) => {
        m.status = { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } };
      },
      'status',
    );
    expect(exportsRan(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const [o2, n2] = await edit<MultiClusterService>(
      h,
      Resources.MultiClusterService,
      'default',
      'serve',
      (m) => {
        m.spec.ports = [{ port: 81 }];
      },
    );
    expect(exportsRan(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([
      'serviceexport-propagation default/serve',
    ]);
  });

  it('Service create → reconciled (nothing made when unreferenced); Service updates are ignored', async () => {
    const lone = service('lone');
    await h.seed([lone]);
    const res = await h.deliver(
      notifyChange('added', (await h.kube.get(Resources.Service, 'default', 'lone'))!),
    );
    expect(outcomes(res)).toEqual(['serviceexport-propagation default/lone unchanged']);
    expect(await exportOf('lone')).toBeUndefined();
    const [old, now] = await edit<Service>(h, Resources.Service, 'default', 'lone', (s) => {
      s.spec!.ports = [{ port: 82 }];
    });
    expect(exportsRan(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
  });

  it('a binding cluster change updates the policy; a binding without clusters makes no policy', async () => {
    const mci = ingressTo(['serve', 'api']);
    await h.kube.delete(RB, 'default', 'api-service');
    await h.seed([mci, resourceBinding('api', [])]);
    await h.deliver(notify(mci, 'added'));
    expect(await exportOf('api')).toBeDefined();
    expect(await policyOf('api')).toBeUndefined();
    const [old, now] = await edit<ResourceBinding>(h, RB, 'default', 'serve-service', (rb) => {
      rb.spec!.requiredBy = [{ name: 'x', namespace: 'default', clusters: [{ name: 'member3' }] }];
    });
    expect(exportsRan(await h.deliver(notifyChange('modified', now, old)))).toEqual([
      'serviceexport-propagation default/serve',
    ]);
    expect((await policyOf('serve'))?.spec?.placement?.clusterAffinity?.clusterNames).toEqual([
      'member1',
      'member2',
      'member3',
    ]);
    // a binding change that leaves the cluster set alone does not count
    const [o2, n2] = await edit<ResourceBinding>(h, RB, 'default', 'serve-service', (rb) => {
      rb.spec!.clusters = [{ name: 'member2', replicas: 3 }, { name: 'member1' }];
    });
    expect(exportsRan(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([]);
  });

  it('a ServiceExport or policy a user made (not controlled by the Service) is never deleted', async () => {
    await h.seed([
      {
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'ServiceExport',
        metadata: { name: 'api', namespace: 'default' },
      },
    ]);
    await h.deliver(notifyChange('added', (await h.kube.get(Resources.Service, 'default', 'api'))!));
    expect(await exportOf('api')).toBeDefined();
  });
});

describe('upstream bugs', () => {
  it('upstream bug 2: an MCI whose class stops matching no longer keeps its Service exported', async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci, ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    await h.deliver(notify(mci, 'added'));
    expect(await exportOf('serve')).toBeDefined();
    const [old, now] = await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.ingressClassName = 'nginx';
    });
    const res = await h.deliver(notifyChange('modified', now, old));
    expect(outcomes(res)).toContain('serviceexport-propagation default/serve deleted');
    expect(await exportOf('serve')).toBeUndefined();
    // and an MCI of another class never gets one (upstream exports for every class)
    const other = ingressTo(['api'], 'nginx-only', 'nginx');
    await h.seed([other]);
    await h.deliver(notify(other, 'added'));
    expect(await exportOf('api')).toBeUndefined();
  });

  it('upstream bug 7: the binding must be for a v1 Service, not the first with kind Service and that name', async () => {
    const knative = resourceBinding('serve', ['member9']) as ResourceBinding;
    knative.metadata.name = 'aaa-knative-serve';
    knative.spec!.resource = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      namespace: 'default',
      name: 'serve',
    };
    await h.seed([knative]);
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    expect((await policyOf('serve'))?.spec?.placement?.clusterAffinity?.clusterNames).toEqual([
      'member1',
      'member2',
    ]);
    // and its changes do not trigger the controller
    const [old, now] = await edit<ResourceBinding>(h, RB, 'default', 'aaa-knative-serve', (rb) => {
      rb.spec!.clusters = [{ name: 'member8' }];
    });
    expect(exportsRan(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
  });

  it('upstream bug 7: an existing policy without clusterAffinity gets one (upstream panics)', async () => {
    await h.seed([
      {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: 'propagate-service-serve', namespace: 'default' },
        spec: {
          resourceSelectors: [
            { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport', name: 'serve' },
          ],
          placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
        },
      } as KubeObject,
    ]);
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    const [res] = await h.deliver(notify(mci, 'added'));
    expect(res?.ok).toBe(true);
    expect((await policyOf('serve'))?.spec?.placement).toEqual({
      replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      clusterAffinity: { clusterNames: ['member1', 'member2'] },
    });
  });

  it('upstream bug 1: a resource backend next to a Service backend is no crash', async () => {
    const mci = ingressTo(['serve']) as MultiClusterIngress;
    mci.spec!.defaultBackend = {
      resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' },
    };
    await h.seed([mci]);
    const [res] = await h.deliver(notify(mci, 'added'));
    expect(res?.ok).toBe(true);
    expect(await exportOf('serve')).toBeDefined();
  });

  it("upstream bug 9: the controller records Events on the Service (upstream's recorder is unused)", async () => {
    const mci = ingressTo(['serve']);
    await h.seed([mci]);
    await h.deliver(notify(mci, 'added'));
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    await h.deliver(notify(mci, 'deleted'));
    const events = await h.kube.list<KubeObject & { involvedObject: { kind: string }; reason: string }>(
      Resources.Event,
      { namespace: 'default' },
    );
    expect(
      events.items
        .filter((e) => e.involvedObject.kind === 'Service')
        .map((e) => e.reason)
        .sort(),
    ).toEqual(['ServiceExportRemoved', 'ServiceExported']);
  });
});
