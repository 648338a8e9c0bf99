/** IPv4 helpers for target registration rules (AWS CreateTargetGroup / RegisterTargets docs). */

/** The address as an unsigned 32-bit number, or undefined when it is absent or not dotted-quad IPv4. */
export function parseIPv4(address: string | undefined): number | undefined {
  const parts = address?.split('.');
  if (parts?.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const octet = Number(p);
    if (octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

/** Whether `address` lies in `cidr` (`a.b.c.d/len`); false for anything unparsable. */
export function inCidr(address: number, cidr: string): boolean {
  const [base, lenText] = cidr.split('/');
  const baseN = parseIPv4(base);
  const len = Number(lenText);
  if (baseN === undefined || !Number.isInteger(len) || len < 0 || len > 32) return false;
  // len 0: size 2^32, every address is in block 0.
  const size = 2 ** (32 - len);
  return Math.floor(address / size) === Math.floor(baseN / size);
}

// The only ranges an IP target may come from: RFC 1918 and RFC 6598 (shared address space).
const REGISTRABLE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];

export function isRegistrablePrivateAddress(address: number): boolean {
  return REGISTRABLE_RANGES.some((cidr) => inCidr(address, cidr));
}

export function inAnyCidr(address: number, cidrs: readonly string[]): boolean {
  return cidrs.some((cidr) => inCidr(address, cidr));
}
