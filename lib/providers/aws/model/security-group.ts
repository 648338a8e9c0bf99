/**
 * The load balancer's managed frontend security group, as LBC builds it
 * (pkg/ingress/model_build_managed_sg.go): when neither the object's `security-groups` annotation
 * nor the configuration's `securityGroups` names groups, the ALB gets a group of its own, owned
 * and tagged like the stack's other resources, whose only inbound rules open the listen ports to
 * `inbound-cidrs` (IPv4, and IPv6 on a dualstack ALB) and `security-group-prefix-lists`; with
 * neither, to everyone (`0.0.0.0/0`, and `::/0` on a dualstack ALB), as in LBC. Egress is EC2's
 * default (all traffic).
 *
 * Backend rules (`manage-backend-security-group-rules`, LBC's shared backend group that the
 * targets' groups then allow) are not built: the targets are pods of the member clusters, whose
 * security groups (node or pod ENIs, often in other VPCs or accounts) this provider neither knows
 * nor owns, and it never changes what it does not own. The key is reported with an Event.
 *
 * Pure: the group's ID is not known here; the load balancer names it with a placeholder
 * (`securityGroupRef`) the deploy resolves once the group exists (deploy/security-group.ts).
 */
import { createHash } from 'node:crypto';
import { parseIPv4, parseIPv6 } from './ip.js';
import type { Annotations } from './annotations/parse.js';
import { invalid, list } from './annotations/parse.js';
import type { StackSource } from './stack.js';
import type {
  LoadBalancerIpAddressType,
  ManagedSecurityGroupSpec,
  ModelWarning,
  SecurityGroupRuleSpec,
  SecurityGroupSource,
  Tags,
} from './types.js';

export type { ManagedSecurityGroupSpec, SecurityGroupRuleSpec, SecurityGroupSource } from './types.js';

/** The Warning reason of sources given beside named security groups. */
export const SOURCES_IGNORED = 'SecurityGroupSourcesIgnored';

/**
 * Source keys beside named security groups: they restrict the managed group only, so LBC ignores
 * them; `named` says what names the groups.
 */
export function sourcesIgnoredWarning(
  keys: readonly string[],
  named: string,
  lb: 'ALB' | 'NLB',
): ModelWarning {
  return {
    reason: SOURCES_IGNORED,
    message: `annotations ${keys.join(' and ')} restrict the managed security group only; ${named} names the ${lb}'s groups, so they are ignored (as in LBC): put the sources in those groups' rules`,
  };
}

/** The stack's resource ID of its managed group (LBC's `ManagedLBSecurityGroup`). */
export const MANAGED_SECURITY_GROUP_ID = 'ManagedLBSecurityGroup';

export const MANAGED_SECURITY_GROUP_DESCRIPTION = '[k8s] Managed SecurityGroup for LoadBalancer';

/** How the load balancer's spec names the group before it exists. */
export function securityGroupRef(resourceId: string): string {
  return `{{sg:${resourceId}}}`;
}

const ALNUM = /[^a-zA-Z0-9]/g;

/** LBC's buildManagedSecurityGroupName, with this deployment's owner instead of the cluster name. */
export function managedSecurityGroupName(
  ownerId: string,
  stack: { stackId: string; namespace: string; name: string; group?: string },
): string {
  const hash = createHash('sha256').update(ownerId).update(stack.stackId).digest('hex');
  if (stack.group !== undefined)
    return `k8s-${stack.group.replace(ALNUM, '').slice(0, 17)}-${hash.slice(0, 10)}`;
  const ns = stack.namespace.replace(ALNUM, '').slice(0, 8);
  const name = stack.name.replace(ALNUM, '').slice(0, 8);
  return `k8s-${ns}-${name}-${hash.slice(0, 10)}`;
}

/** `inbound-cidrs` then `security-group-prefix-lists`; undefined when neither is set. */
export function securityGroupSources(
  annotations: Annotations,
  cidrsKey: string,
  prefixListsKey: string,
): SecurityGroupSource[] | undefined {
  const cidrs = inboundCidrs(annotations, cidrsKey);
  const lists = prefixLists(annotations, prefixListsKey);
  return cidrs || lists ? [...(cidrs ?? []), ...(lists ?? [])] : undefined;
}

/** The stack's managed group: named for the stack, in its VPC, opening `ports` to the sources. */
export function managedSecurityGroup(
  source: Pick<StackSource<unknown>, 'ref' | 'ownerId' | 'placement'>,
  tags: Tags,
  rules: {
    ports: ReadonlyArray<{ port: number; protocol: 'tcp' | 'udp' }>;
    sources: readonly SecurityGroupSource[];
    ipAddressType: LoadBalancerIpAddressType;
    /** NLB `enable-icmp-for-path-mtu-discovery: on`: ICMP "fragmentation needed" from each CIDR. */
    icmpForPathMtu?: boolean;
  },
): ManagedSecurityGroupSpec {
  const { ref } = source;
  return {
    name: managedSecurityGroupName(source.ownerId, {
      stackId: ref.stackId,
      namespace: ref.namespace,
      name: ref.name,
      ...(ref.kind === 'mci-group' ? { group: ref.name } : {}),
    }),
    description: MANAGED_SECURITY_GROUP_DESCRIPTION,
    vpcId: source.placement.vpc.id,
    ingress: ingressRules(rules.ports, rules.sources, rules.ipAddressType, rules.icmpForPathMtu === true),
    tags,
  };
}

/** `inbound-cidrs`: IPv4 and IPv6 CIDRs, each a valid network; the key is named when one is not. */
export function inboundCidrs(annotations: Annotations, key: string): SecurityGroupSource[] | undefined {
  const values = list(annotations, key);
  if (values === undefined) return undefined;
  return values.map((cidr): SecurityGroupSource => {
    const [address, length, extra] = cidr.split('/');
    const bits = Number(length);
    if (extra === undefined && address !== undefined && /^\d{1,3}$/.test(length ?? '')) {
      if (parseIPv4(address) !== undefined && bits <= 32) return { cidrIpv4: cidr };
      if (parseIPv6(address) !== undefined && bits <= 128) return { cidrIpv6: cidr.toLowerCase() };
    }
    throw invalid(key, cidr, 'is not an IPv4 or IPv6 CIDR (like 10.0.0.0/8 or 2600:1f18::/32)');
  });
}

/** `security-group-prefix-lists`: managed prefix list IDs. */
export function prefixLists(annotations: Annotations, key: string): SecurityGroupSource[] | undefined {
  const values = list(annotations, key);
  if (values === undefined) return undefined;
  return values.map((id) => {
    if (!/^pl-[0-9a-f]{8,17}$/.test(id)) throw invalid(key, id, 'is not a prefix list ID (pl-<hex>)');
    return { prefixListId: id };
  });
}

/**
 * Path MTU discovery's ICMP messages (LBC pkg/shared_constants/icmp.go): IPv4 type 3
 * (destination unreachable) code 4 (fragmentation needed), IPv6 type 2 (packet too big) code 0.
 */
function pathMtuRule(source: SecurityGroupSource): SecurityGroupRuleSpec | undefined {
  if ('cidrIpv4' in source) return { protocol: 'icmp', port: 3, toPort: 4, source };
  if ('cidrIpv6' in source) return { protocol: 'icmpv6', port: 2, toPort: 0, source };
  return undefined; // LBC opens ICMP to the CIDRs only, not to prefix lists
}

/**
 * The inbound rules: every listen port from every source; without sources, from everyone (IPv6
 * too on a dualstack load balancer). IPv6 CIDRs on an ipv4 load balancer are left out, as in LBC.
 * With `icmpForPathMtu`, each CIDR may send Path MTU discovery's ICMP too (LBC's NLB).
 */
export function ingressRules(
  ports: ReadonlyArray<{ port: number; protocol: 'tcp' | 'udp' }>,
  sources: readonly SecurityGroupSource[],
  ipAddressType: LoadBalancerIpAddressType,
  icmpForPathMtu = false,
): SecurityGroupRuleSpec[] {
  const ipv6 = ipAddressType !== 'ipv4';
  const given = sources.filter((s) => ipv6 || !('cidrIpv6' in s));
  const from: SecurityGroupSource[] =
    sources.length > 0
      ? given
      : [{ cidrIpv4: '0.0.0.0/0' }, ...(ipv6 ? [{ cidrIpv6: '::/0' } as const] : [])];
  const rules: SecurityGroupRuleSpec[] = [];
  const seen = new Set<string>();
  const add = (rule: SecurityGroupRuleSpec) => {
    const key = `${rule.protocol}|${rule.port}|${rule.toPort ?? ''}|${JSON.stringify(rule.source)}`;
    if (seen.has(key)) return;
    seen.add(key);
    rules.push(rule);
  };
  for (const { port, protocol } of [...ports].sort(
    (a, b) => a.port - b.port || (a.protocol < b.protocol ? -1 : 1),
  )) {
    for (const source of from) add({ protocol, port, source });
  }
  if (icmpForPathMtu && ports.length > 0) {
    for (const source of from) {
      const rule = pathMtuRule(source);
      if (rule) add(rule);
    }
  }
  return rules;
}
