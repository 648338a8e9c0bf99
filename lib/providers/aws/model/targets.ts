/**
 * Targets of one target group: the ready addresses of a Service in every member cluster, read from
 * the EndpointSlices Karmada collected into the control plane.
 *
 * What Karmada writes (karmada-io/karmada, pkg/controllers/mcs/endpointslice_controller.go
 * `collectEndpointSliceFromWork`/`deriveEndpointSlice`, pkg/util/names/names.go,
 * pkg/apis/work/v1alpha2/well_known_constants.go):
 * - name `imported-<cluster>-<slice>` (names.GenerateEndpointSliceName);
 * - label `kubernetes.io/service-name: derived-<service>` (discoveryv1.LabelServiceName +
 *   names.GenerateDerivedServiceName) and label `work.karmada.io/permanent-id`;
 * - annotation `work.karmada.io/namespace: karmada-es-<cluster>` (WorkNamespaceAnnotation; the
 *   Work lives in the cluster's execution space, names.ExecutionSpacePrefix) and
 *   `work.karmada.io/name`. Older releases set the same keys as *labels* (workv1alpha1.WorkNamespaceLabel).
 * There is no label that names the source cluster directly: the execution-space namespace is the
 * reliable source; the name prefix is ambiguous when cluster names contain "-", so it is only a
 * fallback matched against cluster names we know.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { EndpointSlice, ServicePort } from '../../../karmada/types.js';
import type { VpcSubnet } from '../vpc-network.js';
import {
  formatIPv6,
  inAnyCidr,
  inCidr,
  inCidr6,
  isRegistrableIPv6,
  isRegistrablePrivateAddress,
  parseIPv4,
  parseIPv6,
} from './ip.js';
import type { TargetSpec } from './types.js';

export const WORK_NAMESPACE_KEY = 'work.karmada.io/namespace';
export const EXECUTION_SPACE_PREFIX = 'karmada-es-';
export const IMPORTED_SLICE_PREFIX = 'imported-';

/**
 * The member cluster a collected slice came from, or undefined when it cannot be told.
 * `knownClusters` (from the MCI's status) disambiguates the name-prefix fallback: longest match wins.
 */
export function sourceClusterOf(slice: EndpointSlice, knownClusters: readonly string[]): string | undefined {
  const ns = slice.metadata.annotations?.[WORK_NAMESPACE_KEY] ?? slice.metadata.labels?.[WORK_NAMESPACE_KEY];
  if (ns?.startsWith(EXECUTION_SPACE_PREFIX) && ns.length > EXECUTION_SPACE_PREFIX.length) {
    return ns.slice(EXECUTION_SPACE_PREFIX.length);
  }
  const name = slice.metadata.name;
  let best: string | undefined;
  for (const c of knownClusters) {
    if (name?.startsWith(`${IMPORTED_SLICE_PREFIX}${c}-`) && (best === undefined || c.length > best.length))
      best = c;
  }
  return best;
}

/**
 * The port to send traffic to for this slice: the slice's port with the Service port's name (an
 * unnamed Service port matches the unnamed slice port), else a numeric targetPort, else the port.
 */
export function endpointPortFor(slice: EndpointSlice, servicePort: ServicePort): number | undefined {
  const wanted = servicePort.name ?? '';
  const byName = slice.ports?.find((p) => (p.name ?? '') === wanted && p.port !== undefined);
  if (byName?.port !== undefined) return byName.port;
  if (typeof servicePort.targetPort === 'number') return servicePort.targetPort;
  if (servicePort.targetPort === undefined) return servicePort.port;
  return undefined;
}

export interface TargetsInput {
  /** For error messages: `<namespace>/<name>` of the Service. */
  serviceKey: string;
  servicePort: ServicePort;
  slices: readonly EndpointSlice[];
  blockedClusters: ReadonlySet<string>;
  /** When set, only these clusters' endpoints (a slice whose cluster cannot be told is skipped). */
  allowedClusters?: ReadonlySet<string>;
  knownClusters: readonly string[];
  vpcCidrs: readonly string[];
  /** The VPC's subnets (vpc-network.ts), when known: where its zones come from. */
  vpcSubnets?: readonly VpcSubnet[];
  /** The target group's family (absent: ipv4): only slices of that address type give targets. */
  ipAddressType?: 'ipv4' | 'ipv6';
  /** The VPC's IPv6 blocks: an IPv6 target outside them is registered with zone `all`. */
  vpcIpv6Cidrs?: readonly string[];
}

type Zone = Pick<TargetSpec, 'availabilityZone' | 'endpointZone'>;

/** Off the VPC: `all` (LBC's rule), keeping the endpoint's own zone for when AWS insists on one. */
const offVpc = (endpointZone: string | undefined): Zone => ({
  availabilityZone: 'all',
  ...(endpointZone ? { endpointZone } : {}),
});

/**
 * The zone an IPv4 target is registered with (API_TargetDescription). Off the VPC's CIDRs: `all`.
 * Inside: the zone of the subnet holding the address (what AWS detects, and the only one it
 * accepts), else the endpoint's zone if it is one of the VPC's (an address in a VPC CIDR but in no
 * subnet is "not in the VPC" for AWS, which then needs a zone), else none (AWS detects it).
 */
export function targetZone(
  address: number,
  endpointZone: string | undefined,
  vpcCidrs: readonly string[],
  vpcSubnets: readonly VpcSubnet[],
): Zone {
  if (!inAnyCidr(address, vpcCidrs)) return offVpc(endpointZone);
  const subnet = vpcSubnets.find((s) => inCidr(address, s.cidr));
  if (subnet) return { availabilityZone: subnet.zone };
  if (endpointZone && vpcSubnets.some((s) => s.zone === endpointZone))
    return { availabilityZone: endpointZone };
  return {};
}

/** One endpoint address as a target of the group's family: its sort key and its zone. */
interface Placed {
  n: bigint;
  id: string;
  zone: Zone;
}

function placeIPv4(
  input: TargetsInput,
  slice: EndpointSlice,
  address: string,
  endpointZone: string | undefined,
): Placed {
  const n = parseIPv4(address);
  if (n === undefined || !isRegistrablePrivateAddress(n)) {
    throw new InvalidObjectError(
      `Service ${input.serviceKey}: endpoint address ${address} (EndpointSlice ${slice.metadata.name ?? ''}) cannot be an IP target: only RFC 1918 and 100.64.0.0/10 addresses can be registered`,
      { reason: 'UnregistrableTarget' },
    );
  }
  return {
    n: BigInt(n),
    id: address,
    zone: targetZone(n, endpointZone, input.vpcCidrs, input.vpcSubnets ?? []),
  };
}

/** IPv6: in the VPC's IPv6 blocks, no zone (AWS detects it from the subnet); outside, `all`. */
function placeIPv6(
  input: TargetsInput,
  slice: EndpointSlice,
  address: string,
  endpointZone: string | undefined,
): Placed {
  const n = parseIPv6(address);
  if (n === undefined || !isRegistrableIPv6(n)) {
    throw new InvalidObjectError(
      `Service ${input.serviceKey}: endpoint address ${address} (EndpointSlice ${slice.metadata.name ?? ''}) cannot be an IPv6 target: unspecified, loopback, IPv4-mapped, link-local and multicast addresses cannot be registered`,
      { reason: 'UnregistrableTarget' },
    );
  }
  const inVpc = (input.vpcIpv6Cidrs ?? []).some((c) => inCidr6(n, c));
  // AWS reports targets in their canonical form; registering that form keeps the diff exact.
  return { n, id: formatIPv6(n), zone: inVpc ? {} : offVpc(endpointZone) };
}

export function buildTargets(input: TargetsInput): TargetSpec[] {
  const v6 = input.ipAddressType === 'ipv6';
  const byKey = new Map<string, { n: bigint; target: TargetSpec }>();
  for (const slice of input.slices) {
    // A target group has one family: a dualstack Service's other slices feed no group of it.
    if (slice.addressType !== (v6 ? 'IPv6' : 'IPv4')) continue;
    const cluster = sourceClusterOf(slice, input.knownClusters);
    if (cluster !== undefined && input.blockedClusters.has(cluster)) continue;
    if (input.allowedClusters && (cluster === undefined || !input.allowedClusters.has(cluster))) continue;
    const port = endpointPortFor(slice, input.servicePort);
    if (port === undefined) continue;
    for (const ep of slice.endpoints ?? []) {
      // EndpointSlice semantics: an unset `ready` means ready.
      if (ep.conditions?.ready === false) continue;
      for (const address of ep.addresses) {
        const place = v6 ? placeIPv6 : placeIPv4;
        const { n, id, zone } = place(input, slice, address, ep.zone);
        const target: TargetSpec = { id, port, ...zone };
        byKey.set(`${id}:${port}`, { n, target });
      }
    }
  }
  return [...byKey.values()]
    .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : a.target.port - b.target.port))
    .map((e) => e.target);
}
