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
import { inAnyCidr, inCidr, isRegistrablePrivateAddress, parseIPv4 } from './ip.js';
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
}

/**
 * The zone an IPv4 target is registered with (API_TargetDescription). Off the VPC's CIDRs: `all`
 * (LBC's rule), keeping the endpoint's own zone for when AWS insists on one. Inside: the zone of
 * the subnet holding the address (what AWS detects, and the only one it accepts), else the
 * endpoint's zone if it is one of the VPC's (an address in a VPC CIDR but in no subnet is "not
 * in the VPC" for AWS, which then needs a zone), else none (AWS detects it).
 */
export function targetZone(
  address: number,
  endpointZone: string | undefined,
  vpcCidrs: readonly string[],
  vpcSubnets: readonly VpcSubnet[],
): Pick<TargetSpec, 'availabilityZone' | 'endpointZone'> {
  if (!inAnyCidr(address, vpcCidrs))
    return { availabilityZone: 'all', ...(endpointZone ? { endpointZone } : {}) };
  const subnet = vpcSubnets.find((s) => inCidr(address, s.cidr));
  if (subnet) return { availabilityZone: subnet.zone };
  if (endpointZone && vpcSubnets.some((s) => s.zone === endpointZone))
    return { availabilityZone: endpointZone };
  return {};
}

export function buildTargets(input: TargetsInput): TargetSpec[] {
  const byKey = new Map<string, { n: number; target: TargetSpec }>();
  for (const slice of input.slices) {
    if (slice.addressType !== 'IPv4') continue; // ipv4 target groups only
    const cluster = sourceClusterOf(slice, input.knownClusters);
    if (cluster !== undefined && input.blockedClusters.has(cluster)) continue;
    if (input.allowedClusters && (cluster === undefined || !input.allowedClusters.has(cluster))) continue;
    const port = endpointPortFor(slice, input.servicePort);
    if (port === undefined) continue;
    for (const ep of slice.endpoints ?? []) {
      // EndpointSlice semantics: an unset `ready` means ready.
      if (ep.conditions?.ready === false) continue;
      for (const address of ep.addresses) {
        const n = parseIPv4(address);
        if (n === undefined || !isRegistrablePrivateAddress(n)) {
          throw new InvalidObjectError(
            `Service ${input.serviceKey}: endpoint address ${address} (EndpointSlice ${slice.metadata.name ?? ''}) cannot be an IP target: only RFC 1918 and 100.64.0.0/10 addresses can be registered`,
            { reason: 'UnregistrableTarget' },
          );
        }
        const target: TargetSpec = {
          id: address,
          port,
          ...targetZone(n, ep.zone, input.vpcCidrs, input.vpcSubnets ?? []),
        };
        byKey.set(`${address}:${port}`, { n, target });
      }
    }
  }
  return [...byKey.values()].sort((a, b) => a.n - b.n || a.target.port - b.target.port).map((e) => e.target);
}
