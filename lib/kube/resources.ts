import type { ResourceType } from './types.js';

/** Every resource type the functions, the forwarder and the local stand-in touch. */
export const Resources = {
  MultiClusterIngress: {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    plural: 'multiclusteringresses',
    namespaced: true,
    statusSubresource: true,
  },
  MultiClusterService: {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    plural: 'multiclusterservices',
    namespaced: true,
    statusSubresource: true,
  },
  Service: {
    apiVersion: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    statusSubresource: true,
  },
  Secret: { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  Event: { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  Namespace: {
    apiVersion: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    statusSubresource: true,
  },
  Deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    statusSubresource: true,
  },
  StatefulSet: {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    statusSubresource: true,
  },
  EndpointSlice: {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    namespaced: true,
  },
  IngressClass: {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    plural: 'ingressclasses',
    namespaced: false,
  },
  Cluster: {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    plural: 'clusters',
    namespaced: false,
    statusSubresource: true,
  },
  ResourceBinding: {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    plural: 'resourcebindings',
    namespaced: true,
    statusSubresource: true,
  },
  /**
   * Karmada's Work (an execution namespace's copy of what goes to, or came from, one member
   * cluster). Read by name only, never listed: a Work holds every manifest Karmada propagates,
   * Secrets included (imported-slices.ts reads the one a collected EndpointSlice names).
   */
  Work: {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    plural: 'works',
    namespaced: true,
    statusSubresource: true,
  },
  PropagationPolicy: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    plural: 'propagationpolicies',
    namespaced: true,
  },
  ClusterPropagationPolicy: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    plural: 'clusterpropagationpolicies',
    namespaced: false,
  },
  ServiceExport: {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceExport',
    plural: 'serviceexports',
    namespaced: true,
    statusSubresource: true,
  },
  Lease: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', namespaced: true },
  ConfigMap: { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
} as const satisfies Record<string, ResourceType>;

export type ResourceName = keyof typeof Resources;

const byApiVersionKind = new Map<string, ResourceType>(
  Object.values(Resources).map((r) => [`${r.apiVersion}/${r.kind}`, r]),
);

/** The resource type of an apiVersion + kind this project knows, or undefined. */
export function resourceFor(apiVersion: string, kind: string): ResourceType | undefined {
  return byApiVersionKind.get(`${apiVersion}/${kind}`);
}
