/**
 * The fixed surroundings the workload acts in, as a Karmada control plane would hold them: two
 * IngressClasses (ours, the default, and a foreign one), three member Clusters, Services with two
 * named ports, the EndpointSlices Karmada collects from each member, and each Service's
 * ResourceBinding (which makes every member a service location, so TrafficControl matters).
 */
import type { KubeObject } from '../../lib/kube/types.js';
import type { Rng } from './prng.js';
// The same builders the local pipeline seeds with: one definition of what Karmada holds.
import { cluster, ingressClass } from '../../dev/local/scenario.js';

export { cluster, ingressClass };

export const NAMESPACE = 'default';
export const OUR_CLASS = 'aws';
export const OUR_CONTROLLER = 'karmada.io/aws';
export const FOREIGN_CLASS = 'nginx';
export const CLUSTERS = ['member1', 'member2', 'member3'] as const;
/**
 * The Regions the provider is configured with (the first is the primary one), and each cluster's
 * (its Cluster's spec.region): member1 alone in the first, member2 and member3 in the second, so
 * that TrafficControl on both of theirs drains a whole Region.
 */
export const REGIONS = ['us-east-1', 'eu-west-1'] as const;
export const CLUSTER_REGIONS: Record<(typeof CLUSTERS)[number], (typeof REGIONS)[number]> = {
  member1: 'us-east-1',
  member2: 'eu-west-1',
  member3: 'eu-west-1',
};
/** member1 inside its Region's VPC (10.0.0.0/16), the others outside theirs (target zone `all`). */
const CLUSTER_PREFIX: Record<string, string> = { member1: '10.0', member2: '172.20', member3: '10.3' };
export const SERVICE_PORTS = [
  { name: 'http', port: 80, targetPort: 8080 },
  { name: 'admin', port: 8081, targetPort: 9090 },
] as const;

export function serviceName(i: number): string {
  return `svc-${String(i).padStart(2, '0')}`;
}

export function ingressName(i: number): string {
  return `mci-${String(i).padStart(3, '0')}`;
}

export function service(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NAMESPACE },
    spec: { ports: SERVICE_PORTS.map((p) => ({ ...p, protocol: 'TCP' })), selector: { app: name } },
  } as KubeObject;
}

export function resourceBinding(svc: string): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: `${svc}-service`, namespace: NAMESPACE },
    spec: {
      resource: { apiVersion: 'v1', kind: 'Service', namespace: NAMESPACE, name: svc },
      clusters: CLUSTERS.map((name) => ({ name })),
    },
  } as KubeObject;
}

export function sliceName(clusterName: string, svc: string): string {
  return `imported-${clusterName}-${svc}-x7k2p`;
}

export interface EndpointSpec {
  address: string;
  ready: boolean;
}

/** 0–3 endpoints of `svc` in `clusterName`, about one in five not ready. */
export function randomEndpoints(rng: Rng, clusterName: string, svcIndex: number): EndpointSpec[] {
  const prefix = CLUSTER_PREFIX[clusterName] ?? '10.9';
  const count = rng.int(0, 3);
  const hosts = rng.shuffle(Array.from({ length: 20 }, (_, i) => i + 10)).slice(0, count);
  return hosts.map((h) => ({ address: `${prefix}.${svcIndex + 1}.${h}`, ready: !rng.chance(0.2) }));
}

/** A slice as Karmada collects it: named `imported-<cluster>-…`, labelled `derived-<svc>`. */
export function collectedSlice(clusterName: string, svc: string, endpoints: EndpointSpec[]): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: sliceName(clusterName, svc),
      namespace: NAMESPACE,
      labels: { 'kubernetes.io/service-name': `derived-${svc}` },
      annotations: { 'work.karmada.io/namespace': `karmada-es-${clusterName}` },
    },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({ addresses: [e.address], conditions: { ready: e.ready } })),
    ports: SERVICE_PORTS.map((p) => ({ name: p.name, port: p.targetPort, protocol: 'TCP' })),
  } as KubeObject;
}

/** A member Cluster as Karmada registers it, in its Region. */
export function regionalCluster(name: (typeof CLUSTERS)[number]): KubeObject {
  return cluster(name, false, CLUSTER_REGIONS[name]);
}

/** Everything the workload needs before its first operation, in `kubectl apply` order. */
export function worldObjects(rng: Rng, services: number): KubeObject[] {
  const objects: KubeObject[] = [
    ingressClass(OUR_CLASS, OUR_CONTROLLER, true),
    ingressClass(FOREIGN_CLASS, 'k8s.io/ingress-nginx', false),
    ...CLUSTERS.map((c) => regionalCluster(c)),
  ];
  for (let i = 0; i < services; i++) {
    const svc = serviceName(i);
    objects.push(service(svc), resourceBinding(svc));
    for (const c of CLUSTERS) objects.push(collectedSlice(c, svc, randomEndpoints(rng, c, i)));
  }
  return objects;
}
