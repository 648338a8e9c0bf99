/**
 * The load balancer's subnets, as LBC resolves them (pkg/networking/subnet_resolver.go):
 * - listed (the annotation, else the configuration's `subnets`): IDs as they are, names (the
 *   `Name` tag) looked up among the VPC's subnets, each in the order written;
 * - listed nowhere: discovered among the VPC's subnets by LBC's role tags,
 *   `kubernetes.io/role/elb` for internet-facing and `kubernetes.io/role/internal-elb` for
 *   internal load balancers (value `1` or empty), one per Availability Zone.
 *
 * Discovery keeps LBC's filters (at least 8 free addresses; an associated IPv6 block for a
 * dualstack load balancer) and tie-break (the lowest subnet ID in a zone), and the tenant
 * policy's allowed subnets when it lists some (the provider passes them: a subnet the policy
 * refuses is never chosen, so discovery cannot pick what the check would then reject). It drops
 * LBC's cluster tag check (`kubernetes.io/cluster/<name>`): this provider is no cluster of the VPC;
 * the clusters that tag its subnets for themselves are its members, and their subnets are as
 * eligible as any. An ALB needs subnets in two zones, an NLB in one, as in LBC.
 *
 * Pure: the subnets come with the VPC's network (vpc-network.ts, one DescribeSubnets per
 * container per TTL), so resolving costs no call. A configuration that lists `vpc.cidrs` reads no
 * subnet from EC2: it must list `subnets` (config.ts), and names cannot be resolved under it.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { VpcSubnet } from '../vpc-network.js';
import type { LoadBalancerSpec } from './types.js';

export const SUBNET_ROLE_TAGS = {
  'internet-facing': 'kubernetes.io/role/elb',
  internal: 'kubernetes.io/role/internal-elb',
} as const;

/** LBC's defaultMinimalAvailableIPAddressCount: what ELBv2 needs free in each of its subnets. */
export const MIN_FREE_ADDRESSES = 8;

export interface SubnetQuery {
  /** The annotation named in every error. */
  key: string;
  /** IDs or names, from the annotation or the configuration; absent: discovery. */
  listed?: readonly string[] | undefined;
  /** Where `listed` came from, for the messages. */
  listedBy?: 'annotation' | 'configuration';
  scheme: LoadBalancerSpec['scheme'];
  type: LoadBalancerSpec['type'];
  ipAddressType: LoadBalancerSpec['ipAddressType'];
  /** The VPC's subnets from EC2; absent when the configuration's `vpc.cidrs` kept EC2 out. */
  catalog?: readonly VpcSubnet[] | undefined;
  /** The tenant policy's allowed subnet IDs for this object; absent: any. */
  allowed?: readonly string[] | undefined;
}

const isSubnetId = (v: string): boolean => v.startsWith('subnet-');

/** The subnet IDs of the load balancer, or an InvalidObjectError naming `query.key`. */
export function resolveSubnets(query: SubnetQuery): string[] {
  return query.listed !== undefined ? listedSubnets(query, query.listed) : discoverSubnets(query);
}

function listedSubnets(query: SubnetQuery, listed: readonly string[]): string[] {
  const where = query.listedBy === 'configuration' ? 'configuration subnets' : `annotation ${query.key}`;
  if (listed.every(isSubnetId)) return [...listed];
  const name = listed.find((v) => !isSubnetId(v))!;
  if (!query.catalog) {
    throw new InvalidObjectError(
      `${where}: "${name}" is a subnet name; names are resolved from EC2's subnets, which the configuration's vpc.cidrs keeps out: list subnet IDs`,
      { field: query.key, reason: 'SubnetNotFound' },
    );
  }
  // Several subnets may share a name: each mention takes the next by ID, as LBC does.
  const byName = new Map<string, VpcSubnet[]>();
  for (const s of [...query.catalog].sort((a, b) => compare(a.id, b.id))) {
    const n = s.tags?.['Name'];
    if (n !== undefined && n !== '') byName.set(n, [...(byName.get(n) ?? []), s]);
  }
  const used = new Map<string, number>();
  return listed.map((v) => {
    if (isSubnetId(v)) return v;
    const found = byName.get(v) ?? [];
    const i = used.get(v) ?? 0;
    used.set(v, i + 1);
    const subnet = found[i];
    if (!subnet) {
      throw new InvalidObjectError(
        found.length === 0
          ? `${where}: no subnet of the VPC has the Name tag "${v}"`
          : `${where}: "${v}" is listed ${i + 1} times but ${found.length} subnet(s) of the VPC have that Name tag`,
        { field: query.key, reason: 'SubnetNotFound' },
      );
    }
    return subnet.id;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function discoverSubnets(query: SubnetQuery): string[] {
  const tag = SUBNET_ROLE_TAGS[query.scheme];
  const minimum = query.type === 'application' ? 2 : 1;
  const needsIpv6 = query.ipAddressType !== 'ipv4';
  const tagged = (query.catalog ?? []).filter((s) => {
    const v = s.tags?.[tag];
    return v === '' || v === '1';
  });
  let fewAddresses = 0;
  let noIpv6 = 0;
  let refused = 0;
  const eligible: VpcSubnet[] = [];
  for (const s of tagged) {
    if ((s.availableAddresses ?? MIN_FREE_ADDRESSES) < MIN_FREE_ADDRESSES) fewAddresses++;
    else if (needsIpv6 && !s.ipv6) noIpv6++;
    else if (query.allowed && !query.allowed.includes(s.id)) refused++;
    else eligible.push(s);
  }
  // One per zone: the lowest ID (LBC's tie-break once its cluster tag check is left out).
  const byZone = new Map<string, VpcSubnet>();
  for (const s of eligible) {
    const kept = byZone.get(s.zone);
    if (!kept || s.id < kept.id) byZone.set(s.zone, s);
  }
  const chosen = [...byZone.values()].map((s) => s.id).sort(compare);
  if (chosen.length >= minimum) return chosen;
  const zones = [...byZone.keys()].sort(compare);
  const excluded = [
    fewAddresses ? `${fewAddresses} with fewer than ${MIN_FREE_ADDRESSES} free addresses` : '',
    noIpv6 ? `${noIpv6} without an IPv6 block (${query.ipAddressType} needs one)` : '',
    refused ? `${refused} not among the tenant policy's allowed subnets` : '',
  ].filter(Boolean);
  const what =
    query.type === 'application' ? 'an ALB needs subnets in at least 2' : 'a load balancer needs 1';
  throw new InvalidObjectError(
    `annotation ${query.key} is not set and the configuration lists no subnets: discovery found ` +
      `${query.scheme} subnets (tag ${tag}) in ${zones.length} Availability Zone(s)` +
      `${zones.length ? ` (${zones.join(', ')})` : ''}; ${what}. ` +
      `${tagged.length} subnet(s) of the VPC carry the tag${excluded.length ? `, ${excluded.join(', ')}` : ''}. ` +
      `Tag a subnet in another zone ${tag}=1, or list subnets in ${query.key}`,
    { field: query.key, reason: 'SubnetsNotDiscovered' },
  );
}
