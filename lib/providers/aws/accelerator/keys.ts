/**
 * The annotations that put AWS Global Accelerator in front of an MCI's or MCS's load balancers,
 * and its settings. LBC's AGA controller reads a GlobalAccelerator custom resource; a Karmada
 * object has no such resource, so the keys are this project's, on the MCI or MCS itself:
 *
 *   multicluster.karmada.io/global-accelerator: "true" | "false"   (absent: the configuration's
 *                                               globalAccelerator.enabled, false by default)
 *   multicluster.karmada.io/global-accelerator-client-affinity: NONE | SOURCE_IP   (NONE)
 *   multicluster.karmada.io/global-accelerator-ip-address-type: IPV4 | DUAL_STACK  (IPV4; a
 *                                               change makes a new accelerator: new static IPs)
 *   multicluster.karmada.io/global-accelerator-traffic-dials: us-east-1=10,eu-west-1=100
 *                                               (per Region, 0-100: a regional canary; a Region
 *                                               not listed follows Karmada: 100, or 0 drained)
 *   multicluster.karmada.io/global-accelerator-client-ip-preservation: "true" | "false"  (true)
 *   multicluster.karmada.io/global-accelerator-endpoint-weight: 0-255   (128, GA's default)
 *   multicluster.karmada.io/global-accelerator-healthcheck-protocol: TCP | HTTP | HTTPS
 *   multicluster.karmada.io/global-accelerator-healthcheck-port: 1-65535
 *   multicluster.karmada.io/global-accelerator-healthcheck-path: /path  (HTTP and HTTPS only)
 *   multicluster.karmada.io/global-accelerator-healthcheck-interval-seconds: 10 | 30
 *   multicluster.karmada.io/global-accelerator-healthcheck-threshold-count: 1-10
 *
 * Every key is checked while the model is built, before any AWS call; a bad value is an
 * InvalidObjectError naming the key (reason InvalidAcceleratorAnnotation).
 */
import { InvalidObjectError } from '../../../errors.js';
import { raw, type Annotations } from '../model/annotations/parse.js';

export const GA_PREFIX = 'multicluster.karmada.io/global-accelerator';

export const GA_KEYS = {
  enabled: GA_PREFIX,
  clientAffinity: `${GA_PREFIX}-client-affinity`,
  ipAddressType: `${GA_PREFIX}-ip-address-type`,
  trafficDials: `${GA_PREFIX}-traffic-dials`,
  clientIpPreservation: `${GA_PREFIX}-client-ip-preservation`,
  endpointWeight: `${GA_PREFIX}-endpoint-weight`,
  healthCheckProtocol: `${GA_PREFIX}-healthcheck-protocol`,
  healthCheckPort: `${GA_PREFIX}-healthcheck-port`,
  healthCheckPath: `${GA_PREFIX}-healthcheck-path`,
  healthCheckInterval: `${GA_PREFIX}-healthcheck-interval-seconds`,
  healthCheckThreshold: `${GA_PREFIX}-healthcheck-threshold-count`,
} as const;

export const INVALID_ACCELERATOR_ANNOTATION = 'InvalidAcceleratorAnnotation';

export type ClientAffinity = 'NONE' | 'SOURCE_IP';
export type AcceleratorIpAddressType = 'IPV4' | 'DUAL_STACK';

/** Endpoint-group health checks; what is absent is GA's default (and left as GA has it). */
export interface EndpointHealthCheck {
  protocol?: 'TCP' | 'HTTP' | 'HTTPS';
  port?: number;
  path?: string;
  intervalSeconds?: 10 | 30;
  thresholdCount?: number;
}

/** What an object asks of its accelerator (the model adds listeners and endpoints). */
export interface AcceleratorSettings {
  clientAffinity: ClientAffinity;
  ipAddressType: AcceleratorIpAddressType;
  /** Per-Region dials the annotation sets (they win over Karmada's drain). */
  dials: Readonly<Record<string, number>>;
  clientIpPreservation: boolean;
  endpointWeight: number;
  healthCheck: EndpointHealthCheck;
}

export const DEFAULT_ENDPOINT_WEIGHT = 128;

/**
 * How soon a reconcile waiting on GA's DEPLOYED looks again (globalAccelerator.pollSeconds):
 * GA applies a change in minutes, and each look is a call.
 */
export const ACCELERATOR_RETRY_SECONDS = 30;

function bad(key: string, value: string, why: string): InvalidObjectError {
  return new InvalidObjectError(`annotation ${key}: ${JSON.stringify(value)} ${why}`, {
    field: key,
    reason: INVALID_ACCELERATOR_ANNOTATION,
  });
}

function choice<T extends string>(a: Annotations, key: string, values: readonly T[]): T | undefined {
  const v = raw(a, key);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw bad(key, v, `must be one of ${values.join(', ')}`);
  return v as T;
}

function int(a: Annotations, key: string, min: number, max: number): number | undefined {
  const v = raw(a, key);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw bad(key, v, `must be an integer from ${min} to ${max}`);
  }
  return Number(v);
}

function flag(a: Annotations, key: string): boolean | undefined {
  const v = raw(a, key);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw bad(key, v, 'must be "true" or "false"');
}

/** An AWS Region's name (`us-east-1`, `ap-southeast-2`, `us-gov-west-1`). */
export const REGION_NAME = /^[a-z]{2}(-[a-z]+)+-\d$/;

function dials(a: Annotations, key: string): Record<string, number> {
  const v = raw(a, key);
  if (v === undefined) return {};
  const out: Record<string, number> = {};
  for (const entry of v.split(',').map((s) => s.trim())) {
    const m = /^([^=\s]+)\s*=\s*(\d+)$/.exec(entry);
    if (!m) throw bad(key, v, `has "${entry}": entries are <region>=<percent>, comma-separated`);
    const region = m[1] ?? '';
    const dial = Number(m[2]);
    if (!REGION_NAME.test(region)) throw bad(key, v, `has "${region}", which is not an AWS Region name`);
    if (dial > 100) throw bad(key, v, `gives ${region} ${dial}: a traffic dial is 0-100`);
    if (out[region] !== undefined) throw bad(key, v, `names ${region} twice`);
    out[region] = dial;
  }
  return out;
}

function healthCheck(a: Annotations): EndpointHealthCheck {
  const protocol = choice(a, GA_KEYS.healthCheckProtocol, ['TCP', 'HTTP', 'HTTPS'] as const);
  const port = int(a, GA_KEYS.healthCheckPort, 1, 65535);
  const path = raw(a, GA_KEYS.healthCheckPath);
  if (path !== undefined) {
    if (!path.startsWith('/') || path.length > 255) {
      throw bad(GA_KEYS.healthCheckPath, path, 'must start with "/" and be at most 255 characters');
    }
    if (protocol === 'TCP') {
      throw bad(GA_KEYS.healthCheckPath, path, `needs ${GA_KEYS.healthCheckProtocol} HTTP or HTTPS`);
    }
  }
  const interval = raw(a, GA_KEYS.healthCheckInterval);
  if (interval !== undefined && interval !== '10' && interval !== '30') {
    throw bad(GA_KEYS.healthCheckInterval, interval, 'must be 10 or 30');
  }
  const threshold = int(a, GA_KEYS.healthCheckThreshold, 1, 10);
  return {
    ...(protocol ? { protocol } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(interval !== undefined ? { intervalSeconds: Number(interval) as 10 | 30 } : {}),
    ...(threshold !== undefined ? { thresholdCount: threshold } : {}),
  };
}

/**
 * The object's accelerator settings, or undefined when it wants none: the enabling key, else the
 * configuration's default. The other keys are checked even then, so a typo is reported at once.
 */
export function acceleratorSettings(
  annotations: Annotations,
  enabledByDefault: boolean,
): AcceleratorSettings | undefined {
  const wanted = flag(annotations, GA_KEYS.enabled) ?? enabledByDefault;
  const settings: AcceleratorSettings = {
    clientAffinity: choice(annotations, GA_KEYS.clientAffinity, ['NONE', 'SOURCE_IP'] as const) ?? 'NONE',
    ipAddressType: choice(annotations, GA_KEYS.ipAddressType, ['IPV4', 'DUAL_STACK'] as const) ?? 'IPV4',
    dials: dials(annotations, GA_KEYS.trafficDials),
    clientIpPreservation: flag(annotations, GA_KEYS.clientIpPreservation) ?? true,
    endpointWeight: int(annotations, GA_KEYS.endpointWeight, 0, 255) ?? DEFAULT_ENDPOINT_WEIGHT,
    healthCheck: healthCheck(annotations),
  };
  return wanted ? settings : undefined;
}
