/** Resolving an Ingress backend to a Service port, with errors that name the field at fault. */
import { InvalidObjectError } from '../../../errors.js';
import type { IngressBackend, Service, ServicePort } from '../../../karmada/types.js';

export interface ResolvedBackend {
  service: Service;
  serviceName: string;
  servicePort: ServicePort;
  /** The backend's port as written (number or name): part of the target group's resource ID. */
  portKey: string;
}

/** Every Service name the spec's backends refer to, in first-seen order (what the provider must read). */
export function backendServiceNames(backends: ReadonlyArray<IngressBackend | undefined>): string[] {
  const names = new Set<string>();
  for (const b of backends) if (b?.service?.name) names.add(b.service.name);
  return [...names];
}

export function resolveBackend(
  backend: IngressBackend,
  field: string,
  services: ReadonlyMap<string, Service>,
): ResolvedBackend {
  if (backend.resource) {
    throw new InvalidObjectError(
      `${field}.resource: resource backends (${backend.resource.kind} ${backend.resource.name}) are not supported by the aws provider; use a service backend`,
      { field: `${field}.resource`, reason: 'UnsupportedBackend' },
    );
  }
  const ref = backend.service;
  if (!ref?.name) {
    throw new InvalidObjectError(`${field}: a backend needs service.name`, {
      field: `${field}.service`,
      reason: 'InvalidBackend',
    });
  }
  const service = services.get(ref.name);
  if (!service) {
    throw new InvalidObjectError(`${field}.service.name: Service "${ref.name}" does not exist`, {
      field: `${field}.service.name`,
      reason: 'ServiceNotFound',
    });
  }
  const ports = service.spec?.ports;
  const wanted = ref.port;
  let servicePort: ServicePort | undefined;
  let portKey: string;
  if (wanted?.name) {
    portKey = wanted.name;
    servicePort = ports?.find((p) => p.name === wanted.name);
  } else if (wanted?.number !== undefined) {
    portKey = String(wanted.number);
    servicePort = ports?.find((p) => p.port === wanted.number);
  } else {
    throw new InvalidObjectError(`${field}.service.port: a service backend needs port.name or port.number`, {
      field: `${field}.service.port`,
      reason: 'InvalidBackend',
    });
  }
  if (!servicePort) {
    throw new InvalidObjectError(`${field}.service.port: Service "${ref.name}" has no port "${portKey}"`, {
      field: `${field}.service.port`,
      reason: 'ServicePortNotFound',
    });
  }
  return { service, serviceName: ref.name, servicePort, portKey };
}
