/**
 * The model core shared by the ALB (ingress.ts) and NLB (service.ts) builders: a stack is built
 * from a list of members (the objects whose traffic its load balancer carries) and a placement
 * (where the load balancer lives). Today every stack has one member and the configured Region's
 * placement (`objectStack`); the builders say only what is particular to their load-balancer type.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { ServicePort } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import { stackId, type StackKind, type StackRef } from '../../../provider/stack-id.js';
import { loadBalancerName, targetGroupName } from '../naming.js';
import { CAPACITY_TAG, resourceTags, SHIELD_TAG, WAF_TAG, type StackOwner } from '../tagging.js';
import { loadBalancerAttributes, targetGroupAttributes } from './annotations/attributes.js';
import type { CommonKeys } from './annotations/keys.js';
import {
  parseLoadBalancerAnnotations,
  stackUserTags,
  type LoadBalancerAnnotations,
  type Scheme,
} from './annotations/load-balancer.js';
import type { Annotations } from './annotations/parse.js';
import { candidateLoadBalancerNames } from './lb-names.js';
import { resolveSubnets } from './subnets.js';
import { checkLimits, type LimitFields } from './limits.js';
import {
  LOAD_BALANCER_ID,
  loadBalancerResource,
  ResourceTypes,
  type HealthCheckSpec,
  type LoadBalancerSpec,
  type ModelConfig,
  type ModelWarning,
  type Placement,
  type Stack,
  type StackResource,
  type SubnetMappingSpec,
  type Tags,
  type TargetGroupResource,
  type TargetGroupSpec,
  type TargetSpec,
} from './types.js';

/** What one stack is built from. */
export interface StackSource<M> {
  /** The stack's identity: what its resources are tagged with and its load balancer is named after. */
  ref: StackRef;
  ownerId: string;
  /** The objects whose traffic the load balancer carries, each with what was read for it. */
  members: readonly M[];
  placement: Placement;
  /** The annotations that configure the load balancer itself. */
  annotations: Annotations;
}

/** The configured Region's VPC, subnets and security groups: today's only placement. */
export function configuredPlacement(config: ModelConfig): Placement {
  return {
    vpc: config.vpc,
    ...(config.subnets ? { subnets: config.subnets } : {}),
    ...(config.allowedSubnets ? { allowedSubnets: config.allowedSubnets } : {}),
    ...(config.securityGroups ? { securityGroups: config.securityGroups } : {}),
    ...(config.accountQuotas ? { accountQuotas: config.accountQuotas } : {}),
    ...(config.certificates ? { certificates: config.certificates } : {}),
    ...(config.allowedCertificates ? { allowedCertificates: config.allowedCertificates } : {}),
  };
}

/** An object's namespace and name, both required. */
export function objectName(obj: Readonly<KubeObject>): { namespace: string; name: string } {
  const { namespace, name } = obj.metadata;
  if (!namespace || !name) {
    throw new InvalidObjectError('metadata.name and metadata.namespace are required', { field: 'metadata' });
  }
  return { namespace, name };
}

/** The `<kind>/<namespace>/<name>` stack of one object; needs only metadata, so deletion can use it. */
export function stackRefOf(kind: StackKind, obj: Readonly<KubeObject>): StackRef {
  const { namespace, name } = objectName(obj);
  return { kind, namespace, name, stackId: stackId(kind, namespace, name) };
}

export function stackOwner(kind: StackKind, obj: Readonly<KubeObject>, ownerId: string): StackOwner {
  return { ownerId, stackId: stackRefOf(kind, obj).stackId };
}

/** The simplest stack: one object, configured by its own annotations, in the configured Region. */
export function objectStack<M>(
  kind: StackKind,
  obj: Readonly<KubeObject>,
  member: M,
  config: ModelConfig,
): StackSource<M> {
  return {
    ref: stackRefOf(kind, obj),
    ownerId: config.ownerId,
    members: [member],
    placement: configuredPlacement(config),
    annotations: obj.metadata.annotations,
  };
}

/** The deterministic load balancer name of a stack for a scheme. */
export function derivedLoadBalancerName(
  ref: StackRef,
  ownerId: string,
  type: LoadBalancerSpec['type'],
  scheme: Scheme,
): string {
  return loadBalancerName({
    ownerId,
    stackId: ref.stackId,
    namespace: ref.namespace,
    name: ref.name,
    type,
    scheme,
  });
}

/** An object carrying the status we write (`loadBalancer.ingress[].hostname`). */
type WithLoadBalancerStatus = KubeObject & {
  status?: { loadBalancer?: { ingress?: ReadonlyArray<{ hostname?: string }> } };
};

/** Every name an object's load balancer may carry, the wanted one first (see candidateLoadBalancerNames). */
export function objectLoadBalancerNames(
  kind: StackKind,
  obj: Readonly<WithLoadBalancerStatus>,
  keys: CommonKeys,
  type: LoadBalancerSpec['type'],
  config: Pick<ModelConfig, 'ownerId' | 'scheme'>,
): string[] {
  const ref = stackRefOf(kind, obj);
  return candidateLoadBalancerNames({
    annotations: obj.metadata.annotations,
    keys,
    hostnames: (obj.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname),
    defaultScheme: config.scheme,
    derived: (scheme) => derivedLoadBalancerName(ref, config.ownerId, type, scheme),
  });
}

/** What every stack reads from its annotations the same way, whatever its load-balancer type. */
export interface StackSettings<P> {
  loadBalancer: LoadBalancerAnnotations;
  scheme: Scheme;
  /** The builder's own annotations (listeners, TLS, health check), read in between. */
  particular: P;
  targetGroupAttributes: Record<string, string> | undefined;
  loadBalancerAttributes: Record<string, string> | undefined;
  /** The full tag set of one resource of the stack. */
  tags: (resourceId: string) => Tags;
  /** The subnets annotation of this type (named when subnets cannot be resolved). */
  subnetsKey: string;
}

/**
 * Reads the stack's annotations: the load balancer's first, then `particular`'s, then the
 * attributes (so a bad value is reported in the same order whatever the type). Fails on the
 * first bad value, before anything else is looked at.
 */
export function readStackSettings<P>(
  source: StackSource<unknown>,
  keys: CommonKeys,
  type: LoadBalancerSpec['type'],
  config: ModelConfig,
  particular: (annotations: Annotations) => P,
): StackSettings<P> {
  const annotations = source.annotations;
  const loadBalancer = parseLoadBalancerAnnotations(annotations, keys);
  const own = particular(annotations);
  const tgAttributes = targetGroupAttributes(annotations, keys, type === 'application' ? 'HTTP' : 'TCP');
  const lbAttributes = loadBalancerAttributes(annotations, keys, type);
  const userTags = stackUserTags(
    config.defaultTags,
    loadBalancer.tags,
    config.externalManagedTags,
    keys.tags,
  );
  const owner = { ownerId: source.ownerId, stackId: source.ref.stackId };
  return {
    loadBalancer,
    scheme: loadBalancer.scheme ?? config.scheme,
    particular: own,
    targetGroupAttributes: tgAttributes,
    loadBalancerAttributes: lbAttributes,
    tags: (resourceId) => resourceTags(owner, resourceId, userTags),
    subnetsKey: keys.subnets,
  };
}

/**
 * The port an IP target group is created with: a numeric targetPort, else the port itself; 1 for
 * a named targetPort (as LBC: each registered target carries its own port).
 */
export function targetPort(servicePort: ServicePort): number {
  const tp = servicePort.targetPort;
  return typeof tp === 'number' ? tp : tp === undefined ? servicePort.port : 1;
}

export interface IpTargetGroupInput {
  /** The resource ID (one group per member, Service and Service port). */
  id: string;
  service: { namespace: string; name: string };
  servicePort: ServicePort;
  /** The Service port as the member wrote it (number or name): part of the group's name. */
  portKey: string;
  protocol: TargetGroupSpec['protocol'];
  protocolVersion?: TargetGroupSpec['protocolVersion'];
  /** Absent: ipv4. */
  ipAddressType?: TargetGroupSpec['ipAddressType'];
  healthCheck: HealthCheckSpec;
  /** Absent: the stack's (target-group-attributes on the object itself). */
  attributes?: Record<string, string> | undefined;
  targets: TargetSpec[];
  /** Per-cluster mode: which clusters the group serves, and whether they are drained. */
  slice?: { key: string; clusters: readonly string[]; drain: boolean };
}

/** A target group of target type ip in the stack's VPC. */
export function ipTargetGroup(
  source: StackSource<unknown>,
  settings: StackSettings<unknown>,
  input: IpTargetGroupInput,
): TargetGroupResource {
  const port = targetPort(input.servicePort);
  const vpcId = source.placement.vpc.id;
  const attributes = 'attributes' in input ? input.attributes : settings.targetGroupAttributes;
  const ipAddressType = input.ipAddressType ?? 'ipv4';
  return {
    id: input.id,
    type: ResourceTypes.TargetGroup,
    spec: {
      name: targetGroupName({
        ownerId: source.ownerId,
        stackId: source.ref.stackId,
        serviceNamespace: input.service.namespace,
        serviceName: input.service.name,
        servicePort: input.portKey,
        port,
        protocol: input.protocol,
        protocolVersion: input.protocolVersion,
        targetType: 'ip',
        vpcId,
        ipAddressType,
        ...(source.ref.kind === 'mci-group' ? { member: input.id } : {}),
        ...(input.slice ? { slice: input.slice.key } : {}),
      }),
      targetType: 'ip',
      protocol: input.protocol,
      ...(input.protocolVersion ? { protocolVersion: input.protocolVersion } : {}),
      port,
      ipAddressType,
      vpcId,
      healthCheck: input.healthCheck,
      targets: input.targets,
      ...(attributes ? { attributes } : {}),
      ...(input.slice ? { clusters: [...input.slice.clusters] } : {}),
      ...(input.slice?.drain ? { drain: true as const } : {}),
      tags: settings.tags(input.id),
    },
  };
}

/**
 * The load balancer's subnets: the annotation's, else the placement's, names resolved; else
 * discovered by tags (model/subnets.ts). Pure: the same stack always gets the same list.
 */
export function stackSubnets(
  source: StackSource<unknown>,
  settings: StackSettings<unknown>,
  type: LoadBalancerSpec['type'],
  ipAddressType: LoadBalancerSpec['ipAddressType'],
): readonly string[] {
  return resolveSubnets({
    key: settings.subnetsKey,
    listed: settings.loadBalancer.subnets ?? source.placement.subnets,
    listedBy: settings.loadBalancer.subnets ? 'annotation' : 'configuration',
    scheme: settings.scheme,
    type,
    ipAddressType,
    catalog: source.placement.vpc.subnets,
    allowed: source.placement.allowedSubnets,
  });
}

/**
 * The stack: its load balancer (named by the annotation, else derived from the stack), then the
 * builder's resources in the order given; refused when it breaks an ELBv2 quota.
 */
export function assembleStack(
  source: StackSource<unknown>,
  settings: StackSettings<unknown>,
  loadBalancer: {
    type: LoadBalancerSpec['type'];
    /** Absent: ipv4. */
    ipAddressType?: LoadBalancerSpec['ipAddressType'] | undefined;
    /** NLB static addresses, one per subnet of `stackSubnets`. */
    subnetMappings?: readonly SubnetMappingSpec[] | undefined;
    securityGroups: readonly string[] | undefined;
    privateLinkInboundRules?: 'on' | 'off' | undefined;
    minimumCapacityUnits?: number | undefined;
    webAcl?: LoadBalancerSpec['webAcl'];
    shieldAdvanced?: boolean | undefined;
  },
  resources: readonly StackResource[],
  limits: LimitFields,
): Stack {
  const { scheme } = settings;
  const subnets = stackSubnets(source, settings, loadBalancer.type, loadBalancer.ipAddressType ?? 'ipv4');
  const stack: Stack = {
    id: source.ref.stackId,
    ownerId: source.ownerId,
    resources: [
      loadBalancerResource({
        name:
          settings.loadBalancer.name ??
          derivedLoadBalancerName(source.ref, source.ownerId, loadBalancer.type, scheme),
        type: loadBalancer.type,
        scheme,
        ipAddressType: loadBalancer.ipAddressType,
        subnets,
        subnetMappings: loadBalancer.subnetMappings,
        securityGroups: loadBalancer.securityGroups,
        privateLinkInboundRules: loadBalancer.privateLinkInboundRules,
        attributes: settings.loadBalancerAttributes,
        minimumCapacityUnits: loadBalancer.minimumCapacityUnits,
        webAcl: loadBalancer.webAcl,
        shieldAdvanced: loadBalancer.shieldAdvanced,
        // The records that a reservation, a web ACL association or a protection is ours:
        // removing the annotation then undoes it.
        tags: {
          ...settings.tags(LOAD_BALANCER_ID),
          ...(loadBalancer.minimumCapacityUnits
            ? { [CAPACITY_TAG]: String(loadBalancer.minimumCapacityUnits) }
            : {}),
          ...(loadBalancer.webAcl && loadBalancer.webAcl.kind !== 'none' ? { [WAF_TAG]: 'managed' } : {}),
          ...(loadBalancer.shieldAdvanced ? { [SHIELD_TAG]: 'managed' } : {}),
        },
      }),
      ...resources,
    ],
  };
  checkLimits(stack, limits, source.placement.accountQuotas);
  return stack;
}

/** The stack with what its members ask for but it does not honour (none: the stack as it is). */
export function withWarnings(stack: Stack, warnings: readonly ModelWarning[]): Stack {
  return warnings.length > 0 ? { ...stack, warnings: [...(stack.warnings ?? []), ...warnings] } : stack;
}
