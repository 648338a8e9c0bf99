/**
 * The frontend NLB of an IngressGroup, through the lifecycle (processBatch, the ELBv2 simulator,
 * the Kubernetes API stand-in): one member turns it on for the group, a member that sets another
 * value of a frontend-nlb-* key gets the IngressGroupConflict Warning and condition while the rest
 * is served, every served member's status lists the ALB's and the NLB's hostnames, turning it off
 * deletes only the NLB's pieces, and deleting the members leaves nothing.
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
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

const A = 'alb.ingress.kubernetes.io/';
let sim: Elbv2Simulator;
let h: Harness;

function mci(name: string, annotations: Record<string, string>, path: string): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace: 'default', annotations: { [`${A}group.name`]: 'web', ...annotations } },
    spec: {
      rules: [
        {
          http: {
            paths: [
              { path, pathType: 'Prefix', backend: { service: { name: 'serve', port: { number: 80 } } } },
            ],
          },
        },
      ],
    },
  } as KubeObject;
}

const a = mci(
  'a',
  { [`${A}enable-frontend-nlb`]: 'true', [`${A}frontend-nlb-healthcheck-path`]: '/a' },
  '/a',
);
const b = mci('b', { [`${A}group.order`]: '5', [`${A}listen-ports`]: '[{"HTTP": 8080}]' }, '/b');
const c = mci('c', { [`${A}group.order`]: '9', [`${A}frontend-nlb-healthcheck-path`]: '/c' }, '/c');

const read = (name: string) =>
  h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', name);
const hostnames = async (name: string) =>
  ((await read(name))?.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname);
async function condition(name: string) {
  const raw = (await read(name))?.metadata.annotations?.[CONDITION_ANNOTATION];
  return raw ? (JSON.parse(raw) as { status: string; reason: string; message: string }) : undefined;
}
async function settle(...objects: KubeObject[]) {
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(...objects.map((o) => notify(o, 'modified')));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}
async function annotate(name: string, change: (an: Record<string, string>) => void) {
  const [before, after] = await edit<MultiClusterIngress>(
    h,
    Resources.MultiClusterIngress,
    'default',
    name,
    (o) => {
      o.metadata.annotations ??= {};
      change(o.metadata.annotations);
    },
  );
  const results = await h.deliver(notifyChange('modified', after, before));
  expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
}
function frontend() {
  const s = sim.snapshot();
  const nlb = s.loadBalancers.find((l) => l.Type === 'network');
  const alb = s.loadBalancers.find((l) => l.Type === 'application');
  const groups = s.targetGroups.filter((t) => t.TargetType === 'alb');
  return {
    alb,
    nlb,
    listeners: s.listeners.filter((l) => l.LoadBalancerArn === nlb?.LoadBalancerArn).map((l) => l.Port),
    checks: groups.map((t) => t.HealthCheckPath),
    targets: s.targets
      .filter((t) => groups.some((g) => g.TargetGroupArn === t.TargetGroupArn))
      .map((t) => `${t.Id === alb?.LoadBalancerArn ? 'alb' : t.Id}:${t.Port}`),
  };
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: awsConfigFor(sim) });
  await h.seed([ingressClass(), serveService(), collectedSlice('member1', ['10.1.0.11']), a, b, c]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
});

describe('the frontend NLB of an IngressGroup', () => {
  it(
    'is the group’s: a conflicting member is left out, off deletes only the NLB, nothing leaks',
    { timeout: 120_000 },
    async () => {
      await settle(a, b, c);
      let state = frontend();
      // a's setting is the group's; b's port is fronted too; c disagrees on the health check.
      expect(state.listeners.sort()).toStrictEqual([80, 8080]);
      expect(state.checks).toStrictEqual(['/a', '/a']);
      expect(state.targets.sort()).toStrictEqual(['alb:80', 'alb:8080']);
      const conflict = await condition('c');
      expect(conflict).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
      expect(conflict?.message).toContain(`${A}frontend-nlb-healthcheck-path`);
      expect(conflict?.message).toContain('default/a');
      const both = [state.alb?.DNSName?.toLowerCase(), state.nlb?.DNSName?.toLowerCase()];
      expect(await hostnames('a')).toStrictEqual(both);
      expect(await hostnames('b')).toStrictEqual(both);

      // c agrees: it is served, with both hostnames.
      await annotate('c', (an) => {
        an[`${A}frontend-nlb-healthcheck-path`] = '/a';
      });
      await settle(a, b, c);
      expect((await condition('c'))?.status).toBe('True');
      expect(await hostnames('c')).toStrictEqual(both);

      // Off (every member that set a frontend-nlb-* key drops it): only the NLB's pieces go.
      for (const name of ['a', 'c'])
        await annotate(name, (an) => {
          for (const k of Object.keys(an)) if (k.includes('frontend-nlb')) delete an[k];
        });
      await settle(a, b, c);
      state = frontend();
      expect(state.nlb).toBeUndefined();
      expect(sim.snapshot().targetGroups.filter((t) => t.TargetType === 'alb')).toStrictEqual([]);
      expect(sim.snapshot().loadBalancers.map((l) => l.LoadBalancerArn)).toStrictEqual([
        state.alb?.LoadBalancerArn,
      ]);
      expect(await hostnames('a')).toStrictEqual([both[0]]);

      // On again, then every member goes: the NLB before the ALB, nothing left.
      await annotate('b', (an) => {
        an[`${A}enable-frontend-nlb`] = 'true';
      });
      await settle(a, b, c);
      expect(frontend().listeners.sort()).toStrictEqual([80, 8080]);
      for (const name of ['a', 'b', 'c']) {
        const before = await read(name);
        await h.kube.delete(Resources.MultiClusterIngress, 'default', name);
        const after = await read(name);
        const results = await h.deliver(notifyChange('modified', after ?? undefined, before ?? undefined));
        expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
      }
      expect(sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
    },
  );
});
