import type { SimNetwork, SimSubnet } from './config.js';

/** Parses dotted-quad IPv4; undefined for anything else (IPv6 targets are not simulated). */
export function parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

export function inCidr(ip: number, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const baseIp = parseIpv4(base ?? '');
  const bits = Number(bitsText);
  if (baseIp === undefined || !Number.isInteger(bits)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(baseIp / size);
}

// What ELBv2 accepts for ip targets outside the target group's VPC: RFC 1918 and RFC 6598.
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];

export const isPrivateIpv4 = (ip: number): boolean => PRIVATE_RANGES.some((r) => inCidr(ip, r));

export function subnetOf(network: SimNetwork, ip: number): SimSubnet | undefined {
  return network.subnets.find((s) => inCidr(ip, s.cidr));
}

export function availabilityZones(network: SimNetwork): string[] {
  return [...new Set(network.subnets.map((s) => s.availabilityZone))].sort();
}
