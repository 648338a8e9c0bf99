/**
 * Request checks of the Global Accelerator simulator, with the service's error codes: bad values
 * are InvalidArgumentException, bad or overlapping ports InvalidPortRangeException.
 */
import { JsonSimError, type JsonInput } from '../json-sim/server.js';
import type {
  EndpointRecord,
  GaClientAffinity,
  GaHealthCheckProtocol,
  GaIpAddressType,
  GaProtocol,
  PortOverrideRecord,
  PortRangeRecord,
  SimEndpointView,
} from './model.js';

export const INVALID = 'InvalidArgumentException';
export const INVALID_PORTS = 'InvalidPortRangeException';

export const invalid = (message: string) => new JsonSimError(INVALID, message);

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?$/;
const REGION = /^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d$/;
const HEALTH_CHECK_PATH = /^\/[-a-zA-Z0-9@:%_\\+.~#?&/=]*$/;
/** An ELBv2 load balancer ARN: its Region and type. */
const LOAD_BALANCER_ARN =
  /^arn:aws:elasticloadbalancing:([a-z0-9-]+):\d{12}:loadbalancer\/(app|net)\/[A-Za-z0-9-]{1,32}\/[0-9a-f]{16}$/;

export function acceleratorName(v: unknown): string {
  if (typeof v !== 'string' || !NAME.test(v)) {
    throw invalid(
      `Invalid accelerator name: ${String(v)}. The name can have up to 64 characters, must contain only alphanumeric characters or hyphens (-), and must not begin or end with a hyphen.`,
    );
  }
  return v;
}

export function ipAddressType(v: unknown, fallback: GaIpAddressType): GaIpAddressType {
  if (v === undefined) return fallback;
  if (v !== 'IPV4' && v !== 'DUAL_STACK') throw invalid(`Invalid IpAddressType: ${String(v)}`);
  return v;
}

export function optionalBoolean(input: JsonInput, field: string): boolean | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw invalid(`${field} must be true or false`);
  return v;
}

function integerIn(v: unknown, field: string, min: number, max: number, code = INVALID): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new JsonSimError(code, `${field} must be an integer from ${min} to ${max}, got ${String(v)}`);
  }
  return v;
}

export function region(v: unknown): string {
  if (typeof v !== 'string' || !REGION.test(v)) throw invalid(`Invalid EndpointGroupRegion: ${String(v)}`);
  return v;
}

export function protocol(v: unknown): GaProtocol {
  if (v !== 'TCP' && v !== 'UDP') throw invalid(`Invalid Protocol: ${String(v)} (TCP or UDP)`);
  return v;
}

export function clientAffinity(v: unknown, fallback: GaClientAffinity): GaClientAffinity {
  if (v === undefined) return fallback;
  if (v !== 'NONE' && v !== 'SOURCE_IP') throw invalid(`Invalid ClientAffinity: ${String(v)}`);
  return v;
}

/** 1 to `max` ranges of ports 1-65535, none overlapping another. */
export function portRanges(v: unknown, max: number): PortRangeRecord[] {
  if (!Array.isArray(v) || v.length === 0) throw invalid('PortRanges must list at least one port range');
  if (v.length > max) {
    throw new JsonSimError('LimitExceededException', `A listener can have at most ${max} port ranges`);
  }
  const ranges = (v as Array<Record<string, unknown>>).map((r) => ({
    FromPort: integerIn(r?.FromPort, 'FromPort', 1, 65535, INVALID_PORTS),
    ToPort: integerIn(r?.ToPort, 'ToPort', 1, 65535, INVALID_PORTS),
  }));
  for (const r of ranges) {
    if (r.FromPort > r.ToPort) {
      throw new JsonSimError(INVALID_PORTS, `FromPort ${r.FromPort} is greater than ToPort ${r.ToPort}`);
    }
  }
  ranges.forEach((a, i) =>
    ranges.slice(i + 1).forEach((b) => {
      if (overlaps(a, b))
        throw new JsonSimError(INVALID_PORTS, `The port ranges ${show(a)} and ${show(b)} overlap`);
    }),
  );
  return ranges;
}

export const overlaps = (a: PortRangeRecord, b: PortRangeRecord) =>
  a.FromPort <= b.ToPort && b.FromPort <= a.ToPort;
export const show = (r: PortRangeRecord) => `${r.FromPort}-${r.ToPort}`;

export function trafficDial(v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(v >= 0 && v <= 100)) {
    throw invalid(`TrafficDialPercentage must be from 0 to 100, got ${String(v)}`);
  }
  return v;
}

export interface HealthCheck {
  healthCheckPort?: number;
  healthCheckProtocol?: GaHealthCheckProtocol;
  healthCheckPath?: string;
  healthCheckIntervalSeconds?: number;
  thresholdCount?: number;
}

/** The health-check fields given (each optional). */
export function healthCheck(input: JsonInput): HealthCheck {
  const out: HealthCheck = {};
  if (input.HealthCheckPort !== undefined) {
    out.healthCheckPort = integerIn(input.HealthCheckPort, 'HealthCheckPort', 1, 65535);
  }
  if (input.HealthCheckProtocol !== undefined) {
    const p = input.HealthCheckProtocol;
    if (p !== 'TCP' && p !== 'HTTP' && p !== 'HTTPS')
      throw invalid(`Invalid HealthCheckProtocol: ${String(p)}`);
    out.healthCheckProtocol = p;
  }
  if (input.HealthCheckPath !== undefined) {
    const p = input.HealthCheckPath;
    if (typeof p !== 'string' || p.length > 255 || !HEALTH_CHECK_PATH.test(p)) {
      throw invalid(`Invalid HealthCheckPath: ${String(p)}`);
    }
    out.healthCheckPath = p;
  }
  if (input.HealthCheckIntervalSeconds !== undefined) {
    const s = input.HealthCheckIntervalSeconds;
    if (s !== 10 && s !== 30) throw invalid(`HealthCheckIntervalSeconds must be 10 or 30, got ${String(s)}`);
    out.healthCheckIntervalSeconds = s;
  }
  if (input.ThresholdCount !== undefined) {
    out.thresholdCount = integerIn(input.ThresholdCount, 'ThresholdCount', 1, 10);
  }
  return out;
}

export function portOverrides(v: unknown, listenerRanges: readonly PortRangeRecord[]): PortOverrideRecord[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 10) throw invalid('PortOverrides must be a list of at most 10');
  const out = (v as Array<Record<string, unknown>>).map((o) => ({
    ListenerPort: integerIn(o?.ListenerPort, 'ListenerPort', 1, 65535),
    EndpointPort: integerIn(o?.EndpointPort, 'EndpointPort', 1, 65535),
  }));
  for (const o of out) {
    if (!listenerRanges.some((r) => o.ListenerPort >= r.FromPort && o.ListenerPort <= r.ToPort)) {
      throw invalid(`ListenerPort ${o.ListenerPort} is not in a port range of the listener`);
    }
  }
  if (new Set(out.map((o) => o.ListenerPort)).size !== out.length) {
    throw invalid('Each ListenerPort can be overridden once');
  }
  return out;
}

export interface EndpointContext {
  /** The endpoint group's Region: an endpoint must be in it. */
  region: string;
  /** The load balancers that exist, when the simulator was given them. */
  resolve?: (arn: string) => SimEndpointView | undefined;
}

/**
 * An endpoint configuration: a load balancer of the group's Region (that exists, given a
 * resolver), weight 0-255 (default 128), client IP preservation (default on for an ALB, off for
 * an NLB). Elastic IPs and EC2 instances are not simulated: InvalidArgumentException.
 */
export function endpoint(c: Record<string, unknown>, ctx: EndpointContext): EndpointRecord {
  const id = c?.EndpointId;
  if (typeof id !== 'string' || id === '') throw invalid('EndpointId is required');
  const m = LOAD_BALANCER_ARN.exec(id);
  if (!m) {
    throw invalid(
      `Endpoint ID ${id} is not valid: the simulator takes Application and Network Load Balancer ARNs only`,
    );
  }
  if (m[1] !== ctx.region) {
    throw invalid(`Endpoint ${id} is in ${m[1]!}, not in the endpoint group's Region ${ctx.region}`);
  }
  if (ctx.resolve && !ctx.resolve(id)) throw invalid(`Endpoint ${id} does not exist or is not active`);
  const weight = c.Weight === undefined ? 128 : integerIn(c.Weight, 'Weight', 0, 255);
  const preservation = c.ClientIPPreservationEnabled;
  if (preservation !== undefined && typeof preservation !== 'boolean') {
    throw invalid('ClientIPPreservationEnabled must be true or false');
  }
  return { endpointId: id, weight, clientIpPreservation: preservation ?? m[2] === 'app' };
}

/** A whole list of endpoint configurations: each endpoint once, at most `max`. */
export function endpoints(v: unknown, ctx: EndpointContext, max: number): EndpointRecord[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw invalid('EndpointConfigurations must be a list');
  const out = (v as Array<Record<string, unknown>>).map((c) => endpoint(c, ctx));
  if (new Set(out.map((e) => e.endpointId)).size !== out.length) {
    throw invalid('An endpoint can be in the EndpointConfigurations once');
  }
  checkEndpointCount(out.length, max);
  return out;
}

export function checkEndpointCount(count: number, max: number): void {
  if (count > max) {
    throw new JsonSimError('LimitExceededException', `An endpoint group can have at most ${max} endpoints`);
  }
}

export const loadBalancerRegion = (arn: string): string | undefined => LOAD_BALANCER_ARN.exec(arn)?.[1];
