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
  const wanted = ref.port;
  const port =
    wanted?.name !== undefined && wanted.name !== ''
      ? { name: wanted.name }
      : wanted?.number !== undefined
        ? { number: wanted.number }
        : undefined;
  return resolveServicePort(ref.name, port, services, {
    service: `${field}.service.name`,
    port: `${field}.service.port`,
    missingPort: 'a service backend needs port.name or port.number',
  });
}

/** Where errors about a Service reference point, and what to say when it names no port. */
export interface ServiceRefFields {
  service: string;
  port: string;
  missingPort: string;
  /** How messages name the Service and the port, when not by `service` and `port` (an annotation's JSON). */
  serviceText?: string;
  portText?: string;
}

/** A Service of the MCI's namespace and one of its ports (by name or number). */
export function resolveServicePort(
  name: string,
  port: { name: string } | { number: number } | undefined,
  services: ReadonlyMap<string, Service>,
  fields: ServiceRefFields,
): ResolvedBackend {
  const service = services.get(name);
  if (!service) {
    throw new InvalidObjectError(
      `${fields.serviceText ?? fields.service}: Service "${name}" does not exist`,
      {
        field: fields.service,
        reason: 'ServiceNotFound',
      },
    );
  }
  if (!port) {
    throw new InvalidObjectError(`${fields.portText ?? fields.port}: ${fields.missingPort}`, {
      field: fields.port,
      reason: 'InvalidBackend',
    });
  }
  const ports = service.spec?.ports;
  const portKey = 'name' in port ? port.name : String(port.number);
  const servicePort =
    'name' in port ? ports?.find((p) => p.name === port.name) : ports?.find((p) => p.port === port.number);
  if (!servicePort) {
    throw new InvalidObjectError(
      `${fields.portText ?? fields.port}: Service "${name}" has no port "${portKey}"`,
      {
        field: fields.port,
        reason: 'ServicePortNotFound',
      },
    );
  }
  return { service, serviceName: name, servicePort, portKey };
}
