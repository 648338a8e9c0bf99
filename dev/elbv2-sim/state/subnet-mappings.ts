import type { LoadBalancerAddress, SubnetMapping } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { SimSubnet } from '../config.js';
import { SimError, validation } from '../errors.js';
import { inCidr, inCidr6, parseIpv4, parseIpv6 } from '../network.js';
import type { LoadBalancerRecord, SubnetAddress } from './model.js';

type Placement = Pick<LoadBalancerRecord, 'type' | 'scheme' | 'ipAddressType'>;

const ALLOCATION_ID = /^eipalloc-[0-9a-f]{8,17}$/;

const invalidConfiguration = (message: string) => new SimError('InvalidConfigurationRequest', message);

/** AWS keeps the first four addresses and the last one of every IPv4 subnet. */
function reservedInSubnet(ip: number, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const first = parseIpv4(base) ?? 0;
  const last = first + 2 ** (32 - Number(bits)) - 1;
  return ip - first < 4 || ip === last;
}

/**
 * The static addresses of SubnetMappings (API_SubnetMapping): Elastic IPs only for
 * internet-facing NLBs (no EC2 is simulated: any well-formed allocation ID exists, each usable
 * once), private IPv4 addresses only for internal NLBs and from the subnet's range (not one AWS
 * reserves), IPv6 addresses only for dualstack NLBs and from the subnet's IPv6 range. ALBs take
 * none of them.
 */
export function subnetAddresses(
  lb: Placement,
  subnets: readonly SimSubnet[],
  mappings: readonly SubnetMapping[] | undefined,
): Map<string, SubnetAddress> {
  const out = new Map<string, SubnetAddress>();
  const allocations = new Set<string>();
  for (const m of mappings ?? []) {
    const subnet = subnets.find((s) => s.subnetId === m.SubnetId);
    if (!subnet) continue;
    const { AllocationId: eip, PrivateIPv4Address: v4, IPv6Address: v6 } = m;
    if (eip === undefined && v4 === undefined && v6 === undefined) continue;
    if (lb.type === 'application')
      throw invalidConfiguration(
        'Subnet mappings with Elastic IPs, private IPv4 or IPv6 addresses are supported only for Network Load Balancers',
      );
    if (eip !== undefined) {
      if (lb.scheme !== 'internet-facing')
        throw invalidConfiguration(
          'Elastic IP addresses can be specified only for internet-facing load balancers',
        );
      if (!ALLOCATION_ID.test(eip))
        throw new SimError('AllocationIdNotFound', `The allocation ID '${eip}' does not exist`);
      if (allocations.has(eip))
        throw validation(`The allocation ID '${eip}' is specified for more than one subnet`);
      allocations.add(eip);
    }
    if (v4 !== undefined) {
      if (lb.scheme !== 'internal')
        throw invalidConfiguration(
          'Private IPv4 addresses can be specified only for internal load balancers',
        );
      const ip = parseIpv4(v4);
      if (ip === undefined || !inCidr(ip, subnet.cidr))
        throw validation(
          `The private IPv4 address '${v4}' is not in the range of subnet '${subnet.subnetId}'`,
        );
      if (reservedInSubnet(ip, subnet.cidr))
        throw validation(`The private IPv4 address '${v4}' is reserved in subnet '${subnet.subnetId}'`);
    }
    if (v6 !== undefined) {
      if (lb.ipAddressType === 'ipv4')
        throw invalidConfiguration('IPv6 addresses can be specified only for dualstack load balancers');
      const ip = parseIpv6(v6);
      if (ip === undefined || !subnet.ipv6Cidr || !inCidr6(ip, subnet.ipv6Cidr))
        throw validation(`The IPv6 address '${v6}' is not in the range of subnet '${subnet.subnetId}'`);
    }
    out.set(subnet.subnetId, {
      ...(eip !== undefined ? { allocationId: eip, ipAddress: publicAddressOf(eip) } : {}),
      ...(v4 !== undefined ? { privateIPv4Address: v4 } : {}),
      ...(v6 !== undefined ? { ipv6Address: v6 } : {}),
    });
  }
  return out;
}

/** The Elastic IP's public address: made up, but the same for the same allocation ID. */
function publicAddressOf(allocationId: string): string {
  let h = 2166136261;
  for (const c of allocationId) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return `3.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

/**
 * A subnet the load balancer already has keeps its addresses: SetSubnets may add subnets with
 * theirs, or repeat the ones a subnet has, but not change them.
 */
export function checkKeptAddresses(lb: LoadBalancerRecord, next: ReadonlyMap<string, SubnetAddress>): void {
  for (const [subnetId, want] of next) {
    if (!lb.subnets.includes(subnetId)) continue;
    const have = lb.addresses?.get(subnetId) ?? {};
    const same =
      have.allocationId === want.allocationId &&
      have.privateIPv4Address === want.privateIPv4Address &&
      have.ipv6Address === want.ipv6Address;
    if (!same)
      throw validation(
        `The addresses of subnet '${subnetId}' cannot be changed: it is already attached to the load balancer`,
      );
  }
}

/** DescribeLoadBalancers' LoadBalancerAddresses of one NLB subnet. */
export function renderAddresses(lb: LoadBalancerRecord, subnetId: string): LoadBalancerAddress[] {
  const a = lb.addresses?.get(subnetId);
  if (!a) return [];
  return [
    {
      ...(a.ipAddress ? { IpAddress: a.ipAddress } : {}),
      ...(a.allocationId ? { AllocationId: a.allocationId } : {}),
      ...(a.privateIPv4Address ? { PrivateIPv4Address: a.privateIPv4Address } : {}),
      ...(a.ipv6Address ? { IPv6Address: a.ipv6Address } : {}),
    },
  ];
}
