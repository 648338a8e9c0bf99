/**
 * IngressGroups within ALLOWED_NAMESPACES: the functions' identity is bound per namespace
 * (infra/functions-rbac/per-namespace), so the group's membership, which must see every namespace
 * naming the group, is read with one LIST per allowed namespace and never cluster-wide (which
 * kube-apiserver would refuse with 403), and still finds the namespace the group belongs to.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { collectedSlice, ingressClass, minimalIngress, serveService } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const GROUP = 'alb.ingress.kubernetes.io/group.name';
const MCIS = '/apis/networking.karmada.io/v1alpha1/multiclusteringresses';
let sim: Elbv2Simulator;
let h: Harness;

function member(namespace: string, name: string, created: string): KubeObject {
  const base = minimalIngress(name) as MultiClusterIngress;
  return {
    ...base,
    metadata: { ...base.metadata, namespace, annotations: { [GROUP]: 'web' }, creationTimestamp: created },
  } as KubeObject;
}

const inNamespace = (obj: KubeObject, namespace: string) =>
  ({ ...obj, metadata: { ...obj.metadata, namespace } }) as KubeObject;

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim),
    runtime: { allowedNamespaces: ['default', 'team-b'] },
  });
  await h.seed([
    ingressClass(),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } } as KubeObject,
    ...['default', 'team-b'].flatMap((ns) => [
      inNamespace(serveService(), ns),
      inNamespace(collectedSlice('member1', ['10.1.0.11']), ns),
    ]),
  ]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('IngressGroups within ALLOWED_NAMESPACES', () => {
  it('lists members per allowed namespace, never cluster-wide, and the first namespace keeps the group', async () => {
    const first = member('team-b', 'first', '2026-01-01T00:00:00Z');
    const later = member('default', 'later', '2026-06-01T00:00:00Z');
    await h.seed([first, later]);
    h.api.requests.reset();
    for (let i = 0; i < 2; i++) {
      const results = await h.deliver(notify(first, 'modified'), notify(later, 'modified'));
      expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    }
    const mciLists = h.api.requests.entries.filter(
      (r) => r.method === 'GET' && r.path.endsWith('/multiclusteringresses'),
    );
    expect(mciLists.length).toBeGreaterThan(0);
    expect(mciLists.filter((r) => r.path === MCIS)).toEqual([]);
    expect(new Set(mciLists.map((r) => r.path))).toEqual(
      new Set(
        ['default', 'team-b'].map(
          (ns) => `/apis/networking.karmada.io/v1alpha1/namespaces/${ns}/multiclusteringresses`,
        ),
      ),
    );

    // team-b was there first: its member is served by the group's ALB, default's is refused.
    const read = (ns: string, name: string) =>
      h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, ns, name);
    expect((await read('team-b', 'first'))?.status?.loadBalancer?.ingress?.[0]?.hostname).toBeDefined();
    const refused = JSON.parse(
      (await read('default', 'later'))?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '{}',
    );
    expect(refused).toMatchObject({ status: 'False', reason: 'IngressGroupNotShared' });
    expect(refused.message).toContain('belongs to namespace team-b');
    expect(sim.snapshot().loadBalancers).toHaveLength(1);
  });
});
