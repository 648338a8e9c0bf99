/**
 * MultiClusterIngress → desired ALB stack. Pure: everything it needs is in its input, so the same
 * input always yields the same stack (names, priorities, target order), and it can be tested and
 * printed without AWS.
 */
import type { EndpointSlice, IngressBackend, MultiClusterIngress, Service } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import type { ServicePlacement } from '../../../karmada/placement.js';
import { InvalidObjectError } from '../../../errors.js';
import { backendsOf } from '../../../karmada/refs.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';
import { resolveHealthCheckPort } from './annotations/health-check.js';
import { annotationActionToModel, USE_ANNOTATION } from './actions.js';
import { resolveBackend, resolveServicePort, type ResolvedBackend } from './backends.js';
import { minimumCapacityUnits } from './annotations/capacity.js';
import { authAnnotations, needsAuthentication, type OidcSecretInfo } from './annotations/auth-keys.js';
import { edgeSettings, type EdgeSettings } from './annotations/edge.js';
import { ALB_KEYS } from './annotations/keys.js';
import { invalid, oneOf, raw, refuseReservedText } from './annotations/parse.js';
import { albTargetGroupSettings, serviceTargetGroupSettings } from './annotations/target-group.js';
import { ignoredKeysWarning } from './annotations/unknown-keys.js';
import type { HealthCheckConfig } from '../config-types.js';
import { albListeners } from './annotations/listeners.js';
import { discoverCertificates, discoveryHosts } from './certificates.js';
import { albListenerResources, type Route, type RouteAuthentication } from './alb-listeners.js';
import { ruleConditions, sortPaths } from './rules.js';
import {
  assembleStack,
  ipTargetGroup,
  objectLoadBalancerNames,
  objectStack,
  objectName,
  readStackSettings,
  type StackSettings,
  type StackSource,
  withWarnings,
} from './stack.js';
import { buildTargets, sourceClusterOf } from './targets.js';
import {
  clusterShares,
  weightsFor,
  describeShares,
  readClusterWeights,
  sliceClusters,
  type ClusterSlice,
} from './cluster-weights.js';
import { needsRouting, requirePart, type ModelParts } from './parts.js';
import {
  MANAGED_SECURITY_GROUP_ID,
  managedSecurityGroup,
  securityGroupRef,
  securityGroupSources,
  sourcesIgnoredWarning,
  type SecurityGroupSource,
} from './security-group.js';
import {
  LOAD_BALANCER_ID,
  ref,
  resourcesOf,
  ResourceTypes,
  type ListenerResource,
  type Action,
  type LoadBalancerIpAddressType,
  type ModelConfig,
  type ModelWarning,
  type Stack,
  type TargetGroupResource,
} from './types.js';
import type { AlbListenerSettings } from './annotations/listeners.js';
import { frontendNlbResources, readFrontendNlb, type FrontendNlbSettings } from './frontend-nlb.js';

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

export interface IngressStackInput extends IngressMember {
  config: ModelConfig;
}

const FIXED_404: Action = {
  type: 'fixed-response',
  fixedResponse: { statusCode: '404', contentType: 'text/plain' },
};

/** Every name the MCI's ALB may carry, the wanted one first (see candidateLoadBalancerNames). */
export function ingressLoadBalancerNames(mci: Readonly<MultiClusterIngress>, config: ModelConfig): string[] {
  return objectLoadBalancerNames('mci', mci, ALB_KEYS, 'application', config);
}

function sliceServiceName(slice: EndpointSlice): string | undefined {
  const label = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  return label?.startsWith(DERIVED_SERVICE_PREFIX) ? label.slice(DERIVED_SERVICE_PREFIX.length) : undefined;
}

/** The ALB of one MultiClusterIngress in the configured Region. */
export function buildIngressStack(input: IngressStackInput): Stack {
  const { config, ...member } = input;
  refuseMemberReservedText(member);
  return albStack(objectStack('mci', input.mci, member, config), config);
}

/** The key families a MultiClusterIngress's model reads (LBC's, and this provider's own). */
const INGRESS_KEY_PREFIXES = ['alb.ingress.kubernetes.io/', 'multicluster.karmada.io/'] as const;

/**
 * `{{` in an annotation the member's model reads is refused (parse.ts refuseReservedText): its
 * own, and its backend Services' `alb.ingress.kubernetes.io/` keys (auth, health checks...).
 */
export function refuseMemberReservedText(member: Pick<IngressMember, 'mci' | 'services'>): void {
  refuseReservedText(member.mci.metadata.annotations, INGRESS_KEY_PREFIXES);
  for (const s of member.services) {
    const of = `Service ${s.metadata.namespace ?? member.mci.metadata.namespace ?? ''}/${s.metadata.name ?? ''}`;
    refuseReservedText(s.metadata.annotations, [INGRESS_KEY_PREFIXES[0]], of);
  }
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

const IP_ADDRESS_TYPES = ['ipv4', 'dualstack', 'dualstack-without-public-ipv4'] as const;

/** inbound-cidrs / security-group-prefix-lists beside named security groups: LBC ignores them too. */
function sourcesIgnored(by: 'annotation' | 'configuration'): ModelWarning {
  const named =
    by === 'annotation' ? `annotation ${ALB_KEYS.securityGroups}` : "the configuration's securityGroups";
  return sourcesIgnoredWarning([ALB_KEYS.inboundCidrs, ALB_KEYS.securityGroupPrefixLists], named, 'ALB');
}

/** `dualstack-without-public-ipv4` exists only for internet-facing ALBs (API_CreateLoadBalancer). */
function checkIpAddressType(settings: AlbSettings): void {
  const type = settings.particular.ipAddressType;
  if (type === 'dualstack-without-public-ipv4' && settings.scheme !== 'internet-facing') {
    throw invalid(
      ALB_KEYS.ipAddressType,
      type,
      'needs scheme internet-facing (an internal ALB has no public IPv4 addresses)',
    );
  }
}

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
function instanceTargetsWarning(member: { namespace: string; name: string }, where: string): ModelWarning {
  return {
    reason: UNSUPPORTED_TARGET_TYPE,
    message: `annotation ${ALB_KEYS.targetType}: instance on ${where} is not supported by the aws provider: targets are the pods' IPs from the member clusters' EndpointSlices, so target type ip is used`,
    object: member,
  };
}

/** The stack's settings from `source.annotations`; a bad value fails before anything else is looked at. */
export function readAlbSettings(source: StackSource<unknown>, config: ModelConfig): AlbSettings {
  const settings: AlbSettings = readStackSettings(source, ALB_KEYS, 'application', config, (annotations) => ({
    listeners: albListeners(annotations, ALB_KEYS),
    ipAddressType: oneOf(annotations, ALB_KEYS.ipAddressType, IP_ADDRESS_TYPES),
    healthCheckDefaults: config.healthCheck,
    minimumCapacityUnits: minimumCapacityUnits(annotations, ALB_KEYS.minimumCapacity),
    edge: edgeSettings(annotations, ALB_KEYS, config.region),
    securityGroupSources: securityGroupSources(
      annotations,
      ALB_KEYS.inboundCidrs,
      ALB_KEYS.securityGroupPrefixLists,
    ),
    frontendNlb: readFrontendNlb(annotations, config),
  }));
  checkIpAddressType(settings);
  return settings;
}

function albStack(source: StackSource<IngressMember>, config: ModelConfig): Stack {
  // Annotations first: a bad value fails the build before anything else is looked at.
  const settings = readAlbSettings(source, config);
  const targetGroups = new Map<string, TargetGroupResource>();
  const members = source.members.map((m) => memberRoutes(source, settings, m, targetGroups));
  return assembleAlb(source, settings, members, targetGroups);
}

/** The ALB from its settings and what each member (in rule order) puts on it. */
export function assembleAlb(
  source: StackSource<IngressMember>,
  settings: AlbSettings,
  members: readonly MemberRoutes[],
  targetGroups: ReadonlyMap<string, TargetGroupResource>,
): Stack {
  const defaulting = members.find((m) => m.defaultAction);
  const defaultAction = defaulting?.defaultAction ?? FIXED_404;

  const { listeners, rules, ruleFields } = albListenerResources({
    settings: withDiscoveredCertificates(source, settings.particular.listeners),
    routes: members.flatMap((m) => m.routes),
    defaultAction,
    defaultAuthentication: defaulting?.defaultAuthentication,
    loadBalancer: LOAD_BALANCER_ID,
    tags: settings.tags,
  });
  // No group named by the annotation or the configuration: the ALB gets a managed one (LBC's frontend group).
  const explicitGroups = settings.loadBalancer.securityGroups ?? source.placement.securityGroups;
  const managedGroup = explicitGroups
    ? undefined
    : managedSecurityGroup(source, settings.tags(MANAGED_SECURITY_GROUP_ID), {
        ports: listeners.map((l) => ({ port: l.spec.port, protocol: 'tcp' as const })),
        sources: settings.particular.securityGroupSources ?? [],
        ipAddressType: settings.particular.ipAddressType ?? 'ipv4',
      });
  const assembled = assembleStack(
    source,
    settings,
    {
      type: 'application',
      ipAddressType: settings.particular.ipAddressType,
      securityGroups: explicitGroups ?? [securityGroupRef(MANAGED_SECURITY_GROUP_ID)],
      minimumCapacityUnits: settings.particular.minimumCapacityUnits,
      ...settings.particular.edge,
    },
    [
      // IDs are unique: no two compare equal.
      ...[...targetGroups.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
      ...listeners,
      ...rules,
    ],
    {
      rules: 'spec.rules',
      targetGroups: 'spec.rules',
      ruleField: (id) => ruleFields.get(id),
    },
  );
  const withFrontend = withFrontendNlb(source, settings, assembled, listeners);
  const stack = managedGroup ? { ...withFrontend, securityGroup: managedGroup } : withFrontend;
  const traffic = members.flatMap((m) => m.traffic ?? []);
  return {
    ...withWarnings(stack, [
      ...(explicitGroups && settings.particular.securityGroupSources
        ? [sourcesIgnored(settings.loadBalancer.securityGroups ? 'annotation' : 'configuration')]
        : []),
      ...source.members.flatMap((m) => ignoredKeysWarning(m.mci)),
      ...members.flatMap((m) => m.warnings),
    ]),
    ...(traffic.length > 0 ? { traffic } : {}),
  };
}

/** The stack with its frontend NLB, when enable-frontend-nlb asks for one (model/frontend-nlb.ts). */
function withFrontendNlb(
  source: StackSource<IngressMember>,
  settings: AlbSettings,
  stack: Stack,
  albListeners: readonly ListenerResource[],
): Stack {
  const frontend = settings.particular.frontendNlb;
  const alb = resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID);
  if (!frontend || !alb) return stack;
  // After the ALB's quota checks: the NLB's groups are not the ALB's.
  const resources = frontendNlbResources(frontend, {
    ref: source.ref,
    ownerId: source.ownerId,
    placement: source.placement,
    alb,
    albListeners,
    tags: settings.tags,
  });
  return { ...stack, resources: [...stack.resources, ...resources] };
}

/**
 * The listener settings with the certificates discovered for the members' hosts, when no
 * certificate-arn names them (model/certificates.ts); refused when the account's certificates
 * were not read.
 */
function withDiscoveredCertificates(
  source: StackSource<IngressMember>,
  listeners: AlbListenerSettings,
): AlbListenerSettings {
  if (!listeners.tls?.discover) return listeners;
  const catalog = source.placement.certificates;
  const { discover: _discover, ...tls } = listeners.tls;
  if (catalog === 'not-read') return { ...listeners, tls };
  if (!catalog) {
    throw invalid(
      ALB_KEYS.certificates,
      '',
      'is required for HTTPS listen-ports (no ACM certificates were read to discover one)',
    );
  }
  const hosts = discoveryHosts(source.members.map((m) => m.mci));
  return {
    ...listeners,
    tls: {
      ...tls,
      certificates: discoverCertificates(
        hosts,
        catalog,
        ALB_KEYS.certificates,
        source.placement.allowedCertificates,
      ),
    },
  };
}

/**
 * As LBC (buildTargetGroupIPAddressType): a Service with an IPv6 family gets an ipv6 target group
 * (its IPv6 EndpointSlices are the targets), which only a dualstack ALB can route to.
 */
function targetGroupIpAddressType(
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

/** What one member asks for that its stack does not honour. */
export function memberWarnings(mci: Readonly<MultiClusterIngress>): ModelWarning[] {
  return ignoredKeysWarning(mci);
}

/** Where a group member's rules go: its own listen-ports, under IDs that name it. */
export interface MemberScope {
  /** Prefixed to each rule's key (`<namespace>/<name>/`): two members may route the same path. */
  keyPrefix: string;
  /** The listen-ports the member asked for: its rules go on these listeners only (as LBC). */
  ports: readonly number[];
}

/** Resolves one MCI's backends into target groups (added to `targetGroups`) and its routes. */
export function memberRoutes(
  source: StackSource<unknown>,
  settings: AlbSettings,
  member: IngressMember,
  targetGroups: Map<string, TargetGroupResource>,
  scope?: MemberScope,
): MemberRoutes {
  const { mci } = member;
  const { namespace, name: mciName } = objectName(mci);
  // The member's own target-group annotations: every group's, unless its Service overrides them.
  const defaults = settings.particular.healthCheckDefaults;
  const memberTargetGroups = albTargetGroupSettings(mci.metadata.annotations, ALB_KEYS, defaults);
  const warnings: ModelWarning[] = [];
  const self = { namespace, name: mciName };
  if (memberTargetGroups.targetType === 'instance') {
    warnings.push(instanceTargetsWarning(self, `MultiClusterIngress ${namespace}/${mciName}`));
  }
  const instanceServices = new Set<string>();
  // Objects without a namespace are in the MCI's.
  const sameNamespace = (o: Readonly<KubeObject>) => (o.metadata.namespace ?? namespace) === namespace;
  const services = new Map(member.services.filter(sameNamespace).map((s) => [s.metadata.name ?? '', s]));
  const blocked = new Set(mci.status?.trafficBlockClusters);
  const known = new Set(blocked);
  mci.status?.serviceLocations?.forEach((l) => l.clusters?.forEach((c) => known.add(c)));
  const knownClusters = [...known];

  const backendSlices = (serviceName: string) =>
    member.endpointSlices.filter((s) => sliceServiceName(s) === serviceName && sameNamespace(s));
  // Per-cluster mode (cluster-weights keys): checked against every cluster the object knows of.
  const here = (c: string) => !member.elsewhere?.has(c);
  const locations = new Map(
    mci.status?.serviceLocations?.map((l) => [l.name, (l.clusters ?? []).filter(here)]),
  );
  const sliceClusterNames = (slices: readonly EndpointSlice[]) =>
    slices.flatMap((s) => sourceClusterOf(s, knownClusters) ?? []);
  const weights = readClusterWeights(
    mci.metadata.annotations,
    new Set([
      ...knownClusters,
      ...sliceClusterNames(member.endpointSlices.filter(sameNamespace)),
      ...(member.elsewhere ?? []),
    ]),
  );
  const traffic: string[] = [];

  /** `field`: where the backend is named, for errors about its Service. */
  const targetGroupFor = (b: ResolvedBackend, field: string, slice?: ClusterSlice): string => {
    // LBC's target group resource ID: one target group per (ingress, service, service port);
    // per-cluster mode adds the cluster (or weight class).
    const id = `${namespace}/${mciName}-${b.serviceName}:${b.portKey}${slice ? `@${slice.key}` : ''}`;
    if (!targetGroups.has(id)) {
      const tg = serviceTargetGroupSettings(
        memberTargetGroups,
        mci.metadata.annotations,
        { namespace, name: b.serviceName, annotations: b.service.metadata.annotations },
        ALB_KEYS,
        defaults,
      );
      const ipAddressType = targetGroupIpAddressType(b.service, settings.particular.ipAddressType, field);
      // The Service's own annotation asked for it (not one inherited from the MCI, reported above).
      if (
        tg.targetType === 'instance' &&
        raw(b.service.metadata.annotations, ALB_KEYS.targetType) !== undefined &&
        !instanceServices.has(b.serviceName)
      ) {
        instanceServices.add(b.serviceName);
        warnings.push(instanceTargetsWarning(self, `Service ${namespace}/${b.serviceName}`));
      }
      const clusters = slice?.clusters.map((c) => c.cluster);
      targetGroups.set(
        id,
        ipTargetGroup(source, settings, {
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
            slices: backendSlices(b.serviceName),
            // A drained cluster's targets stay until the deploy lets them go (deploy/drains.ts).
            blockedClusters: clusters ? new Set() : blocked,
            ...(clusters ? { allowedClusters: new Set(clusters) } : {}),
            knownClusters,
            vpcCidrs: source.placement.vpc.cidrs ?? [],
            vpcSubnets: source.placement.vpc.subnets ?? [],
            ipAddressType,
            vpcIpv6Cidrs: source.placement.vpc.ipv6Cidrs ?? [],
          }),
          ...(slice && clusters ? { slice: { key: slice.key, clusters, drain: slice.drain } } : {}),
        }),
      );
    }
    return id;
  };

  /** A backend's forward: its one group, or in per-cluster mode its clusters' groups by weight. */
  const forwardTo = (b: ResolvedBackend, field: string): Action => {
    const clusters = [
      ...new Set([
        ...(locations.get(b.serviceName) ?? []),
        ...sliceClusterNames(backendSlices(b.serviceName)),
      ]),
    ].sort();
    const where = `backend Service ${namespace}/${b.serviceName}`;
    // A backend no list covers (only other backends have their own) keeps its one group.
    const list = weights && weightsFor(weights, b.serviceName, member.placement?.get(b.serviceName), where);
    if (!list || clusters.length === 0) {
      return { type: 'forward', targetGroup: ref(targetGroupFor(b, field)) };
    }
    const { key } = list;
    const ipAddressType = targetGroupIpAddressType(b.service, settings.particular.ipAddressType, field);
    const shares = clusterShares(
      clusters,
      list,
      blocked,
      (cluster) =>
        buildTargets({
          serviceKey: `${namespace}/${b.serviceName}`,
          servicePort: b.servicePort,
          slices: backendSlices(b.serviceName),
          blockedClusters: new Set(),
          allowedClusters: new Set([cluster]),
          knownClusters,
          vpcCidrs: [],
          ipAddressType,
        }).length > 0,
    );
    const line = `${b.serviceName}:${b.portKey} ${describeShares(shares)}${list.source ? ` (${list.source})` : ''}`;
    if (!traffic.includes(line)) traffic.push(line);
    return {
      type: 'forward',
      targetGroups: sliceClusters(shares, where, key).map((slice) => ({
        targetGroup: ref(targetGroupFor(b, field, slice)),
        weight: slice.weight,
      })),
    };
  };

  const annotations = mci.metadata.annotations;
  const auth = needsAuthentication(ALB_KEYS, annotations, member.services)
    ? requirePart(member.parts, 'auth', mci)
    : undefined;
  const jwt = auth?.jwtValidation(annotations, ALB_KEYS);
  const authentications = new Map<string, RouteAuthentication | undefined>();
  /**
   * A backend's authentication: its Service's auth keys over the MCI's (an action annotation's
   * backend: the MCI's alone), or the MCI's jwt-validation; ELBv2 takes one per rule.
   */
  const authenticationOf = (backend: IngressBackend): RouteAuthentication | undefined => {
    const name = backend.service?.port?.name === USE_ANNOTATION ? '' : (backend.service?.name ?? '');
    if (!auth) return undefined;
    if (authentications.has(name)) return authentications.get(name);
    const seen = authAnnotations(ALB_KEYS, annotations, services.get(name)?.metadata.annotations);
    const authenticate = auth.authenticateAction(seen, ALB_KEYS, namespace, member.oidcSecrets ?? []);
    if (authenticate && jwt) {
      throw invalid(
        ALB_KEYS.jwtValidation,
        raw(annotations, ALB_KEYS.jwtValidation) ?? '',
        `cannot be combined with ${ALB_KEYS.authType}: ${seen[ALB_KEYS.authType] ?? ''}${name ? ` (Service ${name})` : ''}: ELBv2 takes one authentication action per rule`,
      );
    }
    const found: RouteAuthentication | undefined = authenticate
      ? { action: authenticate, key: ALB_KEYS.authType }
      : jwt
        ? { action: { type: 'jwt-validation', jwt }, key: ALB_KEYS.jwtValidation }
        : undefined;
    authentications.set(name, found);
    return found;
  };
  const routing = needsRouting(annotations) ? requirePart(member.parts, 'routing', mci) : undefined;
  // What a backend does: forward to its Service, or (port `use-annotation`) the actions annotation's.
  const actionOf = (backend: IngressBackend, field: string): { action: Action; key?: string } => {
    const name = backend.service?.name;
    if (!name || backend.service?.port?.name !== USE_ANNOTATION) {
      return { action: forwardTo(resolveBackend(backend, field, services), field) };
    }
    const key = `${ALB_KEYS.actions}${name}`;
    const config = routing?.annotationAction(annotations, ALB_KEYS, name);
    if (!config) {
      throw new InvalidObjectError(
        `${field}.service.port.name: "${USE_ANNOTATION}" takes its action from the annotation ${key}, which the object does not have`,
        { field: `${field}.service.port.name`, reason: 'InvalidBackend' },
      );
    }
    return {
      action: annotationActionToModel(config, (g) =>
        targetGroupFor(
          resolveServicePort(g.serviceName, g.servicePort, services, {
            service: key,
            port: key,
            missingPort: 'servicePort is required',
            serviceText: `annotation ${key}: ${g.path}.serviceName`,
            portText: `annotation ${key}: ${g.path}.servicePort`,
          }),
          `annotation ${key}: ${g.path}`,
        ),
      ),
      key,
    };
  };

  const defaultAction = mci.spec?.defaultBackend
    ? actionOf(mci.spec.defaultBackend, 'spec.defaultBackend').action
    : undefined;
  const defaultAuthentication = mci.spec?.defaultBackend
    ? authenticationOf(mci.spec.defaultBackend)
    : undefined;

  // Rules are resolved once (so target groups and errors do not depend on the listener count),
  // then copied onto every listener that serves traffic, as LBC does for each listen-port.
  const regexPaths = routing?.useRegexPathMatch(annotations, ALB_KEYS) ? routing.unsupportedRegex : undefined;
  const routes: Route[] = [];
  mci.spec?.rules?.forEach((rule, ri) => {
    for (const { index, path } of sortPaths(rule.http?.paths ?? [])) {
      const field = `spec.rules[${ri}].http.paths[${index}]`;
      const name = path.backend.service?.name;
      const conditionsKey = name ? `${ALB_KEYS.conditions}${name}` : '';
      const transformsKey = name ? `${ALB_KEYS.transforms}${name}` : '';
      const conditions = ruleConditions(rule.host, path, field, {
        conditions: name && routing ? routing.annotationConditions(annotations, ALB_KEYS, name) : [],
        conditionsKey,
        ...(regexPaths ? { regexPaths } : {}),
      });
      const transforms = name && routing ? routing.annotationTransforms(annotations, ALB_KEYS, name) : [];
      const { action, key: actionKey } = actionOf(path.backend, `${field}.backend`);
      const authentication = authenticationOf(path.backend);
      const sources = [
        ...(actionKey ? [actionKey] : []),
        ...(name && raw(annotations, conditionsKey) !== undefined ? [conditionsKey] : []),
        ...(transforms.length > 0 ? [transformsKey] : []),
      ];
      // Content-derived IDs keep a rule's resource tag true when re-ordering changes its priority.
      routes.push({
        key: `${scope?.keyPrefix ?? ''}${rule.host || '*'}:${path.pathType ?? 'ImplementationSpecific'}:${path.path ?? ''}`,
        field,
        ...(sources.length > 0 ? { annotations: sources } : {}),
        conditions,
        action,
        ...(authentication ? { authentication } : {}),
        ...(scope ? { ports: scope.ports } : {}),
        ...(transforms.length > 0 ? { transforms } : {}),
      });
    }
  });
  const unused = !routing
    ? []
    : routing.unusedRoutingAnnotations(annotations, ALB_KEYS, {
        actions: new Set(
          backendsOf(mci).flatMap((b) =>
            b.service?.name && b.service.port?.name === USE_ANNOTATION ? [b.service.name] : [],
          ),
        ),
        paths: new Set(
          (mci.spec?.rules ?? []).flatMap((r) =>
            (r.http?.paths ?? []).flatMap((p) => p.backend.service?.name ?? []),
          ),
        ),
      });
  if (routing && unused.length > 0) {
    warnings.push({
      reason: routing.UNUSED_ROUTING_ANNOTATION,
      message: `${unused.length === 1 ? 'annotation' : 'annotations'} with no effect: ${unused.join('; ')}`,
      object: self,
    });
  }
  return {
    routes,
    defaultAction,
    ...(defaultAuthentication ? { defaultAuthentication } : {}),
    warnings,
    ...(traffic.length > 0 ? { traffic } : {}),
  };
}
