/**
 * TypeScript shapes of the objects the controllers read, derived from the Karmada CRDs
 * (networking.karmada.io/v1alpha1, see test/fixtures/crds) and the Kubernetes APIs they embed.
 * Incoming objects are checked against the CRD schema by `validateMultiClusterIngress` /
 * `validateMultiClusterService` before code relies on these types.
 */
import type { KubeObject } from '../kube/types.js';

// ---- networking.k8s.io/v1 IngressSpec, as embedded in MultiClusterIngress ----

export interface ServiceBackendPort {
  name?: string;
  number?: number;
}

export interface IngressServiceBackend {
  name: string;
  port?: ServiceBackendPort;
}

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: TypedLocalObjectReference;
}

export type PathType = 'Exact' | 'Prefix' | 'ImplementationSpecific';

export interface HTTPIngressPath {
  path?: string;
  pathType: PathType;
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

export interface IngressTLS {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTLS[];
  rules?: IngressRule[];
}

// ---- load balancer status (networking.k8s.io/v1 and core/v1) ----

export interface PortStatus {
  port: number;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  error?: string;
}

/** networking.k8s.io/v1 IngressLoadBalancerIngress */
export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: PortStatus[];
}

/** networking.k8s.io/v1 IngressLoadBalancerStatus */
export interface IngressLoadBalancerStatus {
  ingress?: IngressLoadBalancerIngress[];
}

/** core/v1 LoadBalancerIngress */
export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
  ports?: PortStatus[];
}

/** core/v1 LoadBalancerStatus */
export interface LoadBalancerStatus {
  ingress?: LoadBalancerIngress[];
}

// ---- MultiClusterIngress ----

export interface ServiceLocation {
  name: string;
  clusters?: string[];
}

export interface MultiClusterIngressStatus {
  loadBalancer?: IngressLoadBalancerStatus;
  trafficBlockClusters?: string[];
  serviceLocations?: ServiceLocation[];
}

export interface MultiClusterIngress extends KubeObject {
  spec?: IngressSpec;
  status?: MultiClusterIngressStatus;
}

// ---- MultiClusterService ----

export type ExposureType = 'CrossCluster' | 'LoadBalancer';

export interface ExposurePort {
  name?: string;
  port: number;
}

export interface ClusterSelector {
  name: string;
}

export interface MultiClusterServiceSpec {
  types: ExposureType[];
  ports?: ExposurePort[];
  providerClusters?: ClusterSelector[];
  consumerClusters?: ClusterSelector[];
  /** @deprecated in favour of providerClusters/consumerClusters */
  range?: { clusterNames?: string[] };
  /** @deprecated in favour of providerClusters */
  serviceProvisionClusters?: string[];
  /** @deprecated in favour of consumerClusters */
  serviceConsumptionClusters?: string[];
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface MultiClusterServiceStatus {
  loadBalancer?: LoadBalancerStatus;
  conditions?: Condition[];
}

export interface MultiClusterService extends KubeObject {
  spec: MultiClusterServiceSpec;
  status?: MultiClusterServiceStatus;
}

// ---- objects the controllers depend on ----

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface Service extends KubeObject {
  spec?: {
    type?: string;
    ports?: ServicePort[];
    selector?: Record<string, string>;
    clusterIP?: string;
    ipFamilies?: Array<'IPv4' | 'IPv6'>;
    [key: string]: unknown;
  };
  status?: Record<string, unknown>;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface Endpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  zone?: string;
  nodeName?: string;
  targetRef?: { kind?: string; name?: string; namespace?: string };
}

export interface EndpointSlice extends KubeObject {
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints?: Endpoint[];
  ports?: EndpointPort[];
}

export interface IngressClass extends KubeObject {
  spec?: { controller?: string; parameters?: Record<string, unknown> };
}

export interface Cluster extends KubeObject {
  spec?: Record<string, unknown>;
  status?: { remedyActions?: string[]; [key: string]: unknown };
}

export interface TargetCluster {
  name: string;
  replicas?: number;
}

export interface ResourceBinding extends KubeObject {
  spec?: {
    resource?: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string };
    clusters?: TargetCluster[];
    requiredBy?: Array<{ namespace?: string; name?: string; clusters?: TargetCluster[] }>;
    [key: string]: unknown;
  };
}

export interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
