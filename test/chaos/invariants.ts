/**
 * The end-state check after quiesce, resync and sweep. What AWS must hold is derived from what
 * the API server holds at the end: every surviving MultiClusterIngress of our class (and every
 * MultiClusterService of type LoadBalancer, when the provider serves them) has exactly its stack,
 * built by the provider's pure model from the final objects, with the traffic-blocked clusters
 * computed here independently of the controllers; nothing else carries our owner tag; nothing
 * lacks it. Statuses must name the load balancer that exists, and nothing may be left terminating.
 */
import type { Elbv2Snapshot } from '../../dev/elbv2-sim/index.js';
import { InvalidObjectError } from '../../lib/errors.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../lib/karmada/constants.js';
import type {
  Cluster,
  EndpointSlice,
  IngressClass,
  MultiClusterIngress,
  MultiClusterService,
  ResourceBinding,
  Service,
} from '../../lib/karmada/types.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { AwsProviderConfig } from '../../lib/providers/aws/config.js';
import { canonicalJson } from '../../lib/providers/aws/model/fingerprint.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { buildIngressGroupStack } from '../../lib/providers/aws/model/ingress-group.js';
import { modelPartsFor } from '../../lib/providers/aws/model/parts.js';
import { groupStackRef } from '../../lib/providers/aws/ingress-groups.js';
import { finalizerGroups, groupFinalizer, validGroupNameOf } from '../../lib/karmada/ingress-group.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import { MANAGED_SECURITY_GROUP_ID, securityGroupRef } from '../../lib/providers/aws/model/security-group.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { OWNER_TAG, RESOURCE_TAG, STACK_TAG, TAG_PREFIX } from '../../lib/providers/aws/tagging.js';
import { expectedSummary, summarize, type StateSummary } from '../integration/aws-alb-support.js';
import { CLUSTERS, NAMESPACE, OUR_CONTROLLER } from './world.js';
import { CLUSTER_WEIGHTS } from './workload.js';
import { settleDrains } from '../../lib/providers/aws/deploy/drains.js';
import { providerClusters } from '../../lib/providers/aws/model/service.js';
import type { ClusterRegionMap } from '../../lib/providers/aws/regions/cluster-regions.js';
import { regionShare } from '../../lib/providers/aws/regions/partition.js';

export type FindingKind = 'leaked' | 'missing' | 'diverged' | 'stuck' | 'status' | 'lost' | 'dangling';

export interface Finding {
  kind: FindingKind;
  /** `mci/default/x`, a stack id, or an ARN. */
  subject: string;
  detail: string;
}

export interface InvariantReport {
  leaked: number;
  missing: number;
  diverged: number;
  stuck: number;
  badStatus: number;
  lost: number;
  /** Forwards seen (after an ELBv2 call, during the run) to a target group that did not exist. */
  dangling: number;
  expectedStacks: number;
  /** Expected stacks with a managed security group (when the groups were checked). */
  managedGroups: number;
  actualStacks: number;
  findings: Finding[];
}

export interface CheckInput {
  kube: KubeClient;
  snapshot: Elbv2Snapshot;
  config: AwsProviderConfig;
  /** Whether the provider serves MultiClusterServices (NLBs). */
  servesMcs: boolean;
  /** `mci/<name>` / `mcs/<name>` the workload left in place. */
  present: ReadonlySet<string>;
  /**
   * The WAFv2 simulator's view: the web ACL a load balancer has, and the ARNs of the web ACLs by
   * name. Every ALB must have exactly the web ACL its stack names (none when it names none).
   */
  webAcls?: { of: (lbArn: string) => string | undefined; byName: ReadonlyMap<string, string> };
  /**
   * The EC2 simulator's security groups: a stack that wants a managed group has exactly one, with
   * its rules, named by its load balancer; no other group carries our owner tag, and every group
   * but the VPC's default one does (nothing leaked once its stack is gone).
   */
  securityGroups?: ReadonlyArray<Readonly<ActualGroup>>;
  /**
   * With several Regions, the one this check is of (checkRegions runs it once per Region, with
   * that Region's snapshot, regional configuration, security groups and web ACLs, and merges).
   */
  region?: RegionView;
}

/** One Region of several, as the multi-Region provider splits the work (regions/partition.ts). */
export interface RegionView {
  name: string;
  /** The first configured Region: it also serves an object none of whose clusters has a Region. */
  primary: boolean;
  clusterRegions: ClusterRegionMap;
  /** Each stack's status hostnames: its load balancers' DNS names, every Region's, in configuration order. */
  hostnames: ReadonlyMap<string, string[]>;
}

interface ActualGroup {
  groupId: string;
  groupName: string;
  tags: Record<string, string>;
  ingress: ReadonlyArray<{ protocol: string; fromPort?: number; toPort?: number; source: object }>;
}

interface Expected {
  stack: Stack;
  obj: MultiClusterIngress | MultiClusterService;
  /** For an IngressGroup's stack: every member, each as `obj` and `blocked` say of one object. */
  members?: Array<{ obj: MultiClusterIngress; blocked: string[] }>;
  /** For an IngressGroup's stack: its name (its finalizer is on every member). */
  group?: string;
  /** For an MCI: status.trafficBlockClusters it must carry. */
  blocked?: string[];
  /** For an MCI: its targets, computed independently of the model. */
  targets?: string[];
}

async function list<T extends KubeObject>(kube: KubeClient, type: ResourceType): Promise<T[]> {
  return (await kube.list<T>(type, type.namespaced ? { namespace: NAMESPACE } : {})).items;
}

function isOurs(mci: MultiClusterIngress, classes: IngressClass[]): boolean {
  const explicit = mci.spec?.ingressClassName;
  const defaults = classes.filter(
    (c) => c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true',
  );
  const cls = explicit
    ? classes.find((c) => c.metadata.name === explicit)
    : defaults.length === 1
      ? defaults[0]
      : undefined;
  return cls?.spec?.controller === OUR_CONTROLLER;
}

function backendServices(mci: MultiClusterIngress): string[] {
  const names = new Set<string>();
  if (mci.spec?.defaultBackend?.service?.name) names.add(mci.spec.defaultBackend.service.name);
  for (const r of mci.spec?.rules ?? [])
    for (const p of r.http?.paths ?? []) if (p.backend.service?.name) names.add(p.backend.service.name);
  return [...names];
}

/** Located clusters (from the Services' bindings) that have TrafficControl, sorted. */
function blockedClusters(
  mci: MultiClusterIngress,
  bindings: ResourceBinding[],
  clusters: Cluster[],
): string[] {
  const located = new Set<string>();
  for (const svc of backendServices(mci)) {
    const rb = bindings.find((b) => b.metadata.name === `${svc}-service`);
    for (const c of rb?.spec?.clusters ?? []) located.add(c.name);
  }
  return clusters
    .filter(
      (c) => located.has(c.metadata.name ?? '') && (c.status?.remedyActions ?? []).includes('TrafficControl'),
    )
    .map((c) => c.metadata.name ?? '')
    .sort();
}

/**
 * Every `address:port` the MCI must send traffic to, worked out here without the provider's model:
 * the ready endpoints of each backend Service in the clusters that are not traffic-blocked, on the
 * slice port named like the Service port.
 */
/**
 * The clusters a cluster-weights list gives weight 0 (named with 0, or named nowhere without `*`):
 * drained, and with the workload's deregistration delay of 0 their targets are gone.
 */
function zeroWeightClusters(mci: MultiClusterIngress): Set<string> {
  const list = mci.metadata.annotations?.[CLUSTER_WEIGHTS];
  if (list === undefined) return new Set();
  const weights = new Map(list.split(',').map((e) => e.split('=').map((x) => x.trim()) as [string, string]));
  return new Set(CLUSTERS.filter((c) => Number(weights.get(c) ?? weights.get('*') ?? '0') === 0));
}

/** The clusters an MCI names in its status: its Services' locations and the blocked ones. */
function namedClusters(mci: MultiClusterIngress): string[] {
  return [
    ...(mci.status?.trafficBlockClusters ?? []),
    ...(mci.status?.serviceLocations ?? []).flatMap((l) => l.clusters ?? []),
  ];
}

/**
 * The slices of an object's backends that its stack in this Region is built from, what it names
 * elsewhere, and whether the Region serves it at all (everything, in a one-Region check).
 */
function regionalSlices(
  slices: EndpointSlice[],
  services: readonly string[],
  named: readonly string[],
  region: RegionView | undefined,
): { slices: EndpointSlice[]; elsewhere?: Set<string>; serves: boolean } {
  if (!region) return { slices, serves: true };
  const own = slices.filter((s) =>
    services.some((svc) => s.metadata.labels?.['kubernetes.io/service-name'] === `derived-${svc}`),
  );
  const share = regionShare(own, region.clusterRegions, region.name, region.primary, named);
  return { slices: share.slices, elsewhere: share.elsewhere, serves: share.serves };
}

function expectedTargets(
  mci: MultiClusterIngress,
  services: Service[],
  slices: EndpointSlice[],
  blocked: string[],
): string[] {
  const zero = zeroWeightClusters(mci);
  const backends = [
    ...(mci.spec?.defaultBackend ? [mci.spec.defaultBackend] : []),
    ...(mci.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
  ];
  const out = new Set<string>();
  for (const b of backends) {
    const svc = services.find((s) => s.metadata.name === b.service?.name);
    const want = b.service?.port;
    const port = svc?.spec?.ports?.find((p) => (want?.name ? p.name === want.name : p.port === want?.number));
    if (!svc || !port) continue;
    for (const slice of slices) {
      if (slice.metadata.labels?.['kubernetes.io/service-name'] !== `derived-${svc.metadata.name}`) continue;
      const cluster = slice.metadata.annotations?.['work.karmada.io/namespace']?.replace(/^karmada-es-/, '');
      if (cluster && (blocked.includes(cluster) || zero.has(cluster))) continue;
      const slicePort = slice.ports?.find((p) => (p.name ?? '') === (port.name ?? ''))?.port;
      if (slicePort === undefined) continue;
      for (const ep of slice.endpoints ?? []) {
        if (ep.conditions?.ready === false) continue;
        for (const a of ep.addresses) out.add(`${a}:${slicePort}`);
      }
    }
  }
  return [...out].sort();
}

/** The snapshot's part that belongs to one stack: its LBs and TGs by tag, and what hangs off the LBs. */
function subSnapshot(
  s: Elbv2Snapshot,
  stackId: string,
  ownerId: string,
  tags: Map<string, Record<string, string>>,
): Elbv2Snapshot {
  const mine = (arn: string | undefined) => {
    const t = tags.get(arn ?? '');
    return t?.[OWNER_TAG] === ownerId && t[STACK_TAG] === stackId;
  };
  const loadBalancers = s.loadBalancers.filter((lb) => mine(lb.LoadBalancerArn));
  const lbArns = new Set(loadBalancers.map((lb) => lb.LoadBalancerArn));
  const listeners = s.listeners.filter((l) => lbArns.has(l.LoadBalancerArn));
  const listenerArns = new Set(listeners.map((l) => l.ListenerArn));
  const targetGroups = s.targetGroups.filter((tg) => mine(tg.TargetGroupArn));
  const tgArns = new Set(targetGroups.map((tg) => tg.TargetGroupArn));
  const arns = new Set([...lbArns, ...listenerArns, ...tgArns]);
  const rules = s.rules.filter((r) => listenerArns.has(r.ListenerArn));
  for (const r of rules) arns.add(r.RuleArn);
  return {
    loadBalancers,
    listeners,
    rules,
    targetGroups,
    targets: s.targets.filter((t) => tgArns.has(t.TargetGroupArn)),
    tags: s.tags
      .filter((t) => arns.has(t.ResourceArn))
      .map((t) => ({ ResourceArn: t.ResourceArn, Tags: withoutBookkeeping(t.Tags) })),
  };
}

const IDENTITY_TAGS = new Set([OWNER_TAG, STACK_TAG, RESOURCE_TAG]);

/**
 * Our own tags other than ownership (the no-op fingerprint, creation times for the sweep's grace
 * period…) are the deployer's bookkeeping, not desired state: whether the model carries them or
 * only AWS does, they are left out of the comparison. User and default tags are compared.
 */
function withoutBookkeeping(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tags).filter(([k]) => !k.startsWith(`${TAG_PREFIX}/`) || IDENTITY_TAGS.has(k)),
  );
}

/** Order-insensitive form: every list sorted by its items' canonical JSON, bookkeeping tags left out. */
function normalize(summary: StateSummary): Record<string, string[]> {
  const item = (i: unknown) => {
    const tags = (i as { tags?: Record<string, string> }).tags;
    return canonicalJson(tags ? { ...(i as object), tags: withoutBookkeeping(tags) } : i);
  };
  return Object.fromEntries(
    Object.entries(summary).map(([k, items]) => [k, (items as unknown[]).map(item).sort()]),
  );
}

function describeDiff(actual: StateSummary, expected: StateSummary): string {
  const a = normalize(actual);
  const e = normalize(expected);
  const parts: string[] = [];
  for (const key of Object.keys(e)) {
    const extra = (a[key] ?? []).filter((x) => !(e[key] ?? []).includes(x));
    const lacking = (e[key] ?? []).filter((x) => !(a[key] ?? []).includes(x));
    // Both sides of a changed item usually differ in one field: show only the fields that differ.
    if (extra.length === 1 && lacking.length === 1) {
      const x = JSON.parse(extra[0]!) as Record<string, unknown>;
      const y = JSON.parse(lacking[0]!) as Record<string, unknown>;
      const fields = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter(
        (f) => JSON.stringify(x[f]) !== JSON.stringify(y[f]),
      );
      parts.push(
        `${key} ${String(y.name ?? y.priority ?? '')}: ${fields.map((f) => `${f} is ${JSON.stringify(x[f])}, expected ${JSON.stringify(y[f])}`).join('; ')}`,
      );
      continue;
    }
    if (extra.length || lacking.length)
      parts.push(
        `${key}: unexpected ${extra.length ? extra.join(' ') : '-'}; expected ${lacking.length ? lacking.join(' ') : '-'}`,
      );
  }
  return parts.join(' | ');
}

function resourceCount(s: Elbv2Snapshot): number {
  return (
    s.loadBalancers.length +
    s.targetGroups.length +
    s.listeners.length +
    s.rules.filter((r) => !r.IsDefault).length
  );
}

export async function checkInvariants(input: CheckInput): Promise<InvariantReport> {
  const { kube, snapshot, config } = input;
  const report: InvariantReport = {
    leaked: 0,
    missing: 0,
    diverged: 0,
    stuck: 0,
    badStatus: 0,
    lost: 0,
    dangling: 0,
    expectedStacks: 0,
    managedGroups: 0,
    actualStacks: 0,
    findings: [],
  };
  const find = (kind: FindingKind, subject: string, detail: string, count = 1) => {
    report.findings.push({ kind, subject, detail });
    if (kind === 'status') report.badStatus += count;
    else report[kind] += count;
  };

  const [mcis, mcss, services, slices, clusters, bindings, classes] = await Promise.all([
    list<MultiClusterIngress>(kube, Resources.MultiClusterIngress),
    list<MultiClusterService>(kube, Resources.MultiClusterService),
    list<Service>(kube, Resources.Service),
    list<EndpointSlice>(kube, Resources.EndpointSlice),
    list<Cluster>(kube, Resources.Cluster),
    list<ResourceBinding>(kube, Resources.ResourceBinding),
    list<IngressClass>(kube, Resources.IngressClass),
  ]);
  if (clusters.length !== CLUSTERS.length) find('lost', 'clusters', `${clusters.length} clusters`);

  const expected = new Map<string, Expected>();
  const seen = new Set<string>();
  /** True when the object is stuck terminating (reported): nothing else to check about it. */
  const stuck = (kind: 'mci' | 'mcs', obj: KubeObject): boolean => {
    const key = `${kind}/${NAMESPACE}/${obj.metadata.name}`;
    seen.add(`${kind}/${obj.metadata.name}`);
    if (obj.metadata.deletionTimestamp) {
      find(
        'stuck',
        key,
        `terminating since ${obj.metadata.deletionTimestamp} with finalizers ${JSON.stringify(obj.metadata.finalizers ?? [])}`,
      );
      return true;
    }
    if (!input.present.has(`${kind}/${obj.metadata.name}`))
      find('stuck', key, 'the workload deleted it, yet it exists');
    return false;
  };
  const noLoadBalancerStatus = (
    key: string,
    obj: MultiClusterIngress | MultiClusterService,
    finalizer: string,
  ) => {
    if ((obj.metadata.finalizers ?? []).includes(finalizer))
      find('status', key, `not ours, yet carries ${finalizer}`);
    if (obj.status?.loadBalancer?.ingress?.length)
      find('status', key, `not ours, yet status.loadBalancer is ${JSON.stringify(obj.status.loadBalancer)}`);
  };
  const build = (key: string, make: () => Stack): Stack | undefined => {
    try {
      // Every drain over (the workload's drains have no delay): what the deploy settled.
      return settleDrains(make(), undefined, Number.POSITIVE_INFINITY).stack;
    } catch (err) {
      if (!(err instanceof InvalidObjectError)) throw err;
      // The workload writes valid objects only: the model refusing one is worth a look.
      find('status', key, `the model rejects the final object: ${err.message}`);
      return undefined;
    }
  };

  const groups = new Map<string, Array<{ obj: MultiClusterIngress; blocked: string[] }>>();
  for (const mci of mcis) {
    const key = `mci/${NAMESPACE}/${mci.metadata.name}`;
    if (stuck('mci', mci)) continue;
    if (!isOurs(mci, classes)) {
      noLoadBalancerStatus(key, mci, MCI_FINALIZER);
      if (finalizerGroups(mci).length) find('status', key, `not ours, yet carries group finalizers`);
      continue;
    }
    const blocked = blockedClusters(mci, bindings, clusters);
    const { trafficBlockClusters: _tb, ...rest } = mci.status ?? {};
    const group = validGroupNameOf(mci);
    const left = finalizerGroups(mci).filter((g) => g !== group);
    if (left.length)
      find('status', key, `still carries the finalizers of groups it left: ${left.join(', ')}`);
    if (group !== undefined) {
      // Its stack is its group's: built below from every member.
      groups.set(group, [...(groups.get(group) ?? []), { obj: mci, blocked }]);
      continue;
    }
    const parts = await modelPartsFor(mci);
    const mine = regionalSlices(slices, backendServices(mci), namedClusters(mci), input.region);
    if (!mine.serves) continue;
    const stack = build(key, () =>
      buildIngressStack({
        mci: { ...mci, status: blocked.length ? { ...rest, trafficBlockClusters: blocked } : rest },
        parts,
        services,
        endpointSlices: mine.slices,
        ...(mine.elsewhere ? { elsewhere: mine.elsewhere } : {}),
        config,
      }),
    );
    if (stack)
      expected.set(stack.id, {
        stack,
        obj: mci,
        blocked,
        targets: expectedTargets(mci, services, mine.slices, blocked),
      });
  }
  for (const [group, members] of groups) {
    const ref = groupStackRef(group, NAMESPACE);
    const parts = await Promise.all(members.map(({ obj }) => modelPartsFor(obj)));
    const shares = members.map(({ obj }) =>
      regionalSlices(slices, backendServices(obj), namedClusters(obj), input.region),
    );
    if (!shares.some((m) => m.serves)) continue;
    const model = buildIngressGroupStack({
      ref,
      group,
      members: members.map(({ obj, blocked }, i) => {
        const { trafficBlockClusters: _tb, ...rest } = obj.status ?? {};
        const mine = shares[i]!;
        return {
          mci: { ...obj, status: blocked.length ? { ...rest, trafficBlockClusters: blocked } : rest },
          parts: parts[i],
          services,
          endpointSlices: mine.slices,
          ...(mine.elsewhere ? { elsewhere: mine.elsewhere } : {}),
        };
      }),
      config,
    });
    // The workload's members never conflict: one left out is worth a look.
    for (const [member, err] of model.excluded)
      find('status', `mci/${member}`, `left out of IngressGroup ${group}: ${err.message}`);
    if (!model.stack) continue;
    const settled = settleDrains(model.stack, undefined, Number.POSITIVE_INFINITY).stack;
    const targets = new Set(
      members.flatMap(({ obj, blocked }, i) => expectedTargets(obj, services, shares[i]!.slices, blocked)),
    );
    expected.set(settled.id, {
      stack: settled,
      obj: members[0]!.obj,
      members,
      group,
      targets: [...targets].sort(),
    });
  }
  for (const mcs of mcss) {
    const key = `mcs/${NAMESPACE}/${mcs.metadata.name}`;
    if (stuck('mcs', mcs)) continue;
    if (!input.servesMcs || !(mcs.spec?.types ?? []).includes('LoadBalancer')) {
      noLoadBalancerStatus(key, mcs, MCS_FINALIZER);
      continue;
    }
    const service = services.find((s) => s.metadata.name === mcs.metadata.name);
    const name = mcs.metadata.name ?? '';
    const mine = input.region
      ? regionalSlices(slices, [name], providerClusters(mcs) ?? [], input.region)
      : {
          slices: slices.filter(
            (s) => s.metadata.labels?.['kubernetes.io/service-name'] === `derived-${name}`,
          ),
          serves: true,
        };
    if (!mine.serves) continue;
    const stack = build(key, () =>
      buildServiceStack({
        mcs,
        service,
        endpointSlices: mine.slices,
        ...(mine.elsewhere ? { elsewhere: mine.elsewhere } : {}),
        config,
      }),
    );
    if (stack) expected.set(stack.id, { stack, obj: mcs });
  }
  for (const name of input.present)
    if (!seen.has(name)) find('lost', name, 'the workload created it, yet it is gone');

  // Every resource must carry our owner tag and a stack.
  const tags = new Map(snapshot.tags.map((t) => [t.ResourceArn, t.Tags]));
  const actualStacks = new Set<string>();
  const tagged = (kind: string, arn: string | undefined, name: string | undefined) => {
    const t = tags.get(arn ?? '') ?? {};
    if (t[OWNER_TAG] !== config.ownerId || !t[STACK_TAG]) {
      find('leaked', arn ?? '?', `${kind} ${name ?? ''} without our owner/stack tags: ${JSON.stringify(t)}`);
      return undefined;
    }
    return t[STACK_TAG];
  };
  for (const lb of snapshot.loadBalancers) {
    const s = tagged('load balancer', lb.LoadBalancerArn, lb.LoadBalancerName);
    if (s) actualStacks.add(s);
  }
  for (const tg of snapshot.targetGroups) {
    const s = tagged('target group', tg.TargetGroupArn, tg.TargetGroupName);
    if (s) actualStacks.add(s);
  }
  for (const l of snapshot.listeners) tagged('listener', l.ListenerArn, `${l.Protocol}:${l.Port}`);
  for (const r of snapshot.rules) if (!r.IsDefault) tagged('rule', r.RuleArn, `priority ${r.Priority}`);
  report.expectedStacks = expected.size;
  if (input.securityGroups) {
    report.managedGroups = [...expected.values()].filter((e) => e.stack.securityGroup).length;
    for (const g of input.securityGroups) {
      if (g.groupName === 'default') continue;
      const stackId = g.tags[STACK_TAG];
      if (g.tags[OWNER_TAG] !== config.ownerId || !stackId)
        find('leaked', g.groupId, `security group ${g.groupName} without our owner/stack tags`);
      else if (!expected.get(stackId)?.stack.securityGroup)
        find('leaked', g.groupId, `security group ${g.groupName} of ${stackId}, which wants none`);
    }
  }
  report.actualStacks = actualStacks.size;

  for (const stackId of new Set([...expected.keys(), ...actualStacks])) {
    const want = expected.get(stackId);
    const sub = subSnapshot(snapshot, stackId, config.ownerId, tags);
    if (!want) {
      find(
        'leaked',
        stackId,
        `no surviving object wants it: ${sub.loadBalancers.map((l) => l.LoadBalancerName).join(',')} ${sub.targetGroups.map((t) => t.TargetGroupName).join(',')}`,
        resourceCount(sub),
      );
      continue;
    }
    const wanted = expectedSummary(
      input.securityGroups ? withManagedGroup(stackId, want.stack, input.securityGroups, find) : want.stack,
    );
    if (!sub.loadBalancers.length && !sub.targetGroups.length) {
      find(
        'missing',
        stackId,
        'no load balancer, no target group',
        resourcesOf(want.stack, ResourceTypes.LoadBalancer).length +
          wanted.targetGroups.length +
          wanted.listeners.length +
          wanted.rules.length,
      );
    } else {
      const got = summarize(sub);
      if (JSON.stringify(normalize(got)) !== JSON.stringify(normalize(wanted)))
        find('diverged', stackId, describeDiff(got, wanted));
      const targets = [...new Set(sub.targets.map((t) => `${t.Id}:${t.Port}`))].sort();
      if (want.targets && JSON.stringify(targets) !== JSON.stringify(want.targets))
        find(
          'diverged',
          stackId,
          `targets ${JSON.stringify(targets)}, expected ${JSON.stringify(want.targets)}`,
        );
    }
    if (input.webAcls) checkWebAcl(stackId, want.stack, sub, input.webAcls, find);
    checkStatus(stackId, want, sub, find, input.region?.hostnames);
  }
  return report;
}

const ruleKey = (protocol: string, from: number | undefined, to: number | undefined, source: object) =>
  `${protocol}|${from ?? ''}|${to ?? ''}|${canonicalJson(source)}`;

/**
 * The stack as it must be with its managed group: exactly one group of ours named as the model
 * names it, with exactly the model's inbound rules, its ID in place of the load balancer's
 * placeholder (the stack as it is when it wants none, or the group is not there: reported).
 */
function withManagedGroup(
  stackId: string,
  stack: Stack,
  groups: NonNullable<CheckInput['securityGroups']>,
  find: (kind: FindingKind, subject: string, detail: string) => void,
): Stack {
  const spec = stack.securityGroup;
  if (!spec) return stack;
  const mine = groups.filter((g) => g.tags[STACK_TAG] === stackId && g.groupName === spec.name);
  const [group] = mine;
  if (!group || mine.length > 1) {
    find('missing', stackId, `managed security group ${spec.name}: ${mine.length} found, expected 1`);
    return stack;
  }
  const want = spec.ingress.map((r) => ruleKey(r.protocol, r.port, r.toPort ?? r.port, r.source)).sort();
  const got = group.ingress.map((r) => ruleKey(r.protocol, r.fromPort, r.toPort, r.source)).sort();
  if (JSON.stringify(got) !== JSON.stringify(want))
    find(
      'diverged',
      stackId,
      `security group ${group.groupId} rules ${got.join(' ')}, expected ${want.join(' ')}`,
    );
  const placeholder = securityGroupRef(MANAGED_SECURITY_GROUP_ID);
  return {
    ...stack,
    resources: stack.resources.map((r) =>
      r.type === ResourceTypes.LoadBalancer && r.spec.securityGroups
        ? {
            ...r,
            spec: {
              ...r.spec,
              securityGroups: r.spec.securityGroups.map((g) => (g === placeholder ? group.groupId : g)),
            },
          }
        : r,
    ),
  };
}

/** The stack's ALB has the web ACL its model names (by ARN or name), and none otherwise. */
function checkWebAcl(
  stackId: string,
  stack: Stack,
  sub: Elbv2Snapshot,
  webAcls: NonNullable<CheckInput['webAcls']>,
  find: (kind: FindingKind, subject: string, detail: string) => void,
): void {
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  const spec = lb?.spec.webAcl;
  const wanted =
    spec?.kind === 'arn' ? spec.arn : spec?.kind === 'name' ? webAcls.byName.get(spec.name) : undefined;
  for (const actual of sub.loadBalancers) {
    if (actual.Type !== 'application' || !actual.LoadBalancerArn) continue;
    const got = webAcls.of(actual.LoadBalancerArn);
    if (got !== wanted) find('diverged', stackId, `web ACL ${got ?? 'none'}, expected ${wanted ?? 'none'}`);
  }
}

function checkStatus(
  stackId: string,
  want: Expected,
  sub: Elbv2Snapshot,
  find: (kind: FindingKind, subject: string, detail: string) => void,
  across?: ReadonlyMap<string, string[]>,
): void {
  if (want.members) {
    // Every member of a group: its finalizers, the shared ALB's hostname, its own blocked clusters.
    for (const member of want.members) {
      const key = `mci/${NAMESPACE}/${member.obj.metadata.name}`;
      const finalizers = member.obj.metadata.finalizers ?? [];
      if (!finalizers.includes(groupFinalizer(want.group ?? '')))
        find('status', key, `is on the ALB of IngressGroup ${want.group} without its finalizer`);
      checkStatus(key, { stack: want.stack, obj: member.obj, blocked: member.blocked }, sub, find, across);
    }
    return;
  }
  const finalizer = stackId.startsWith('mci') ? MCI_FINALIZER : MCS_FINALIZER;
  if (!(want.obj.metadata.finalizers ?? []).includes(finalizer))
    find('status', stackId, `has a load balancer but no ${finalizer}`);
  const hostnames = (want.obj.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname);
  const dns = sub.loadBalancers.map((lb) => (lb.DNSName ?? '').toLowerCase());
  // Several Regions: every served Region's load balancer, in the configuration's order.
  const wanted = across ? (across.get(want.stack.id) ?? []) : dns.slice(0, 1);
  if (JSON.stringify(hostnames) !== JSON.stringify(wanted) || dns.length !== 1)
    find(
      'status',
      stackId,
      `status.loadBalancer hostnames ${JSON.stringify(hostnames)}, load balancers ${JSON.stringify(dns)}`,
    );
  if (want.blocked) {
    const got = (want.obj as MultiClusterIngress).status?.trafficBlockClusters ?? [];
    if (JSON.stringify(got) !== JSON.stringify(want.blocked))
      find(
        'status',
        stackId,
        `status.trafficBlockClusters ${JSON.stringify(got)}, expected ${JSON.stringify(want.blocked)}`,
      );
  }
}

/** One Region's part of a multi-Region check: what its simulators hold, and its configuration. */
export interface RegionalInput {
  region: string;
  snapshot: Elbv2Snapshot;
  config: AwsProviderConfig;
  webAcls?: CheckInput['webAcls'];
  securityGroups?: CheckInput['securityGroups'];
}

/** Each stack's load balancers' DNS names over the Regions, in their order (what its status lists). */
export function hostnamesAcross(regions: readonly RegionalInput[], ownerId: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of regions) {
    const tags = new Map(r.snapshot.tags.map((t) => [t.ResourceArn, t.Tags]));
    for (const lb of r.snapshot.loadBalancers) {
      const t = tags.get(lb.LoadBalancerArn ?? '');
      const stack = t?.[STACK_TAG];
      if (t?.[OWNER_TAG] !== ownerId || !stack) continue;
      out.set(stack, [...(out.get(stack) ?? []), (lb.DNSName ?? '').toLowerCase()]);
    }
  }
  return out;
}

/** Findings about an object (not about one Region's stack): the same in every Region's check. */
const OBJECT_KINDS: ReadonlySet<FindingKind> = new Set(['stuck', 'lost', 'status']);

/**
 * The check over several Regions: each Region's stacks against that Region's share of the
 * objects (its clusters' endpoints), findings about a Region's resources named with their Region,
 * findings about the objects once.
 */
export async function checkRegions(
  input: Omit<CheckInput, 'snapshot' | 'config' | 'webAcls' | 'securityGroups' | 'region'> & {
    clusterRegions: ClusterRegionMap;
    regions: readonly RegionalInput[];
  },
): Promise<InvariantReport> {
  const { regions, clusterRegions, ...common } = input;
  const hostnames = hostnamesAcross(regions, regions[0]?.config.ownerId ?? '');
  const merged: InvariantReport = {
    leaked: 0,
    missing: 0,
    diverged: 0,
    stuck: 0,
    badStatus: 0,
    lost: 0,
    dangling: 0,
    expectedStacks: 0,
    managedGroups: 0,
    actualStacks: 0,
    findings: [],
  };
  const seen = new Set<string>();
  for (const [i, r] of regions.entries()) {
    const report = await checkInvariants({
      ...common,
      snapshot: r.snapshot,
      config: r.config,
      ...(r.webAcls ? { webAcls: r.webAcls } : {}),
      ...(r.securityGroups ? { securityGroups: r.securityGroups } : {}),
      region: { name: r.region, primary: i === 0, clusterRegions, hostnames },
    });
    merged.leaked += report.leaked;
    merged.missing += report.missing;
    merged.diverged += report.diverged;
    merged.expectedStacks += report.expectedStacks;
    merged.managedGroups += report.managedGroups;
    merged.actualStacks += report.actualStacks;
    for (const f of report.findings) {
      if (OBJECT_KINDS.has(f.kind)) {
        const key = `${f.kind} ${f.subject} ${f.detail}`;
        if (seen.has(key)) continue;
        seen.add(key);
        merged.findings.push(f);
        if (f.kind === 'status') merged.badStatus++;
        else merged[f.kind]++;
      } else merged.findings.push({ ...f, subject: `${r.region} ${f.subject}` });
    }
  }
  return merged;
}
