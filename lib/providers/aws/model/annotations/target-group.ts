/**
 * An ALB target group's own annotations (LBC pkg/ingress/model_build_target_group.go): backend
 * protocol and version, target type, health check and attributes. LBC reads them from the backend
 * Service's annotations merged over the Ingress's (`MergeStringMap(svc, ing)`: the Service wins
 * key by key), so one Service can ask for gRPC while the rest of the Ingress stays HTTP/1.1.
 */
import { InvalidObjectError } from '../../../../errors.js';
import type { HealthCheckConfig } from '../../config-types.js';
import type { HealthCheckSpec } from '../types.js';
import { targetGroupAttributes } from './attributes.js';
import { albHealthCheck } from './health-check.js';
import type { ALB_KEYS } from './keys.js';
import { oneOf, raw, type Annotations } from './parse.js';

export type AlbKeys = typeof ALB_KEYS;

export interface AlbTargetGroupSettings {
  protocol: 'HTTP' | 'HTTPS';
  protocolVersion: 'HTTP1' | 'HTTP2' | 'GRPC';
  healthCheck: HealthCheckSpec;
  attributes: Record<string, string> | undefined;
  /** `instance` is accepted and reported: targets here are always pod IPs (target type ip). */
  targetType: 'ip' | 'instance' | undefined;
}

/** The annotation keys a backend Service may set for its own target groups. */
export function targetGroupKeys(keys: AlbKeys): string[] {
  return [
    keys.backendProtocol,
    keys.backendProtocolVersion,
    keys.targetType,
    keys.targetGroupAttributes,
    ...Object.values(keys.healthCheck),
  ];
}

export function albTargetGroupSettings(
  annotations: Annotations,
  keys: AlbKeys,
  defaults: HealthCheckConfig,
): AlbTargetGroupSettings {
  const protocol = oneOf(annotations, keys.backendProtocol, ['HTTP', 'HTTPS'] as const);
  const protocolVersion =
    oneOf(annotations, keys.backendProtocolVersion, ['HTTP1', 'HTTP2', 'GRPC'] as const) ?? 'HTTP1';
  const targetType = oneOf(annotations, keys.targetType, ['ip', 'instance'] as const);
  return {
    protocol: protocol ?? 'HTTP',
    protocolVersion,
    healthCheck: albHealthCheck(annotations, keys, defaults, {
      protocol: protocol ?? 'HTTP',
      protocolVersion,
      protocolGiven: protocol !== undefined,
    }),
    attributes: targetGroupAttributes(annotations, keys, 'HTTP'),
    targetType,
  };
}

/** The Service's target-group annotations over the MultiClusterIngress's, or undefined when it sets none. */
export function serviceOverrides(
  mciAnnotations: Annotations,
  serviceAnnotations: Annotations,
  keys: AlbKeys,
): Record<string, string> | undefined {
  const own = targetGroupKeys(keys).filter((k) => raw(serviceAnnotations, k) !== undefined);
  if (own.length === 0) return undefined;
  const merged: Record<string, string> = { ...mciAnnotations };
  for (const k of own) merged[k] = serviceAnnotations?.[k] ?? '';
  return merged;
}

/**
 * The settings of the target groups of one backend Service: the MCI's, or, when the Service sets
 * any of the target-group keys, those read from both (the Service's first). The MCI's annotations
 * were read without error before, so a bad value here came from (or with) the Service's.
 */
export function serviceTargetGroupSettings(
  stackDefault: AlbTargetGroupSettings,
  mciAnnotations: Annotations,
  service: { namespace: string; name: string; annotations: Annotations },
  keys: AlbKeys,
  defaults: HealthCheckConfig,
): AlbTargetGroupSettings {
  const merged = serviceOverrides(mciAnnotations, service.annotations, keys);
  if (merged === undefined) return stackDefault;
  try {
    return albTargetGroupSettings(merged, keys, defaults);
  } catch (err) {
    if (!(err instanceof InvalidObjectError)) throw err;
    throw new InvalidObjectError(
      `Service ${service.namespace}/${service.name} (its annotations override the MultiClusterIngress's for its target groups): ${err.message}`,
      { ...(err.field !== undefined ? { field: err.field } : {}), reason: err.reason, cause: err },
    );
  }
}
