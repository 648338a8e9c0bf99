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

/** The address as a 128-bit number, or undefined when it is not IPv6 text (RFC 4291 §2.2, no zone). */
export function parseIPv6(address: string | undefined): bigint | undefined {
  if (address === undefined || !/^[0-9a-fA-F:.]+$/.test(address)) return undefined;
  let text = address;
  const groups: number[] = [];
  // A trailing dotted quad (`::ffff:10.0.0.1`) is the last two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (v4 === undefined || lastColon < 0) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  if (halves.length === 2) {
    // "::" stands for at least one zero group.
    if (head.length + rest.length > 7) return undefined;
    groups.push(...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest);
  } else {
    if (head.length !== 8) return undefined;
    groups.push(...head);
  }
  return groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
export function formatIPv6(address: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((address >> BigInt((7 - i) * 16)) & 0xffffn));
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** Whether `address` lies in the IPv6 `cidr` (`x::/len`); false for anything unparsable. */
export function inCidr6(address: bigint, cidr: string): boolean {
  const [base, lenText] = cidr.split('/');
  const baseN = parseIPv6(base);
  const len = Number(lenText);
  if (baseN === undefined || !/^\d+$/.test(lenText ?? '') || len > 128) return false;
  const shift = BigInt(128 - len);
  return address >> shift === baseN >> shift;
}

// What can never be a target: unspecified and loopback (::/127), IPv4-mapped, link-local, multicast.
const UNREGISTRABLE_V6 = ['::/127', '::ffff:0:0/96', 'fe80::/10', 'ff00::/8'];

export function isRegistrableIPv6(address: bigint): boolean {
  return !UNREGISTRABLE_V6.some((cidr) => inCidr6(address, cidr));
}
