/**
 * One reconcile request (lib/reconcile/run.ts) against the Kubernetes API stand-in: dispatched to
 * its controller, under the per-object Lease when a lock namespace is given and without one when
 * not, the Lease released however the controller ends; and the namespaced lists of a deployment
 * restricted to some namespaces (lib/reconcile/scope.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minimalIngress, serveMultiClusterService } from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { acquireLock, lockName } from '../../lib/reconcile/lock.js';
import { requestKey, type ReconcileRequest } from '../../lib/reconcile/requests.js';
import { runRequest, type RunOptions } from '../../lib/reconcile/run.js';
import { listInScope } from '../../lib/reconcile/scope.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { startHarness, type Harness } from '../support/harness.js';
import { baseObjects } from '../support/objects.js';

const NS = 'karmada-system';
let h: Harness;
let fake: FakeProvider;

const deps = (extra: Partial<ReconcileDeps> = {}): ReconcileDeps => ({
  kube: h.kube,
  provider: fake,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
  ...extra,
});
const locked: RunOptions = { lockNamespace: NS, holder: 'inv-1', lockSeconds: 30, lockWaitMs: 0 };
const mcsRequest: ReconcileRequest = {
  controller: 'multiclusterservice',
  namespace: 'default',
  name: 'serve',
};
const leases = async () => (await h.kube.list(Resources.Lease, { namespace: NS })).items;
const leasePosts = () => h.api.requests.count('POST', `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`);

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
  fake = h.runtime.provider as FakeProvider;
  await h.seed([...baseObjects(), serveMultiClusterService(), minimalIngress()]);
});
afterEach(async () => h.close());

describe('runRequest', () => {
  it('dispatches each controller to its reconciler', async () => {
    const results = [];
    for (const controller of [
      'multiclusterservice',
      'multiclusteringress',
      'mci-service-locations',
      'serviceexport-propagation',
      'crd-installation',
    ] as const) {
      const name =
        controller === 'multiclusteringress' || controller === 'mci-service-locations'
          ? 'minimal-ingress'
          : 'serve';
      const r = await runRequest(deps(), { controller, namespace: 'default', name }, locked);
      results.push([r.controller, r.key]);
    }
    expect(results.map(([c]) => c)).toEqual([
      'multiclusterservice',
      'multiclusteringress',
      'mci-service-locations',
      'serviceexport-propagation',
      'crd-installation',
    ]);
    expect(fake.calls.map((c) => `${c.method} ${c.kind}`)).toEqual([
      'get mcs',
      'create mcs',
      'get mci',
      'create mci',
    ]);
  });

  it('the MultiClusterIngress gets traffic blocking as its prepare step unless the options give another', async () => {
    const MCI = Resources.MultiClusterIngress;
    type Mci = KubeObject & { status?: Record<string, unknown> };
    const stored = (await h.kube.get<Mci>(MCI, 'default', 'minimal-ingress'))!;
    await h.kube.updateStatus(MCI, { ...stored, status: { trafficBlockClusters: ['gone-cluster'] } });
    await runRequest(
      deps(),
      { controller: 'multiclusteringress', namespace: 'default', name: 'minimal-ingress' },
      locked,
    );
    // no service locations: nothing is blocked any more, and the stale list is cleared
    expect((await h.kube.get<Mci>(MCI, 'default', 'minimal-ingress'))?.status).not.toHaveProperty(
      'trafficBlockClusters',
    );

    const seen: string[] = [];
    await runRequest(
      deps(),
      { controller: 'multiclusteringress', namespace: 'default', name: 'minimal-ingress' },
      { ...locked, mci: { prepare: async (_d, m) => (seen.push(m.metadata.name ?? ''), m) } },
    );
    expect(seen).toEqual(['minimal-ingress']);
  });

  it('holds the Lease while the controller runs and releases it afterwards', async () => {
    let during: string[] = [];
    const spying: KubeClient = Object.create(h.kube);
    spying.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      if (args[0] === Resources.MultiClusterService)
        during = (await leases()).map((l) => l.metadata.name ?? '');
      return h.kube.get<T>(...args);
    };
    const res = await runRequest(deps({ kube: spying }), mcsRequest, locked);
    expect(res.outcome).toBe('created');
    expect(during).toEqual([lockName(requestKey(mcsRequest))]);
    expect(await leases()).toEqual([]);
  });

  it('takes no Lease without a lock namespace', async () => {
    const res = await runRequest(deps(), mcsRequest, { holder: 'inv-1', lockSeconds: 30 });
    expect(res.outcome).toBe('created');
    expect(leasePosts()).toBe(0);
  });

  it('a held lock → RetryLaterError, the controller not run', async () => {
    await acquireLock(h.kube, requestKey(mcsRequest), {
      namespace: NS,
      holder: 'other',
      durationSeconds: 30,
    });
    await expect(runRequest(deps(), mcsRequest, locked)).rejects.toThrow('is being reconciled by other');
    expect(fake.calls).toEqual([]);
  });

  it.each([
    // Another process's holder: its own API client, met only through the Lease (looked at again).
    ['in another process, polling its Lease', () => Object.create(h.kube) as KubeClient, true],
    // The holder's create and the waiter's, once: no refused look while it waited.
    ['in this process, without looking at the Lease until it is released', () => h.kube, false],
  ])('without lockWaitMs it waits a while for a holder %s', async (_, holderKube, polls) => {
    const held = await acquireLock(holderKube(), requestKey(mcsRequest), {
      namespace: NS,
      holder: 'other',
      durationSeconds: 30,
    });
    setTimeout(() => void held.release(), 300);
    const res = await runRequest(deps(), mcsRequest, { lockNamespace: NS, holder: 'inv-2', lockSeconds: 30 });
    expect(res.outcome).toBe('created');
    if (polls) expect(leasePosts()).toBeGreaterThan(2);
    else expect(leasePosts()).toBe(2);
  });

  it('releases the Lease when the controller fails', async () => {
    fake.failNext('create');
    await expect(runRequest(deps(), mcsRequest, locked)).rejects.toThrow('injected failure of create');
    expect(await leases()).toEqual([]);
  });

  it('a Lease taken over meanwhile is left to its new holder without a warning; other release failures are logged', async () => {
    const takeover: KubeClient = Object.create(h.kube);
    takeover.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      if (args[0] === Resources.MultiClusterService) {
        // our Lease expires and another invocation takes it over
        await acquireLock(h.kube, requestKey(mcsRequest), {
          namespace: NS,
          holder: 'later',
          durationSeconds: 30,
          now: () => new Date(Date.now() + 60_000),
        });
      }
      return h.kube.get<T>(...args);
    };
    await runRequest(deps({ kube: takeover }), mcsRequest, locked);
    expect(
      (await leases()).map(
        (l) => (l as KubeObject & { spec: { holderIdentity: string } }).spec.holderIdentity,
      ),
    ).toEqual(['later']);
    expect(h.logger.lines.filter((l) => l.message === 'could not release reconcile lock')).toEqual([]);

    await h.kube.delete(Resources.Lease, NS, lockName(requestKey(mcsRequest)));
    const failing: KubeClient = Object.create(h.kube);
    failing.delete = () => Promise.reject(new Error('connection reset'));
    const res = await runRequest(deps({ kube: failing }), mcsRequest, locked);
    expect(res.outcome).toBe('updated');
    expect(h.logger.lines.filter((l) => l.message === 'could not release reconcile lock')).toHaveLength(1);
  });
});

describe('listInScope', () => {
  const svc = (namespace: string, name: string): KubeObject & { spec: unknown } => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace, name },
    spec: { ports: [{ port: 80 }] },
  });

  beforeEach(async () => {
    await h.seed(
      ['team-a', 'team-b', 'team-c'].map((name) => ({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      })),
    );
    await h.seed([svc('team-a', 'a1'), svc('team-b', 'b1'), svc('team-c', 'c1')]);
  });

  const names = (items: KubeObject[]) =>
    items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort();

  it('lists cluster-wide when no namespaces are set (or none are listed)', async () => {
    for (const namespaces of [undefined, []]) {
      h.api.requests.reset();
      const { items } = await listInScope(
        { kube: h.kube, ...(namespaces ? { namespaces } : {}) },
        Resources.Service,
      );
      expect(names(items)).toEqual(expect.arrayContaining(['team-a/a1', 'team-b/b1', 'team-c/c1']));
      expect(h.api.requests.entries.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /api/v1/services']);
    }
  });

  it('lists each allowed namespace once and nothing else', async () => {
    h.api.requests.reset();
    const { items } = await listInScope(
      { kube: h.kube, namespaces: ['team-a', 'team-c'] },
      Resources.Service,
    );
    expect(names(items)).toEqual(['team-a/a1', 'team-c/c1']);
    expect(h.api.requests.entries.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /api/v1/namespaces/team-a/services',
      'GET /api/v1/namespaces/team-c/services',
    ]);
  });
});
