/**
 * The Karmada policy objects the ServiceExport controllers write (policy.karmada.io/v1alpha1), and
 * pure builders for them: what upstream creates, field for field.
 */
import type { KubeObject, OwnerReference } from '../kube/types.js';
import {
  SERVICE_EXPORT_CPP_NAME,
  SERVICE_EXPORT_CRD_NAME,
  SERVICE_EXPORT_POLICY_PREFIX,
} from './constants.js';
import type { Service } from './types.js';

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  name?: string;
  namespace?: string;
  [key: string]: unknown;
}

export interface ClusterToleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Placement {
  clusterAffinity?: { clusterNames?: string[]; [key: string]: unknown };
  clusterTolerations?: ClusterToleration[];
  [key: string]: unknown;
}

export interface PropagationPolicy extends KubeObject {
  spec?: { resourceSelectors?: ResourceSelector[]; placement?: Placement; [key: string]: unknown };
}

export type ClusterPropagationPolicy = PropagationPolicy;

/** multicluster.x-k8s.io/v1alpha1 ServiceExport: all it carries is its name. */
export type ServiceExport = KubeObject;

export const SERVICE_EXPORT_API_VERSION = 'multicluster.x-k8s.io/v1alpha1';

export function servicePolicyName(service: string): string {
  return SERVICE_EXPORT_POLICY_PREFIX + service;
}

/** metav1.NewControllerRef(svc, v1.Service): garbage collection removes what we made with the Service. */
export function serviceControllerRef(svc: Readonly<Service>): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    name: svc.metadata.name ?? '',
    uid: svc.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Whether `obj` is controlled by this Service, i.e. we made it and may delete it. */
export function isControlledBy(obj: Readonly<KubeObject>, svc: Readonly<Service>): boolean {
  return (obj.metadata.ownerReferences ?? []).some(
    (r) =>
      r.controller === true &&
      r.apiVersion === 'v1' &&
      r.kind === 'Service' &&
      r.name === svc.metadata.name &&
      (!r.uid || !svc.metadata.uid || r.uid === svc.metadata.uid),
  );
}

export function serviceExportFor(svc: Readonly<Service>): ServiceExport {
  return {
    apiVersion: SERVICE_EXPORT_API_VERSION,
    kind: 'ServiceExport',
    metadata: {
      namespace: svc.metadata.namespace,
      name: svc.metadata.name,
      ownerReferences: [serviceControllerRef(svc)],
    },
  };
}

export function servicePolicyFor(svc: Readonly<Service>, clusters: string[]): PropagationPolicy {
  const name = svc.metadata.name ?? '';
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: {
      namespace: svc.metadata.namespace,
      name: servicePolicyName(name),
      ownerReferences: [serviceControllerRef(svc)],
    },
    spec: {
      resourceSelectors: [{ apiVersion: SERVICE_EXPORT_API_VERSION, kind: 'ServiceExport', name }],
      placement: { clusterAffinity: { clusterNames: clusters } },
    },
  };
}

/** The policy's cluster names, or undefined when it has no `clusterAffinity` (upstream panics there). */
export function policyClusterNames(p: Readonly<PropagationPolicy>): string[] | undefined {
  return p.spec?.placement?.clusterAffinity?.clusterNames;
}

/** A copy of the policy with `placement.clusterAffinity.clusterNames` set, everything else kept. */
export function withClusterNames<T extends PropagationPolicy>(p: T, clusters: string[]): T {
  const placement = p.spec?.placement ?? {};
  return {
    ...p,
    spec: {
      ...p.spec,
      placement: { ...placement, clusterAffinity: { ...placement.clusterAffinity, clusterNames: clusters } },
    },
  };
}

/** Not-ready and unreachable clusters keep the CRD: no tolerationSeconds means tolerate forever. */
export const CRD_POLICY_TOLERATIONS: ClusterToleration[] = [
  { key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'cluster.karmada.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
];

export function crdPolicyFor(clusters: string[]): ClusterPropagationPolicy {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: SERVICE_EXPORT_CPP_NAME },
    spec: {
      resourceSelectors: [
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          name: SERVICE_EXPORT_CRD_NAME,
        },
      ],
      placement: {
        clusterAffinity: { clusterNames: clusters },
        clusterTolerations: CRD_POLICY_TOLERATIONS.map((t) => ({ ...t })),
      },
    },
  };
}

/**
 * The cluster list a policy should have: the names it has that are still wanted, in their order,
 * then the wanted names it lacks, sorted (upstream appends, so existing order is kept to avoid churn).
 */
export function reconcileClusterNames(
  current: readonly string[] | undefined,
  wanted: readonly string[],
): string[] {
  const want = new Set(wanted);
  const kept = [...new Set(current ?? [])].filter((c) => want.has(c));
  const have = new Set(kept);
  return [...kept, ...[...want].filter((c) => !have.has(c)).sort()];
}
