/**
 * MultiClusterService (type LoadBalancer) → desired NLB stack, as LBC models a Service
 * (pkg/service/model_build_*.go): one NLB, and per exposed port one listener and one IP target
 * group (`<ns>/<name>:<port>`) whose targets are the ready endpoints of the same-named Service in
 * the provider clusters. Pure, like the ingress model.
 */
import { InvalidObjectError } from '../../../errors.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';
import type { EndpointSlice, MultiClusterService, Service, ServicePort } from '../../../karmada/types.js';
import type { ServicePlacement } from '../../../karmada/placement.js';
import { nlbHealthCheck } from './annotations/health-check.js';
import { NLB_KEYS } from './annotations/keys.js';
import { nlbTls, type NlbTlsSettings } from './annotations/listeners.js';
import {
  alpnPolicy,
  backendTls,
  checkPortAttributeKeys,
  nlbIpAddressType,
  nlbTargetGroupAttributes,
  proxyProtocol,
  subnetMappings,
  type AlpnPolicy,
  type NlbIpAddressType,
  type ProxyProtocol,
} from './annotations/nlb.js';
import {
  assembleStack,
  ipTargetGroup,
  objectLoadBalancerNames,
  objectStack,
  objectName,
  readStackSettings,
  stackSubnets,
  type StackSettings,
  type StackSource,
  withWarnings,
} from './stack.js';
import { ACTED_SERVICE_KEYS } from './annotations/acted-keys.js';
import {
  nlbSecurityGroups,
  readNlbSecurityGroupSettings,
  type NlbSecurityGroupSettings,
} from './nlb-security-group.js';
import { ignoredKeysWarning } from './annotations/unknown-keys.js';
import { refuseReservedText } from './annotations/parse.js';
import { buildTargets, sourceClusterOf } from './targets.js';
import {
  clusterShares,
  describeShares,
  readClusterWeights,
  sliceClusters as sliceClustersOf,
  weightsFor,
  type ClusterSlice,
} from './cluster-weights.js';
import {
  LOAD_BALANCER_ID,
  ref,
  ResourceTypes,
  type Action,
  type HealthCheckSpec,
  type ListenerResource,
  type ModelConfig,
  type Stack,
  type TargetGroupResource,
} from './types.js';

/** One MultiClusterService and what was read for it from Kubernetes. */
export interface ServiceMember {
  mcs: MultiClusterService;
  /** The same-named Service in the MCS's namespace, if it exists. */
  service: Service | undefined;
  /** EndpointSlices Karmada collected for it (`kubernetes.io/service-name: derived-<name>`). */
  endpointSlices: readonly EndpointSlice[];
  /** `cluster-weights-from: placement` only: Karmada's placement of the Service's workloads. */
  placement?: ServicePlacement;
  /**
   * A regional part's (providers/aws/regions/): the object's clusters served in other Regions (or
   * in none). Cluster weights may name them, and this Region's load balancer weighs none of them.
   */
  elsewhere?: ReadonlySet<string>;
}

export interface ServiceStackInput extends ServiceMember {
  config: ModelConfig;
}

/** Every name the MCS's NLB may carry, the wanted one first (see candidateLoadBalancerNames). */
export function serviceLoadBalancerNames(mcs: Readonly<MultiClusterService>, config: ModelConfig): string[] {
  return objectLoadBalancerNames('mcs', mcs, NLB_KEYS, 'network', config);
}

/**
 * The clusters whose endpoints serve the MCS, as Karmada documents the precedence:
 * `spec.providerClusters`, else the deprecated `serviceProvisionClusters`, else the deprecated
 * `range.clusterNames`; undefined (= every cluster) when none names a cluster.
 */
export function providerClusters(mcs: Readonly<MultiClusterService>): string[] | undefined {
  const spec = mcs.spec;
  const fromSelectors = spec.providerClusters?.map((c) => c.name).filter(Boolean);
  if (fromSelectors?.length) return fromSelectors;
  if (spec.serviceProvisionClusters?.length) return [...spec.serviceProvisionClusters];
  if (spec.range?.clusterNames?.length) return [...spec.range.clusterNames];
  return undefined;
}

/** The Service ports to expose: `spec.ports` matched by number, or every port when it is empty. */
function exposedPorts(
  mcs: Readonly<MultiClusterService>,
  name: string,
  service: Service | undefined,
): ServicePort[] {
  if (!service) {
    throw new InvalidObjectError(`Service "${name}" (the MultiClusterService's namesake) does not exist`, {
      field: 'metadata.name',
      reason: 'ServiceNotFound',
    });
  }
  const ports = service.spec?.ports ?? [];
  const wanted = mcs.spec.ports ?? [];
  if (wanted.length === 0) {
    if (ports.length === 0) {
      throw new InvalidObjectError(`Service "${name}" has no ports to expose`, {
        field: 'spec.ports',
        reason: 'NoPorts',
      });
    }
    return ports;
  }
  return wanted.map((w, i) => {
    const p = ports.find((sp) => sp.port === w.port);
    if (!p) {
      throw new InvalidObjectError(`spec.ports[${i}]: Service "${name}" has no port ${w.port}`, {
        field: `spec.ports[${i}]`,
        reason: 'ServicePortNotFound',
      });
    }
    return p;
  });
}

/**
 * The key families a MultiClusterService's model reads: LBC's (the `service.beta.kubernetes.io/`
 * keys of other clouds' controllers are not), and this provider's own.
 */
const SERVICE_KEY_PREFIXES = [
  'service.beta.kubernetes.io/aws-load-balancer-',
  'service.beta.kubernetes.io/load-balancer-source-ranges',
  'multicluster.karmada.io/',
] as const;

/** The NLB of one MultiClusterService (of type LoadBalancer) in the configured Region. */
export function buildServiceStack(input: ServiceStackInput): Stack {
  const { config, ...member } = input;
  refuseReservedText(input.mcs.metadata.annotations, SERVICE_KEY_PREFIXES);
  if (!input.mcs.spec.types.includes('LoadBalancer')) {
    throw new InvalidObjectError('spec.types does not contain LoadBalancer: no load balancer to build', {
      field: 'spec.types',
      reason: 'NotLoadBalancer',
    });
  }
  return nlbStack(objectStack('mcs', input.mcs, member, config), config);
}

type NlbSettings = StackSettings<{
  tls: NlbTlsSettings | undefined;
  healthCheck: HealthCheckSpec;
  ipAddressType: NlbIpAddressType | undefined;
  alpnPolicy: AlpnPolicy | undefined;
  backendTls: boolean;
  proxyProtocol: ProxyProtocol;
  securityGroups: NlbSecurityGroupSettings;
}>;

function nlbStack(source: StackSource<ServiceMember>, config: ModelConfig): Stack {
  const settings: NlbSettings = readStackSettings(source, NLB_KEYS, 'network', config, (annotations) => {
    checkPortAttributeKeys(annotations, NLB_KEYS);
    return {
      tls: nlbTls(annotations, NLB_KEYS),
      healthCheck: nlbHealthCheck(annotations, NLB_KEYS),
      ipAddressType: nlbIpAddressType(annotations, NLB_KEYS),
      alpnPolicy: alpnPolicy(annotations, NLB_KEYS),
      backendTls: backendTls(annotations, NLB_KEYS),
      proxyProtocol: proxyProtocol(annotations, NLB_KEYS),
      securityGroups: readNlbSecurityGroupSettings(annotations),
    };
  });
  const mappings = subnetMappings(source.annotations, NLB_KEYS, {
    subnets: stackSubnets(source, settings, 'network', settings.particular.ipAddressType ?? 'ipv4'),
    scheme: settings.scheme,
    ipAddressType: settings.particular.ipAddressType ?? 'ipv4',
    vpc: source.placement.vpc,
  });
  const ports = source.members.map((m) => memberPorts(source, settings, m));
  const traffic = ports.flatMap((p) => p.traffic);
  const listeners = ports.flatMap((p) => p.listeners);
  // An NLB of ours created without groups keeps none: the plan decides (deploy/plan.ts).
  const groups = nlbSecurityGroups(
    source,
    settings,
    settings.particular.securityGroups,
    listeners,
    settings.particular.ipAddressType ?? 'ipv4',
  );
  const assembled = assembleStack(
    source,
    settings,
    {
      type: 'network',
      ipAddressType: settings.particular.ipAddressType,
      subnetMappings: mappings,
      securityGroups: groups.securityGroups,
      privateLinkInboundRules: groups.privateLinkInboundRules,
    },
    [...ports.flatMap((p) => p.targetGroups), ...listeners],
    { rules: 'spec.ports', targetGroups: 'spec.ports' },
  );
  const stack = groups.managed ? { ...assembled, securityGroup: groups.managed } : assembled;
  return {
    ...withWarnings(stack, [
      ...groups.warnings,
      ...source.members.flatMap((m) => ignoredKeysWarning(m.mcs, ACTED_SERVICE_KEYS)),
    ]),
    ...(traffic.length > 0 ? { traffic } : {}),
  };
}

/** Per exposed port of one MCS: an IP target group and the listener that forwards to it. */
function memberPorts(
  source: StackSource<ServiceMember>,
  settings: NlbSettings,
  member: ServiceMember,
): { targetGroups: TargetGroupResource[]; listeners: ListenerResource[]; traffic: string[] } {
  const { mcs } = member;
  const { namespace, name } = objectName(mcs);
  const { tls, healthCheck, ipAddressType: lbIpAddressType } = settings.particular;
  const ports = exposedPorts(mcs, name, member.service);
  const allowed = providerClusters(mcs);
  const slices = member.endpointSlices.filter(
    (s) =>
      s.metadata.labels?.[SERVICE_NAME_LABEL] === `${DERIVED_SERVICE_PREFIX}${name}` &&
      (s.metadata.namespace ?? namespace) === namespace,
  );

  // Per-cluster mode (model/cluster-weights.ts): the NLB's listeners forward to weighted groups.
  const sliceClusters = [...new Set(slices.flatMap((s) => sourceClusterOf(s, allowed ?? []) ?? []))];
  const weights = readClusterWeights(
    mcs.metadata.annotations,
    new Set([...(allowed ?? []), ...sliceClusters, ...(member.elsewhere ?? [])]),
  );
  const list = weights && weightsFor(weights, name, member.placement, `Service ${namespace}/${name}`);
  const clusters = [
    ...new Set([...(allowed ?? []), ...sliceClusters.filter((c) => !allowed || allowed.includes(c))]),
  ]
    .filter((c) => !member.elsewhere?.has(c))
    .sort();
  const traffic: string[] = [];

  const targetGroups: TargetGroupResource[] = [];
  const listeners: ListenerResource[] = [];
  ports.forEach((sp, i) => {
    if (sp.protocol !== undefined && sp.protocol !== 'TCP' && sp.protocol !== 'UDP') {
      throw new InvalidObjectError(
        `Service "${name}" port ${sp.port}: protocol ${sp.protocol} is not supported by NLB`,
        {
          field: `spec.ports[${i}]`,
          reason: 'UnsupportedProtocol',
        },
      );
    }
    const protocol = sp.protocol ?? 'TCP';
    const id = `${namespace}/${name}:${sp.port}`;
    // TLS on a TCP port that ssl-ports names (by number or name, `*` = all).
    const secure =
      protocol === 'TCP' && tls?.ports.some((p) => p === '*' || p === String(sp.port) || p === sp.name)
        ? tls
        : undefined;
    const ipAddressType = targetGroupIpAddressType(member.service, lbIpAddressType);
    const targetsOf = (only: readonly string[] | undefined) =>
      buildTargets({
        serviceKey: `${namespace}/${name}`,
        servicePort: sp,
        slices,
        blockedClusters: new Set(),
        ...(only ? { allowedClusters: new Set(only) } : {}),
        knownClusters: allowed ?? [],
        vpcCidrs: source.placement.vpc.cidrs ?? [],
        vpcSubnets: source.placement.vpc.subnets ?? [],
        ipAddressType,
        vpcIpv6Cidrs: source.placement.vpc.ipv6Cidrs ?? [],
      });
    const groupOf = (groupId: string, only: readonly string[] | undefined, slice?: ClusterSlice) =>
      ipTargetGroup(source, settings, {
        id: groupId,
        service: { namespace, name },
        servicePort: sp,
        portKey: String(sp.port),
        // backend-protocol ssl: TLS to the targets, behind TLS listeners only (as LBC).
        protocol: secure && settings.particular.backendTls ? 'TLS' : protocol,
        ipAddressType,
        attributes: nlbTargetGroupAttributes(
          source.annotations,
          NLB_KEYS,
          settings.targetGroupAttributes,
          sp,
          settings.particular.proxyProtocol,
        ),
        healthCheck,
        targets: targetsOf(only),
        ...(slice && only ? { slice: { key: slice.key, clusters: only, drain: slice.drain } } : {}),
      });
    let action: Action;
    if (list && clusters.length > 0) {
      const shares = clusterShares(clusters, list, new Set(), (c) => targetsOf([c]).length > 0);
      traffic.push(`${name}:${sp.port} ${describeShares(shares)}${list.source ? ` (${list.source})` : ''}`);
      const groups = sliceClustersOf(shares, `Service ${namespace}/${name} port ${sp.port}`, list.key).map(
        (slice) => {
          const tg = groupOf(
            `${id}@${slice.key}`,
            slice.clusters.map((c) => c.cluster),
            slice,
          );
          targetGroups.push(tg);
          return { targetGroup: ref(tg.id), weight: slice.weight };
        },
      );
      action = { type: 'forward', targetGroups: groups };
    } else {
      targetGroups.push(groupOf(id, allowed));
      action = { type: 'forward', targetGroup: ref(id) };
    }
    const listenerId = String(sp.port);
    listeners.push({
      id: listenerId,
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: ref(LOAD_BALANCER_ID),
        port: sp.port,
        protocol: secure ? 'TLS' : protocol,
        defaultActions: [action],
        ...(secure ? { certificates: [...secure.certificates], sslPolicy: secure.sslPolicy } : {}),
        ...(secure && settings.particular.alpnPolicy ? { alpnPolicy: settings.particular.alpnPolicy } : {}),
        tags: settings.tags(listenerId),
      },
    });
  });
  return { targetGroups, listeners, traffic };
}

/**
 * As LBC (buildTargetGroupIPAddressType): a Service with an IPv6 family gets ipv6 target groups
 * (its IPv6 EndpointSlices are the targets), which only a dualstack NLB can forward to.
 */
function targetGroupIpAddressType(
  service: Service | undefined,
  lbType: NlbIpAddressType | undefined,
): 'ipv4' | 'ipv6' {
  if (!service?.spec?.ipFamilies?.includes('IPv6')) return 'ipv4';
  if (lbType === 'dualstack') return 'ipv6';
  throw new InvalidObjectError(
    `Service "${service.metadata.name ?? ''}" has the IPv6 family (spec.ipFamilies), so its target groups are ipv6, which needs annotation ${NLB_KEYS.ipAddressType}: dualstack`,
    { field: NLB_KEYS.ipAddressType, reason: 'DualstackRequired' },
  );
}
