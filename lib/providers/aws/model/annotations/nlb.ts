/**
 * The NLB-only keys of a MultiClusterService (LBC pkg/service/model_build_load_balancer.go,
 * model_build_listener.go, model_build_target_group.go): the IP address type, the static
 * addresses of each subnet, ALPN on TLS listeners, proxy protocol, TLS to the targets and one
 * port's own target group attributes. Each bad value fails the build naming its key.
 */
import type { ServicePort } from '../../../../karmada/types.js';
import { inCidr, parseIPv4, parseIPv6 } from '../ip.js';
import type { ModelVpc, SubnetMappingSpec } from '../types.js';
import { portTargetGroupAttributes } from './attributes.js';
import type { NLB_KEYS } from './keys.js';
import { invalid, list, oneOf, raw, type Annotations } from './parse.js';

type Keys = typeof NLB_KEYS;

/** LBC's NLB address types (`dualstack-without-public-ipv4` is an ALB-only type in ELBv2). */
export const NLB_IP_ADDRESS_TYPES = ['ipv4', 'dualstack'] as const;
export type NlbIpAddressType = (typeof NLB_IP_ADDRESS_TYPES)[number];

export function nlbIpAddressType(annotations: Annotations, keys: Keys): NlbIpAddressType | undefined {
  return oneOf(annotations, keys.ipAddressType, NLB_IP_ADDRESS_TYPES);
}

const EIP_ALLOCATION = /^eipalloc-[0-9a-f]{8,17}$/;

/** One list of per-subnet values: as many as subnets, each passing `check`. */
function perSubnet(
  annotations: Annotations,
  key: string,
  subnets: readonly string[],
  check: (value: string) => string | undefined,
): string[] | undefined {
  const values = list(annotations, key);
  if (values === undefined) return undefined;
  if (values.length !== subnets.length) {
    throw invalid(
      key,
      raw(annotations, key) ?? '',
      `lists ${values.length} address(es) for ${subnets.length} subnet(s) (${subnets.join(', ')}): give one per subnet, in the subnets' order`,
    );
  }
  for (const v of values) {
    const problem = check(v);
    if (problem) throw invalid(key, v, problem);
  }
  return values;
}

/**
 * The subnet mappings, when any static address is asked for (absent otherwise): the nth address
 * of each list goes to the nth subnet. As LBC: EIPs only on an internet-facing NLB, private IPv4
 * addresses only on an internal one, IPv6 addresses only on a dualstack one, and each list as long
 * as the subnet list. A private address outside its subnet's known range is refused here too.
 */
export function subnetMappings(
  annotations: Annotations,
  keys: Keys,
  placement: {
    subnets: readonly string[];
    scheme: 'internal' | 'internet-facing';
    ipAddressType: NlbIpAddressType;
    vpc: ModelVpc;
  },
): SubnetMappingSpec[] | undefined {
  const { subnets, scheme, ipAddressType, vpc } = placement;
  const only = (key: string, why: string) => {
    const v = raw(annotations, key);
    if (v !== undefined) throw invalid(key, v, why);
  };
  if (scheme !== 'internet-facing')
    only(keys.eipAllocations, `needs scheme internet-facing (${keys.scheme}); this NLB is ${scheme}`);
  if (scheme !== 'internal')
    only(keys.privateIpv4Addresses, `needs scheme internal (${keys.scheme}); this NLB is ${scheme}`);
  if (ipAddressType !== 'dualstack')
    only(keys.ipv6Addresses, `needs ${keys.ipAddressType}: dualstack; this NLB is ${ipAddressType}`);

  const eips = perSubnet(annotations, keys.eipAllocations, subnets, (v) =>
    EIP_ALLOCATION.test(v) ? undefined : 'is not an Elastic IP allocation ID (eipalloc-<hex>)',
  );
  const v4 = perSubnet(annotations, keys.privateIpv4Addresses, subnets, (v) =>
    parseIPv4(v) === undefined ? 'is not an IPv4 address' : undefined,
  );
  const v6 = perSubnet(annotations, keys.ipv6Addresses, subnets, (v) =>
    parseIPv6(v) === undefined ? 'is not an IPv6 address' : undefined,
  );
  for (const [i, address] of (v4 ?? []).entries()) {
    const subnet = vpc.subnets?.find((s) => s.id === subnets[i]);
    const n = parseIPv4(address);
    if (subnet && n !== undefined && !inCidr(n, subnet.cidr)) {
      throw invalid(
        keys.privateIpv4Addresses,
        address,
        `is not in subnet ${subnet.id} (${subnet.cidr}), the subnet it is given to`,
      );
    }
  }
  if (!eips && !v4 && !v6) return undefined;
  return subnets.map((subnetId, i) => ({
    subnetId,
    ...(eips ? { allocationId: eips[i] } : {}),
    ...(v4 ? { privateIPv4Address: v4[i] } : {}),
    ...(v6 ? { ipv6Address: v6[i] } : {}),
  }));
}

/** Elastic IP allocations under `key`, one per subnet in the subnets' order (undefined: none). */
export function eipAllocationsPerSubnet(
  annotations: Annotations,
  key: string,
  subnets: readonly string[],
): string[] | undefined {
  return perSubnet(annotations, key, subnets, (v) =>
    EIP_ALLOCATION.test(v) ? undefined : 'is not an Elastic IP allocation ID (eipalloc-<hex>)',
  );
}

/** ELBv2's ALPN policies (API_CreateListener): TLS listeners only. */
export const ALPN_POLICIES = ['HTTP1Only', 'HTTP2Only', 'HTTP2Optional', 'HTTP2Preferred', 'None'] as const;
export type AlpnPolicy = (typeof ALPN_POLICIES)[number];

export function alpnPolicy(annotations: Annotations, keys: Keys): AlpnPolicy | undefined {
  return oneOf(annotations, keys.alpnPolicy, ALPN_POLICIES);
}

/** `ssl`: TLS target groups behind TLS listeners (as LBC; TCP listeners keep TCP groups). */
export function backendTls(annotations: Annotations, keys: Keys): boolean {
  return oneOf(annotations, keys.backendProtocol, ['ssl', 'tcp'] as const) === 'ssl';
}

export const PROXY_PROTOCOL_ATTRIBUTE = 'proxy_protocol_v2.enabled';

/** The NLB-wide proxy protocol keys, read once per stack. */
export interface ProxyProtocol {
  /** `proxy-protocol: *`: every group. */
  all: boolean;
  /** `proxy-protocol-per-target-group`: these Service ports on, every other port off. */
  ports: ReadonlySet<number> | undefined;
}

export function proxyProtocol(annotations: Annotations, keys: Keys): ProxyProtocol {
  const star = raw(annotations, keys.proxyProtocol);
  if (star !== undefined && star !== '*')
    throw invalid(keys.proxyProtocol, star, 'must be "*" (proxy protocol v2 on every target group)');
  const perGroup = list(annotations, keys.proxyProtocolPerTargetGroup);
  for (const p of perGroup ?? []) {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535)
      throw invalid(keys.proxyProtocolPerTargetGroup, p, 'is not a port number');
  }
  return { all: star === '*', ports: perGroup ? new Set(perGroup.map(Number)) : undefined };
}

const PORT_KEY = (keys: Keys, port: number) =>
  keys.portTargetGroupAttributes.replace('${port}', String(port));

/**
 * One port's target group attributes, as LBC builds them: the MultiClusterService-wide
 * annotation, the port's own over it, then proxy protocol over both. `proxy_protocol_v2.enabled`
 * is always set (false unless asked for), so that removing the annotation turns it off again.
 */
export function nlbTargetGroupAttributes(
  annotations: Annotations,
  keys: Keys,
  wide: Readonly<Record<string, string>> | undefined,
  port: ServicePort,
  proxy: ProxyProtocol,
): Record<string, string> {
  const own = portTargetGroupAttributes(annotations, PORT_KEY(keys, port.port));
  const attrs: Record<string, string> = { [PROXY_PROTOCOL_ATTRIBUTE]: 'false', ...wide, ...own };
  if (proxy.ports) attrs[PROXY_PROTOCOL_ATTRIBUTE] = String(proxy.ports.has(port.port));
  if (proxy.all) attrs[PROXY_PROTOCOL_ATTRIBUTE] = 'true';
  return attrs;
}

/** `target-group-attributes.<x>` keys whose `<x>` is not a port number (a typo LBC would ignore). */
export function checkPortAttributeKeys(annotations: Annotations, keys: Keys): void {
  const prefix = keys.portTargetGroupAttributes.replace('${port}', '');
  for (const key of Object.keys(annotations ?? {})) {
    if (!key.startsWith(prefix)) continue;
    const port = key.slice(prefix.length);
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)
      throw invalid(key, annotations?.[key] ?? '', `names port "${port}", which is not a port number`);
  }
}
