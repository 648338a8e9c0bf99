/** Target group health checks: LBC's defaults per load balancer type, overridden by annotations. */
import type { HealthCheckConfig } from '../../config-types.js';
import type { ServicePort } from '../../../../karmada/types.js';
import type { HealthCheckSpec } from '../types.js';
import type { CommonKeys } from './keys.js';
import { integer, invalid, oneOf, raw, type Annotations } from './parse.js';

/** LBC's NLB defaults (service.beta.kubernetes.io/aws-load-balancer-healthcheck-*), ip targets. */
export const NLB_HEALTH_CHECK_DEFAULTS = {
  protocol: 'TCP',
  port: 'traffic-port',
  intervalSeconds: 10,
  timeoutSeconds: 10,
  healthyThresholdCount: 3,
  unhealthyThresholdCount: 3,
  /** Only for HTTP(S) health checks. */
  path: '/',
  matcher: '200-399',
} as const;

function port(annotations: Annotations, key: string): string | undefined {
  const v = raw(annotations, key);
  if (v === undefined || v === 'traffic-port') return v;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535) {
    throw invalid(key, v, 'must be "traffic-port" or a port number');
  }
  return v;
}

/** A Kubernetes port name (IANA_SVC_NAME): 1-15 lower-case letters, digits and single inner hyphens, one letter at least. */
const PORT_NAME = /^(?=.*[a-z])[a-z0-9](?:-?[a-z0-9])*$/;

/** ALB checks may also name a port of the backend Service, as in LBC (resolved per Service: resolveHealthCheckPort). */
function albPort(annotations: Annotations, key: string): string | undefined {
  const v = raw(annotations, key);
  if (v !== undefined && !/^\d+$/.test(v) && PORT_NAME.test(v) && v.length <= 15) return v;
  try {
    return port(annotations, key);
  } catch {
    throw invalid(
      key,
      v ?? '',
      'must be "traffic-port", a port number or the name of a port of the backend Service',
    );
  }
}

function path(annotations: Annotations, key: string): string | undefined {
  const v = raw(annotations, key);
  if (v !== undefined && (!v.startsWith('/') || v.length > 1024))
    throw invalid(key, v, 'must be a path starting with "/"');
  return v;
}

function successCodes(annotations: Annotations, key: string): string | undefined {
  const v = raw(annotations, key);
  if (v !== undefined && !/^\d{3}(-\d{3})?(,\d{3}(-\d{3})?)*$/.test(v)) {
    throw invalid(key, v, 'must be HTTP codes like "200", "200,201" or "200-399"');
  }
  return v;
}

/** gRPC status codes (0-99): `12`, `0,12` or `0-99`. */
function grpcCodes(annotations: Annotations, key: string): string | undefined {
  const v = raw(annotations, key);
  if (v !== undefined && !/^\d{1,2}(-\d{1,2})?(,\d{1,2}(-\d{1,2})?)*$/.test(v)) {
    throw invalid(
      key,
      v,
      'must be gRPC status codes from 0 to 99 like "12", "0,12" or "0-99" (backend-protocol-version GRPC)',
    );
  }
  return v;
}

/** LBC's defaults for gRPC target groups: AWS's own health-check method and UNIMPLEMENTED (12). */
export const GRPC_HEALTH_CHECK_DEFAULTS = { path: '/AWS.ALB/healthcheck', grpcCode: '12' } as const;

/** What an ALB target group's health check depends on besides its own annotations. */
export interface AlbBackend {
  protocol: 'HTTP' | 'HTTPS';
  protocolVersion: 'HTTP1' | 'HTTP2' | 'GRPC';
  /** Whether backend-protocol was given: then the check's protocol follows it, as in LBC. */
  protocolGiven: boolean;
}

export const DEFAULT_ALB_BACKEND: AlbBackend = {
  protocol: 'HTTP',
  protocolVersion: 'HTTP1',
  protocolGiven: false,
};

const INTERVAL: [number, number] = [5, 300];
const TIMEOUT: [number, number] = [2, 120];
const THRESHOLD: [number, number] = [2, 10];

/**
 * ALB target groups: the configured defaults (LBC's) under the `alb.ingress.kubernetes.io/` keys.
 * As in LBC, the check's protocol defaults to the backend protocol when one is given, and a gRPC
 * group checks `/AWS.ALB/healthcheck` for gRPC code 12 unless told otherwise.
 */
export function albHealthCheck(
  annotations: Annotations,
  keys: CommonKeys,
  defaults: HealthCheckConfig,
  backend: AlbBackend = DEFAULT_ALB_BACKEND,
): HealthCheckSpec {
  const k = keys.healthCheck;
  const grpc = backend.protocolVersion === 'GRPC';
  return {
    enabled: true,
    path: path(annotations, k.path) ?? (grpc ? GRPC_HEALTH_CHECK_DEFAULTS.path : defaults.path),
    port: albPort(annotations, k.port) ?? String(defaults.port),
    protocol:
      oneOf(annotations, k.protocol, ['HTTP', 'HTTPS'] as const) ??
      (backend.protocolGiven ? backend.protocol : defaults.protocol),
    intervalSeconds: integer(annotations, k.interval, ...INTERVAL) ?? defaults.intervalSeconds,
    timeoutSeconds: integer(annotations, k.timeout, ...TIMEOUT) ?? defaults.timeoutSeconds,
    healthyThresholdCount:
      integer(annotations, k.healthyThreshold, ...THRESHOLD) ?? defaults.healthyThresholdCount,
    unhealthyThresholdCount:
      integer(annotations, k.unhealthyThreshold, ...THRESHOLD) ?? defaults.unhealthyThresholdCount,
    matcher: grpc
      ? { grpcCode: grpcCodes(annotations, k.successCodes) ?? GRPC_HEALTH_CHECK_DEFAULTS.grpcCode }
      : { httpCode: successCodes(annotations, k.successCodes) ?? defaults.matcher },
  };
}

/** NLB target groups: TCP by default; path and success codes only mean something for HTTP(S). */
export function nlbHealthCheck(annotations: Annotations, keys: CommonKeys): HealthCheckSpec {
  const k = keys.healthCheck;
  const d = NLB_HEALTH_CHECK_DEFAULTS;
  const protocol = oneOf(annotations, k.protocol, ['TCP', 'HTTP', 'HTTPS'] as const) ?? d.protocol;
  const http = protocol !== 'TCP';
  return {
    enabled: true,
    ...(http ? { path: path(annotations, k.path) ?? d.path } : {}),
    port: port(annotations, k.port) ?? d.port,
    protocol,
    intervalSeconds: integer(annotations, k.interval, ...INTERVAL) ?? d.intervalSeconds,
    timeoutSeconds: integer(annotations, k.timeout, ...TIMEOUT) ?? d.timeoutSeconds,
    healthyThresholdCount: integer(annotations, k.healthyThreshold, ...THRESHOLD) ?? d.healthyThresholdCount,
    unhealthyThresholdCount:
      integer(annotations, k.unhealthyThreshold, ...THRESHOLD) ?? d.unhealthyThresholdCount,
    ...(http ? { matcher: { httpCode: successCodes(annotations, k.successCodes) ?? d.matcher } } : {}),
  };
}

/**
 * The check's port for one backend Service: a named port is that Service port's numeric
 * targetPort (its port when it has none), as LBC resolves it for ip targets; a named targetPort
 * has no single number, so it is refused, as in LBC.
 */
export function resolveHealthCheckPort(
  hc: HealthCheckSpec,
  service: { key: string; ports: readonly ServicePort[] | undefined },
  annotation: string,
): HealthCheckSpec {
  if (hc.port === 'traffic-port' || /^\d+$/.test(hc.port)) return hc;
  const named = service.ports?.find((p) => p.name === hc.port);
  if (!named) throw invalid(annotation, hc.port, `names no port of Service ${service.key}`);
  const tp = named.targetPort;
  if (typeof tp === 'string') {
    throw invalid(
      annotation,
      hc.port,
      `is a port of Service ${service.key} whose targetPort is named (${tp}): ip targets need a number, so give the container port`,
    );
  }
  return { ...hc, port: String(tp ?? named.port) };
}

/** LBC's defaults for a frontend NLB's target groups (its ingress model builder's, an ALB target's). */
export const FRONTEND_NLB_HEALTH_CHECK_DEFAULTS = {
  protocol: 'HTTP',
  port: 'traffic-port',
  path: '/',
  intervalSeconds: 15,
  timeoutSeconds: 5,
  healthyThresholdCount: 2,
  unhealthyThresholdCount: 2,
  matcher: '200',
} as const;

/**
 * The health check of a frontend NLB's target groups (target type alb): ELBv2 checks an ALB
 * target over HTTP or HTTPS only, so TCP is refused here rather than by CreateTargetGroup.
 */
export function frontendNlbHealthCheck(
  annotations: Annotations,
  k: CommonKeys['healthCheck'],
): HealthCheckSpec {
  const d = FRONTEND_NLB_HEALTH_CHECK_DEFAULTS;
  const intervalSeconds = integer(annotations, k.interval, ...INTERVAL) ?? d.intervalSeconds;
  const timeoutSeconds = integer(annotations, k.timeout, ...TIMEOUT) ?? d.timeoutSeconds;
  // An NLB target group's check may not time out after its interval (ELBv2 refuses it at create).
  if (timeoutSeconds > intervalSeconds)
    throw invalid(
      raw(annotations, k.timeout) !== undefined ? k.timeout : k.interval,
      String(raw(annotations, k.timeout) !== undefined ? timeoutSeconds : intervalSeconds),
      `makes the health check time out (${timeoutSeconds} s) after its interval (${intervalSeconds} s)`,
    );
  return {
    enabled: true,
    path: path(annotations, k.path) ?? d.path,
    port: port(annotations, k.port) ?? d.port,
    protocol: oneOf(annotations, k.protocol, ['HTTP', 'HTTPS'] as const) ?? d.protocol,
    intervalSeconds,
    timeoutSeconds,
    healthyThresholdCount: integer(annotations, k.healthyThreshold, ...THRESHOLD) ?? d.healthyThresholdCount,
    unhealthyThresholdCount:
      integer(annotations, k.unhealthyThreshold, ...THRESHOLD) ?? d.unhealthyThresholdCount,
    matcher: { httpCode: successCodes(annotations, k.successCodes) ?? d.matcher },
  };
}
