/**
 * IngressGroups end to end: processBatch with the AWS provider, against the ELBv2 simulator and
 * the Kubernetes API stand-in. A group shared by the tenant policy with two namespaces, three
 * members with different group.order (one with a conflicting scheme), a member in a namespace the
 * group is not shared with, and then join, leave, move and delete: each converges to exactly the
 * expected simulator state, with nothing left behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { collectedSlice, ingressClass, serveService } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { groupLockKey } from '../../lib/karmada/ingress-group.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { acquireLock } from '../../lib/reconcile/lock.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { GROUP_RECORD_OWNER_LABEL } from '../../lib/providers/aws/ingress-group-record.js';
import { edit, notify, notifyChange, ran, startHarness, type Harness } from '../support/harness.js';

const OWNER = 'multicluster.karmada.io/owner';
const STACK = 'multicluster.karmada.io/stack';
const GROUP = 'alb.ingress.kubernetes.io/group.name';
const ORDER = 'alb.ingress.kubernetes.io/group.order';
const SCHEME = 'alb.ingress.kubernetes.io/scheme';
let sim: Elbv2Simulator;
let h: Harness;

function inNamespace<T extends KubeObject>(obj: T, namespace: string): T {
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

function mci(
  namespace: string,
  name: string,
  annotations: Record<string, string>,
  paths: Array<[string, string]>,
) {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace, annotations },
    spec: {
      rules: [
        {
          http: {
            paths: paths.map(([path, pathType]) => ({
              path,
              pathType,
              backend: { service: { name: 'serve', port: { number: 80 } } },
            })),
          },
        },
      ],
    },
  } as KubeObject;
}

const namespaceOf = (name: string) =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) as KubeObject;

function owned() {
  const snap = sim.snapshot();
  const tags = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags]));
  const ours = (arn: string | undefined) => tags.get(arn ?? '')?.[OWNER] === 'local';
  const listenerOf = new Map(snap.listeners.map((l) => [l.ListenerArn, l]));
  return {
    loadBalancers: snap.loadBalancers
      .filter((lb) => ours(lb.LoadBalancerArn))
      .map((lb) => ({ ...lb, stack: tags.get(lb.LoadBalancerArn ?? '')?.[STACK] })),
    targetGroups: snap.targetGroups
      .filter((tg) => ours(tg.TargetGroupArn))
      .map((tg) => ({ ...tg, stack: tags.get(tg.TargetGroupArn ?? '')?.[STACK] })),
    /** `<lb stack> <port> <priority> <paths>` of every rule, sorted by load balancer, port, priority. */
    rules: snap.rules
      .filter((r) => !r.IsDefault && ours(r.RuleArn))
      .map((r) => {
        const listener = listenerOf.get(r.ListenerArn);
        const lbStack = tags.get(listener?.LoadBalancerArn ?? '')?.[STACK];
        const paths = r.Conditions?.find((c) => c.Field === 'path-pattern')?.Values ?? [];
        return { lbStack, port: listener?.Port ?? 0, priority: Number(r.Priority), paths: paths.join(' ') };
      })
      .sort(
        (a, b) => `${a.lbStack}`.localeCompare(`${b.lbStack}`) || a.port - b.port || a.priority - b.priority,
      )
      .map((r) => `${r.lbStack} ${r.port} ${r.priority} ${r.paths}`),
  };
}

async function settle(...objects: KubeObject[]) {
  for (let i = 0; i < 4; i++) {
    const results = await h.deliver(...objects.map((o) => notify(o, 'modified')));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

/** The stacks whose IngressGroup join records (ingress-group-record.ts) exist. */
async function joinRecords() {
  const list = await h.kube.list<KubeObject>(Resources.ConfigMap, {
    namespace: 'karmada-system',
    labelSelector: `${GROUP_RECORD_OWNER_LABEL}=local`,
  });
  return list.items.map((cm) => cm.metadata.annotations?.[STACK]).sort();
}

async function read(namespace: string, name: string) {
  return h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, namespace, name);
}

async function condition(namespace: string, name: string) {
  const raw = (await read(namespace, name))?.metadata.annotations?.[CONDITION_ANNOTATION];
  return raw ? (JSON.parse(raw) as { status: string; reason: string; message: string }) : undefined;
}

async function hostname(namespace: string, name: string) {
  return (await read(namespace, name))?.status?.loadBalancer?.ingress?.[0]?.hostname;
}

/** Edits an MCI's annotations and delivers the change as the forwarder would (both versions). */
async function annotate(namespace: string, name: string, change: (a: Record<string, string>) => void) {
  const [before, after] = await edit<MultiClusterIngress>(
    h,
    Resources.MultiClusterIngress,
    namespace,
    name,
    (o) => {
      o.metadata.annotations ??= {};
      change(o.metadata.annotations);
    },
  );
  const results = await h.deliver(notifyChange('modified', after, before));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
}

async function remove(namespace: string, name: string) {
  const before = await read(namespace, name);
  await h.kube.delete(Resources.MultiClusterIngress, namespace, name);
  const after = await read(namespace, name);
  const results = await h.deliver(notifyChange('modified', after ?? undefined, before ?? undefined));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
}

const SHARED = 'mci-group/_shared/shop';
const a = mci('default', 'a', {}, [['/a', 'Prefix']]);
// Earliest in group order; its scheme is the group's.
const b = mci('team-b', 'b', { [GROUP]: 'shop', [ORDER]: '-5', [SCHEME]: 'internal' }, [
  ['/b', 'Prefix'],
  ['/b-exact', 'Exact'],
]);
const c = mci('default', 'c', { [GROUP]: 'shop', [ORDER]: '20', [SCHEME]: 'internet-facing' }, [
  ['/c', 'Prefix'],
]);
// A namespace the policy does not share the group with.
const d = mci('team-c', 'd', { [GROUP]: 'shop' }, [['/d', 'Prefix']]);

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, {
      // The members' annotations are allowed; the group is shared with team-b.
      tenantPolicy: {
        rules: ALLOW_ALL.rules,
        sharedGroups: [{ name: 'shop', namespaces: ['default', 'team-b'] }],
      },
    }),
  });
  const perNamespace = (ns: string) => [
    inNamespace(serveService(), ns),
    inNamespace(collectedSlice('member1', ns === 'default' ? ['10.1.0.11'] : ['10.1.1.11']), ns),
  ];
  await h.seed([
    ingressClass(),
    namespaceOf('team-b'),
    namespaceOf('team-c'),
    ...perNamespace('default'),
    ...perNamespace('team-b'),
    ...perNamespace('team-c'),
    a,
    b,
    c,
    d,
  ]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('IngressGroups through the lifecycle', () => {
  it(
    'serves a shared group from one ALB in LBC order, refuses the conflicting and the foreign member, and converges on join, leave, move and delete',
    { timeout: 240_000 },
    async () => {
      await settle(a, b, c, d);
      let state = owned();
      // a has its own ALB; b is the group's only served member.
      expect(state.loadBalancers.map((l) => l.stack).sort()).toEqual([SHARED, 'mci/default/a']);
      expect(state.rules).toEqual([
        `${SHARED} 80 1 /b-exact`,
        `${SHARED} 80 2 /b /b/*`,
        'mci/default/a 80 1 /a /a/*',
      ]);
      const conflict = await condition('default', 'c');
      expect(conflict).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
      expect(conflict?.message).toContain(SCHEME);
      // The member ahead of it is of another namespace: named only as such.
      expect(conflict?.message).toContain('a member of another namespace');
      expect(conflict?.message).not.toContain('team-b');
      const foreign = await condition('team-c', 'd');
      expect(foreign).toMatchObject({ status: 'False', reason: 'IngressGroupNotShared' });
      expect(foreign?.message).toContain('tenantPolicy.sharedGroups');
      const events = await h.kube.list<
        KubeObject & { reason: string; type: string; involvedObject: { name: string } }
      >(Resources.Event, { namespace: 'default' });
      expect(
        events.items.some(
          (e) => e.type === 'Warning' && e.reason === 'IngressGroupConflict' && e.involvedObject.name === 'c',
        ),
      ).toBe(true);
      const groupLb = state.loadBalancers.find((l) => l.stack === SHARED);
      expect(await hostname('team-b', 'b')).toBe(groupLb?.DNSName?.toLowerCase());

      // a joins from its own ALB: the group serves it after b, and its own ALB goes.
      await annotate('default', 'a', (an) => {
        an[GROUP] = 'shop';
        an[ORDER] = '10';
      });
      await settle(a, b, c, d);
      state = owned();
      expect(state.loadBalancers.map((l) => l.stack)).toEqual([SHARED]);
      expect(state.rules).toEqual([
        `${SHARED} 80 1 /b-exact`,
        `${SHARED} 80 2 /b /b/*`,
        `${SHARED} 80 3 /a /a/*`,
      ]);
      expect(await hostname('default', 'a')).toBe(groupLb?.DNSName?.toLowerCase());
      expect(state.targetGroups.map((t) => t.stack)).toEqual([SHARED, SHARED]);
      expect((await condition('default', 'c'))?.status).toBe('False');

      // a leaves: only its rules and target group go; it gets its own ALB back.
      await annotate('default', 'a', (an) => {
        delete an[GROUP];
      });
      await settle(a, b, c, d);
      state = owned();
      expect(state.loadBalancers.map((l) => l.stack).sort()).toEqual([SHARED, 'mci/default/a']);
      expect(state.loadBalancers.find((l) => l.stack === SHARED)?.LoadBalancerArn).toBe(
        groupLb?.LoadBalancerArn,
      );
      expect(state.rules).toEqual([
        `${SHARED} 80 1 /b-exact`,
        `${SHARED} 80 2 /b /b/*`,
        'mci/default/a 80 1 /a /a/*',
      ]);
      expect(state.targetGroups.map((t) => t.stack).sort()).toEqual([SHARED, 'mci/default/a']);
      expect((await read('default', 'a'))?.metadata.finalizers).not.toContain(
        'group.multicluster.karmada.io/shop',
      );

      // b moves to a group of its namespace: c, alone in shop now, is served (internet-facing).
      await annotate('team-b', 'b', (an) => {
        an[GROUP] = 'other';
      });
      await settle(a, b, c, d);
      state = owned();
      expect(state.loadBalancers.map((l) => `${l.stack} ${l.Scheme}`).sort()).toEqual([
        `${SHARED} internet-facing`,
        'mci-group/team-b/other internal',
        'mci/default/a internal',
      ]);
      expect(state.rules).toEqual([
        `${SHARED} 80 1 /c /c/*`,
        'mci-group/team-b/other 80 1 /b-exact',
        'mci-group/team-b/other 80 2 /b /b/*',
        'mci/default/a 80 1 /a /a/*',
      ]);
      expect(await condition('default', 'c')).toMatchObject({ status: 'True' });
      const shopLb = state.loadBalancers.find((l) => l.stack === SHARED);
      expect(await hostname('default', 'c')).toBe(shopLb?.DNSName?.toLowerCase());

      // Deleting the last member deletes the group's ALB; then everything else goes.
      await remove('default', 'c');
      await settle(a, b, d);
      expect(
        owned()
          .loadBalancers.map((l) => l.stack)
          .sort(),
      ).toEqual(['mci-group/team-b/other', 'mci/default/a']);
      for (const [ns, name] of [
        ['default', 'a'],
        ['team-b', 'b'],
        ['team-c', 'd'],
      ] as const)
        await remove(ns, name);
      state = owned();
      expect(state).toEqual({ loadBalancers: [], targetGroups: [], rules: [] });
      expect(sim.snapshot().listeners).toEqual([]);
      // The groups' join records went with their load balancers.
      expect(await joinRecords()).toEqual([]);
    },
  );

  it('the sweep deletes a group stack no member claims (its last member force-deleted) and keeps the stacks of live objects', async () => {
    await settle(b, c);
    expect(owned().loadBalancers.map((l) => l.stack)).toEqual([SHARED]);
    // Someone strips the finalizers by hand and deletes both members: the group's ALB is orphaned.
    for (const [ns, name] of [
      ['team-b', 'b'],
      ['default', 'c'],
    ] as const) {
      await edit<MultiClusterIngress>(h, Resources.MultiClusterIngress, ns, name, (o) => {
        o.metadata.finalizers = [];
      });
      await h.kube.delete(Resources.MultiClusterIngress, ns, name);
    }
    await settle(a);
    expect(
      owned()
        .loadBalancers.map((l) => l.stack)
        .sort(),
    ).toEqual([SHARED, 'mci/default/a']);
    expect(await joinRecords()).toEqual([SHARED]);
    const result = await sweepOrphans(h.kube, h.runtime.provider, {
      graceSeconds: 0,
      signal: new AbortController().signal,
      logger: h.logger,
    });
    expect(result.deleted).toEqual([SHARED]);
    expect(await joinRecords()).toEqual([]);
    const state = owned();
    expect(state.loadBalancers.map((l) => l.stack)).toEqual(['mci/default/a']);
    expect(state.targetGroups.map((t) => t.stack)).toEqual(['mci/default/a']);
  });

  it('a member’s group-facing change reconciles the rest of its group; a change of its paths only the members of other namespaces; any other change none', async () => {
    await settle(b, c);
    expect((await condition('default', 'c'))?.reason).toBe('IngressGroupConflict');
    // b now agrees with c: only b's notification is delivered, and c is served by it.
    const [before, after] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'team-b',
      'b',
      (o) => {
        o.metadata.annotations![SCHEME] = 'internet-facing';
      },
    );
    const results = await h.deliver(notifyChange('modified', after, before));
    expect(ran(results)).toEqual(['multiclusteringress default/c', 'multiclusteringress team-b/b']);
    expect(await condition('default', 'c')).toMatchObject({ status: 'True' });
    const lbs = owned().loadBalancers;
    expect(lbs.map((l) => `${l.stack} ${l.Scheme}`)).toEqual([`${SHARED} internet-facing`]);
    expect(await hostname('default', 'c')).toBe(lbs[0]?.DNSName?.toLowerCase());
    expect(await hostname('team-b', 'b')).toBe(lbs[0]?.DNSName?.toLowerCase());
    const [before2, after2] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'team-b',
      'b',
      (o) => {
        o.spec!.rules![0]!.http!.paths.push({
          path: '/b2',
          pathType: 'Prefix',
          backend: { service: { name: 'serve', port: { number: 80 } } },
        });
      },
    );
    const lbRuns = (r: Awaited<ReturnType<Harness['deliver']>>) =>
      ran(r).filter((x) => x.startsWith('multiclusteringress '));
    // c's routes may overlap b's now (or no longer): c is of another namespace.
    expect(lbRuns(await h.deliver(notifyChange('modified', after2, before2)))).toEqual([
      'multiclusteringress default/c',
      'multiclusteringress team-b/b',
    ]);
    expect(owned().rules.slice(0, 3)).toEqual([
      `${SHARED} 80 1 /b-exact`,
      `${SHARED} 80 2 /b2 /b2/*`,
      `${SHARED} 80 3 /b /b/*`,
    ]);
    const [before3, after3] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'team-b',
      'b',
      (o) => {
        o.metadata.annotations!['team.example.com/owner'] = 'shop';
      },
    );
    expect(lbRuns(await h.deliver(notifyChange('modified', after3, before3)))).toEqual([
      'multiclusteringress team-b/b',
    ]);
  });

  it('one Lease per group: a member is not reconciled while another holds its group, and is once it is free', async () => {
    const held = await acquireLock(h.kube, groupLockKey('shop'), {
      namespace: 'karmada-system',
      holder: 'another-invocation',
      durationSeconds: 60,
    });
    const [first] = await h.deliver(notify(b, 'modified'));
    expect(first?.ok).toBe(false);
    expect(first?.error).toContain('another-invocation');
    expect(owned().loadBalancers).toEqual([]);
    await held.release();
    await settle(b);
    expect(owned().loadBalancers.map((l) => l.stack)).toEqual([SHARED]);
  });
});
