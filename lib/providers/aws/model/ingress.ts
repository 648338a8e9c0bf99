/**
 * MultiClusterIngress → desired ALB stack. Pure: everything it needs is in its input, so the same
 * input always yields the same stack (names, priorities, target order), and it can be tested and
 * printed without AWS.
 */
import type { MultiClusterIngress } from '../../../karmada/types.js';
import { minimumCapacityUnits } from './annotations/capacity.js';
import { edgeSettings } from './annotations/edge.js';
import { ALB_KEYS } from './annotations/keys.js';
import { invalid, oneOf, refuseReservedText } from './annotations/parse.js';
import { ignoredKeysWarning } from './annotations/unknown-keys.js';
import { albListeners } from './annotations/listeners.js';
import { discoverCertificates, discoveryHosts } from './certificates.js';
import { albListenerResources } from './alb-listeners.js';
import {
  assembleStack,
  objectLoadBalancerNames,
  objectStack,
  readStackSettings,
  type StackSource,
  withWarnings,
} from './stack.js';
import {
  MANAGED_SECURITY_GROUP_ID,
  managedSecurityGroup,
  securityGroupRef,
  securityGroupSources,
  sourcesIgnoredWarning,
} from './security-group.js';
import {
  LOAD_BALANCER_ID,
  resourcesOf,
  ResourceTypes,
  type ListenerResource,
  type Action,
  type ModelConfig,
  type ModelWarning,
  type Stack,
  type TargetGroupResource,
} from './types.js';
import type { AlbListenerSettings } from './annotations/listeners.js';
import { frontendNlbResources, readFrontendNlb } from './frontend-nlb.js';
import type { AlbSettings, IngressMember, MemberRoutes } from './ingress-member.js';
import { memberRoutes } from './member-routes.js';
export {
  UNSUPPORTED_TARGET_TYPE,
  type AlbSettings,
  type IngressMember,
  type MemberRoutes,
  type MemberScope,
} from './ingress-member.js';

export { memberRoutes } from './member-routes.js';

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

/** What one member asks for that its stack does not honour. */
export function memberWarnings(mci: Readonly<MultiClusterIngress>): ModelWarning[] {
  return ignoredKeysWarning(mci);
}
