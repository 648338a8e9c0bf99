/**
 * What the shared lifecycle (lib/reconcile/lifecycle.ts) leaves on the objects on its failure and
 * edge paths, read back from the Kubernetes API stand-in: the Events' reasons and messages, the
 * LoadBalancerReady condition (annotation on a MultiClusterIngress, status.conditions on a
 * MultiClusterService), the status subresource, the finalizer, and the results the batch reports.
 * The provider is the fake provider; where a path needs a provider answer the fake never gives
 * (no status yet, a throttled or misconfigured provider, an announced replacement), its balancer
 * is wrapped to give it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { ProviderConfigError, RetryLaterError } from '../../lib/errors.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../lib/karmada/constants.js';
import type { Condition, MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { Balancer, MultiClusterProvider, ProviderContext } from '../../lib/provider/contract.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { reconcileMultiClusterIngress } from '../../lib/reconcile/mci.js';
import { reconcileMultiClusterService } from '../../lib/reconcile/mcs.js';
import { NEXT_STEPS } from '../../lib/reconcile/next-steps.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { edit, notify, startHarness, type Harness } from '../support/harness.js';

const MCI = Resources.MultiClusterIngress;
const MCS = Resources.MultiClusterService;
const mciRef = minimalIngress();
const mcsRef = serveMultiClusterService();

let h: Harness;
let fake: FakeProvider;

const getMci = () => h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress');
const getMcs = () => h.kube.get<MultiClusterService>(MCS, 'default', 'serve');

async function events(name: string) {
  const list = await h.kube.list<
    KubeObject & { involvedObject: { name: string }; reason: string; message: string; type: string }
  >(Resources.Event, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject.name === name)
    .map((e) => ({ type: e.type, reason: e.reason, message: e.message }));
}

function mciCondition(mci: MultiClusterIngress | undefined): Condition | undefined {
  const raw = mci?.metadata.annotations?.[CONDITION_ANNOTATION];
  return raw ? (JSON.parse(raw) as Condition) : undefined;
}

function mcsCondition(mcs: MultiClusterService | undefined): Condition | undefined {
  return mcs?.status?.conditions?.find((c) => c.type === 'LoadBalancerReady');
}

type AnyBalancer = Balancer<KubeObject, unknown>;

/**
 * The harness's fake provider with its balancers' methods replaced where `override` says; what
 * each call saw of the context is kept in `seen`.
 */
function wrapped(override: Partial<AnyBalancer>): {
  provider: MultiClusterProvider;
  seen: ProviderContext[];
} {
  const seen: ProviderContext[] = [];
  const wrap = (b: AnyBalancer): AnyBalancer => {
    const pick = <K extends keyof AnyBalancer>(k: K): AnyBalancer[K] =>
      ((ctx: ProviderContext, obj: KubeObject) => {
        seen.push(ctx);
        return (override[k] ?? b[k]).call(b, ctx, obj);
      }) as AnyBalancer[K];
    return {
      get: pick('get'),
      ensure: pick('ensure'),
      update: pick('update'),
      ensureDeleted: pick('ensureDeleted'),
    };
  };
  const provider: MultiClusterProvider = {
    loadBalancer: () => wrap(fake.loadBalancer() as unknown as AnyBalancer) as never,
    mcsLoadBalancer: () => wrap(fake.mcsLoadBalancer() as unknown as AnyBalancer) as never,
    providerName: () => 'fake',
    inventory: () => undefined,
    targetGroupInventory: () => undefined,
    fingerprints: () => undefined,
  };
  return { provider, seen };
}

function deps(provider: MultiClusterProvider, extra: Partial<ReconcileDeps> = {}): ReconcileDeps {
  return {
    kube: h.kube,
    provider,
    providerIngressClass: 'karmada.io/fake',
    events: h.runtime.events,
    logger: h.logger,
    signal: new AbortController().signal,
    ...extra,
  };
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true, controllers: ['multiclusteringress', 'multiclusterservice'] });
  fake = h.runtime.provider as FakeProvider;
  await h.seed([ingressClass(), cluster('member1'), serveService(), collectedSlice('member1', ['10.1.0.1'])]);
});
afterEach(async () => h.close());

describe('deleting', () => {
  it('a failed ensureDeleted → DeleteLoadBalancerFailed Event, the error reported, finalizer and object kept', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    fake.failNext('delete');
    const [res] = await h.deliver(notify(mciRef));
    expect(res).toMatchObject({
      ok: false,
      error: expect.stringContaining('injected failure of delete for mci default/minimal-ingress'),
    });
    const mci = await getMci();
    expect(mci?.metadata.finalizers).toContain(MCI_FINALIZER);
    expect((await fake.snapshot()).mci['default/minimal-ingress']).toBeDefined();
    const failed = (await events('minimal-ingress')).filter((e) => e.type === 'Warning');
    expect(failed).toEqual([
      {
        type: 'Warning',
        reason: 'DeleteLoadBalancerFailed',
        message: expect.stringMatching(
          /^Failed to delete load balancer: injected failure of delete for mci default\/minimal-ingress\. Next: it is retried automatically with backoff;/,
        ),
      },
    ]);

    // the next delivery deletes it
    const [again] = await h.deliver(notify(mciRef));
    expect(again).toMatchObject({ ok: true, results: [{ outcome: 'deleted', detail: 'being deleted' }] });
    expect(await getMci()).toBeUndefined();
  });

  it('the delete failure’s next step follows its cause (a provider configuration error)', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    const { provider } = wrapped({
      ensureDeleted: () => Promise.reject(new ProviderConfigError('no region configured')),
    });
    await expect(reconcileMultiClusterIngress(deps(provider), 'default', 'minimal-ingress')).rejects.toThrow(
      'no region configured',
    );
    expect((await events('minimal-ingress')).filter((e) => e.type === 'Warning')).toEqual([
      {
        type: 'Warning',
        reason: 'DeleteLoadBalancerFailed',
        message:
          'Failed to delete load balancer: no region configured. Next: fix the provider configuration (CLOUD_CONFIG) and redeploy; `osls package` validates it before deploying.',
      },
    ]);
  });

  it('an object being deleted → "Deleted load balancer", result detail "being deleted"', async () => {
    await h.seed([mcsRef]);
    await h.deliver(notify(mcsRef, 'added'));
    await h.kube.delete(MCS, 'default', 'serve');
    const [res] = await h.deliver(notify(mcsRef));
    expect(res?.results).toEqual([
      {
        controller: 'multiclusterservice',
        key: 'default/serve',
        outcome: 'deleted',
        detail: 'being deleted',
      },
    ]);
    expect((await events('serve')).filter((e) => e.reason === 'DeletedLoadBalancer')).toEqual([
      { type: 'Normal', reason: 'DeletedLoadBalancer', message: 'Deleted load balancer' },
    ]);
  });

  it('an object no longer ours → the Event and the result say why; finalizer and status go, conditions stay', async () => {
    await h.seed([mcsRef]);
    await h.deliver(notify(mcsRef, 'added'));
    expect(mcsCondition(await getMcs())).toMatchObject({ status: 'True' });
    await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
      m.spec.types = ['CrossCluster'];
    });
    const [res] = await h.deliver(notify(mcsRef));
    expect(res?.results).toEqual([
      {
        controller: 'multiclusterservice',
        key: 'default/serve',
        outcome: 'deleted',
        detail: 'spec.types does not contain LoadBalancer',
      },
    ]);
    expect((await events('serve')).filter((e) => e.reason === 'DeletedLoadBalancer')).toEqual([
      {
        type: 'Normal',
        reason: 'DeletedLoadBalancer',
        message: 'Deleted load balancer: spec.types does not contain LoadBalancer',
      },
    ]);
    const mcs = await getMcs();
    expect(mcs?.metadata.finalizers ?? []).not.toContain(MCS_FINALIZER);
    expect(mcs?.status?.loadBalancer).toBeUndefined();
  });

  it('an object without our finalizer that is no longer ours → ignored with its reason, no write', async () => {
    await h.seed([{ ...mcsRef, spec: { types: ['CrossCluster'] } } as KubeObject]);
    const before = await getMcs();
    const [res] = await h.deliver(notify(mcsRef));
    expect(res?.results).toEqual([
      {
        controller: 'multiclusterservice',
        key: 'default/serve',
        outcome: 'ignored',
        detail: 'spec.types does not contain LoadBalancer',
      },
    ]);
    expect((await getMcs())?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
    expect(await events('serve')).toEqual([]);
  });
});

describe('provider failures while ensuring', () => {
  it('MultiClusterService: SyncLoadBalancerFailed Event and a False condition in status, finalizer kept', async () => {
    await h.seed([mcsRef]);
    fake.failNext('create');
    const [res] = await h.deliver(notify(mcsRef, 'added'));
    expect(res).toMatchObject({ ok: false, error: expect.stringContaining('injected failure of create') });
    const message = expect.stringMatching(
      /^Failed to ensure load balancer: injected failure of create for mcs default\/serve\. Next: it is retried automatically with backoff;/,
    );
    expect(await events('serve')).toEqual([{ type: 'Warning', reason: 'SyncLoadBalancerFailed', message }]);
    const mcs = await getMcs();
    expect(mcs?.metadata.finalizers).toContain(MCS_FINALIZER);
    expect(mcs?.status?.loadBalancer).toBeUndefined();
    expect(mcsCondition(mcs)).toEqual({
      type: 'LoadBalancerReady',
      status: 'False',
      reason: 'SyncLoadBalancerFailed',
      message,
      observedGeneration: 1,
      lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
  });

  it('MultiClusterIngress: a failed update keeps the status and flips the annotation condition to False', async () => {
    await h.seed([mciRef]);
    await h.deliver(notify(mciRef, 'added'));
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.rules![0]!.http!.paths[0]!.path = '/other';
    });
    fake.failNext('update');
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.ok).toBe(false);
    const mci = await getMci();
    expect(mci?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    expect(mciCondition(mci)).toMatchObject({
      status: 'False',
      reason: 'SyncLoadBalancerFailed',
      message: expect.stringMatching(
        /^Failed to ensure load balancer: injected failure of update for mci default\/minimal-ingress\. Next: /,
      ),
      observedGeneration: 2,
    });
    expect((await events('minimal-ingress')).map((e) => e.reason).sort()).toEqual([
      'EnsuredLoadBalancer',
      'SyncLoadBalancerFailed',
    ]);

    // recovered: Updated (the path did change), the condition back to True, the address kept
    const [ok] = await h.deliver(notify(mciRef));
    expect(ok).toMatchObject({ ok: true, results: [{ outcome: 'updated' }] });
    expect(ok?.results[0]).not.toHaveProperty('detail');
    const after = await getMci();
    expect(after?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    expect(mciCondition(after)).toMatchObject({
      status: 'True',
      reason: 'LoadBalancerUpdated',
      message: 'Load balancer ready: 1.2.3.4',
      observedGeneration: 2,
    });
    expect(
      (await events('minimal-ingress')).find(
        (e) => e.type === 'Normal' && e.reason !== 'EnsuredLoadBalancer',
      ),
    ).toEqual({
      type: 'Normal',
      reason: 'UpdatedLoadBalancer',
      message: 'Updated load balancer: 1.2.3.4',
    });
  });

  it('a throttled provider → the condition’s reason is Throttled, the Event stays SyncLoadBalancerFailed', async () => {
    await h.seed([mcsRef]);
    const { provider } = wrapped({
      ensure: () =>
        Promise.reject(
          new RetryLaterError('ELBv2 throttled us', { reason: 'Throttled', retryAfterSeconds: 5 }),
        ),
    });
    await expect(reconcileMultiClusterService(deps(provider), 'default', 'serve')).rejects.toThrow(
      'ELBv2 throttled us',
    );
    expect((await events('serve')).map((e) => e.reason)).toEqual(['SyncLoadBalancerFailed']);
    expect(mcsCondition(await getMcs())).toMatchObject({
      status: 'False',
      reason: 'Throttled',
      message: expect.stringMatching(/^Failed to ensure load balancer: ELBv2 throttled us\. Next: /),
    });
  });

  it('what the provider adds through ctx.detail ends the ready condition’s message (once each)', async () => {
    await h.seed([mcsRef]);
    const { provider } = wrapped({
      ensure: (ctx) => {
        ctx.detail?.('cluster weights: serve:80 member1=95 member2=5');
        ctx.detail?.('cluster weights: serve:80 member1=95 member2=5');
        return Promise.resolve({ ingress: [{ ip: '1.2.3.4' }] });
      },
    });
    await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    expect(mcsCondition(await getMcs())).toMatchObject({
      status: 'True',
      message: 'Load balancer ready: 1.2.3.4; cluster weights: serve:80 member1=95 member2=5',
    });
  });

  it('the failure’s next step follows its cause (a provider configuration error)', async () => {
    await h.seed([mcsRef]);
    const { provider } = wrapped({ get: () => Promise.reject(new ProviderConfigError('bad subnets')) });
    await expect(reconcileMultiClusterService(deps(provider), 'default', 'serve')).rejects.toThrow(
      'bad subnets',
    );
    const message =
      'Failed to ensure load balancer: bad subnets. Next: fix the provider configuration (CLOUD_CONFIG) and redeploy; `osls package` validates it before deploying.';
    expect(await events('serve')).toEqual([{ type: 'Warning', reason: 'SyncLoadBalancerFailed', message }]);
    expect(mcsCondition(await getMcs())).toMatchObject({ reason: 'SyncLoadBalancerFailed', message });
  });

  it('a condition that cannot be written does not hide the provider’s error', async () => {
    await h.seed([mcsRef]);
    fake.failNext('create');
    // every status write conflicts: the condition write gives up after its retries
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.includes('/status') });
    const [res] = await h.deliver(notify(mcsRef, 'added'));
    expect(res).toMatchObject({ ok: false, error: expect.stringContaining('injected failure of create') });
    expect(h.api.injectedConflicts).toBe(5);
    expect(mcsCondition(await getMcs())).toBeUndefined();
    expect(h.logger.lines.some((l) => l.message === 'could not report the condition')).toBe(true);
  });
});

describe('what the provider is told and what it may announce', () => {
  it('the context says whether the trigger was a resync, false when not said', async () => {
    await h.seed([mcsRef]);
    const { provider, seen } = wrapped({});
    await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    await reconcileMultiClusterService(deps(provider, { resync: true }), 'default', 'serve');
    expect(seen.map((c) => c.resync)).toEqual([false, false, true, true]);
  });

  it('an announced replacement is a Warning Event with its next step, on the object', async () => {
    await h.seed([mciRef]);
    const { provider } = wrapped({
      ensure: async (ctx) => {
        await ctx.announce?.('ReplacingLoadBalancer', 'scheme changed from internal to internet-facing');
        return { ingress: [{ hostname: 'new.elb.example' }] };
      },
    });
    const res = await reconcileMultiClusterIngress(deps(provider), 'default', 'minimal-ingress');
    expect(res.outcome).toBe('created');
    const evs = await events('minimal-ingress');
    expect(evs).toHaveLength(2);
    expect(evs).toEqual(
      expect.arrayContaining([
        {
          type: 'Warning',
          reason: 'ReplacingLoadBalancer',
          message: `scheme changed from internal to internet-facing. Next: ${NEXT_STEPS.ReplacingLoadBalancer}.`,
        },
        { type: 'Normal', reason: 'EnsuredLoadBalancer', message: 'Created load balancer: new.elb.example' },
      ]),
    );
  });

  it('a Normal announcement is a Normal Event as told, without a next step', async () => {
    await h.seed([mciRef]);
    const { provider } = wrapped({
      ensure: async (ctx) => {
        await ctx.announce?.('ClusterRestored', 'cluster member1 restored', 'Normal');
        return { ingress: [{ hostname: 'new.elb.example' }] };
      },
    });
    await reconcileMultiClusterIngress(deps(provider), 'default', 'minimal-ingress');
    expect(await events('minimal-ingress')).toEqual(
      expect.arrayContaining([
        { type: 'Normal', reason: 'ClusterRestored', message: 'cluster member1 restored' },
      ]),
    );
  });
});

describe('a provider that reports no status yet', () => {
  it('created: the result and Event say so, the status is left as it is, the condition is True', async () => {
    await h.seed([mcsRef]);
    const kept = { ingress: [{ ip: '9.9.9.9' }] };
    await h.kube.updateStatus(MCS, { ...(await getMcs())!, status: { loadBalancer: kept } });
    const { provider } = wrapped({ ensure: () => Promise.resolve(undefined) });
    const res = await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    expect(res).toEqual({
      controller: 'multiclusterservice',
      key: 'default/serve',
      outcome: 'created',
      detail: 'provider reported no status',
    });
    expect(await events('serve')).toEqual([
      { type: 'Normal', reason: 'EnsuredLoadBalancer', message: 'Created load balancer' },
    ]);
    const mcs = await getMcs();
    expect(mcs?.status?.loadBalancer).toEqual(kept);
    expect(mcsCondition(mcs)).toMatchObject({
      status: 'True',
      reason: 'LoadBalancerCreated',
      message: 'Load balancer ready: no address yet',
    });
  });

  it('updated, nothing changed: no status write at all', async () => {
    await h.seed([mcsRef]);
    await h.deliver(notify(mcsRef, 'added'));
    const { provider } = wrapped({ update: () => Promise.resolve(undefined) });
    await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    const first = await getMcs();
    h.api.requests.reset();
    const res = await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    expect(res).toMatchObject({ outcome: 'updated', detail: 'provider reported no status' });
    expect(h.api.requests.entries.filter((r) => r.method === 'PUT')).toEqual([]);
    expect((await getMcs())?.metadata.resourceVersion).toBe(first?.metadata.resourceVersion);
  });
});

describe('writes that meet a concurrent writer', () => {
  it('the object vanishes between a 409 and the re-read → gone, and nothing is created', async () => {
    await h.seed([mcsRef]);
    h.api.injectConflicts({
      probability: 1,
      pathFilter: (p) => !p.includes('/status') && !p.includes('events'),
    });
    let reads = 0;
    const racing: KubeClient = Object.create(h.kube);
    racing.get = async (...args: Parameters<KubeClient['get']>) => {
      // the re-read after the conflict: another client deleted the object meanwhile
      if (args[0] === MCS && ++reads === 2) {
        h.api.injectConflicts(null);
        await h.kube.delete(MCS, 'default', 'serve');
      }
      return h.kube.get(...args);
    };
    const res = await reconcileMultiClusterService(deps(fake, { kube: racing }), 'default', 'serve');
    expect(res).toEqual({ controller: 'multiclusterservice', key: 'default/serve', outcome: 'gone' });
    expect(fake.calls).toEqual([]);
    expect(await getMcs()).toBeUndefined();
  });

  it('a conflicting finalizer write is re-read and re-applied onto the newer object', async () => {
    await h.seed([mcsRef]);
    let updates = 0;
    const racing: KubeClient = Object.create(h.kube);
    racing.update = async <T extends KubeObject>(...args: [ResourceType, T]): Promise<T> => {
      // someone else's label lands between our read and our first write: a real 409
      if (args[0] === MCS && ++updates === 1) {
        await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
          m.metadata.labels = { team: 'shop' };
        });
      }
      return h.kube.update(...args);
    };
    const res = await reconcileMultiClusterService(deps(fake, { kube: racing }), 'default', 'serve');
    expect(res.outcome).toBe('created');
    expect(updates).toBe(2);
    const mcs = await getMcs();
    expect(mcs?.metadata.labels).toEqual({ team: 'shop' });
    expect(mcs?.metadata.finalizers).toEqual([MCS_FINALIZER]);
    expect(mcs?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });
  it('the object is force-deleted and re-created under its name while the provider works → the new one gets nothing of the old one', async () => {
    await h.seed([mcsRef]);
    const ref = mcsRef as MultiClusterService;
    // Someone strips the finalizers and deletes the object the reconcile is serving, then creates a
    // new one of the same name that wants no load balancer (chaos seed 16 found this interleaving).
    const { provider } = wrapped({
      async ensure(ctx, obj) {
        const status = await fake.mcsLoadBalancer().ensure(ctx, obj as MultiClusterService);
        await edit<MultiClusterService>(h, MCS, 'default', 'serve', (m) => {
          m.metadata.finalizers = [];
        });
        await h.kube.delete(MCS, 'default', 'serve');
        await h.kube.create(MCS, { ...ref, spec: { ...ref.spec, types: ['CrossCluster'] } } as KubeObject);
        return status;
      },
    });
    const before = (await getMcs())!.metadata.uid;
    const res = await reconcileMultiClusterService(deps(provider), 'default', 'serve');
    expect(res.outcome).toBe('gone');
    const mcs = await getMcs();
    expect(mcs?.metadata.uid).not.toBe(before);
    expect(mcs?.metadata.finalizers).toBeUndefined();
    expect(mcs?.status?.loadBalancer).toBeUndefined();
    expect(mcs?.status?.conditions?.find((c) => c.type === 'LoadBalancerReady')).toBeUndefined();
  });
});

describe('what the kinds bring to the lifecycle', () => {
  it('a provider without MultiClusterIngress or MultiClusterService support → ignored, nothing read', async () => {
    const none: MultiClusterProvider = {
      ...wrapped({}).provider,
      loadBalancer: () => undefined,
      mcsLoadBalancer: () => undefined,
      providerName: () => 'dns-only',
    };
    h.api.requests.reset();
    expect(await reconcileMultiClusterIngress(deps(none), 'default', 'minimal-ingress')).toEqual({
      controller: 'multiclusteringress',
      key: 'default/minimal-ingress',
      outcome: 'ignored',
      detail: 'provider "dns-only" does not support MultiClusterIngress load balancers',
    });
    expect(await reconcileMultiClusterService(deps(none), 'default', 'serve')).toEqual({
      controller: 'multiclusterservice',
      key: 'default/serve',
      outcome: 'ignored',
      detail: 'provider "dns-only" does not support MultiClusterService load balancers',
    });
    expect(h.api.requests.entries).toEqual([]);
  });

  it('an invalid MultiClusterService → invalid, its reason on the Event and in status, no provider call', async () => {
    await h.seed([{ ...mcsRef, spec: { types: ['LoadBalancer'], ports: [{ port: 0 }] } } as KubeObject]);
    const res = await reconcileMultiClusterService(deps(fake), 'default', 'serve');
    expect(res).toMatchObject({ outcome: 'invalid', reason: expect.stringMatching(/^Invalid/) });
    expect(fake.calls).toEqual([]);
    expect((await events('serve')).map((e) => [e.type, e.reason])).toEqual([['Warning', res.reason]]);
    expect(mcsCondition(await getMcs())).toMatchObject({ status: 'False', reason: res.reason });
  });

  it('a MultiClusterService of type LoadBalancer → the result of its first pass', async () => {
    await h.seed([mcsRef]);
    expect(await reconcileMultiClusterService(deps(fake), 'default', 'serve')).toEqual({
      controller: 'multiclusterservice',
      key: 'default/serve',
      outcome: 'created',
    });
  });
});
