/**
 * The upstream README's verify scenario, plus what a real Karmada control plane would hold around
 * it: the `fake` IngressClass (default, controller karmada.io/fake) from upstream's artifacts, the
 * MultiClusterIngress `minimal-ingress`, the Deployment and Service `serve`, the PropagationPolicy
 * `mcs-workload` to member1 and member2, a MultiClusterService `serve` of type LoadBalancer, the
 * two member Clusters (member1 in us-east-1, member2 in eu-west-1 by default: `spec.region`, which
 * the multi-Region provider reads), the Service's ResourceBinding, and the EndpointSlices Karmada
 * collects from the members (`imported-<cluster>-<slice>`, labelled `derived-serve`), each with the
 * Work in `karmada-es-<cluster>` it is derived from (seed() adds it, and what Karmada writes on the
 * slice: karmada-collection.ts).
 */
import type { KubeObject } from '../../lib/kube/types.js';

export const INGRESS_CLASS_CONTROLLER = 'karmada.io/fake';

const ns = 'default';

export function ingressClass(
  name = 'fake',
  controller = INGRESS_CLASS_CONTROLLER,
  isDefault = true,
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: {
      name,
      ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}),
    },
    spec: { controller },
  } as KubeObject;
}

export function minimalIngress(name = 'minimal-ingress'): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace: ns, annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' } },
    spec: {
      rules: [
        {
          http: {
            paths: [
              {
                path: '/testpath',
                pathType: 'Prefix',
                backend: { service: { name: 'serve', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  } as KubeObject;
}

export function serveService(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'serve', namespace: ns },
    spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], selector: { app: 'serve' } },
  } as KubeObject;
}

export function serveMultiClusterService(): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name: 'serve', namespace: ns },
    spec: { types: ['LoadBalancer'], ports: [{ port: 80 }] },
  } as KubeObject;
}

export function serveDeployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'serve', namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'serve' } },
      template: {
        metadata: { labels: { app: 'serve' } },
        spec: { containers: [{ name: 'serve', image: 'jeremyot/serve:0a40de8' }] },
      },
    },
  } as KubeObject;
}

export function propagationPolicy(): KubeObject {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'mcs-workload', namespace: ns },
    spec: {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'serve' },
        { apiVersion: 'v1', kind: 'Service', name: 'serve' },
      ],
      placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
    },
  } as KubeObject;
}

/** A member Cluster; `region` is its `spec.region` (the multi-Region provider's; others ignore it). */
export function cluster(name: string, trafficControl = false, region?: string): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push', ...(region ? { region } : {}) },
    status: trafficControl ? { remedyActions: ['TrafficControl'] } : {},
  } as KubeObject;
}

export function resourceBinding(service = 'serve', clusters = ['member1', 'member2']): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: `${service}-service`, namespace: ns },
    spec: {
      resource: { apiVersion: 'v1', kind: 'Service', namespace: ns, name: service },
      clusters: clusters.map((name) => ({ name })),
    },
  } as KubeObject;
}

/** A slice as Karmada collects it from a member: ready endpoints on port 8080. */
export function collectedSlice(
  clusterName: string,
  addresses: string[],
  service = 'serve',
  ready = true,
): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `imported-${clusterName}-${service}-abcde`,
      namespace: ns,
      labels: { 'kubernetes.io/service-name': `derived-${service}` },
      annotations: { 'work.karmada.io/namespace': `karmada-es-${clusterName}` },
    },
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready } })),
    ports: [{ port: 8080, protocol: 'TCP' }],
  } as KubeObject;
}

/** Where the scenario's members are, by default: member1 in the primary Region, member2 in the second. */
export const SCENARIO_REGIONS = ['us-east-1', 'eu-west-1'] as const;

/**
 * Each scenario member's Region among `regions` (the primary first): member1 in the first,
 * member2 in the second, or in the first when there is one.
 */
export function scenarioClusterRegions(
  regions: readonly string[] = SCENARIO_REGIONS,
): Record<string, string> {
  const [first = SCENARIO_REGIONS[0], second = first] = regions;
  return { member1: first, member2: second };
}

/**
 * Everything, in the order `kubectl apply` would create it. The Clusters are in `regions`
 * (scenarioClusterRegions).
 */
export function upstreamScenario(regions?: readonly string[]): KubeObject[] {
  const where = scenarioClusterRegions(regions);
  return [
    ingressClass(),
    cluster('member1', false, where.member1),
    cluster('member2', false, where.member2),
    serveDeployment(),
    serveService(),
    propagationPolicy(),
    resourceBinding(),
    collectedSlice('member1', ['10.1.0.11', '10.1.0.12']),
    collectedSlice('member2', ['10.2.0.21']),
    serveMultiClusterService(),
    minimalIngress(),
  ];
}
