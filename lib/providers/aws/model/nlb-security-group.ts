/**
 * The NLB's security groups, as LBC builds them for a Service
 * (pkg/service/model_build_load_balancer.go buildLoadBalancerSecurityGroups,
 * model_build_managed_sg.go): the `security-groups` annotation's, else the configuration's, else
 * a managed frontend group of the NLB's own (the ALB's code, model/security-group.ts) opening the
 * listen ports (TCP or UDP, as the listener) to `load-balancer-source-ranges` and
 * `security-group-prefix-lists`, with Path MTU discovery's ICMP from each range when
 * `enable-icmp-for-path-mtu-discovery: on`. `disable-nlb-sg: true` gives the NLB none.
 *
 * AWS never adds security groups to an NLB created without them, nor takes the last one from an
 * NLB created with them: an NLB of ours that has none keeps none (deploy/plan.ts decides, as
 * LBC does from the existing load balancer), and one that has some cannot be disabled.
 */
import { NLB_KEYS } from './annotations/keys.js';
import { bool, invalid, oneOf, type Annotations } from './annotations/parse.js';
import {
  MANAGED_SECURITY_GROUP_ID,
  managedSecurityGroup,
  securityGroupRef,
  securityGroupSources,
  sourcesIgnoredWarning,
} from './security-group.js';
import type { StackSettings, StackSource } from './stack.js';
import type {
  ListenerResource,
  LoadBalancerIpAddressType,
  ManagedSecurityGroupSpec,
  ModelWarning,
  SecurityGroupSource,
} from './types.js';

/** The Warning reason of security-group keys beside `disable-nlb-sg: true`. */
export const NLB_SECURITY_GROUPS_DISABLED = 'NlbSecurityGroupsDisabled';

/** The NLB's security-group annotations, each checked before any AWS call. */
export interface NlbSecurityGroupSettings {
  disabled: boolean;
  /** load-balancer-source-ranges then security-group-prefix-lists; absent: neither set. */
  sources: SecurityGroupSource[] | undefined;
  icmpForPathMtu: 'on' | 'off' | undefined;
  privateLinkInboundRules: 'on' | 'off' | undefined;
}

export function readNlbSecurityGroupSettings(annotations: Annotations): NlbSecurityGroupSettings {
  return {
    disabled: bool(annotations, NLB_KEYS.disableNlbSecurityGroups) ?? false,
    sources: securityGroupSources(annotations, NLB_KEYS.sourceRanges, NLB_KEYS.securityGroupPrefixLists),
    icmpForPathMtu: oneOf(annotations, NLB_KEYS.icmpForPathMtuDiscovery, ['on', 'off'] as const),
    privateLinkInboundRules: oneOf(annotations, NLB_KEYS.privateLinkInboundRules, ['on', 'off'] as const),
  };
}

export interface NlbSecurityGroups {
  /** The load balancer's groups (the managed one by placeholder); absent: none. */
  securityGroups: string[] | undefined;
  managed: ManagedSecurityGroupSpec | undefined;
  privateLinkInboundRules: 'on' | 'off' | undefined;
  warnings: ModelWarning[];
}

const SOURCE_KEYS = [NLB_KEYS.sourceRanges, NLB_KEYS.securityGroupPrefixLists];

/** The NLB's groups from its settings and listeners (their ports open in the managed group). */
export function nlbSecurityGroups(
  source: Pick<StackSource<unknown>, 'ref' | 'ownerId' | 'placement'>,
  settings: Pick<StackSettings<unknown>, 'loadBalancer' | 'tags'>,
  sg: NlbSecurityGroupSettings,
  listeners: readonly ListenerResource[],
  ipAddressType: LoadBalancerIpAddressType,
): NlbSecurityGroups {
  // LBC refuses an IPv6 range on an NLB that is not dualstack (buildCIDRsFromSourceRanges);
  // here whether or not the managed group is built, so that the answer does not hang on it.
  const v6 = sg.sources?.find((s): s is { cidrIpv6: string } => 'cidrIpv6' in s);
  if (v6 && ipAddressType !== 'dualstack') {
    throw invalid(
      NLB_KEYS.sourceRanges,
      v6.cidrIpv6,
      `is an IPv6 CIDR, which needs ${NLB_KEYS.ipAddressType}: dualstack`,
    );
  }
  const named = settings.loadBalancer.securityGroups;
  if (sg.disabled) {
    const ignored = [
      ...(named ? [NLB_KEYS.securityGroups] : []),
      ...(sg.sources ? SOURCE_KEYS : []),
      ...(sg.icmpForPathMtu ? [NLB_KEYS.icmpForPathMtuDiscovery] : []),
      ...(sg.privateLinkInboundRules ? [NLB_KEYS.privateLinkInboundRules] : []),
    ];
    return {
      securityGroups: undefined,
      managed: undefined,
      privateLinkInboundRules: undefined,
      warnings:
        ignored.length > 0
          ? [
              {
                reason: NLB_SECURITY_GROUPS_DISABLED,
                message: `annotation ${NLB_KEYS.disableNlbSecurityGroups}: true gives the NLB no security groups, so ${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored (as in LBC)`,
              },
            ]
          : [],
    };
  }
  const explicit = named ?? source.placement.securityGroups;
  if (explicit) {
    const ignored = [
      ...(sg.sources ? SOURCE_KEYS : []),
      ...(sg.icmpForPathMtu ? [NLB_KEYS.icmpForPathMtuDiscovery] : []),
    ];
    return {
      securityGroups: [...explicit],
      managed: undefined,
      privateLinkInboundRules: sg.privateLinkInboundRules,
      warnings:
        ignored.length > 0
          ? [
              sourcesIgnoredWarning(
                ignored,
                named ? `annotation ${NLB_KEYS.securityGroups}` : "the configuration's securityGroups",
                'NLB',
              ),
            ]
          : [],
    };
  }
  return {
    securityGroups: [securityGroupRef(MANAGED_SECURITY_GROUP_ID)],
    managed: managedSecurityGroup(source, settings.tags(MANAGED_SECURITY_GROUP_ID), {
      ports: listeners.map((l) => ({
        port: l.spec.port,
        protocol: l.spec.protocol === 'UDP' ? ('udp' as const) : ('tcp' as const),
      })),
      sources: sg.sources ?? [],
      ipAddressType,
      icmpForPathMtu: sg.icmpForPathMtu === 'on',
    }),
    privateLinkInboundRules: sg.privateLinkInboundRules,
    warnings: [],
  };
}
