/**
 * Ownership-conflict Events are read by the tenant whose object conflicts, so they must not tell
 * one tenant about another: a resource held by an object of another namespace, or by another
 * deployment, is named only as "another object" (the other tenant's namespace, object name, stack
 * ID and owner stay in the operator's log). Only an object of the same namespace is named, and no
 * Event ever advises tagging someone else's resource as ours ("adopting" it).
 *
 * And the conflict is permanent until someone acts: the object is told (Event, condition), the
 * delivery succeeds (no retries with backoff into the dead-letter queue), and it is reconciled
 * again when it changes or at the resync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { resyncPass } from '../../lib/maintenance/resync.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const NAME_KEY = 'alb.ingress.kubernetes.io/load-balancer-name';
let sim: Elbv2Simulator;
let h: Harness;

function inNamespace<T extends KubeObject>(obj: T, namespace: string): T {
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

/** minimal-ingress as `<namespace>/<name>`, asking for the load balancer name `lbName`. */
function named(namespace: string, name: string, lbName: string): KubeObject {
  const mci = minimalIngress(name);
  return inNamespace(
    {
      ...mci,
      metadata: { ...mci.metadata, annotations: { ...mci.metadata.annotations, [NAME_KEY]: lbName } },
    },
    namespace,
  );
}

async function warnings(obj: KubeObject): Promise<Array<{ reason: string; message: string }>> {
  const events = await h.kube.list<KubeObject & { reason: string; message: string; type: string }>(
    Resources.Event,
    { namespace: obj.metadata.namespace ?? '' },
  );
  return events.items
    .filter((e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === obj.metadata.name)
    .filter((e) => e.type === 'Warning')
    .map((e) => ({ reason: e.reason, message: e.message }));
}

const first = named('team-a', 'first', 'shared-name');
const second = named('team-a', 'second', 'shared-name');
const third = named('team-b', 'third', 'shared-name');
const fourth = named('team-a', 'fourth', 'foreign-name');

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: awsConfigFor(sim) });
  for (const name of ['team-a', 'team-b']) {
    await h.kube.create(Resources.Namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const perNamespace = (ns: string) => [
    inNamespace(serveService(), ns),
    inNamespace(resourceBinding(), ns),
    inNamespace(collectedSlice('member1', ['10.1.0.11']), ns),
  ];
  await h.seed([ingressClass(), cluster('member1'), ...perNamespace('team-a'), ...perNamespace('team-b')]);
  // Another deployment's ALB, for a tenant of its own, under the name `fourth` asks for.
  const { subnets } = JSON.parse(awsConfigFor(sim)) as { subnets: string[] };
  sim.state.createLoadBalancer({
    Name: 'foreign-name',
    Subnets: subnets,
    Type: 'application',
    Scheme: 'internal',
    Tags: [
      { Key: 'multicluster.karmada.io/owner', Value: 'karmada-other' },
      { Key: 'multicluster.karmada.io/stack', Value: 'mci/tenant-x/secret-app' },
    ],
  });
  await h.seed([first, second, third, fourth]);
  const [served] = await h.deliver(notify(first, 'added'));
  expect(served).toMatchObject({
    ok: true,
    results: expect.arrayContaining([
      expect.objectContaining({ controller: 'multiclusteringress', outcome: 'created' }),
    ]),
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sim?.close();
});

describe('Ownership-conflict Events name no other tenant', () => {
  it('a name held by an object of the same namespace: the Event names that object, and advises no adoption', async () => {
    await h.deliver(notify(second, 'added'));
    const [event, ...more] = await warnings(second);
    expect(more).toEqual([]);
    expect(event?.message).toContain('MultiClusterIngress team-a/first');
    expect(event?.message).toContain('shared-name');
    expect(event?.message).not.toMatch(/adopt|tag it as ours/i);
    // The stack ID is the operator's word, not the tenant's.
    expect(event?.message).not.toContain('mci/team-a/first');
  });

  it('a name held by an object of another namespace: "another object", never its namespace or name', async () => {
    await h.deliver(notify(third, 'added'));
    const [event, ...more] = await warnings(third);
    expect(more).toEqual([]);
    expect(event?.message).toContain('shared-name');
    expect(event?.message).toMatch(/another object/);
    for (const secret of ['team-a', 'first', 'mci/']) expect(event?.message).not.toContain(secret);
    expect(event?.message).not.toMatch(/adopt|tag it as ours/i);
  });

  it('a name held by another deployment: neither its owner nor its stack is named', async () => {
    await h.deliver(notify(fourth, 'added'));
    const [event, ...more] = await warnings(fourth);
    expect(more).toEqual([]);
    expect(event?.message).toContain('foreign-name');
    for (const secret of ['karmada-other', 'tenant-x', 'secret-app', 'mci/'])
      expect(event?.message).not.toContain(secret);
    expect(event?.message).not.toMatch(/adopt|tag it as ours/i);
    // The operator's log keeps who holds it.
    const line = h.logger.lines.find(
      (l) => l.fields.key === 'team-a/fourth' && JSON.stringify(l.fields).includes('karmada-other'),
    );
    expect(line).toBeDefined();
  });
});

describe('An ownership conflict is permanent: told once, not retried with backoff', () => {
  it('the delivery succeeds (no redelivery), the outcome is invalid, the condition says why', async () => {
    for (const obj of [second, third, fourth]) {
      const [res] = await h.deliver(notify(obj, 'modified'));
      expect(res, `${obj.metadata.namespace}/${obj.metadata.name}`).toMatchObject({
        ok: true,
        results: expect.arrayContaining([
          expect.objectContaining({ controller: 'multiclusteringress', outcome: 'invalid' }),
        ]),
      });
      expect(res?.retryAfterSeconds).toBeUndefined();
    }
    const stored = await h.kube.get<KubeObject>(Resources.MultiClusterIngress, 'team-a', 'second');
    const condition = JSON.parse(
      stored?.metadata.annotations?.['multicluster.karmada.io/load-balancer-condition'] ?? '{}',
    ) as { status?: string; reason?: string };
    expect(condition).toMatchObject({ status: 'False', reason: 'LoadBalancerNameInUse' });
  });

  it('the resync reconciles it again, and once the name is free it is served', async () => {
    const logger = new MemoryLogger();
    const sent: ChangeNotification[] = [];
    await resyncPass(
      h.kube,
      h.runtime.provider,
      { send: async (batch) => (sent.push(...batch), { failed: [] }) },
      logger,
      {
        providerIngressClass: 'karmada.io/fake',
        ctx: { signal: new AbortController().signal, logger },
        deep: { intervalMs: 1000 * 600_000, periodMs: 600_000 },
        now: new Date(0),
      },
    );
    expect(sent.map((n) => `${n.ref.namespace}/${n.ref.name}`)).toEqual(
      expect.arrayContaining(['team-a/second', 'team-b/third', 'team-a/fourth']),
    );
    // `first` gives the name up (it takes another): `second` gets it at its next reconcile.
    const holder = await h.kube.get<KubeObject>(Resources.MultiClusterIngress, 'team-a', 'first');
    await h.kube.update(Resources.MultiClusterIngress, {
      ...holder!,
      metadata: {
        ...holder!.metadata,
        annotations: { ...holder!.metadata.annotations, [NAME_KEY]: 'first-own' },
      },
    });
    expect((await h.deliver(notify(first, 'modified')))[0]).toMatchObject({ ok: true });
    const [res] = await h.deliver(notify(second, 'modified'));
    expect(res).toMatchObject({
      ok: true,
      results: expect.arrayContaining([
        expect.objectContaining({ controller: 'multiclusteringress', outcome: 'created' }),
      ]),
    });
  });
});
