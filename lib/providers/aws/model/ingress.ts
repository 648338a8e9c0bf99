/**
 * MultiClusterIngress → desired ALB stack. Pure: everything it needs is in its input, so the same
 * input always yields the same stack (names, priorities, target order), and it can be tested and
 * printed without AWS.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { EndpointSlice, IngressBackend, MultiClusterIngress, Service } from '../../../karmada/types.js';
import type { AwsProviderConfig } from '../config.js';
import { loadBalancerName, targetGroupName } from '../naming.js';
import { stackId } from '../../../provider/stack-id.js';
import { resourceTags, type StackOwner } from '../tagging.js';
import { resolveBackend } from './backends.js';
import { albHealthCheck } from './annotations/health-check.js';
import { ALB_KEYS } from './annotations/keys.js';
import { albListeners } from './annotations/listeners.js';
import { loadBalancerAttributes, targetGroupAttributes } from './annotations/attributes.js';
import { parseLoadBalancerAnnotations, stackUserTags } from './annotations/load-balancer.js';
import { candidateLoadBalancerNames } from './lb-names.js';
import { albListenerResources, type Route } from './alb-listeners.js';
import { checkLimits, LIMITS } from './limits.js';
import { ruleConditions, sortPaths } from './rules.js';
import { buildTargets } from './targets.js';
import {
  LOAD_BALANCER_ID,
  loadBalancerResource,
  ref,
  ResourceTypes,
  type Action,
  type Stack,
  type TargetGroupResource,
} from './types.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';

/** The configuration the model reads (a subset of the provider configuration). */
export type ModelConfig = Pick<
  AwsProviderConfig,
  | 'ownerId'
  | 'scheme'
  | 'subnets'
  | 'securityGroups'
  | 'vpc'
  | 'defaultTags'
  | 'externalManagedTags'
  | 'healthCheck'
>;

export interface IngressStackInput {
  mci: MultiClusterIngress;
  /** Services of the MCI's namespace that its backends name (others are ignored). */
  services: readonly Service[];
  /** EndpointSlices Karmada collected for those Services (`kubernetes.io/service-name: derived-<svc>`). */
  endpointSlices: readonly EndpointSlice[];
  config: ModelConfig;
}

/** ALB rule quota (rules-per-application-load-balancer, default 100, excluding default rules). */
export const MAX_RULES = LIMITS.rulesPerLoadBalancer;

export const FIXED_404: Action = {
  type: 'fixed-response',
  fixedResponse: { statusCode: '404', contentType: 'text/plain' },
};

/** The `mci/<ns>/<name>` stack owner of an MCI; needs only metadata, so deletion can use it. */
export function ingressStackOwner(mci: Readonly<MultiClusterIngress>, ownerId: string): StackOwner {
  const { namespace, name } = mci.metadata;
  if (!namespace || !name) {
    throw new InvalidObjectError('metadata.name and metadata.namespace are required', { field: 'metadata' });
  }
  return { ownerId, stackId: stackId('mci', namespace, name) };
}

/** Every name the MCI's ALB may carry, the wanted one first (see candidateLoadBalancerNames). */
export function ingressLoadBalancerNames(mci: Readonly<MultiClusterIngress>, config: ModelConfig): string[] {
  return candidateLoadBalancerNames({
    annotations: mci.metadata.annotations,
    keys: ALB_KEYS,
    hostnames: (mci.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname),
    defaultScheme: config.scheme,
    derived: (scheme) => ingressLoadBalancerName(mci, config.ownerId, scheme),
  });
}

/** The deterministic ALB name of an MCI for a scheme. */
export function ingressLoadBalancerName(
  mci: Readonly<MultiClusterIngress>,
  ownerId: string,
  scheme: ModelConfig['scheme'],
): string {
  const owner = ingressStackOwner(mci, ownerId);
  return loadBalancerName({
    ...owner,
    namespace: mci.metadata.namespace ?? '',
    name: mci.metadata.name ?? '',
    type: 'application',
    scheme,
  });
}

function sliceServiceName(slice: EndpointSlice): string | undefined {
  const label = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  return label?.startsWith(DERIVED_SERVICE_PREFIX) ? label.slice(DERIVED_SERVICE_PREFIX.length) : undefined;
}

export function buildIngressStack(input: IngressStackInput): Stack {
  const { mci, config } = input;
  const owner = ingressStackOwner(mci, config.ownerId);
  const namespace = mci.metadata.namespace ?? '';
  const mciName = mci.metadata.name ?? '';
  // Annotations first: a bad value fails the build before anything else is looked at.
  const annotations = mci.metadata.annotations;
  const lbAnn = parseLoadBalancerAnnotations(annotations, ALB_KEYS);
  const listenerSettings = albListeners(annotations, ALB_KEYS);
  const healthCheck = albHealthCheck(annotations, ALB_KEYS, config.healthCheck);
  const tgAttributes = targetGroupAttributes(annotations, ALB_KEYS, 'HTTP');
  const lbAttributes = loadBalancerAttributes(annotations, ALB_KEYS, 'application');
  const scheme = lbAnn.scheme ?? config.scheme;
  const userTags = stackUserTags(config.defaultTags, lbAnn.tags, config.externalManagedTags, ALB_KEYS.tags);
  const tags = (resourceId: string) => resourceTags(owner, resourceId, userTags);

  const services = new Map(
    input.services
      .filter((s) => (s.metadata.namespace ?? namespace) === namespace)
      .map((s) => [s.metadata.name ?? '', s]),
  );
  const slicesByService = new Map<string, EndpointSlice[]>();
  for (const slice of input.endpointSlices) {
    const svc = sliceServiceName(slice);
    if (svc === undefined || (slice.metadata.namespace ?? namespace) !== namespace) continue;
    slicesByService.set(svc, [...(slicesByService.get(svc) ?? []), slice]);
  }
  const blocked = new Set(mci.status?.trafficBlockClusters ?? []);
  const knownClusters = [
    ...new Set([...blocked, ...(mci.status?.serviceLocations ?? []).flatMap((l) => l.clusters ?? [])]),
  ];

  const targetGroups = new Map<string, TargetGroupResource>();
  const forwardTo = (backend: IngressBackend, field: string): Action => {
    const b = resolveBackend(backend, field, services);
    // LBC's target group resource ID: one target group per (ingress, service, service port).
    const id = `${namespace}/${mciName}-${b.serviceName}:${b.portKey}`;
    if (!targetGroups.has(id)) {
      // Target type ip: LBC uses a numeric targetPort, or 1 when it is named (each target carries its own port).
      const tp = b.servicePort.targetPort;
      const port = typeof tp === 'number' ? tp : tp === undefined ? b.servicePort.port : 1;
      const name = targetGroupName({
        ...owner,
        serviceNamespace: namespace,
        serviceName: b.serviceName,
        servicePort: b.portKey,
        port,
        protocol: 'HTTP',
        targetType: 'ip',
        vpcId: config.vpc.id,
      });
      const targets = buildTargets({
        serviceKey: `${namespace}/${b.serviceName}`,
        servicePort: b.servicePort,
        slices: slicesByService.get(b.serviceName) ?? [],
        blockedClusters: blocked,
        knownClusters,
        vpcCidrs: config.vpc.cidrs,
      });
      targetGroups.set(id, {
        id,
        type: ResourceTypes.TargetGroup,
        spec: {
          name,
          targetType: 'ip',
          protocol: 'HTTP',
          protocolVersion: 'HTTP1',
          port,
          ipAddressType: 'ipv4',
          vpcId: config.vpc.id,
          healthCheck,
          targets,
          ...(tgAttributes ? { attributes: tgAttributes } : {}),
          tags: tags(id),
        },
      });
    }
    return { type: 'forward', targetGroup: ref(id) };
  };

  const defaultAction = mci.spec?.defaultBackend
    ? forwardTo(mci.spec.defaultBackend, 'spec.defaultBackend')
    : FIXED_404;

  // Rules are resolved once (so target groups and errors do not depend on the listener count),
  // then copied onto every listener that serves traffic, as LBC does for each listen-port.
  const routes: Route[] = [];
  (mci.spec?.rules ?? []).forEach((rule, ri) => {
    for (const { index, path } of sortPaths(rule.http?.paths ?? [])) {
      const field = `spec.rules[${ri}].http.paths[${index}]`;
      const conditions = ruleConditions(rule.host, path, field);
      const action = forwardTo(path.backend, `${field}.backend`);
      // Content-derived IDs keep a rule's resource tag true when re-ordering changes its priority.
      routes.push({
        key: `${rule.host || '*'}:${path.pathType ?? 'ImplementationSpecific'}:${path.path ?? ''}`,
        field,
        conditions,
        action,
      });
    }
  });

  const { listeners, rules, ruleFields } = albListenerResources({
    settings: listenerSettings,
    routes,
    defaultAction,
    loadBalancer: LOAD_BALANCER_ID,
    tags,
  });

  const stack: Stack = {
    id: owner.stackId,
    ownerId: owner.ownerId,
    resources: [
      loadBalancerResource({
        name: lbAnn.name ?? ingressLoadBalancerName(mci, config.ownerId, scheme),
        type: 'application',
        scheme,
        subnets: lbAnn.subnets ?? config.subnets,
        securityGroups: lbAnn.securityGroups ?? config.securityGroups,
        attributes: lbAttributes,
        tags: tags(LOAD_BALANCER_ID),
      }),
      ...[...targetGroups.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      ...listeners,
      ...rules,
    ],
  };
  checkLimits(stack, {
    rules: 'spec.rules',
    targetGroups: 'spec.rules',
    ruleField: (id) => ruleFields.get(id) ?? 'spec.rules',
  });
  return stack;
}
