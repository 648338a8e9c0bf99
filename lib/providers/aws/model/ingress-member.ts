/**
 * One MultiClusterIngress as a member of an ALB's stack (its own, or its IngressGroup's): what was
 * read for it, the stack settings its routes are resolved under, and its routing context (its
 * Services, clusters and weights, read once), with the target groups and forwards its backends
 * resolve to. Pure, as the whole model.
 */
import type { EndpointSlice, MultiClusterIngress, Service } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import type { ServicePlacement } from '../../../karmada/placement.js';
import { InvalidObjectError } from '../../../errors.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';
import { resolveHealthCheckPort } from './annotations/health-check.js';
import type { ResolvedBackend } from './backends.js';
import type { OidcSecretInfo } from './annotations/auth-keys.js';
import type { EdgeSettings } from './annotations/edge.js';
import { ALB_KEYS } from './annotations/keys.js';
import { raw, type Annotations } from './annotations/parse.js';
import {
  albTargetGroupSettings,
  serviceTargetGroupSettings,
  type AlbTargetGroupSettings,
} from './annotations/target-group.js';
import type { HealthCheckConfig } from '../config-types.js';
import type { Route, RouteAuthentication } from './alb-listeners.js';
import { ipTargetGroup, objectName, type StackSettings, type StackSource } from './stack.js';
import { buildTargets, sourceClusterOf } from './targets.js';
import {
  clusterShares,
  weightsFor,
  describeShares,
  readClusterWeights,
  sliceClusters,
  type ClusterSlice,
  type ClusterWeights,
} from './cluster-weights.js';
import { needsRouting, requirePart, type ModelParts, type RoutingPart } from './parts.js';
import type { SecurityGroupSource } from './security-group.js';
import {
  ref,
  type Action,
  type LoadBalancerIpAddressType,
  type ModelWarning,
  type TargetGroupResource,
} from './types.js';
import type { AlbListenerSettings } from './annotations/listeners.js';
import type { FrontendNlbSettings } from './frontend-nlb.js';

/** One MultiClusterIngress and what was read for it from Kubernetes. */
export interface IngressMember {
  mci: MultiClusterIngress;
  /** Services of the MCI's namespace that its backends name (others are ignored). */
  services: readonly Service[];
  /** EndpointSlices Karmada collected for those Services (`kubernetes.io/service-name: derived-<svc>`). */
  endpointSlices: readonly EndpointSlice[];
  /** The OIDC Secrets its authentication names that exist (oidc-secrets.ts); never their secrets. */
  oidcSecrets?: readonly OidcSecretInfo[];
  /** The model's parts its annotations need (parts.ts), loaded with its inputs. */
  parts?: ModelParts;
  /**
   * `cluster-weights-from: placement`: what Karmada's placement says about each backend Service
   * (karmada/placement.ts), by Service name; read only when the MCI asks for it.
   */
  placement?: ReadonlyMap<string, ServicePlacement>;
  /**
   * A regional part's (providers/aws/regions/): the object's clusters served in other Regions (or
   * in none). Cluster weights may name them, and this Region's load balancer weighs none of them.
   */
  elsewhere?: ReadonlySet<string>;
}

export function sliceServiceName(slice: EndpointSlice): string | undefined {
  const label = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  return label?.startsWith(DERIVED_SERVICE_PREFIX) ? label.slice(DERIVED_SERVICE_PREFIX.length) : undefined;
}

export type AlbSettings = StackSettings<{
  listeners: AlbListenerSettings;
  ipAddressType: LoadBalancerIpAddressType | undefined;
  /** The configured health-check defaults, which every target group starts from. */
  healthCheckDefaults: HealthCheckConfig;
  minimumCapacityUnits: number | undefined;
  /** WAFv2 and Shield Advanced (annotations/edge.ts). */
  edge: EdgeSettings;
  /** inbound-cidrs and security-group-prefix-lists: the managed group's sources; absent: none given. */
  securityGroupSources: SecurityGroupSource[] | undefined;
  /** enable-frontend-nlb and the frontend-nlb-* keys (model/frontend-nlb.ts); absent: no NLB in front. */
  frontendNlb: FrontendNlbSettings | undefined;
}>;

/** What one member puts on the ALB: its routes, its default backend, their target groups. */
export interface MemberRoutes {
  routes: Route[];
  defaultAction: Action | undefined;
  /** The default backend's authentication (HTTPS listeners only). */
  defaultAuthentication?: RouteAuthentication | undefined;
  /** What the member asked for that cannot be honoured (target-type instance). */
  warnings: ModelWarning[];
  /** Per-cluster mode: each backend's effective cluster weights (model/cluster-weights.ts). */
  traffic?: string[];
}

export const UNSUPPORTED_TARGET_TYPE = 'UnsupportedTargetType';

/**
 * `target-type: instance` on `where` (the member MCI or one of its backend Services): reported to
 * the member, and ip used.
 */
export function instanceTargetsWarning(
  member: { namespace: string; name: string },
  where: string,
): ModelWarning {
  return {
    reason: UNSUPPORTED_TARGET_TYPE,
    message: `annotation ${ALB_KEYS.targetType}: instance on ${where} is not supported by the aws provider: targets are the pods' IPs from the member clusters' EndpointSlices, so target type ip is used`,
    object: member,
  };
}

/**
 * As LBC (buildTargetGroupIPAddressType): a Service with an IPv6 family gets an ipv6 target group
 * (its IPv6 EndpointSlices are the targets), which only a dualstack ALB can route to.
 */
export function targetGroupIpAddressType(
  service: Service,
  lbType: LoadBalancerIpAddressType | undefined,
  field: string,
): 'ipv4' | 'ipv6' {
  if (!service.spec?.ipFamilies?.includes('IPv6')) return 'ipv4';
  if (lbType === 'dualstack' || lbType === 'dualstack-without-public-ipv4') return 'ipv6';
  throw new InvalidObjectError(
    `${field}.service.name: Service "${service.metadata.name ?? ''}" has the IPv6 family (spec.ipFamilies), so its target group is ipv6, which needs annotation ${ALB_KEYS.ipAddressType}: dualstack (or dualstack-without-public-ipv4)`,
    { field: ALB_KEYS.ipAddressType, reason: 'DualstackRequired' },
  );
}

/** Where a group member's rules go: its own listen-ports, under IDs that name it. */
export interface MemberScope {
  /** Prefixed to each rule's key (`<namespace>/<name>/`): two members may route the same path. */
  keyPrefix: string;
  /** The listen-ports the member asked for: its rules go on these listeners only (as LBC). */
  ports: readonly number[];
}

/** What one member's routing reads once and collects while its routes are resolved (memberRoutes). */
export interface MemberRouting {
  source: StackSource<unknown>;
  settings: AlbSettings;
  member: IngressMember;
  /** Every target group of the stack, by resource ID: a member's are added as its routes need them. */
  targetGroups: Map<string, TargetGroupResource>;
  namespace: string;
  mciName: string;
  self: { namespace: string; name: string };
  annotations: Annotations;
  defaults: HealthCheckConfig;
  /** The member's own target-group annotations: every group's, unless its Service overrides them. */
  memberTargetGroups: AlbTargetGroupSettings;
  warnings: ModelWarning[];
  /** Services whose own annotation asked for target type instance (each reported once). */
  instanceServices: Set<string>;
  sameNamespace: (o: Readonly<KubeObject>) => boolean;
  services: Map<string, Service>;
  blocked: Set<string>;
  knownClusters: string[];
  /** Each backend Service's clusters as Karmada located them, those served here. */
  locations: Map<string, string[]>;
  weights: ClusterWeights | undefined;
  /** Per-cluster mode: each backend's effective weights (the condition's lines). */
  traffic: string[];
  routing: RoutingPart | undefined;
}

/** The member's routing context: its Services, clusters and weights, read once. */
export function memberRouting(
  source: StackSource<unknown>,
  settings: AlbSettings,
  member: IngressMember,
  targetGroups: Map<string, TargetGroupResource>,
): MemberRouting {
  const { mci } = member;
  const { namespace, name: mciName } = objectName(mci);
  const defaults = settings.particular.healthCheckDefaults;
  const memberTargetGroups = albTargetGroupSettings(mci.metadata.annotations, ALB_KEYS, defaults);
  const self = { namespace, name: mciName };
  const warnings: ModelWarning[] = [];
  if (memberTargetGroups.targetType === 'instance') {
    warnings.push(instanceTargetsWarning(self, `MultiClusterIngress ${namespace}/${mciName}`));
  }
  // Objects without a namespace are in the MCI's.
  const sameNamespace = (o: Readonly<KubeObject>) => (o.metadata.namespace ?? namespace) === namespace;
  const blocked = new Set(mci.status?.trafficBlockClusters);
  const known = new Set(blocked);
  mci.status?.serviceLocations?.forEach((l) => l.clusters?.forEach((c) => known.add(c)));
  const knownClusters = [...known];
  // Per-cluster mode (cluster-weights keys): checked against every cluster the object knows of.
  const here = (c: string) => !member.elsewhere?.has(c);
  const annotations = mci.metadata.annotations;
  const weights = readClusterWeights(
    annotations,
    new Set([
      ...knownClusters,
      ...sliceClusterNames(member.endpointSlices.filter(sameNamespace), knownClusters),
      ...(member.elsewhere ?? []),
    ]),
  );
  return {
    source,
    settings,
    member,
    targetGroups,
    namespace,
    mciName,
    self,
    annotations,
    defaults,
    memberTargetGroups,
    warnings,
    instanceServices: new Set(),
    sameNamespace,
    services: new Map(member.services.filter(sameNamespace).map((s) => [s.metadata.name ?? '', s])),
    blocked,
    knownClusters,
    locations: new Map(mci.status?.serviceLocations?.map((l) => [l.name, (l.clusters ?? []).filter(here)])),
    weights,
    traffic: [],
    routing: needsRouting(annotations) ? requirePart(member.parts, 'routing', mci) : undefined,
  };
}

export const sliceClusterNames = (slices: readonly EndpointSlice[], knownClusters: readonly string[]) =>
  slices.flatMap((s) => sourceClusterOf(s, knownClusters) ?? []);

export const backendSlices = (r: MemberRouting, serviceName: string) =>
  r.member.endpointSlices.filter((s) => sliceServiceName(s) === serviceName && r.sameNamespace(s));

/**
 * The resource ID of a backend's target group, made (and added to the stack's) at its first use.
 * `field`: where the backend is named, for errors about its Service.
 */
export function targetGroupFor(
  r: MemberRouting,
  b: ResolvedBackend,
  field: string,
  slice?: ClusterSlice,
): string {
  const { namespace } = r;
  // LBC's target group resource ID: one target group per (ingress, service, service port);
  // per-cluster mode adds the cluster (or weight class).
  const id = `${namespace}/${r.mciName}-${b.serviceName}:${b.portKey}${slice ? `@${slice.key}` : ''}`;
  if (r.targetGroups.has(id)) return id;
  const tg = serviceTargetGroupSettings(
    r.memberTargetGroups,
    r.annotations,
    { namespace, name: b.serviceName, annotations: b.service.metadata.annotations },
    ALB_KEYS,
    r.defaults,
  );
  const ipAddressType = targetGroupIpAddressType(b.service, r.settings.particular.ipAddressType, field);
  // The Service's own annotation asked for it (not one inherited from the MCI, reported above).
  if (
    tg.targetType === 'instance' &&
    raw(b.service.metadata.annotations, ALB_KEYS.targetType) !== undefined &&
    !r.instanceServices.has(b.serviceName)
  ) {
    r.instanceServices.add(b.serviceName);
    r.warnings.push(instanceTargetsWarning(r.self, `Service ${namespace}/${b.serviceName}`));
  }
  const clusters = slice?.clusters.map((c) => c.cluster);
  const vpc = r.source.placement.vpc;
  r.targetGroups.set(
    id,
    ipTargetGroup(r.source, r.settings, {
      id,
      service: { namespace, name: b.serviceName },
      servicePort: b.servicePort,
      portKey: b.portKey,
      protocol: tg.protocol,
      protocolVersion: tg.protocolVersion,
      ipAddressType,
      healthCheck: resolveHealthCheckPort(
        tg.healthCheck,
        { key: `${namespace}/${b.serviceName}`, ports: b.service.spec?.ports },
        ALB_KEYS.healthCheck.port,
      ),
      attributes: tg.attributes,
      targets: buildTargets({
        serviceKey: `${namespace}/${b.serviceName}`,
        servicePort: b.servicePort,
        slices: backendSlices(r, b.serviceName),
        // A drained cluster's targets stay until the deploy lets them go (deploy/drains.ts).
        blockedClusters: clusters ? new Set() : r.blocked,
        ...(clusters ? { allowedClusters: new Set(clusters) } : {}),
        knownClusters: r.knownClusters,
        vpcCidrs: vpc.cidrs ?? [],
        vpcSubnets: vpc.subnets ?? [],
        ipAddressType,
        vpcIpv6Cidrs: vpc.ipv6Cidrs ?? [],
      }),
      ...(slice && clusters ? { slice: { key: slice.key, clusters, drain: slice.drain } } : {}),
    }),
  );
  return id;
}

/** A backend's forward: its one group, or in per-cluster mode its clusters' groups by weight. */
export function forwardTo(r: MemberRouting, b: ResolvedBackend, field: string): Action {
  const slices = backendSlices(r, b.serviceName);
  const clusters = [
    ...new Set([...(r.locations.get(b.serviceName) ?? []), ...sliceClusterNames(slices, r.knownClusters)]),
  ].sort();
  const where = `backend Service ${r.namespace}/${b.serviceName}`;
  // A backend no list covers (only other backends have their own) keeps its one group.
  const list =
    r.weights && weightsFor(r.weights, b.serviceName, r.member.placement?.get(b.serviceName), where);
  if (!list || clusters.length === 0) {
    return { type: 'forward', targetGroup: ref(targetGroupFor(r, b, field)) };
  }
  const ipAddressType = targetGroupIpAddressType(b.service, r.settings.particular.ipAddressType, field);
  const shares = clusterShares(
    clusters,
    list,
    r.blocked,
    (cluster) =>
      buildTargets({
        serviceKey: `${r.namespace}/${b.serviceName}`,
        servicePort: b.servicePort,
        slices,
        blockedClusters: new Set(),
        allowedClusters: new Set([cluster]),
        knownClusters: r.knownClusters,
        vpcCidrs: [],
        ipAddressType,
      }).length > 0,
  );
  const line = `${b.serviceName}:${b.portKey} ${describeShares(shares)}${list.source ? ` (${list.source})` : ''}`;
  if (!r.traffic.includes(line)) r.traffic.push(line);
  return {
    type: 'forward',
    targetGroups: sliceClusters(shares, where, list.key).map((slice) => ({
      targetGroup: ref(targetGroupFor(r, b, field, slice)),
      weight: slice.weight,
    })),
  };
}
