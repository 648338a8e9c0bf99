/**
 * Reads what the model needs for one MCI from the Karmada API: the Services its backends name and
 * the EndpointSlices Karmada collected for them, and the parts of the model its annotations need. Slices are listed per Service with a label
 * selector (`kubernetes.io/service-name=derived-<svc>`), never by listing everything, and only the
 * ones Karmada derived from a member's Work are kept (imported-slices.ts: one GET of a Work each).
 */
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../karmada/constants.js';
import type {
  EndpointSlice,
  MultiClusterIngress,
  MultiClusterService,
  Service,
} from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import { importedSlicesOnly, type IgnoredSlice } from './imported-slices.js';
import { actionServiceNames, backendsOf, USE_ANNOTATION_PORT } from '../../karmada/refs.js';
import { backendServiceNames } from './model/backends.js';
import { oidcSecretNames, readOidcSecrets, type OidcSecretReads } from './oidc-secrets.js';
import { modelPartsFor, type ModelParts } from './model/parts.js';
import { wantsPlacementWeights, type ServicePlacement } from '../../karmada/placement.js';
import { readServicePlacement, type WorkloadReads } from '../../karmada/placement-reads.js';

export interface IngressInputs extends OidcSecretReads {
  services: Service[];
  endpointSlices: EndpointSlice[];
  /** The parts of the model the MCI's annotations need (model/parts.ts). */
  parts: ModelParts;
  /** `cluster-weights-from: placement` only: Karmada's placement of each backend Service. */
  placement?: Map<string, ServicePlacement>;
}

/**
 * Karmada's placement of each Service, for an object that asks for placement-derived weights
 * (karmada/placement-reads.ts): one LIST per workload kind in the namespace, one GET per selected
 * workload's ResourceBinding. Nothing is read for an object that does not ask.
 */
export async function readPlacements(
  kube: KubeClient,
  annotations: Readonly<Record<string, string>> | undefined,
  services: readonly Service[],
  reads: WorkloadReads = new Map(),
): Promise<Map<string, ServicePlacement> | undefined> {
  if (!wantsPlacementWeights(annotations)) return undefined;
  const out = new Map<string, ServicePlacement>();
  for (const service of services) {
    out.set(service.metadata.name ?? '', await readServicePlacement(kube, service, reads));
  }
  return out;
}

/**
 * The Services the model needs: every backend's, except that a `use-annotation` backend names an
 * action, whose forward names the Services (LBC's loadBackendServices). A bad annotation names
 * none here: the model reports it, with the field at fault.
 */
export function ingressBackendServiceNames(mci: Readonly<MultiClusterIngress>): string[] {
  const names: string[] = [];
  for (const b of backendsOf(mci)) {
    const name = b.service?.name;
    if (name && b.service?.port?.name === USE_ANNOTATION_PORT) names.push(...actionServiceNames(mci, name));
    else names.push(...backendServiceNames([b]));
  }
  return [...new Set(names)];
}

/** One Service's reads, by `<namespace>/<name>`: shared by the members of an IngressGroup. */
export type ServiceReads = Map<string, Promise<{ service: Service | undefined; slices: EndpointSlice[] }>>;

export async function readIngressInputs(
  kube: KubeClient,
  mci: Readonly<MultiClusterIngress>,
  /** Reads already made in this build (an IngressGroup's members often share Services). */
  reads: ServiceReads = new Map(),
  /** Told about each slice left out as not Karmada's (imported-slices.ts). */
  ignored?: IgnoredSlice,
): Promise<IngressInputs> {
  const namespace = mci.metadata.namespace ?? '';
  const services: Service[] = [];
  const endpointSlices: EndpointSlice[] = [];
  for (const name of ingressBackendServiceNames(mci)) {
    const key = `${namespace}/${name}`;
    let read = reads.get(key);
    if (!read) {
      read = readService(kube, namespace, name, ignored);
      reads.set(key, read);
    }
    const { service, slices } = await read;
    // A missing Service is not an error here: the model reports it with the field that names it.
    if (!service) continue;
    services.push(service);
    endpointSlices.push(...slices);
  }
  // Only the Secrets its authentication names, one GET each (oidc-secrets.ts).
  const secrets = await readOidcSecrets(kube, namespace, oidcSecretNames(mci, services));
  const placement = await readPlacements(kube, mci.metadata.annotations, services);
  return {
    services,
    endpointSlices,
    ...secrets,
    parts: await modelPartsFor(mci, services),
    ...(placement ? { placement } : {}),
  };
}

async function readService(kube: KubeClient, namespace: string, name: string, ignored?: IgnoredSlice) {
  const service = await kube.get<Service>(Resources.Service, namespace, name);
  if (!service) return { service: undefined, slices: [] };
  const slices = await kube.list<EndpointSlice>(Resources.EndpointSlice, {
    namespace,
    labelSelector: `${SERVICE_NAME_LABEL}=${DERIVED_SERVICE_PREFIX}${name}`,
  });
  return { service, slices: await importedSlicesOnly(kube, slices.items, ignored) };
}

export interface ServiceInputs {
  service: Service | undefined;
  endpointSlices: EndpointSlice[];
  placement?: ServicePlacement;
}

/** The MCS's same-named Service and the slices Karmada collected for it (by label selector). */
export async function readServiceInputs(
  kube: KubeClient,
  mcs: Readonly<MultiClusterService>,
  /** Told about each slice left out as not Karmada's (imported-slices.ts). */
  ignored?: IgnoredSlice,
): Promise<ServiceInputs> {
  const namespace = mcs.metadata.namespace ?? '';
  const name = mcs.metadata.name ?? '';
  const service = await kube.get<Service>(Resources.Service, namespace, name);
  if (!service) return { service: undefined, endpointSlices: [] };
  const slices = await kube.list<EndpointSlice>(Resources.EndpointSlice, {
    namespace,
    labelSelector: `${SERVICE_NAME_LABEL}=${DERIVED_SERVICE_PREFIX}${name}`,
  });
  const placement = (await readPlacements(kube, mcs.metadata.annotations, [service]))?.get(name);
  return {
    service,
    endpointSlices: await importedSlicesOnly(kube, slices.items, ignored),
    ...(placement ? { placement } : {}),
  };
}
