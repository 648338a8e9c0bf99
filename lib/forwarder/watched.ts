/** The resource types the forwarder watches on the Karmada API server. */
import { Resources } from '../kube/resources.js';
import type { ResourceType } from '../kube/types.js';

export const WATCHED_TYPES: readonly ResourceType[] = [
  Resources.MultiClusterIngress,
  Resources.MultiClusterService,
  Resources.Service,
  Resources.EndpointSlice,
  Resources.Secret,
  Resources.IngressClass,
  Resources.Cluster,
  Resources.ResourceBinding,
  // crd-installation recreates its ClusterPropagationPolicy as soon as it is deleted.
  Resources.ClusterPropagationPolicy,
];
