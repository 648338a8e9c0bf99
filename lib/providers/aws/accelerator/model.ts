/**
 * The desired accelerator of a stack (pure): one standard accelerator, a listener for each of the
 * load balancer's listen ports (an MCI's ALB listeners are TCP to GA; an MCS's NLB listeners keep
 * TCP or UDP, TCP_UDP gives both), and on each listener one endpoint group per Region whose one
 * endpoint is that Region's load balancer. A Region's traffic dial is the annotation's, else 0
 * when Karmada drained all its clusters, else 100.
 */
import { createHash } from 'node:crypto';
import { InvalidObjectError } from '../../../errors.js';
import { canonicalJson } from '../model/fingerprint.js';
import { LOAD_BALANCER_ID, resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { resourceTags, type StackOwner } from '../tagging.js';
import { GA_KEYS, type AcceleratorSettings } from './keys.js';
import {
  GA_QUOTAS,
  type DesiredAccelerator,
  type DesiredEndpointGroup,
  type DesiredListener,
  type GaProtocol,
  type RegionalEndpoint,
} from './types.js';

export const ACCELERATOR_ID = 'Accelerator';
export const ACCELERATOR_LIMIT_EXCEEDED = 'AcceleratorLimitExceeded';
/** GA's default health check: TCP every 30 s, 3 checks to change state. */
export const DEFAULT_GA_HEALTH_CHECK = { protocol: 'TCP', intervalSeconds: 30, thresholdCount: 3 } as const;

/** What placeholder an endpoint has in a dry run that would create its Region's load balancer. */
export function newLoadBalancerRef(region: string): string {
  return `{{lb:${region}}}`;
}

/** The GA listeners the stack's load balancer asks for: protocol and port, in port order. */
export function acceleratorPorts(stack: Stack): Array<{ protocol: GaProtocol; port: number }> {
  const out = new Map<string, { protocol: GaProtocol; port: number }>();
  for (const l of resourcesOf(stack, ResourceTypes.Listener)) {
    // The frontend NLB's listeners forward to the ALB: GA fronts the ALB itself.
    if (l.spec.loadBalancer.$ref !== LOAD_BALANCER_ID) continue;
    const protocols: GaProtocol[] =
      l.spec.protocol === 'UDP' ? ['UDP'] : l.spec.protocol === 'TCP_UDP' ? ['TCP', 'UDP'] : ['TCP'];
    for (const protocol of protocols) out.set(`${protocol}:${l.spec.port}`, { protocol, port: l.spec.port });
  }
  return [...out.values()].sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
}

/** The listener quota, checked when the stack is built (before any AWS call). */
export function checkListenerQuota(stack: Stack): void {
  const ports = acceleratorPorts(stack);
  if (ports.length > GA_QUOTAS.listenersPerAccelerator) {
    throw new InvalidObjectError(
      `annotation ${GA_KEYS.enabled}: the accelerator would need ${ports.length} listeners (${ports
        .map((p) => `${p.protocol}:${p.port}`)
        .join(
          ', ',
        )}), over Global Accelerator's quota of ${GA_QUOTAS.listenersPerAccelerator} per accelerator`,
      { field: GA_KEYS.enabled, reason: ACCELERATOR_LIMIT_EXCEEDED },
    );
  }
}

/** `mcp-<owner>-<stack>`, cut to GA's 64 characters with a hash that keeps it unique. */
export function acceleratorName(owner: StackOwner): string {
  const hash = createHash('sha256').update(`${owner.ownerId}\n${owner.stackId}`).digest('hex').slice(0, 8);
  const readable = `mcp-${owner.ownerId}-${owner.stackId}`
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 64 - hash.length - 1)
    .replace(/-+$/, '');
  return `${readable}-${hash}`;
}

export interface AcceleratorInput {
  owner: StackOwner;
  settings: AcceleratorSettings;
  stack: Stack;
  endpoints: readonly RegionalEndpoint[];
  defaultTags?: Readonly<Record<string, string>>;
}

/** A Region's dial: the annotation's, else 0 drained, else 100. */
export function dialOf(settings: AcceleratorSettings, endpoint: RegionalEndpoint): number {
  return settings.dials[endpoint.region] ?? (endpoint.drained ? 0 : 100);
}

export function buildAccelerator(input: AcceleratorInput): DesiredAccelerator {
  const { settings, owner } = input;
  checkListenerQuota(input.stack);
  const byRegion = new Map<string, RegionalEndpoint[]>();
  for (const e of input.endpoints) byRegion.set(e.region, [...(byRegion.get(e.region) ?? []), e]);
  for (const [region, endpoints] of byRegion) {
    if (endpoints.length > GA_QUOTAS.endpointsPerEndpointGroup) {
      throw new InvalidObjectError(
        `the endpoint group in ${region} would have ${endpoints.length} endpoints, over Global Accelerator's quota of ${GA_QUOTAS.endpointsPerEndpointGroup} per endpoint group`,
        { field: GA_KEYS.enabled, reason: ACCELERATOR_LIMIT_EXCEEDED },
      );
    }
  }
  const listeners = acceleratorPorts(input.stack).map(({ protocol, port }): DesiredListener => {
    const id = `${protocol}:${port}`;
    const hc = settings.healthCheck;
    const protocolOfCheck = hc.protocol ?? DEFAULT_GA_HEALTH_CHECK.protocol;
    const endpointGroups = [...byRegion.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([region, endpoints]): DesiredEndpointGroup => {
        // One load balancer per Region; should several arrive, the Region is drained only if all are.
        const drained = endpoints.every((e) => e.drained);
        return {
          id: `${id}@${region}`,
          region,
          dial: dialOf(settings, { region, loadBalancerArn: undefined, drained }),
          healthCheck: {
            protocol: protocolOfCheck,
            // GA's own default is the listener's port; set, so a removed annotation goes back to it.
            port: hc.port ?? port,
            intervalSeconds: hc.intervalSeconds ?? DEFAULT_GA_HEALTH_CHECK.intervalSeconds,
            thresholdCount: hc.thresholdCount ?? DEFAULT_GA_HEALTH_CHECK.thresholdCount,
            ...(protocolOfCheck !== 'TCP' ? { path: hc.path ?? '/' } : {}),
          },
          endpoints: endpoints.map((e) => ({
            id: e.loadBalancerArn ?? newLoadBalancerRef(region),
            weight: settings.endpointWeight,
            clientIpPreservation: settings.clientIpPreservation,
          })),
        };
      });
    return { id, protocol, port, clientAffinity: settings.clientAffinity, endpointGroups };
  });
  return {
    name: acceleratorName(owner),
    ipAddressType: settings.ipAddressType,
    tags: resourceTags(owner, ACCELERATOR_ID, input.defaultTags),
    listeners,
  };
}

/** The accelerator's fingerprint: equal ⇒ the record says GA holds it, nothing to do. */
export function acceleratorFingerprint(desired: DesiredAccelerator): string {
  return createHash('sha256').update(canonicalJson(desired)).digest('hex').slice(0, 40);
}
