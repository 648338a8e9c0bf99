/** Names fixed by upstream (karmada-io/multicluster-cloud-provider) that users and tools rely on. */
export const MCI_FINALIZER = 'karmada.io/multi-cluster-ingress-controller';
export const MCS_FINALIZER = 'karmada.io/multi-cluster-service-controller';
export const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** Karmada collects member EndpointSlices as `imported-<cluster>-<slice>` labelled `derived-<svc>`. */
export const DERIVED_SERVICE_PREFIX = 'derived-';
export const TRAFFIC_CONTROL_REMEDY = 'TrafficControl';
export const SERVICE_EXPORT_POLICY_PREFIX = 'propagate-service-';
export const SERVICE_EXPORT_CPP_NAME = 'serviceexportpropagation-policy';
export const SERVICE_EXPORT_CRD_NAME = 'serviceexports.multicluster.x-k8s.io';
export const LOAD_BALANCER_TYPE = 'LoadBalancer';
