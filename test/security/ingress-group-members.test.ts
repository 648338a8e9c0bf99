/**
 * One IngressGroup member must not override another's tenant policy or take its paths (issue 27,
 * medium 1). A shared group of two namespaces: `strict` is pinned to internal load balancers by
 * the tenant policy, `open` may go public. Every member's policy is held to the group's load
 * balancer, join time (the group's join record) decides between members, never a newcomer's
 * `group.order`, a route overlapping another namespace's is refused, and a member left out or
 * refused has no status naming a load balancer. End to end: processBatch with the AWS provider
 * against the ELBv2 simulator and the Kubernetes API stand-in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { collectedSlice, ingressClass, serveService } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { edit, notify, notifyChange, startHarness, type Harness } from '../support/harness.js';

const GROUP = 'alb.ingress.kubernetes.io/group.name';
const ORDER = 'alb.ingress.kubernetes.io/group.order';
const SCHEME = 'alb.ingress.kubernetes.io/scheme';
const STACK = 'multicluster.karmada.io/stack';
const SHARED = 'mci-group/_shared/shop';
let sim: Elbv2Simulator;
let h: Harness;

function mci(
  namespace: string,
  name: string,
  annotations: Record<string, string>,
  paths: string[],
  host?: string,
): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace, annotations: { [GROUP]: 'shop', ...annotations } },
    spec: {
      rules: [
        {
          ...(host ? { host } : {}),
          http: {
            paths: paths.map((path) => ({
              path,
              pathType: 'Prefix',
              backend: { service: { name: 'serve', port: { number: 80 } } },
            })),
          },
        },
      ],
    },
  } as KubeObject;
}

function namespace(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } } as KubeObject;
}

/** The group's load balancer (scheme, DNS name) and its rules as `<priority> <paths>`. */
function groupState() {
  const snap = sim.snapshot();
  const stackOf = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags[STACK]]));
  const lbs = snap.loadBalancers.filter((lb) => stackOf.get(lb.LoadBalancerArn ?? '') === SHARED);
  const listeners = new Set(
    snap.listeners
      .filter((l) => lbs.some((lb) => lb.LoadBalancerArn === l.LoadBalancerArn))
      .map((l) => l.ListenerArn),
  );
  const rules = snap.rules
    .filter((r) => !r.IsDefault && listeners.has(r.ListenerArn))
    .map((r) => ({
      priority: Number(r.Priority),
      host: r.Conditions?.find((c) => c.Field === 'host-header')?.Values?.join(' '),
      paths: (r.Conditions?.find((c) => c.Field === 'path-pattern')?.Values ?? []).join(' '),
    }))
    .sort((a, b) => a.priority - b.priority)
    .map((r) => `${r.priority} ${r.host ? `${r.host} ` : ''}${r.paths}`);
  return { loadBalancers: lbs.map((lb) => ({ scheme: lb.Scheme, dns: lb.DNSName?.toLowerCase() })), rules };
}

async function settle(...objects: KubeObject[]) {
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(...objects.map((o) => notify(o, 'modified')));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

async function read(ns: string, name: string) {
  return h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, ns, name);
}

async function condition(ns: string, name: string) {
  const raw = (await read(ns, name))?.metadata.annotations?.[CONDITION_ANNOTATION];
  return raw ? (JSON.parse(raw) as { status: string; reason: string; message: string }) : undefined;
}

async function hostname(ns: string, name: string) {
  return (await read(ns, name))?.status?.loadBalancer?.ingress?.[0]?.hostname;
}

async function warnings(ns: string, name: string) {
  const events = await h.kube.list<
    KubeObject & { type: string; reason: string; message: string; involvedObject: { name: string } }
  >(Resources.Event, { namespace: ns });
  return events.items.filter((e) => e.type === 'Warning' && e.involvedObject.name === name);
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, {
      tenantPolicy: {
        rules: [
          {
            name: 'strict-internal',
            namespaceSelector: { matchLabels: { exposure: 'strict' } },
            schemes: ['internal'],
          },
          {
            // The closed default gives every other namespace the configured scheme only.
            name: 'others-either-scheme',
            namespaceSelector: {
              matchExpressions: [{ key: 'exposure', operator: 'NotIn', values: ['strict'] }],
            },
            schemes: ['internal', 'internet-facing'],
          },
        ],
        sharedGroups: [{ name: 'shop', namespaces: ['strict', 'open', 'open2'] }],
      },
    }),
  });
  await h.seed([
    ingressClass(),
    namespace('strict', { exposure: 'strict' }),
    namespace('open'),
    namespace('open2'),
    ...['strict', 'open', 'open2'].flatMap((ns, i) => [
      { ...serveService(), metadata: { ...serveService().metadata, namespace: ns } } as KubeObject,
      {
        ...collectedSlice('member1', [`10.1.${i}.11`]),
        metadata: { ...collectedSlice('member1', [`10.1.${i}.11`]).metadata, namespace: ns },
      } as KubeObject,
    ]),
  ]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('IngressGroup members cannot override one another', () => {
  it('a newcomer with group.order -1000 and scheme internet-facing is refused: the strict member stays internal and keeps priority 1', async () => {
    const strict = mci('strict', 's', {}, ['/s']);
    await h.seed([strict]);
    await settle(strict);
    const before = groupState();
    expect(before.loadBalancers.map((l) => l.scheme)).toEqual(['internal']);
    expect(before.rules).toEqual(['1 /s /s/*']);

    const newcomer = mci('open', 'n', { [ORDER]: '-1000', [SCHEME]: 'internet-facing' }, ['/n']);
    await h.seed([newcomer]);
    await settle(newcomer, strict);
    const after = groupState();
    expect(after.loadBalancers.map((l) => l.scheme)).toEqual(['internal']);
    expect(after.rules).toEqual(['1 /s /s/*']);
    expect(await condition('strict', 's')).toMatchObject({ status: 'True' });
    expect(await hostname('strict', 's')).toBe(after.loadBalancers[0]?.dns);

    const refused = await condition('open', 'n');
    expect(refused).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
    expect(refused?.message).toContain('"internet-facing"');
    expect(refused?.message).toContain('strict-internal');
    // The strict member is of another namespace: it is not named.
    expect(refused?.message).not.toContain('strict/s');
    expect((await warnings('open', 'n')).map((e) => e.reason)).toContain('IngressGroupConflict');
    expect((await read('open', 'n'))?.status?.loadBalancer).toBeUndefined();
  });

  it('a strict member joining a group an open member made internet-facing is refused, never exposed', async () => {
    const open = mci('open', 'o', { [SCHEME]: 'internet-facing' }, ['/o']);
    await h.seed([open]);
    await settle(open);
    const strict = mci('strict', 's', { [ORDER]: '-1000' }, ['/s']);
    await h.seed([strict]);
    // Each member's reconcile builds the whole group: neither may put the strict routes on it.
    await settle(strict, open);
    await settle(open);
    const state = groupState();
    expect(state.loadBalancers.map((l) => l.scheme)).toEqual(['internet-facing']);
    expect(state.rules).toEqual(['1 /o /o/*']);
    expect(await condition('strict', 's')).toMatchObject({
      status: 'False',
      reason: 'TenantPolicyViolation',
    });
    expect((await read('strict', 's'))?.status?.loadBalancer).toBeUndefined();
    expect(await hostname('open', 'o')).toBe(state.loadBalancers[0]?.dns);
  });

  it('a route overlapping another namespace’s is refused for the later member, naming its own host and path only', async () => {
    const first = mci('open', 'a', {}, ['/api'], 'shop.example.com');
    await h.seed([first]);
    await settle(first);
    const later = mci('open2', 'b', { [ORDER]: '-10' }, ['/api/v1', '/b'], 'shop.example.com');
    await h.seed([later]);
    await settle(later, first);
    const state = groupState();
    expect(state.rules).toEqual(['1 shop.example.com /api /api/*']);
    const refused = await condition('open2', 'b');
    expect(refused).toMatchObject({ status: 'False', reason: 'IngressGroupRouteTaken' });
    expect(refused?.message).toContain('"shop.example.com"');
    expect(refused?.message).toContain('"/api/v1"');
    expect(refused?.message).not.toContain('open/a');
    expect(await hostname('open', 'a')).toBe(state.loadBalancers[0]?.dns);
    expect((await read('open2', 'b'))?.status?.loadBalancer).toBeUndefined();

    // a moves to another path: its change alone brings b in, status and all.
    const [before, after] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'open',
      'a',
      (o) => {
        o.spec!.rules![0]!.http!.paths[0]!.path = '/shop';
      },
    );
    const results = await h.deliver(notifyChange('modified', after, before));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    const freed = groupState();
    expect(freed.rules).toEqual([
      '1 shop.example.com /shop /shop/*',
      '2 shop.example.com /api/v1 /api/v1/*',
      '3 shop.example.com /b /b/*',
    ]);
    expect(await condition('open2', 'b')).toMatchObject({ status: 'True' });
    expect(await hostname('open2', 'b')).toBe(freed.loadBalancers[0]?.dns);
  });

  /** a and c of one namespace, served together; then c asks for internet-facing while a says internal. */
  async function changeToDisagree(orderA: string, orderC: string) {
    const a = mci('open', 'a', { [ORDER]: orderA, [SCHEME]: 'internal' }, ['/a']);
    const c = mci('open', 'c', { [ORDER]: orderC }, ['/c']);
    await h.seed([a, c]);
    await settle(a, c);
    const served = groupState();
    expect(served.loadBalancers.map((l) => l.scheme)).toEqual(['internal']);
    expect(await hostname('open', 'c')).toBe(served.loadBalancers[0]?.dns);
    const [before, after] = await edit<MultiClusterIngress>(
      h,
      Resources.MultiClusterIngress,
      'open',
      'c',
      (o) => {
        o.metadata.annotations![SCHEME] = 'internet-facing';
      },
    );
    const results = await h.deliver(notifyChange('modified', after, before));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
    await settle(a, after as KubeObject);
    return { served, state: groupState() };
  }

  it('a member left out has no status naming the load balancer that no longer serves it', async () => {
    const { served, state } = await changeToDisagree('-5', '5');
    expect(served.rules).toEqual(['1 /a /a/*', '2 /c /c/*']);
    expect(state.loadBalancers.map((l) => l.scheme)).toEqual(['internal']);
    expect(state.rules).toEqual(['1 /a /a/*']);
    expect(await condition('open', 'c')).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
    expect((await read('open', 'c'))?.status?.loadBalancer).toBeUndefined();
    expect(await hostname('open', 'a')).toBe(state.loadBalancers[0]?.dns);
  });

  it('the member that changes to disagree is left out, not the one it now disagrees with, whatever group.order says', async () => {
    const { served, state } = await changeToDisagree('5', '-5');
    // One namespace: its rules go by group.order, as LBC orders them.
    expect(served.rules).toEqual(['1 /c /c/*', '2 /a /a/*']);
    expect(state.loadBalancers.map((l) => l.scheme)).toEqual(['internal']);
    expect(state.rules).toEqual(['1 /a /a/*']);
    expect(await condition('open', 'a')).toMatchObject({ status: 'True' });
    expect(await hostname('open', 'a')).toBe(state.loadBalancers[0]?.dns);
    expect(await condition('open', 'c')).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
    expect((await read('open', 'c'))?.status?.loadBalancer).toBeUndefined();
  });
});
