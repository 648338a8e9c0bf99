/**
 * MultiClusterIngress → desired ALB stack. Pure: everything it needs is in its input, so the same
 * input always yields the same stack (names, priorities, target order), and it can be tested and
 * printed without AWS.
 */
import type { EndpointSlice, IngressBackend, MultiClusterIngress, Service } from '../../../karmada/types.js';
import type { KubeObject } from '../../../kube/types.js';
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../../karmada/constants.js';
import { resolveBackend } from './backends.js';
import { albHealthCheck } from './annotations/health-check.js';
import { ALB_KEYS } from './annotations/keys.js';
import { ignoredKeysWarning } from './annotations/unknown-keys.js';
import { albListeners } from './annotations/listeners.js';
import { albListenerResources, type Route } from './alb-listeners.js';
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
import { buildTargets } from './targets.js';
import {
  LOAD_BALANCER_ID,
  ref,
  type Action,
  type HealthCheckSpec,
  type ModelConfig,
  type Stack,
  type TargetGroupResource,
} from './types.js';
import type { AlbListenerSettings } from './annotations/listeners.js';

/** One MultiClusterIngress and what was read for it from Kubernetes. */
export interface IngressMember {
  mci: MultiClusterIngress;
  /** Services of the MCI's namespace that its backends name (others are ignored). */
  services: readonly Service[];
  /** EndpointSlices Karmada collected for those Services (`kubernetes.io/service-name: derived-<svc>`). */
  endpointSlices: readonly EndpointSlice[];
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
  return albStack(objectStack('mci', input.mci, member, config), config);
}

type AlbSettings = StackSettings<{ listeners: AlbListenerSettings; healthCheck: HealthCheckSpec }>;

/** What one member puts on the ALB: its routes, its default backend, their target groups. */
interface MemberRoutes {
  routes: Route[];
  defaultAction: Action | undefined;
}

function albStack(source: StackSource<IngressMember>, config: ModelConfig): Stack {
  // Annotations first: a bad value fails the build before anything else is looked at.
  const settings: AlbSettings = readStackSettings(source, ALB_KEYS, 'application', config, (annotations) => ({
    listeners: albListeners(annotations, ALB_KEYS),
    healthCheck: albHealthCheck(annotations, ALB_KEYS, config.healthCheck),
  }));
  const targetGroups = new Map<string, TargetGroupResource>();
  const members = source.members.map((m) => memberRoutes(source, settings, m, targetGroups));
  const defaultAction = members.find((m) => m.defaultAction)?.defaultAction ?? FIXED_404;

  const { listeners, rules, ruleFields } = albListenerResources({
    settings: settings.particular.listeners,
    routes: members.flatMap((m) => m.routes),
    defaultAction,
    loadBalancer: LOAD_BALANCER_ID,
    tags: settings.tags,
  });
  const stack = assembleStack(
    source,
    settings,
    {
      type: 'application',
      securityGroups: settings.loadBalancer.securityGroups ?? source.placement.securityGroups,
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
  return withWarnings(
    stack,
    source.members.flatMap((m) => ignoredKeysWarning(m.mci)),
  );
}

/** Resolves one MCI's backends into target groups (added to `targetGroups`) and its routes. */
function memberRoutes(
  source: StackSource<IngressMember>,
  settings: AlbSettings,
  member: IngressMember,
  targetGroups: Map<string, TargetGroupResource>,
): MemberRoutes {
  const { mci } = member;
  const { namespace, name: mciName } = objectName(mci);
  // Objects without a namespace are in the MCI's.
  const sameNamespace = (o: Readonly<KubeObject>) => (o.metadata.namespace ?? namespace) === namespace;
  const services = new Map(member.services.filter(sameNamespace).map((s) => [s.metadata.name ?? '', s]));
  const blocked = new Set(mci.status?.trafficBlockClusters);
  const known = new Set(blocked);
  mci.status?.serviceLocations?.forEach((l) => l.clusters?.forEach((c) => known.add(c)));
  const knownClusters = [...known];

  const forwardTo = (backend: IngressBackend, field: string): Action => {
    const b = resolveBackend(backend, field, services);
    // LBC's target group resource ID: one target group per (ingress, service, service port).
    const id = `${namespace}/${mciName}-${b.serviceName}:${b.portKey}`;
    if (!targetGroups.has(id)) {
      targetGroups.set(
        id,
        ipTargetGroup(source, settings, {
          id,
          service: { namespace, name: b.serviceName },
          servicePort: b.servicePort,
          portKey: b.portKey,
          protocol: 'HTTP',
          protocolVersion: 'HTTP1',
          healthCheck: settings.particular.healthCheck,
          targets: buildTargets({
            serviceKey: `${namespace}/${b.serviceName}`,
            servicePort: b.servicePort,
            slices: member.endpointSlices.filter(
              (s) => sliceServiceName(s) === b.serviceName && sameNamespace(s),
            ),
            blockedClusters: blocked,
            knownClusters,
            vpcCidrs: source.placement.vpc.cidrs ?? [],
            vpcSubnets: source.placement.vpc.subnets ?? [],
          }),
        }),
      );
    }
    return { type: 'forward', targetGroup: ref(id) };
  };

  const defaultAction = mci.spec?.defaultBackend
    ? forwardTo(mci.spec.defaultBackend, 'spec.defaultBackend')
    : undefined;

  // Rules are resolved once (so target groups and errors do not depend on the listener count),
  // then copied onto every listener that serves traffic, as LBC does for each listen-port.
  const routes: Route[] = [];
  mci.spec?.rules?.forEach((rule, ri) => {
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
  return { routes, defaultAction };
}
