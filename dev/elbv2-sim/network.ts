import type { SimNetwork, SimSubnet } from './config.js';

/** Parses dotted-quad IPv4; undefined for anything else. */
export function parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

/** Parses an IPv6 address (with `::` compression, no zone, no embedded IPv4) as a 128-bit number. */
export function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9A-Fa-f:]+$/.test(text) || text.split('::').length > 2) return undefined;
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (groups.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g, 16)), 0n);
}

export function inCidr(ip: number, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const baseIp = parseIpv4(base ?? '');
  const bits = Number(bitsText);
  if (baseIp === undefined || !Number.isInteger(bits)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(baseIp / size);
}

export function inCidr6(ip: bigint, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const baseIp = parseIpv6(base ?? '');
  const bits = BigInt(Number(bitsText));
  if (baseIp === undefined) return false;
  const shift = 128n - bits;
  return ip >> shift === baseIp >> shift;
}

/** A CIDR block of either family, as source-ip conditions take them; undefined when malformed. */
export function parseCidr(text: string): { family: 4 | 6; bits: number } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const bits = Number(m[2]);
  if (parseIpv4(m[1]!) !== undefined && bits <= 32) return { family: 4, bits };
  if (parseIpv6(m[1]!) !== undefined && bits <= 128) return { family: 6, bits };
  return undefined;
}

// What ELBv2 accepts for ip targets outside the target group's VPC: RFC 1918 and RFC 6598.
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];

export const isPrivateIpv4 = (ip: number): boolean => PRIVATE_RANGES.some((r) => inCidr(ip, r));

/**
 * A subnet of the VPC by ID, whichever it is: a load balancer may be placed in any subnet of its
 * VPC (the pod subnets too), as in AWS, which asks only that it exist (SubnetNotFound).
 */
export function vpcSubnet(network: SimNetwork, id: string): SimSubnet | undefined {
  return network.subnets.find((s) => s.subnetId === id) ?? network.podSubnets.find((s) => s.subnetId === id);
}

/** The subnet holding an IPv4 address; AWS decides "in the VPC" by subnets, not by VPC CIDRs. */
export function subnetOf(network: SimNetwork, ip: number): SimSubnet | undefined {
  return [...network.subnets, ...network.podSubnets].find((s) => inCidr(ip, s.cidr));
}

export function subnetOf6(network: SimNetwork, ip: bigint): SimSubnet | undefined {
  return network.subnets.find((s) => s.ipv6Cidr !== undefined && inCidr6(ip, s.ipv6Cidr));
}

export function availabilityZones(network: SimNetwork): string[] {
  return [...new Set(network.subnets.map((s) => s.availabilityZone))].sort();
}
