/**
 * Builds the topology of one object from the AWS provider's desired stack (the public model
 * types), the EndpointSlices it was built from (which cluster each target comes from), and,
 * when given, the change plan that would bring AWS to it (what is still to be created, modified
 * or drained).
 */
import type { EndpointSlice, MultiClusterIngress, MultiClusterService } from '../karmada/types.js';
import type { Operation, Stack } from '../providers/aws/index.js';
import { sourceClusterOf } from '../providers/aws/model/targets.js';
import type {
  Action,
  ListenerResource,
  ListenerRuleResource,
  RuleCondition,
  TargetGroupResource,
} from '../providers/aws/model/types.js';
import type {
  ActionNode,
  ClusterNode,
  ListenerNode,
  LoadBalancerNode,
  Pending,
  RuleNode,
  TargetGroupNode,
  TargetNode,
  Topology,
  TopologyObject,
} from './types.js';

export interface TopologyInput {
  object: MultiClusterIngress | MultiClusterService;
  stack: Stack;
  endpointSlices: readonly EndpointSlice[];
  region: string;
  /** The change plan from what AWS holds to `stack`; absent: the stack as if deployed. */
  plan?: readonly Operation[];
  /**
   * With a plan: the load balancer's DNS name as AWS has it (absent: it is still to be created).
   * Without: the object's status says it (an accelerator in front has a plan: its status is GA's).
   */
  dnsName?: string;
}

export function objectOf(obj: MultiClusterIngress | MultiClusterService): TopologyObject {
  return {
    kind: obj.kind === 'MultiClusterService' ? 'MultiClusterService' : 'MultiClusterIngress',
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
  };
}

/** The topology of an object that builds no stack: the reason, and nothing drawn. */
export function failedTopology(obj: MultiClusterIngress | MultiClusterService, error: string): Topology {
  return { object: objectOf(obj), frontDoors: [], regions: [], blockedClusters: blockedOf(obj), error };
}

/** The clusters whose traffic Karmada blocks (MCI `status.trafficBlockClusters`), sorted. */
export function blockedOf(obj: MultiClusterIngress | MultiClusterService): string[] {
  const status = obj.status as { trafficBlockClusters?: string[] } | undefined;
  return [...(status?.trafficBlockClusters ?? [])].sort();
}

function action(a: Action | undefined): ActionNode {
  if (!a) return { type: 'fixed-response', statusCode: '404' };
  if (a.type === 'forward') {
    if ('targetGroup' in a)
      return { type: 'forward', targetGroups: [{ id: a.targetGroup.$ref, weight: 100 }] };
    const total = a.targetGroups.reduce((n, g) => n + g.weight, 0);
    return {
      type: 'forward',
      targetGroups: a.targetGroups.map((g) => ({
        id: g.targetGroup.$ref,
        weight: total > 0 ? Math.round((g.weight * 100) / total) : 0,
      })),
    };
  }
  if (a.type === 'redirect') {
    return {
      type: 'redirect',
      protocol: a.redirect.protocol ?? '#{protocol}',
      port: a.redirect.port ?? '#{port}',
      statusCode: a.redirect.statusCode.replace('HTTP_', ''),
    };
  }
  if (a.type !== 'fixed-response') return { type: 'fixed-response', statusCode: '404' };
  return { type: 'fixed-response', statusCode: a.fixedResponse.statusCode };
}

/** What a rule (or a listener by default) does in the end: its terminal action, after any authentication. */
const terminal = (actions: readonly Action[]) => actions[actions.length - 1];

function conditionNode(c: RuleCondition): RuleNode['conditions'][number] {
  const regex = 'regex' in c && c.regex ? ' ~' : '';
  switch (c.field) {
    case 'host-header':
      return { field: `host${regex}`, values: [...c.values] };
    case 'path-pattern':
      return { field: `path${regex}`, values: [...c.values] };
    case 'http-header':
      return { field: `${c.field} ${c.httpHeaderName}${regex}`, values: [...c.values] };
    case 'query-string':
      return {
        field: c.field,
        values: c.values.map((p) => (p.key !== undefined ? `${p.key}=${p.value}` : p.value)),
      };
    default:
      return { field: c.field, values: [...c.values] };
  }
}

function healthCheckText(tg: TargetGroupResource): string {
  const h = tg.spec.healthCheck;
  return [
    h.protocol,
    h.path,
    h.port === 'traffic-port' ? undefined : `port ${h.port}`,
    `every ${h.intervalSeconds}s`,
    h.matcher
      ? 'grpcCode' in h.matcher
        ? `gRPC codes ${h.matcher.grpcCode}`
        : `codes ${h.matcher.httpCode}`
      : undefined,
  ]
    .filter((p) => p !== undefined)
    .join(' ');
}

/** What the plan does to each stack resource (by resource id), and to which targets. */
function pendingOf(plan: readonly Operation[] | undefined) {
  const byId = new Map<string, Pending>();
  const registering = new Set<string>();
  const draining = new Map<string, Set<string>>();
  for (const op of plan ?? []) {
    if (op.resource === 'Targets') {
      for (const call of op.calls) {
        if (call.action === 'RegisterTargets')
          for (const t of call.input.Targets ?? []) registering.add(`${op.id}|${t.Id ?? ''}:${t.Port ?? ''}`);
        if (call.action === 'DeregisterTargets') {
          const set = draining.get(op.id) ?? new Set<string>();
          for (const t of call.input.Targets ?? []) set.add(`${t.Id ?? ''}:${t.Port ?? ''}`);
          draining.set(op.id, set);
        }
      }
      continue;
    }
    // A modify that only rewrites the fingerprint tag is bookkeeping, not a change to show.
    if (op.op === 'modify' && /^fingerprint /.test(op.detail)) continue;
    byId.set(op.id, byId.get(op.id) ?? op.op);
  }
  return { byId, registering, draining };
}

export function buildTopology(input: TopologyInput): Topology {
  const { stack, object } = input;
  const pending = pendingOf(input.plan);
  const knownClusters = [
    ...new Set(
      input.endpointSlices.map((s) => sourceClusterOf(s, [])).filter((c): c is string => c !== undefined),
    ),
  ];
  // Which cluster an address comes from, and how many endpoints per cluster are not ready.
  const clusterOfAddress = new Map<string, string>();
  const notReady = new Map<string, number>();
  for (const slice of input.endpointSlices) {
    const cluster = sourceClusterOf(slice, knownClusters) ?? 'unknown cluster';
    for (const ep of slice.endpoints ?? []) {
      if (ep.conditions?.ready === false)
        notReady.set(cluster, (notReady.get(cluster) ?? 0) + ep.addresses.length);
      for (const a of ep.addresses) clusterOfAddress.set(a, cluster);
    }
  }

  const byType = <T>(type: string) => stack.resources.filter((r) => r.type === type) as T[];
  const tgs = byType<TargetGroupResource>('AWS::ElasticLoadBalancingV2::TargetGroup');
  const listeners = byType<ListenerResource>('AWS::ElasticLoadBalancingV2::Listener');
  const rules = byType<ListenerRuleResource>('AWS::ElasticLoadBalancingV2::ListenerRule');
  const lb = stack.resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::LoadBalancer');
  if (!lb || lb.type !== 'AWS::ElasticLoadBalancingV2::LoadBalancer') {
    return failedTopology(object, `stack ${stack.id} has no load balancer`);
  }

  const targetGroups = tgs.map((tg): TargetGroupNode => {
    const clusters = new Map<string, TargetNode[]>();
    const add = (cluster: string, t: TargetNode) =>
      clusters.set(cluster, [...(clusters.get(cluster) ?? []), t]);
    for (const t of tg.spec.targets) {
      const key = `${t.id}:${t.port}`;
      add(clusterOfAddress.get(t.id) ?? 'unknown cluster', {
        id: t.id,
        port: t.port,
        state: pending.registering.has(`${tg.id}|${key}`) ? 'registering' : 'registered',
        outsideVpc: t.availabilityZone === 'all',
      });
    }
    for (const key of pending.draining.get(tg.id) ?? []) {
      const [id = '', port = '0'] = key.split(':');
      add(clusterOfAddress.get(id) ?? 'unknown cluster', {
        id,
        port: Number(port),
        state: 'draining',
        outsideVpc: false,
      });
    }
    const serving = tg.spec.targets.length;
    const clusterNodes = [...clusters.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, targets]): ClusterNode => {
        const live = targets.filter((t) => t.state !== 'draining').length;
        // A drained group is at weight 0 in every forward: its clusters take no new requests.
        const drained = tg.spec.drain === true;
        return {
          name,
          weight: serving === 0 || drained ? 0 : Math.round((live / serving) * 1000) / 10,
          ...(drained ? { drained: true as const } : {}),
          targets,
          notReady: notReady.get(name) ?? 0,
        };
      });
    return {
      id: tg.id,
      name: tg.spec.name,
      protocol: tg.spec.protocol,
      port: tg.spec.port,
      healthCheck: healthCheckText(tg),
      ...(pending.byId.get(tg.id) ? { pending: pending.byId.get(tg.id) } : {}),
      clusters: clusterNodes,
    };
  });

  const listenerNodes = listeners.map((l): ListenerNode => {
    const ruleNodes = rules
      .filter((r) => r.spec.listener.$ref === l.id)
      .sort((a, b) => a.spec.priority - b.spec.priority)
      .map((r): RuleNode => ({
        id: r.id,
        priority: r.spec.priority,
        conditions: r.spec.conditions.map(conditionNode),
        action: action(terminal(r.spec.actions)),
        ...(pending.byId.get(r.id) ? { pending: pending.byId.get(r.id) } : {}),
      }));
    return {
      id: l.id,
      protocol: l.spec.protocol,
      port: l.spec.port,
      certificates: [...(l.spec.certificates ?? [])],
      ...(l.spec.sslPolicy ? { sslPolicy: l.spec.sslPolicy } : {}),
      defaultAction: action(terminal(l.spec.defaultActions)),
      rules: ruleNodes,
      ...(pending.byId.get(l.id) ? { pending: pending.byId.get(l.id) } : {}),
    };
  });

  const address = input.plan
    ? input.dnsName
    : (object.status?.loadBalancer?.ingress ?? [])
        .map((i) => (i as { hostname?: string; ip?: string }).hostname ?? (i as { ip?: string }).ip)
        .find((a) => a);
  const loadBalancer: LoadBalancerNode = {
    id: lb.id,
    name: lb.spec.name,
    type: lb.spec.type,
    scheme: lb.spec.scheme,
    ...(address ? { dnsName: address } : {}),
    ...(pending.byId.get(lb.id) ? { pending: pending.byId.get(lb.id) } : {}),
    listeners: listenerNodes,
    targetGroups,
  };
  return {
    object: objectOf(object),
    frontDoors: [],
    regions: [{ region: input.region, loadBalancers: [loadBalancer] }],
    blockedClusters: blockedOf(object),
  };
}
