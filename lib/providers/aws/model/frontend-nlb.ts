/**
 * LBC's frontend NLB (`enable-frontend-nlb`, pkg/ingress/model_build_frontend_nlb.go): a Network
 * Load Balancer in front of a MultiClusterIngress's ALB, for static addresses (Elastic IPs) and
 * PrivateLink. Each NLB listener is TCP and forwards to a target group of target type `alb`
 * whose one target is the ALB, on the ALB listener's port: by default one NLB listener per ALB
 * listener port, or as `frontend-nlb-listener-port-mapping` says (`<nlb port>=<alb port>`).
 *
 * Its settings are read with the ALB's (so a bad value fails before anything else), and the NLB
 * joins the ALB's stack under FRONTEND_NLB_ID: discovered, planned, tagged, swept and deleted
 * with it. As in LBC it is a group-level setting of an IngressGroup (ingress-group.ts).
 * Where this differs from LBC: a mapping to a port the ALB does not listen on is refused (LBC
 * skips it with a log line), and security groups are IDs only (as the ALB's are here).
 */
import { ALB_KEYS } from './annotations/keys.js';
import { loadBalancerAttributesOf } from './annotations/attributes.js';
import { frontendNlbHealthCheck } from './annotations/health-check.js';
import { stackUserTags, userTags, type Scheme } from './annotations/load-balancer.js';
import { eipAllocationsPerSubnet } from './annotations/nlb.js';
import {
  invalid,
  keyValues,
  oneOf,
  raw,
  resourceIds,
  subnetIdsOrNames,
  type Annotations,
} from './annotations/parse.js';
import { resolveSubnets } from './subnets.js';
import { targetGroupName } from '../naming.js';
import { resourceTags } from '../tagging.js';
import {
  FRONTEND_NLB_ID,
  LOAD_BALANCER_ID,
  loadBalancerResource,
  ref,
  ResourceTypes,
  type HealthCheckSpec,
  type ListenerResource,
  type LoadBalancerResource,
  type ModelConfig,
  type Placement,
  type StackResource,
  type Tags,
  type TargetGroupResource,
} from './types.js';
import type { StackRef } from '../../../provider/stack-id.js';

const K = ALB_KEYS.frontendNlb;

/** What the frontend-nlb-* annotations say, read only when enable-frontend-nlb is true (as LBC). */
export interface FrontendNlbSettings {
  /** LBC's default is internal, whatever the ALB's scheme. */
  scheme: Scheme;
  /** IDs or names; absent: the configuration's, else discovered for the NLB's scheme. */
  subnets: string[] | undefined;
  /** Absent: the ALB's (LBC). */
  securityGroups: string[] | undefined;
  /** NLB listener port → ALB listener port; absent: each ALB port to the same NLB port. */
  portMapping: ReadonlyMap<number, number> | undefined;
  healthCheck: HealthCheckSpec;
  /** The NLB's and its groups' user tags: frontend-nlb-tags, else the ALB's (LBC). */
  userTags: Record<string, string> | undefined;
  attributes: Record<string, string> | undefined;
  /** The annotations, for the Elastic IPs (checked once the subnets are known). */
  annotations: Annotations;
}

function port(key: string, value: string, whole: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535)
    throw invalid(key, whole, `has ${JSON.stringify(value)}, which is not a port (1-65535)`);
  return Number(value);
}

/** `80=443,8443=443`: NLB port = ALB port, each NLB port once. */
function portMapping(annotations: Annotations): Map<number, number> | undefined {
  const pairs = keyValues(annotations, K.listenerPortMapping);
  if (pairs === undefined) return undefined;
  const whole = raw(annotations, K.listenerPortMapping) ?? '';
  const out = new Map<number, number>();
  for (const [nlb, alb] of Object.entries(pairs)) {
    out.set(port(K.listenerPortMapping, nlb, whole), port(K.listenerPortMapping, alb, whole));
  }
  if (out.size === 0) throw invalid(K.listenerPortMapping, whole, 'maps no port');
  return out;
}

/**
 * The frontend NLB's settings, or undefined when enable-frontend-nlb is absent or false. Every
 * frontend-nlb-* value is checked here, before any AWS call.
 */
export function readFrontendNlb(
  annotations: Annotations,
  config: Pick<ModelConfig, 'defaultTags' | 'externalManagedTags'>,
): FrontendNlbSettings | undefined {
  const enabled = oneOf(annotations, K.enable, ['true', 'false'] as const);
  if (enabled !== 'true') return undefined;
  const tags = userTags(annotations, K.tags);
  const securityGroups = resourceIds(annotations, K.securityGroups, 'sg');
  return {
    scheme: oneOf(annotations, K.scheme, ['internal', 'internet-facing'] as const) ?? 'internal',
    subnets: subnetIdsOrNames(annotations, K.subnets),
    securityGroups,
    portMapping: portMapping(annotations),
    healthCheck: frontendNlbHealthCheck(annotations, K.healthCheck),
    userTags: tags && stackUserTags(config.defaultTags, tags, config.externalManagedTags, K.tags),
    attributes: loadBalancerAttributesOf(annotations, K.attributes, 'network'),
    annotations,
  };
}

/** LBC's name: the ALB's (at most 28 characters of it) and `-nlb`. */
export function frontendNlbName(albName: string): string {
  return `${albName.slice(0, 28).replace(/-+$/, '')}-nlb`;
}

export const frontendListenerId = (port: number): string => `${FRONTEND_NLB_ID}-ls-TCP-${port}`;
export const frontendTargetGroupId = (port: number): string => `${FRONTEND_NLB_ID}-tg-TCP-${port}`;

/** What the frontend NLB is built from besides its settings. */
export interface FrontendNlbInput {
  ref: StackRef;
  ownerId: string;
  placement: Placement;
  alb: LoadBalancerResource;
  /** The ALB's listeners: the ports the NLB forwards to. */
  albListeners: readonly ListenerResource[];
  /** The ALB stack's tags of a resource (used when frontend-nlb-tags is absent). */
  tags: (resourceId: string) => Tags;
}

/** NLB listener port → ALB listener port, every ALB port checked to be one the ALB listens on. */
function listenerPorts(settings: FrontendNlbSettings, albPorts: readonly number[]): Array<[number, number]> {
  if (!settings.portMapping) return albPorts.map((p) => [p, p]);
  const whole = raw(settings.annotations, K.listenerPortMapping) ?? '';
  for (const alb of settings.portMapping.values()) {
    if (!albPorts.includes(alb))
      throw invalid(
        K.listenerPortMapping,
        whole,
        `maps to port ${alb}, which the ALB does not listen on (its listen-ports: ${albPorts.join(', ')})`,
      );
  }
  return [...settings.portMapping].sort(([a], [b]) => a - b);
}

/** The frontend NLB, its TCP listeners and their alb-type target groups. */
export function frontendNlbResources(
  settings: FrontendNlbSettings,
  input: FrontendNlbInput,
): StackResource[] {
  const { placement, alb } = input;
  const owner = { ownerId: input.ownerId, stackId: input.ref.stackId };
  const tags = (id: string): Tags =>
    settings.userTags ? resourceTags(owner, id, settings.userTags) : input.tags(id);
  // ELBv2's NLBs have no dualstack-without-public-ipv4: a dualstack ALB gets a dualstack NLB.
  const ipAddressType = alb.spec.ipAddressType === 'ipv4' ? 'ipv4' : 'dualstack';
  const subnets = resolveSubnets({
    key: K.subnets,
    listed: settings.subnets ?? placement.subnets,
    listedBy: settings.subnets ? 'annotation' : 'configuration',
    scheme: settings.scheme,
    type: 'network',
    ipAddressType,
    catalog: placement.vpc.subnets,
    allowed: placement.allowedSubnets,
  });
  const eipRaw = raw(settings.annotations, K.eipAllocations);
  if (eipRaw !== undefined && settings.scheme !== 'internet-facing')
    throw invalid(
      K.eipAllocations,
      eipRaw,
      `needs ${K.scheme}: internet-facing; this frontend NLB is ${settings.scheme}`,
    );
  const eips = eipAllocationsPerSubnet(settings.annotations, K.eipAllocations, subnets);
  const nlb = loadBalancerResource(
    {
      name: frontendNlbName(alb.spec.name),
      type: 'network',
      scheme: settings.scheme,
      ipAddressType,
      subnets,
      subnetMappings: eips?.map((allocationId, i) => ({ subnetId: subnets[i]!, allocationId })),
      securityGroups: settings.securityGroups ?? alb.spec.securityGroups,
      attributes: settings.attributes,
      tags: tags(FRONTEND_NLB_ID),
    },
    FRONTEND_NLB_ID,
  );
  const albPorts = [...new Set(input.albListeners.map((l) => l.spec.port))].sort((a, b) => a - b);
  const groups: TargetGroupResource[] = [];
  const listeners: ListenerResource[] = [];
  for (const [nlbPort, albPort] of listenerPorts(settings, albPorts)) {
    const tgId = frontendTargetGroupId(nlbPort);
    groups.push({
      id: tgId,
      type: ResourceTypes.TargetGroup,
      spec: {
        name: targetGroupName({
          ownerId: input.ownerId,
          stackId: input.ref.stackId,
          serviceNamespace: input.ref.namespace,
          serviceName: input.ref.name,
          servicePort: `frontend-${nlbPort}`,
          port: nlbPort,
          protocol: 'TCP',
          targetType: 'alb',
          vpcId: placement.vpc.id,
        }),
        targetType: 'alb',
        protocol: 'TCP',
        port: nlbPort,
        ipAddressType: 'ipv4',
        vpcId: placement.vpc.id,
        healthCheck: settings.healthCheck,
        targets: [],
        albTarget: { loadBalancer: ref(LOAD_BALANCER_ID), port: albPort },
        tags: tags(tgId),
      },
    });
    listeners.push({
      id: frontendListenerId(nlbPort),
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: ref(FRONTEND_NLB_ID),
        port: nlbPort,
        protocol: 'TCP',
        defaultActions: [{ type: 'forward', targetGroup: ref(tgId) }],
        tags: tags(frontendListenerId(nlbPort)),
      },
    });
  }
  return [nlb, ...groups, ...listeners];
}

/** Whether a stack resource belongs to the frontend NLB (its load balancer, listeners, groups). */
export function isFrontendResource(r: StackResource): boolean {
  return r.id === FRONTEND_NLB_ID || r.id.startsWith(`${FRONTEND_NLB_ID}-`);
}
