/**
 * MultiClusterService (type LoadBalancer) → desired NLB stack, as LBC models a Service
 * (pkg/service/model_build_*.go): one NLB, and per exposed port one listener and one IP target
 * group (`<ns>/<name>:<port>`) whose targets are the ready endpoints of the same-named Service in
 * the provider clusters. Pure, like the ingress model.
 */
import { InvalidObjectError } from '../../../errors.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';
import type { EndpointSlice, MultiClusterService, Service, ServicePort } from '../../../karmada/types.js';
import { loadBalancerName, targetGroupName } from '../naming.js';
import { stackId } from '../../../provider/stack-id.js';
import { resourceTags, type StackOwner } from '../tagging.js';
import { loadBalancerAttributes, targetGroupAttributes } from './annotations/attributes.js';
import { nlbHealthCheck } from './annotations/health-check.js';
import { NLB_KEYS } from './annotations/keys.js';
import { nlbTls } from './annotations/listeners.js';
import { parseLoadBalancerAnnotations, stackUserTags } from './annotations/load-balancer.js';
import type { ModelConfig } from './ingress.js';
import { candidateLoadBalancerNames } from './lb-names.js';
import { checkLimits } from './limits.js';
import { buildTargets } from './targets.js';
import {
  LOAD_BALANCER_ID,
  loadBalancerResource,
  ref,
  ResourceTypes,
  type ListenerResource,
  type Stack,
  type TargetGroupResource,
} from './types.js';

export interface ServiceStackInput {
  mcs: MultiClusterService;
  /** The same-named Service in the MCS's namespace, if it exists. */
  service: Service | undefined;
  /** EndpointSlices Karmada collected for it (`kubernetes.io/service-name: derived-<name>`). */
  endpointSlices: readonly EndpointSlice[];
  config: ModelConfig;
}

export function serviceStackOwner(mcs: Readonly<MultiClusterService>, ownerId: string): StackOwner {
  const { namespace, name } = mcs.metadata;
  if (!namespace || !name) {
    throw new InvalidObjectError('metadata.name and metadata.namespace are required', { field: 'metadata' });
  }
  return { ownerId, stackId: stackId('mcs', namespace, name) };
}

export function serviceLoadBalancerName(
  mcs: Readonly<MultiClusterService>,
  ownerId: string,
  scheme: ModelConfig['scheme'],
): string {
  return loadBalancerName({
    ...serviceStackOwner(mcs, ownerId),
    namespace: mcs.metadata.namespace ?? '',
    name: mcs.metadata.name ?? '',
    type: 'network',
    scheme,
  });
}

/** Every name the MCS's NLB may carry, the wanted one first (see candidateLoadBalancerNames). */
export function serviceLoadBalancerNames(mcs: Readonly<MultiClusterService>, config: ModelConfig): string[] {
  return candidateLoadBalancerNames({
    annotations: mcs.metadata.annotations,
    keys: NLB_KEYS,
    hostnames: (mcs.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname),
    defaultScheme: config.scheme,
    derived: (scheme) => serviceLoadBalancerName(mcs, config.ownerId, scheme),
  });
}

/**
 * The clusters whose endpoints serve the MCS, as Karmada documents the precedence:
 * `spec.providerClusters`, else the deprecated `serviceProvisionClusters`, else the deprecated
 * `range.clusterNames`; undefined (= every cluster) when none names a cluster.
 */
export function providerClusters(mcs: Readonly<MultiClusterService>): string[] | undefined {
  const spec = mcs.spec;
  const fromSelectors = (spec.providerClusters ?? []).map((c) => c.name).filter(Boolean);
  if (fromSelectors.length > 0) return fromSelectors;
  if (spec.serviceProvisionClusters?.length) return [...spec.serviceProvisionClusters];
  if (spec.range?.clusterNames?.length) return [...spec.range.clusterNames];
  return undefined;
}

/** The Service ports to expose: `spec.ports` matched by number, or every port when it is empty. */
function exposedPorts(mcs: Readonly<MultiClusterService>, service: Service | undefined): ServicePort[] {
  const name = mcs.metadata.name ?? '';
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

export function buildServiceStack(input: ServiceStackInput): Stack {
  const { mcs, config } = input;
  const owner = serviceStackOwner(mcs, config.ownerId);
  const namespace = mcs.metadata.namespace ?? '';
  const name = mcs.metadata.name ?? '';
  if (!mcs.spec.types.includes('LoadBalancer')) {
    throw new InvalidObjectError('spec.types does not contain LoadBalancer: no load balancer to build', {
      field: 'spec.types',
      reason: 'NotLoadBalancer',
    });
  }
  const annotations = mcs.metadata.annotations;
  const lbAnn = parseLoadBalancerAnnotations(annotations, NLB_KEYS);
  const tls = nlbTls(annotations, NLB_KEYS);
  const healthCheck = nlbHealthCheck(annotations, NLB_KEYS);
  const tgAttributes = targetGroupAttributes(annotations, NLB_KEYS, 'TCP');
  const lbAttributes = loadBalancerAttributes(annotations, NLB_KEYS, 'network');
  const scheme = lbAnn.scheme ?? config.scheme;
  const userTags = stackUserTags(config.defaultTags, lbAnn.tags, config.externalManagedTags, NLB_KEYS.tags);
  const tags = (resourceId: string) => resourceTags(owner, resourceId, userTags);

  const ports = exposedPorts(mcs, input.service);
  const allowed = providerClusters(mcs);
  const slices = input.endpointSlices.filter(
    (s) =>
      s.metadata.labels?.[SERVICE_NAME_LABEL] === `${DERIVED_SERVICE_PREFIX}${name}` &&
      (s.metadata.namespace ?? namespace) === namespace,
  );

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
    const tp = sp.targetPort;
    const port = typeof tp === 'number' ? tp : tp === undefined ? sp.port : 1;
    const targets = buildTargets({
      serviceKey: `${namespace}/${name}`,
      servicePort: sp,
      slices,
      blockedClusters: new Set(),
      ...(allowed ? { allowedClusters: new Set(allowed) } : {}),
      knownClusters: allowed ?? [],
      vpcCidrs: config.vpc.cidrs,
    });
    targetGroups.push({
      id,
      type: ResourceTypes.TargetGroup,
      spec: {
        name: targetGroupName({
          ...owner,
          serviceNamespace: namespace,
          serviceName: name,
          servicePort: String(sp.port),
          port,
          protocol,
          targetType: 'ip',
          vpcId: config.vpc.id,
        }),
        targetType: 'ip',
        protocol,
        port,
        ipAddressType: 'ipv4',
        vpcId: config.vpc.id,
        healthCheck,
        targets,
        ...(tgAttributes ? { attributes: tgAttributes } : {}),
        tags: tags(id),
      },
    });
    const secure =
      protocol === 'TCP' &&
      tls &&
      (tls.ports.includes('*') ||
        tls.ports.includes(String(sp.port)) ||
        (sp.name !== undefined && tls.ports.includes(sp.name)));
    const listenerId = String(sp.port);
    listeners.push({
      id: listenerId,
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: ref(LOAD_BALANCER_ID),
        port: sp.port,
        protocol: secure ? 'TLS' : protocol,
        defaultActions: [{ type: 'forward', targetGroup: ref(id) }],
        ...(secure ? { certificates: [...tls.certificates], sslPolicy: tls.sslPolicy } : {}),
        tags: tags(listenerId),
      },
    });
  });

  const stack: Stack = {
    id: owner.stackId,
    ownerId: owner.ownerId,
    resources: [
      loadBalancerResource({
        name: lbAnn.name ?? serviceLoadBalancerName(mcs, config.ownerId, scheme),
        type: 'network',
        scheme,
        subnets: lbAnn.subnets ?? config.subnets,
        // NLB security groups only when asked for: an NLB created without them can never get any.
        securityGroups: lbAnn.securityGroups,
        attributes: lbAttributes,
        tags: tags(LOAD_BALANCER_ID),
      }),
      ...targetGroups,
      ...listeners,
    ],
  };
  checkLimits(stack, { rules: 'spec.ports', targetGroups: 'spec.ports' });
  return stack;
}
