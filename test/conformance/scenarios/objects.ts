/**
 * The Karmada objects of the scenarios, built from the project's own fixtures (dev/local/scenario.ts,
 * test/fixtures/aws/objects.ts), and the steps every scenario takes: reconcile until AWS holds
 * still, a no-op reconcile, a resync (the fingerprint pass, then every object's deep check).
 */
import { expect } from 'vitest';
import { cluster, ingressClass } from '../../../dev/local/scenario.js';
import type {
  HTTPIngressPath,
  IngressRule,
  MultiClusterIngress,
  MultiClusterService,
} from '../../../lib/karmada/types.js';
import { Resources } from '../../../lib/kube/resources.js';
import type { KubeObject } from '../../../lib/kube/types.js';
import { MemoryLogger } from '../../../lib/log/logger.js';
import { resyncPass } from '../../../lib/maintenance/resync.js';
import { normalizeNotification } from '../../../lib/notification/parse.js';
import type { ChangeNotification } from '../../../lib/notification/types.js';
import { collectedSlice, path, service } from '../../fixtures/aws/objects.js';
import { notify } from '../../support/harness.js';
import type { World } from '../support/world.js';

export { path };

/** What every scenario's API server holds besides its own objects. */
export function basics(): KubeObject[] {
  return [ingressClass(), cluster('member1'), cluster('member2')];
}

export function svc(name: string, port = 80, targetPort = 8080, protocol: 'TCP' | 'UDP' = 'TCP'): KubeObject {
  return service(name, [{ name: 'http', port, targetPort, protocol }]) as unknown as KubeObject;
}

/** A slice as Karmada collects it from `member`; `zone` is each endpoint's (`zone` in EndpointSlice). */
export function slice(member: string, svcName: string, addresses: string[], zone?: string): KubeObject {
  const s = collectedSlice(member, svcName, { addresses }) as unknown as {
    endpoints: Array<Record<string, unknown>>;
  };
  if (zone) for (const e of s.endpoints) e.zone = zone;
  return s as unknown as KubeObject;
}

export function mci(
  name: string,
  rules: IngressRule[],
  annotations: Record<string, string> = {},
  extra: Partial<MultiClusterIngress['spec']> = {},
): KubeObject {
  const o: MultiClusterIngress = {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace: 'default', annotations },
    spec: { rules, ...extra },
  };
  return o as unknown as KubeObject;
}

export const rule = (host: string | undefined, ...paths: HTTPIngressPath[]): IngressRule => ({
  ...(host ? { host } : {}),
  http: { paths },
});

export function mcs(
  name: string,
  annotations: Record<string, string> = {},
  ports = [{ port: 80 }],
): KubeObject {
  const o: MultiClusterService = {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name, namespace: 'default', annotations },
    spec: { types: ['LoadBalancer'], ports } as MultiClusterService['spec'],
  };
  return o as unknown as KubeObject;
}

const typeOf = (o: KubeObject) => {
  const kind = o.kind;
  if (kind === 'MultiClusterIngress') return Resources.MultiClusterIngress;
  if (kind === 'MultiClusterService') return Resources.MultiClusterService;
  if (kind === 'EndpointSlice') return Resources.EndpointSlice;
  if (kind === 'Service') return Resources.Service;
  throw new Error(`no resource type for ${kind}`);
};

/** Changes an object in the API server (the latest version), as `kubectl edit` does. */
export async function edit(w: World, o: KubeObject, change: (o: KubeObject) => void): Promise<KubeObject> {
  const type = typeOf(o);
  const current = await w.h.kube.get<KubeObject>(type, o.metadata.namespace, o.metadata.name!);
  if (!current) throw new Error(`${o.kind} ${o.metadata.name} is not in the API server`);
  const next = structuredClone(current);
  change(next);
  return w.h.kube.update<KubeObject>(type, next);
}

export async function remove(w: World, o: KubeObject): Promise<void> {
  await w.h.kube.delete(typeOf(o), o.metadata.namespace, o.metadata.name!);
}

/** Whether the object is still in the API server (a finalizer holds it until its load balancer is gone). */
export async function exists(w: World, o: KubeObject): Promise<boolean> {
  return (await w.h.kube.get(typeOf(o), o.metadata.namespace, o.metadata.name!)) !== undefined;
}

/** The object's `status.loadBalancer.ingress` hostnames. */
export async function hostnames(w: World, o: KubeObject): Promise<string[]> {
  const got = await w.h.kube.get<
    KubeObject & { status?: { loadBalancer?: { ingress?: Array<{ hostname?: string }> } } }
  >(typeOf(o), o.metadata.namespace, o.metadata.name!);
  return (got?.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname ?? '');
}

/** The mutating calls a step made, as `service:Action`, in order. */
export function changes(w: World): string[] {
  return w
    .mutatingCalls()
    .map((c) => `${c.service === 'elasticloadbalancing' ? 'elbv2' : c.service}:${c.action}`);
}

/**
 * A notification for each object once more (nothing changed since), then the scheduled resync: its
 * fingerprint pass over every object and a deep check of each (the notifications it sends,
 * delivered). Neither may make a single call that changes AWS.
 */
export async function expectNoOpAndResync(
  w: World,
  objects: KubeObject[],
  /**
   * What the first resync changes, when it is not nothing: only where a target answers otherwise
   * than AWS (a row of test/conformance/README.md); the second must then change nothing.
   */
  firstResync: string[] = [],
): Promise<void> {
  w.resetCalls();
  const results = await w.h.deliver(...objects.map((o) => notify(o, 'modified')));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  expect(changes(w), 'a reconcile of unchanged objects').toEqual([]);
  await expectResync(w, objects, firstResync);
  if (firstResync.length > 0) await expectResync(w, objects, []);
}

async function expectResync(w: World, objects: KubeObject[], expected: string[]): Promise<void> {
  w.resetCalls();
  const sent: ChangeNotification[] = [];
  const period = 600_000;
  const pass = await resyncPass(
    w.h.kube,
    w.h.runtime.provider,
    { send: async (batch) => (sent.push(...batch), { failed: [] }) },
    new MemoryLogger(),
    {
      providerIngressClass: 'karmada.io/fake',
      ctx: { signal: new AbortController().signal, logger: new MemoryLogger() },
      // One slot per interval: every object gets its deep check in this run.
      deep: { intervalMs: period, periodMs: period },
      now: new Date(0),
    },
  );
  expect(pass).toMatchObject({ differing: 0, failed: 0 });
  const delivered = await w.h.deliver(
    ...sent.map((n) => normalizeNotification(JSON.parse(JSON.stringify(n)))),
  );
  expect(delivered.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  expect(
    sent.filter((n) => n.change === 'resync' && n.ref.kind.startsWith('MultiCluster')).length,
    'deep checks',
  ).toBe(objects.length);
  // Objects are checked concurrently: which call comes first is not the point.
  expect(changes(w).sort(), 'the resync').toEqual([...expected].sort());
}
