/**
 * The resource types the forwarder watches on the Karmada API server. Secrets are not among them:
 * neither shipped provider reads one, and RBAC cannot grant "metadata only", so watching them
 * cluster-wide would give the forwarder's credential every Secret in Karmada (member-cluster
 * credentials included). A provider that needs TLS Secret changes opts in per namespace
 * (`--watch-secrets-in`), with a namespaced Role in each (infra/forwarder/k8s/watch-secrets).
 */
import { Resources } from '../kube/resources.js';
import type { ResourceType } from '../kube/types.js';

/** Watched only in the namespaces the operator lists. */
export const OPT_IN_SECRET_TYPE: ResourceType = Resources.Secret;

export const WATCHED_TYPES: readonly ResourceType[] = [
  Resources.MultiClusterIngress,
  Resources.MultiClusterService,
  Resources.Service,
  Resources.EndpointSlice,
  Resources.IngressClass,
  Resources.Cluster,
  Resources.ResourceBinding,
  // crd-installation recreates its ClusterPropagationPolicy as soon as it is deleted.
  Resources.ClusterPropagationPolicy,
];
