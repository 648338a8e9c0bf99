/**
 * What one `serviceexport-propagation` reconcile (lib/reconcile/service-export.ts) reports and
 * leaves behind, case by case, against the Kubernetes API stand-in: the outcome and detail of its
 * result, the Events on the Service, the ServiceExport and PropagationPolicy it creates, updates or
 * deletes, and what it leaves alone (other namespaces, an unchanged policy, a replaced export).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourceBinding, serveMultiClusterService } from '../../dev/local/scenario.js';
import type { PropagationPolicy } from '../../lib/karmada/policies.js';
import type { ResourceBinding, Service } from '../../lib/karmada/types.js';
import { isConflict, KubeApiError, type KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { reconcileServiceExport } from '../../lib/reconcile/service-export.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { startHarness, type Harness } from '../support/harness.js';
import { baseObjects, ingressTo, service } from '../support/objects.js';

const SE = Resources.ServiceExport;
const PP = Resources.PropagationPolicy;
let h: Harness;

const deps = (kube: KubeClient = h.kube): ReconcileDeps => ({
  kube,
  provider: h.runtime.provider,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
});
const reconcile = (kube?: KubeClient, name = 'serve') => reconcileServiceExport(deps(kube), 'default', name);
const result = (outcome: string, detail?: string) => ({
  controller: 'serviceexport-propagation',
  key: 'default/serve',
  outcome,
  ...(detail ? { detail } : {}),
});
const BY_MCI = 'MultiClusterIngress minimal-ingress; clusters: member1, member2';
const exportOf = () => h.kube.get(SE, 'default', 'serve');
const policyOf = () => h.kube.get<PropagationPolicy>(PP, 'default', 'propagate-service-serve');
const setPolicyClusters = async (clusters: string[] | undefined) => {
  const p = (await policyOf())!;
  await h.kube.update(PP, {
    ...p,
    spec: { ...p.spec, placement: clusters ? { clusterAffinity: { clusterNames: clusters } } : {} },
  });
};

async function serviceEvents() {
  const list = await h.kube.list<
    KubeObject & {
      involvedObject: { kind: string; name: string };
      type: string;
      reason: string;
      message: string;
      count: number;
    }
  >(Resources.Event, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject.kind === 'Service' && e.involvedObject.name === 'serve')
    .map((e) => ({ type: e.type, reason: e.reason, message: e.message, count: e.count }))
    .sort((a, b) => a.reason.localeCompare(b.reason));
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['serviceexport-propagation'] });
  await h.seed(baseObjects());
});
afterEach(async () => h.close());

describe('the result and Events of one reconcile', () => {
  it('a Service that does not exist → gone, nothing read beyond it', async () => {
    h.api.requests.reset();
    expect(await reconcile(h.kube, 'nothing')).toEqual({ ...result('gone'), key: 'default/nothing' });
    expect(h.api.requests.entries.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /api/v1/namespaces/default/services/nothing',
    ]);
  });

  it('a Service being deleted → ignored, its export left to the garbage collector', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const svc = (await h.kube.get<Service>(Resources.Service, 'default', 'serve'))!;
    await h.kube.update(Resources.Service, {
      ...svc,
      metadata: { ...svc.metadata, finalizers: ['example.com/hold'] },
    });
    await h.kube.delete(Resources.Service, 'default', 'serve');
    expect(await reconcile()).toEqual(result('ignored', 'being deleted'));
    expect(await exportOf()).toBeDefined();
  });

  it('first export → created, why and where in the detail and an Event; again → unchanged, no new Event', async () => {
    await h.seed([ingressTo(['serve'])]);
    expect(await reconcile()).toEqual(result('created', BY_MCI));
    expect(await serviceEvents()).toEqual([
      { type: 'Normal', reason: 'ServiceExported', message: `Exported for ${BY_MCI}`, count: 1 },
    ]);
    const creates = h.api.requests.count('POST');
    expect(await reconcile()).toEqual(result('unchanged', BY_MCI));
    // the existing export is not created again
    expect(h.api.requests.count('POST')).toBe(creates);
    expect(await serviceEvents()).toEqual([
      { type: 'Normal', reason: 'ServiceExported', message: `Exported for ${BY_MCI}`, count: 1 },
    ]);
  });

  it('needed by a MultiClusterService of type LoadBalancer → the detail names it', async () => {
    await h.seed([serveMultiClusterService()]);
    expect(await reconcile()).toEqual(
      result('created', 'MultiClusterService serve; clusters: member1, member2'),
    );
  });

  it('the binding’s clusters change → updated, the policy follows, an Event says where', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const rb = (await h.kube.get<ResourceBinding>(Resources.ResourceBinding, 'default', 'serve-service'))!;
    await h.kube.update(Resources.ResourceBinding, {
      ...rb,
      spec: { ...rb.spec, clusters: [{ name: 'member2' }] },
    });
    const detail = 'MultiClusterIngress minimal-ingress; clusters: member2';
    expect(await reconcile()).toEqual(result('updated', detail));
    expect((await policyOf())?.spec?.placement?.clusterAffinity?.clusterNames).toEqual(['member2']);
    expect(await serviceEvents()).toContainEqual({
      type: 'Normal',
      reason: 'ServiceExported',
      message: `Exported for ${detail}`,
      count: 1,
    });
  });

  it('a policy listing the same clusters in another order, or twice, is unchanged and not rewritten', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await setPolicyClusters(['member2', 'member1', 'member2']);
    const version = (await policyOf())?.metadata.resourceVersion;
    expect(await reconcile()).toEqual(result('unchanged', BY_MCI));
    expect((await policyOf())?.metadata.resourceVersion).toBe(version);
  });

  it.each<[string, string[] | undefined, string[]]>([
    ['one cluster missing', ['member1'], ['member1', 'member2']],
    ['one cluster too many', ['member1', 'member2', 'member3'], ['member1', 'member2']],
    ['as many, not the same', ['member1', 'member3'], ['member1', 'member2']],
    ['no clusterAffinity at all', undefined, ['member1', 'member2']],
    ['an empty list (every cluster to Karmada)', [], ['member1', 'member2']],
  ])('a policy with %s → updated to the binding’s clusters', async (_name, have, want) => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await setPolicyClusters(have);
    expect(await reconcile()).toEqual(result('updated', BY_MCI));
    expect((await policyOf())?.spec?.placement?.clusterAffinity?.clusterNames).toEqual(want);
  });

  it('the export exists but the policy is gone → created', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await h.kube.delete(PP, 'default', 'propagate-service-serve');
    expect(await reconcile()).toEqual(result('created', BY_MCI));
    expect(await policyOf()).toBeDefined();
  });

  it('the policy is unchanged but the export is gone → created', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await h.kube.delete(SE, 'default', 'serve');
    expect(await reconcile()).toEqual(result('created', BY_MCI));
    expect(await exportOf()).toBeDefined();
  });

  it('no binding yet → the export only, "none yet" in the detail; then unchanged', async () => {
    await h.seed([service('api'), ingressTo(['api'])]);
    const api = {
      ...result('created', 'MultiClusterIngress minimal-ingress; clusters: none yet'),
      key: 'default/api',
    };
    expect(await reconcile(h.kube, 'api')).toEqual(api);
    expect(await h.kube.get(SE, 'default', 'api')).toBeDefined();
    expect(await h.kube.get(PP, 'default', 'propagate-service-api')).toBeUndefined();
    expect(await reconcile(h.kube, 'api')).toEqual({ ...api, outcome: 'unchanged' });
  });

  it('no longer referenced → both deleted, an Event; again → unchanged, no new Event', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
    expect(await reconcile()).toEqual(result('deleted', 'not referenced'));
    expect(await exportOf()).toBeUndefined();
    expect(await policyOf()).toBeUndefined();
    const removed = {
      type: 'Normal',
      reason: 'ServiceExportRemoved',
      message: 'No longer needed by a MultiClusterIngress or MultiClusterService',
      count: 1,
    };
    expect((await serviceEvents()).filter((e) => e.reason === 'ServiceExportRemoved')).toEqual([removed]);
    expect(await reconcile()).toEqual(result('unchanged', 'not referenced'));
    expect((await serviceEvents()).filter((e) => e.reason === 'ServiceExportRemoved')).toEqual([removed]);
  });
});

describe('namespaces', () => {
  beforeEach(async () => {
    await h.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a-team' } } as KubeObject]);
  });

  it('an MCI in another namespace routing to a Service of the same name does not count', async () => {
    await h.seed([
      { ...ingressTo(['serve']), metadata: { name: 'elsewhere', namespace: 'a-team' } } as KubeObject,
    ]);
    expect(await reconcile()).toEqual(result('unchanged', 'not referenced'));
    expect(await exportOf()).toBeUndefined();
  });

  it('the clusters come from the binding in the Service’s namespace', async () => {
    const other = resourceBinding('serve', ['member9']) as ResourceBinding;
    await h.seed([
      service('serve-a') /* keeps a-team's list non-empty for the ordering below */,
      {
        ...other,
        metadata: { ...other.metadata, namespace: 'a-team' },
        spec: { ...other.spec, resource: { ...other.spec!.resource!, namespace: 'a-team' } },
      } as KubeObject,
      ingressTo(['serve']),
    ]);
    expect(await reconcile()).toEqual(result('created', BY_MCI));
    expect((await policyOf())?.spec?.placement?.clusterAffinity?.clusterNames).toEqual([
      'member1',
      'member2',
    ]);
  });
});

describe('races', () => {
  it('an export created by another invocation between our read and our create is not ours to report', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    const blind: KubeClient = Object.create(h.kube);
    blind.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) =>
      args[0] === SE ? undefined : h.kube.get<T>(...args);
    expect(await reconcile(blind)).toEqual(result('unchanged', BY_MCI));
  });

  it('any other failure to create the export is passed on', async () => {
    await h.seed([ingressTo(['serve'])]);
    const failing: KubeClient = Object.create(h.kube);
    failing.create = async <T extends KubeObject>(...args: Parameters<KubeClient['create']>) => {
      if (args[0] === SE) throw new KubeApiError('forbidden', 403, 'Forbidden');
      return h.kube.create<T>(args[0], args[1] as T);
    };
    await expect(reconcile(failing)).rejects.toThrow('forbidden');
  });

  it('an export replaced meanwhile (another uid) is not deleted: the delete carries the uid read', async () => {
    await h.seed([ingressTo(['serve'])]);
    await reconcile();
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
    let replacedUid: string | undefined;
    const racing: KubeClient = Object.create(h.kube);
    racing.delete = async (...args: Parameters<KubeClient['delete']>) => {
      if (args[0] === SE && !replacedUid) {
        const old = (await exportOf())!;
        await h.kube.delete(SE, 'default', 'serve');
        const {
          uid: _u,
          resourceVersion: _r,
          creationTimestamp: _c,
          ...meta
        } = old.metadata as Record<string, unknown>;
        replacedUid = (await h.kube.create(SE, { ...old, metadata: meta as KubeObject['metadata'] })).metadata
          .uid;
      }
      return h.kube.delete(...args);
    };
    const err = await reconcile(racing).catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
    expect((await exportOf())?.metadata.uid).toBe(replacedUid);
  });
});
