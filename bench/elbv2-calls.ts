/**
 * ELBv2 calls by action for each lifecycle step of one MultiClusterIngress (→ ALB) and one
 * MultiClusterService (→ NLB), against the ELBv2 simulator, next to what AWS Load Balancer
 * Controller makes for the same step as read from its code (bench/README.md, "LBC reading").
 *
 * A reconcile is driven the way lib/reconcile/lifecycle.ts drives the provider: get(), then
 * update() when the load balancer exists or ensure() when it does not. Deletion is ensureDeleted().
 * Counters are reset before every step, so each figure is exactly that step's requests.
 */
import {
  collectedSlice,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../dev/local/scenario.js';
import type {
  EndpointSlice,
  MultiClusterIngress,
  MultiClusterService,
  Service,
} from '../lib/karmada/types.js';
import { Resources } from '../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../lib/kube/types.js';
import type { LoadBalancer, MCSLoadBalancer, ProviderContext } from '../lib/provider/contract.js';
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
const NO_OP_TARGET = 2;

/**
 * LBC's count for the same step, from the reading in bench/README.md. Assumptions: native tagging
 * mode (no RGT), default feature gates (ListenerRulesTagging on), an account holding only this
 * stack, tag cache (20 min) and target cache (5 min) warm unless "cold" is stated.
 */
export const LBC = {
  albCreate: 'LBC 14 (+0–1 webhook DescribeTargetGroups; + ⌈L/20⌉+⌈G/20⌉ DescribeTags in a busy account)',
  albNoOp: 'LBC 7 warm / 11 cold tag cache (no shortcut: every reconcile is a full diff)',
  albNoOpResync: 'LBC 7 warm / 11 cold (same full diff; --sync-period 10 h)',
  albRuleAdded: 'LBC 8 warm / 12 cold (7 + CreateRule)',
  albEndpoints: 'LBC 1 (RegisterTargets; +1 DescribeTargetHealth if its 5-min target cache is cold)',
  albDelete: 'LBC 5 warm / 6 cold target cache (+ DeleteTargetGroup retries on ResourceInUse)',
  nlbCreate: 'LBC 13 (+0–2 DescribeRules/DescribeTags on the NLB default rule, +0–1 webhook)',
  nlbNoOp: 'LBC 7 warm / 10 cold (model builder lists LBs once more)',
  nlbNoOpResync: 'LBC 7 warm / 10 cold',
  nlbPortAdded: 'LBC 13 warm (7 + CreateTargetGroup, CreateListener, 2 attribute reads, TGB 2)',
  nlbEndpoints: 'LBC 1 (RegisterTargets; +1 DescribeTargetHealth cold)',
  nlbEndpoints2:
    'LBC 2 warm / 4 cold (one TargetGroupBinding per group: RegisterTargets each, + DescribeTargetHealth each cold)',
  nlbDelete: 'LBC 5 warm / 6 cold target cache',
  // LBC serves one cluster: it has no per-cluster groups, no TrafficControl and no drain.
  weightChange:
    'LBC 8 warm / 12 cold for the nearest step, an actions.* weight change (7 + ModifyRule); no per-cluster mode',
  drain: 'LBC: none (no TrafficControl, no drain); the nearest, an actions.* weight change, is 8 warm',
} as const;

interface Step {
  name: string;
  anchor: string;
  target?: number;
  /** May return a note for the figure's name (e.g. leftovers after a delete). */
  run: () => Promise<string | void>;
}

/** What lib/reconcile/lifecycle.ts needs of a LoadBalancer or an MCSLoadBalancer. */
interface Balancer<T> {
  get(ctx: ProviderContext, obj: Readonly<T>): Promise<{ exists: boolean }>;
  ensure(ctx: ProviderContext, obj: Readonly<T>): Promise<unknown>;
  update(ctx: ProviderContext, obj: Readonly<T>): Promise<unknown>;
  ensureDeleted(ctx: ProviderContext, obj: Readonly<T>): Promise<void>;
}

async function measure(env: Elbv2Env, group: string, step: Step): Promise<Figure> {
  env.sim.calls.reset();
  env.sim.taggingCalls.reset();
  let note: string | void;
  try {
    note = await step.run();
  } catch (err) {
    return {
      group,
      name: step.name,
      value: `failed: ${(err instanceof Error ? err.message : String(err)).slice(0, 160)}`,
      unit: '',
      anchor: step.anchor,
    };
  }
  const byAction = callsByAction(env.sim);
  const total = totalCalls(byAction);
  // Not ELBv2 calls (another API, its own rate limit), shown beside them.
  const tagging = env.sim.taggingCalls.total();
  const taggingNote = tagging ? `; + Tagging API GetResources ${tagging}` : '';
  return {
    group,
    name: `${step.name} (${breakdown(byAction, firstSeenOrder(env.sim)) || 'no ELBv2 calls'}${taggingNote})${note ?? ''}`,
    value: total,
    unit: 'calls',
    ...(step.target !== undefined ? { target: `≤ ${step.target}`, met: total <= step.target } : {}),
    anchor: step.anchor,
  };
}

/** The lifecycle's reconcile: look, then update what exists or create what does not. */
async function reconcile<T>(lb: Balancer<T>, obj: T, resync: boolean): Promise<void> {
  const ctx = providerContext(resync);
  const existing = await lb.get(ctx, obj);
  await (existing.exists ? lb.update(ctx, obj) : lb.ensure(ctx, obj));
}

/** Anything of ours the simulator still holds (there is nothing else in its account). */
function leftovers(env: Elbv2Env): string {
  const s = env.sim.snapshot();
  const n = s.loadBalancers.length + s.targetGroups.length;
  return n === 0 ? '' : ` — LEFTOVERS: ${s.loadBalancers.length} LB, ${s.targetGroups.length} TG`;
}

async function read<T extends KubeObject>(env: Elbv2Env, type: ResourceType, name: string): Promise<T> {
  const obj = await env.kube.get<T>(type, NS, name);
  if (!obj) throw new Error(`${type.kind} ${NS}/${name} not found`);
  return obj;
}

function albSteps(env: Elbv2Env, lb: LoadBalancer): Step[] {
  let mci: MultiClusterIngress;
  return [
    {
      name: 'ALB create',
      anchor: LBC.albCreate,
      run: async () => {
        mci = await read<MultiClusterIngress>(env, Resources.MultiClusterIngress, 'minimal-ingress');
        await reconcile(lb, mci, false);
      },
    },
    {
      name: 'ALB no-op reconcile',
      anchor: LBC.albNoOp,
      target: NO_OP_TARGET,
      run: () => reconcile(lb, mci, false),
    },
    {
      name: 'ALB no-op, update() alone (without the lifecycle get())',
      anchor: LBC.albNoOp,
      target: NO_OP_TARGET,
      run: async () => {
        await lb.update(providerContext(false), mci);
      },
    },
    {
      name: 'ALB no-op reconcile, resync (full drift check)',
      anchor: LBC.albNoOpResync,
      run: () => reconcile(lb, mci, true),
    },
    {
      name: 'ALB one rule added',
      anchor: LBC.albRuleAdded,
      run: async () => {
        const rules = mci.spec?.rules ?? [];
        const paths = rules[0]?.http?.paths ?? [];
        const next: MultiClusterIngress = {
          ...mci,
          spec: {
            ...mci.spec,
            rules: [
              {
                ...rules[0],
                http: {
                  paths: [
                    ...paths,
                    {
                      path: '/other',
                      pathType: 'Prefix',
                      backend: { service: { name: 'serve', port: { number: 80 } } },
                    },
                  ],
                },
              },
              ...rules.slice(1),
            ],
          },
        };
        mci = await env.kube.update(Resources.MultiClusterIngress, next);
        await reconcile(lb, mci, false);
      },
    },
    {
      name: "ALB one cluster's endpoints changed",
      anchor: LBC.albEndpoints,
      target: 3,
      run: async () => {
        await changeMember2Endpoints(env, ['10.2.0.21', '10.2.0.22']);
        await reconcile(lb, mci, false);
      },
    },
    {
      name: 'ALB delete',
      anchor: LBC.albDelete,
      run: async () => {
        await lb.ensureDeleted(providerContext(false), mci);
        return leftovers(env);
      },
    },
  ];
}

function nlbSteps(env: Elbv2Env, maybeLb: MCSLoadBalancer | undefined): Step[] {
  // Steps are listed even without support, so the table keeps its rows; they only run with it.
  const lb = maybeLb as MCSLoadBalancer;
  let mcs: MultiClusterService;
  return [
    {
      name: 'NLB create',
      anchor: LBC.nlbCreate,
      run: async () => {
        mcs = await read<MultiClusterService>(env, Resources.MultiClusterService, 'serve');
        await reconcile(lb, mcs, false);
      },
    },
    {
      name: 'NLB no-op reconcile',
      anchor: LBC.nlbNoOp,
      target: NO_OP_TARGET,
      run: () => reconcile(lb, mcs, false),
    },
    {
      name: 'NLB no-op reconcile, resync (full drift check)',
      anchor: LBC.nlbNoOpResync,
      run: () => reconcile(lb, mcs, true),
    },
    {
      name: "NLB (1 port) one cluster's endpoints changed",
      anchor: LBC.nlbEndpoints,
      target: 3,
      run: async () => {
        await changeMember2Endpoints(env, ['10.2.0.21', '10.2.0.22']);
        await reconcile(lb, mcs, false);
      },
    },
    {
      name: 'NLB one port added',
      anchor: LBC.nlbPortAdded,
      run: async () => {
        await addServicePort(env);
        mcs = await env.kube.update(Resources.MultiClusterService, {
          ...mcs,
          spec: { ...mcs.spec, ports: [...(mcs.spec.ports ?? []), { port: 8443 }] },
        });
        await reconcile(lb, mcs, false);
      },
    },
    {
      // Two ports at this point (the step before added one): two target groups change.
      name: "NLB (2 ports) one cluster's endpoints changed",
      anchor: LBC.nlbEndpoints2,
      run: async () => {
        await changeMember2Endpoints(env, ['10.2.0.21', '10.2.0.22', '10.2.0.23']);
        await reconcile(lb, mcs, false);
      },
    },
    {
      name: 'NLB delete',
      anchor: LBC.nlbDelete,
      run: async () => {
        await lb.ensureDeleted(providerContext(false), mcs);
        return leftovers(env);
      },
    },
  ];
}

/**
 * A second Service port, as Kubernetes requires it once there are two: every port named, on the
 * Service and on the slices Karmada collects (which carry the target ports under the same names).
 */
async function addServicePort(env: Elbv2Env): Promise<void> {
  const svc = await read<Service>(env, Resources.Service, 'serve');
  await env.kube.update(Resources.Service, {
    ...svc,
    spec: {
      ...svc.spec,
      ports: [
        { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: 'alt', port: 8443, targetPort: 8443, protocol: 'TCP' },
      ],
    },
  });
  for (const cluster of ['member1', 'member2']) {
    const name = collectedSlice(cluster, []).metadata.name ?? '';
    const slice = await read<EndpointSlice>(env, Resources.EndpointSlice, name);
    await env.kube.update(Resources.EndpointSlice, {
      ...slice,
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP' },
        { name: 'alt', port: 8443, protocol: 'TCP' },
      ],
    });
  }
}

/** Replaces member2's endpoints, keeping whatever ports its slice has by now. */
const WEIGHTS = 'multicluster.karmada.io/cluster-weights';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Per-cluster traffic control (README, "Per-cluster traffic control"): the scenario's MCI, whose
 * Service has endpoints in member1 and member2, through a canary, a drain with a 1 s
 * deregistration delay, a TrafficControl drain with none, and back to one group per backend.
 */
function trafficSteps(env: Elbv2Env, lb: LoadBalancer): Step[] {
  let mci: MultiClusterIngress;
  const annotate = async (
    annotations: Record<string, string | undefined>,
    status?: MultiClusterIngress['status'],
  ) => {
    const current = await read<MultiClusterIngress>(env, Resources.MultiClusterIngress, 'minimal-ingress');
    const merged = { ...current.metadata.annotations, ...annotations };
    for (const [k, v] of Object.entries(annotations)) if (v === undefined) delete merged[k];
    mci = await env.kube.update(Resources.MultiClusterIngress, {
      ...current,
      metadata: { ...current.metadata, annotations: merged as Record<string, string> },
    });
    // What prepareTrafficBlock hands the provider (status is not the reconcile's to write here).
    if (status) mci = { ...mci, status: { ...mci.status, ...status } };
    await reconcile(lb, mci, false);
  };
  const delay = (s: number) => ({
    'alb.ingress.kubernetes.io/target-group-attributes': `deregistration_delay.timeout_seconds=${s}`,
  });
  return [
    {
      name: 'ALB create, cluster weights member1=95,member2=5 (a target group per cluster)',
      anchor: LBC.albCreate,
      run: async () => {
        mci = await read<MultiClusterIngress>(env, Resources.MultiClusterIngress, 'minimal-ingress');
        await annotate({ [WEIGHTS]: 'member1=95,member2=5', ...delay(1) });
      },
    },
    {
      name: 'weight change 95/5 → 50/50',
      anchor: LBC.weightChange,
      run: () => annotate({ [WEIGHTS]: 'member1=50,member2=50' }),
    },
    {
      name: 'drain begins: member2 weight 0, its targets kept (deregistration delay 1 s)',
      anchor: LBC.drain,
      run: () => annotate({ [WEIGHTS]: 'member1=50,member2=0' }),
    },
    {
      name: 'drain ends: the first reconcile after the delay deregisters member2',
      anchor: LBC.drain,
      run: async () => {
        await sleep(1100);
        await reconcile(lb, mci, false);
      },
    },
    {
      name: 'restored: member2 registered again, then weight 50 (and the delay set to 0 s for the next step)',
      anchor: LBC.weightChange,
      run: () => annotate({ [WEIGHTS]: 'member1=50,member2=50', ...delay(0) }),
    },
    {
      name: 'TrafficControl drain of member2 with delay 0 (weight 0 and deregistration in one reconcile)',
      anchor: LBC.drain,
      run: () => annotate({}, { trafficBlockClusters: ['member2'] }),
    },
    {
      name: 'back to one target group per backend (the annotation removed)',
      anchor: LBC.weightChange,
      run: () => annotate({ [WEIGHTS]: undefined }),
    },
  ];
}

async function changeMember2Endpoints(env: Elbv2Env, addresses: string[]): Promise<void> {
  const name = collectedSlice('member2', []).metadata.name ?? '';
  const slice = await read<EndpointSlice>(env, Resources.EndpointSlice, name);
  await env.kube.update(Resources.EndpointSlice, {
    ...slice,
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: true } })),
  });
}

function objects(): KubeObject[] {
  return [
    serveService(),
    collectedSlice('member1', ['10.1.0.11', '10.1.0.12']),
    collectedSlice('member2', ['10.2.0.21']),
    minimalIngress(),
    serveMultiClusterService(),
  ];
}

export async function benchElbv2Calls(): Promise<Figure[]> {
  const figures: Figure[] = [];

  // Separate environments: the NLB's Service edits must not leak into the ALB's figures.
  const alb = await startElbv2Env({ objects: objects() });
  try {
    const lb = alb.provider.loadBalancer();
    if (!lb) throw new Error('the aws provider has no MultiClusterIngress support');
    for (const step of albSteps(alb, lb))
      figures.push(await measure(alb, 'ELBv2 calls (ALB, simulator)', step));
  } finally {
    await alb.close();
  }

  const traffic = await startElbv2Env({ objects: objects() });
  try {
    const lb = traffic.provider.loadBalancer();
    if (!lb) throw new Error('the aws provider has no MultiClusterIngress support');
    for (const step of trafficSteps(traffic, lb))
      figures.push(await measure(traffic, 'ELBv2 calls (per-cluster traffic, ALB, simulator)', step));
  } finally {
    await traffic.close();
  }

  const nlbGroup = 'ELBv2 calls (NLB, simulator)';
  const nlb = await startElbv2Env({ objects: objects() });
  try {
    const lb = nlb.provider.mcsLoadBalancer();
    if (!lb) {
      // Reported rather than failed: MultiClusterService support lands separately.
      for (const step of nlbSteps(nlb, undefined)) {
        figures.push({
          group: nlbGroup,
          name: step.name,
          value: 'n/a (not supported yet)',
          unit: '',
          anchor: step.anchor,
        });
      }
    } else {
      for (const step of nlbSteps(nlb, lb)) figures.push(await measure(nlb, nlbGroup, step));
    }
  } finally {
    await nlb.close();
  }
  return figures;
}
