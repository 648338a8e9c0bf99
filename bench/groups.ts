/**
 * IngressGroups at scale: 1,000 MultiClusterIngresses in groups of 50 next to the same 1,000 with
 * an ALB each, against the ELBv2 simulator and the Kubernetes API stand-in. For each: ALBs used,
 * ELBv2 calls to create everything (every MCI reconciled once, as after a fresh deploy of objects
 * that exist), calls for a no-op reconcile of one member, and calls when one member adds a rule.
 *
 * The MCIs carry what their first reconcile leaves on them (finalizers, the group label), and a
 * reconcile is driven the way lib/reconcile/lifecycle.ts drives the provider: get(), then
 * update() or ensure(), with the status it returned kept on the object for the next one.
 */
import { collectedSlice, serveService } from '../dev/local/scenario.js';
import { MCI_FINALIZER } from '../lib/karmada/constants.js';
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { withFinalizer } from '../lib/kube/finalizers.js';
import { Resources } from '../lib/kube/resources.js';
import type { KubeObject } from '../lib/kube/types.js';
import type { LoadBalancer } from '../lib/provider/contract.js';
import { decorateIngress } from '../lib/reconcile/mci.js';
import {
  breakdown,
  callsByAction,
  firstSeenOrder,
  providerContext,
  startElbv2Env,
  totalCalls,
  type Elbv2Env,
} from './elbv2-env.js';
import type { Figure } from './report.js';

const NS = 'default';
const GROUP_KEY = 'alb.ingress.kubernetes.io/group.name';

function ingress(i: number, group: string | undefined): MultiClusterIngress {
  const mci: MultiClusterIngress = {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: `mci-${String(i).padStart(4, '0')}`,
      namespace: NS,
      ...(group ? { annotations: { [GROUP_KEY]: group } } : {}),
    },
    spec: {
      rules: [
        {
          http: {
            paths: [
              {
                path: `/app-${i}`,
                pathType: 'Prefix',
                backend: { service: { name: 'serve', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  };
  // What the MCI's first reconcile writes before it calls the provider.
  return decorateIngress(withFinalizer(mci, MCI_FINALIZER));
}

type WithStatus = MultiClusterIngress & { status?: { loadBalancer?: unknown } };

/** One lifecycle pass; the status it reports is kept on the object, as the lifecycle writes it. */
async function reconcile(lb: LoadBalancer, mci: WithStatus): Promise<WithStatus> {
  const ctx = providerContext(false);
  const existing = await lb.get(ctx, mci);
  const status = await (existing.exists ? lb.update(ctx, mci) : lb.ensure(ctx, mci));
  return status ? { ...mci, status: { ...mci.status, loadBalancer: status } } : mci;
}

interface Variant {
  label: string;
  anchor: string;
  figures: Figure[];
}

function calls(env: Elbv2Env): { total: number; detail: string; tagging: number } {
  const byAction = callsByAction(env.sim);
  return {
    total: totalCalls(byAction),
    detail: breakdown(byAction, firstSeenOrder(env.sim)) || 'no ELBv2 calls',
    tagging: env.sim.taggingCalls.total(),
  };
}

async function run(
  n: number,
  groupSize: number | undefined,
  section: string,
  anchor: string,
): Promise<Variant> {
  const groupOf = (i: number) => (groupSize ? `group-${Math.floor(i / groupSize)}` : undefined);
  let objects = Array.from({ length: n }, (_, i) => ingress(i, groupOf(i)));
  const env = await startElbv2Env({
    objects: [
      serveService(),
      collectedSlice('member1', ['10.1.0.11', '10.1.0.12']),
      collectedSlice('member2', ['10.2.0.21']),
      ...(objects as KubeObject[]),
    ],
    loadBalancers: n + 10,
    targetGroups: 2 * n + 10,
  });
  const label = groupSize ? `${n} MCIs in groups of ${groupSize}` : `${n} MCIs, an ALB each`;
  const figures: Figure[] = [];
  const lb = env.provider.loadBalancer()!;
  try {
    env.sim.calls.reset();
    env.sim.taggingCalls.reset();
    const started = Date.now();
    const served: WithStatus[] = [];
    for (const mci of objects) served.push(await reconcile(lb, mci));
    objects = served;
    const created = calls(env);
    const albs = env.sim.snapshot().loadBalancers.length;
    figures.push({ group: section, name: `${label}: ALBs used`, value: albs, unit: 'ALBs', anchor });
    figures.push({
      group: section,
      name: `${label}: ELBv2 calls to create (every MCI reconciled once; ${Math.round((Date.now() - started) / 1000)} s; + Tagging API GetResources ${created.tagging})`,
      value: created.total,
      unit: 'calls',
      anchor,
    });
    figures.push({
      group: section,
      name: `${label}: ELBv2 calls to create, per MCI`,
      value: created.total / n,
      unit: 'calls',
      anchor,
    });

    // A member in the middle of a group: nothing changed.
    const i = groupSize ? Math.floor(groupSize / 2) : 0;
    env.sim.calls.reset();
    env.sim.taggingCalls.reset();
    objects[i] = await reconcile(lb, objects[i]!);
    const noOp = calls(env);
    figures.push({
      group: section,
      name: `${label}: no-op reconcile of one member (${noOp.detail}; + Tagging API GetResources ${noOp.tagging})`,
      value: noOp.total,
      unit: 'calls',
      anchor,
    });

    // The member adds a path: written to the API server, then reconciled.
    const changed = structuredClone(objects[i]!);
    changed.spec!.rules![0]!.http!.paths.push({
      path: `/app-${i}-v2`,
      pathType: 'Prefix',
      backend: { service: { name: 'serve', port: { number: 80 } } },
    });
    const current = await env.kube.get<MultiClusterIngress>(
      Resources.MultiClusterIngress,
      NS,
      changed.metadata.name ?? '',
    );
    await env.kube.update(Resources.MultiClusterIngress, { ...current!, spec: changed.spec });
    env.sim.calls.reset();
    env.sim.taggingCalls.reset();
    await reconcile(lb, changed);
    const ruleAdded = calls(env);
    figures.push({
      group: section,
      name: `${label}: one member adds a rule (${ruleAdded.detail}; + Tagging API GetResources ${ruleAdded.tagging})`,
      value: ruleAdded.total,
      unit: 'calls',
      anchor,
    });
  } finally {
    await env.close();
  }
  return { label, anchor, figures };
}

export async function benchGroups(n = 1000, groupSize = 50): Promise<Figure[]> {
  const section = 'IngressGroups';
  const perMci = await run(n, undefined, section, 'anchor: one ALB per MCI (this table, same run)');
  const grouped = await run(n, groupSize, section, `vs ${perMci.label}`);
  // Side by side, with the ratio to the anchor measured in the same run.
  const ratio = (k: number): Figure => {
    const g = grouped.figures[k]!;
    const a = perMci.figures[k]!;
    return {
      ...g,
      anchor: `${g.anchor}: ${a.value} ${a.unit} (× ${(Number(g.value) / Math.max(1e-9, Number(a.value))).toFixed(3)})`,
    };
  };
  return [...perMci.figures, ...grouped.figures.map((_, k) => ratio(k))];
}
