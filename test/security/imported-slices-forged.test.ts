/**
 * A tenant who may create EndpointSlices in its namespace can write one with everything a slice
 * Karmada collected carries: the `imported-<cluster>-` name, the `derived-<svc>` label and the
 * `work.karmada.io/*` annotations and labels. Only the Work in the cluster's execution namespace
 * (`karmada-es-<cluster>`, which tenants cannot write) tells them apart: a slice becomes targets
 * only when the Work it names exists and names it back (the Service's namespace and name, the
 * permanent ID, and a member EndpointSlice the slice's name derives from). Anything else is left
 * out, with a log line and a Warning Event on the object, and never counted as endpoints.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { karmadaCollected } from '../../dev/local/karmada-collection.js';
import { awsConfigFor, seed } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { KubeApiError, type KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { readIngressInputs, readServiceInputs } from '../../lib/providers/aws/inputs.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

type Obj = KubeObject & { metadata: Required<Pick<KubeObject['metadata'], 'name'>> & KubeObject['metadata'] };

let api: KubeApiServer;
let kube: KubeClient;

/** The genuine pair for `cluster`: the Work Karmada wrote and the slice it derived. */
function genuine(clusterName: string, addresses: string[], service = 'serve') {
  const c = karmadaCollected(collectedSlice(clusterName, addresses, service));
  if (!c) throw new Error('not a derived slice');
  return c;
}

/** `slice` with its metadata changed: what a tenant can write in its own namespace. */
function forge(slice: KubeObject, change: (m: Obj['metadata']) => void, addresses: string[]): KubeObject {
  const copy = structuredClone(slice) as Obj & { endpoints: unknown[] };
  change(copy.metadata);
  copy.endpoints = addresses.map((a) => ({ addresses: [a], conditions: { ready: true } }));
  return copy;
}

const a1 = genuine('member1', ['10.1.0.11']);
const other = genuine('member1', ['10.1.0.77'], 'other');
const elsewhere = (() => {
  const s = collectedSlice('member1', ['10.1.0.88']);
  return karmadaCollected({
    ...s,
    metadata: { ...s.metadata, namespace: 'team-b', name: 'imported-member1-serve-q8w7e' },
  })!;
})();
// A member2 slice whose Work Karmada wrote, but whose derived slice it has not written.
const underived = (() => {
  const s = collectedSlice('member2', ['10.2.0.55']);
  return karmadaCollected({ ...s, metadata: { ...s.metadata, name: 'imported-member2-serve-x1y2z' } })!;
})();
// A Work of the same execution namespace that carries something else (here a ConfigMap).
const unrelatedWork = {
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: {
    name: 'app-config-4xk2b',
    namespace: 'karmada-es-member1',
    labels: { 'work.karmada.io/permanent-id': 'c0ffee00-0000-4000-8000-000000000000' },
  },
  spec: {
    workload: {
      manifests: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'app-config', namespace: 'default' },
          data: { password: 'do-not-leak' },
        },
      ],
    },
  },
} as KubeObject;

const addresses = (slices: Array<{ endpoints?: Array<{ addresses: string[] }> }>) =>
  slices.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();

/** Every forgery, by what it gets wrong; each lists one address that must never become a target. */
const forgeries: Array<[string, KubeObject]> = [
  // Every annotation and label Karmada writes, but a Work that does not exist.
  [
    'names a Work that does not exist',
    forge(
      a1.slice,
      (m) => {
        m.name = 'imported-member1-serve-forged';
        m.annotations!['work.karmada.io/name'] = 'serve-forged-zzzzz';
      },
      ['10.9.9.1'],
    ),
  ],
  // The genuine slice's Work, but a slice name that Work's manifest does not derive.
  [
    'names a real Work that holds another member slice',
    forge(a1.slice, (m) => (m.name = 'imported-member1-serve-evil'), ['10.9.9.2']),
  ],
  // The Work of another Service's slice, with the name it derives, labelled for `serve`.
  [
    'names the Work of another Service',
    forge(other.slice, (m) => (m.labels!['kubernetes.io/service-name'] = 'derived-serve'), ['10.9.9.3']),
  ],
  // The Work of the same Service in another namespace.
  [
    'names the Work of another namespace',
    forge(elsewhere.slice, (m) => (m.namespace = 'default'), ['10.9.9.4']),
  ],
  // A Work that is not an EndpointSlice's at all.
  [
    'names a Work that is not an EndpointSlice export',
    forge(
      a1.slice,
      (m) => {
        m.name = 'imported-member1-app-config';
        m.annotations!['work.karmada.io/name'] = 'app-config-4xk2b';
        m.labels!['work.karmada.io/permanent-id'] = 'c0ffee00-0000-4000-8000-000000000000';
      },
      ['10.9.9.5'],
    ),
  ],
  // A Work whose derived slice is not there (yet), named by a slice with another permanent ID.
  [
    'carries another permanent ID than its Work',
    forge(
      underived.slice,
      (m) => (m.labels!['work.karmada.io/permanent-id'] = '00000000-0000-4000-8000-000000000000'),
      ['10.9.9.6'],
    ),
  ],
];
const FORGED = addresses(
  forgeries.map(([, s]) => s as unknown as { endpoints: Array<{ addresses: string[] }> }),
);

const defaultBackend = () =>
  ({
    ...minimalIngress(),
    spec: { defaultBackend: { service: { name: 'serve', port: { number: 80 } } } },
  }) as unknown as MultiClusterIngress;

async function createAll(client: KubeClient, objects: KubeObject[]) {
  for (const o of objects) {
    const type =
      o.kind === 'Work'
        ? Resources.Work
        : o.kind === 'Namespace'
          ? Resources.Namespace
          : Resources.EndpointSlice;
    if (await client.get(type, o.metadata.namespace, o.metadata.name ?? '')) continue;
    await client.create(type, o);
  }
}

beforeAll(async () => {
  api = await startKubeApiServer({ inProcess: true, namespaces: ['default', 'team-b', 'karmada-system'] });
  kube = createKubeClient(
    loadKubeConfig({ file: api.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'forged-')), 'k')) }),
    { transport: api.transport! },
  );
  await seed(kube, [serveService()]);
  const m2 = genuine('member2', ['10.2.0.21']);
  // What Karmada wrote: execution namespaces, Works, and the slices derived from them.
  await createAll(kube, [
    a1.namespace,
    genuine('member2', []).namespace,
    a1.work,
    a1.slice,
    m2.work,
    m2.slice,
    other.work,
    elsewhere.work,
    underived.work,
    unrelatedWork,
  ]);
  // What a tenant wrote in `default`.
  await createAll(
    kube,
    forgeries.map(([, s]) => s),
  );
});
afterAll(async () => api?.close());

describe('a slice counts only when the Work it names, in karmada-es-<cluster>, names it back', () => {
  it('the readers keep Karmada’s slices and leave every forgery out', async () => {
    const ignored: Array<[string, string]> = [];
    const mcs = await readServiceInputs(kube, serveMultiClusterService() as MultiClusterService, (s, why) => {
      ignored.push([s.metadata.name ?? '', why]);
    });
    expect(addresses(mcs.endpointSlices)).toEqual(['10.1.0.11', '10.2.0.21']);
    const ingress = await readIngressInputs(kube, defaultBackend());
    expect(addresses(ingress.endpointSlices)).toEqual(['10.1.0.11', '10.2.0.21']);
    // Each forgery is told, once, with why.
    expect(ignored.map(([name]) => name).sort()).toEqual(forgeries.map(([, s]) => s.metadata.name).sort());
    for (const [, why] of ignored) expect(why).not.toContain('do-not-leak');
  });

  it.each(forgeries)('a slice that %s is left out', async (_what, slice) => {
    const ignored: string[] = [];
    const mcs = await readServiceInputs(kube, serveMultiClusterService() as MultiClusterService, (s, why) => {
      if (s.metadata.name === slice.metadata.name) ignored.push(why);
    });
    expect(mcs.endpointSlices.map((s) => s.metadata.name)).not.toContain(slice.metadata.name);
    expect(ignored).toHaveLength(1);
  });

  it('a Work that cannot be read fails the read instead of dropping the endpoints', async () => {
    const denied: KubeClient = {
      ...kube,
      get: (type, namespace, name) =>
        type.kind === 'Work'
          ? Promise.reject(new KubeApiError('works is forbidden', 403, 'Forbidden'))
          : kube.get(type, namespace, name),
      list: (type, options) => kube.list(type, options),
    };
    await expect(
      readServiceInputs(denied, serveMultiClusterService() as MultiClusterService),
    ).rejects.toThrow(/forbidden/);
  });
});

describe('end to end: the load balancer gets Karmada’s endpoints only, and the object is told', () => {
  let sim: Elbv2Simulator;
  let h: Harness;
  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    sim = await startElbv2Simulator({ inProcess: true });
    h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: awsConfigFor(sim) });
    await h.seed([ingressClass(), cluster('member1'), cluster('member2'), serveService(), resourceBinding()]);
    await h.seed([collectedSlice('member1', ['10.0.128.11']), collectedSlice('member2', ['10.0.144.21'])]);
    // A forged slice in the tenant's namespace with one of the VPC's private addresses.
    const [, forged] = forgeries[0]!;
    const inVpc = forge(forged, () => undefined, ['10.0.128.99']);
    await h.kube.create(Resources.EndpointSlice, inVpc);
    await h.seed([minimalIngress()]);
    const results = await h.deliver(notify(minimalIngress(), 'added'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await sim?.close();
  });

  it('the target group holds the collected endpoints, not the forged one', () => {
    const targets = sim
      .snapshot()
      .targets.map((t) => t.Id)
      .sort();
    expect(targets).toEqual(['10.0.128.11', '10.0.144.21']);
    for (const a of [...FORGED, '10.0.128.99']) expect(targets).not.toContain(a);
  });

  it('a Warning Event on the object names the slice, and a log line says why', async () => {
    const events = await h.kube.list<KubeObject & { reason: string; message: string; type: string }>(
      Resources.Event,
      { namespace: 'default' },
    );
    const ignored = events.items.filter((e) => e.reason === 'EndpointSliceIgnored');
    expect(ignored.map((e) => e.type)).toEqual(['Warning']);
    expect(ignored[0]?.message).toContain('imported-member1-serve-forged');
    expect(ignored[0]?.message).toContain('does not exist');
    expect(
      h.logger.lines.some(
        (l) =>
          l.message.startsWith('EndpointSlice left out') &&
          l.fields.slice === 'default/imported-member1-serve-forged',
      ),
    ).toBe(true);
  });
});
