/**
 * The load-balancer topology of one MultiClusterIngress or MultiClusterService, as data a picture
 * is drawn from (Mermaid for `npm run plan -- --graph`, the live page of `npm start`).
 *
 * Front doors → Regions → load balancers → listeners → rules → target groups → clusters → targets.
 * One Region has one load balancer; over several Regions (a configuration with `regions:`) each
 * Region that serves the object has its own, and a Global Accelerator in front of them is a
 * `FrontDoor` whose `regions` carry each Region's traffic dial.
 */

export interface TopologyObject {
  kind: 'MultiClusterIngress' | 'MultiClusterService';
  namespace: string;
  name: string;
}

export interface Topology {
  object: TopologyObject;
  /** A Global Accelerator in front of the Regions' load balancers, when the object has one. */
  frontDoors: FrontDoor[];
  regions: RegionNode[];
  /** Clusters whose traffic is blocked (MCI `status.trafficBlockClusters`): no targets from them. */
  blockedClusters: string[];
  /** Set when the object builds no load balancer as it stands (an invalid spec): the reason. */
  error?: string;
}

export interface FrontDoor {
  id: string;
  kind: string;
  name: string;
  /** Where clients connect (the object's status with it in front): its DNS name, then its static IPs. */
  addresses: string[];
  /** Its listeners, `TCP:80`. */
  listeners: string[];
  /** `SOURCE_IP` or `NONE`. */
  clientAffinity?: string;
  pending?: Pending;
  /**
   * Each Region it sends to (by `RegionNode.region`): its traffic dial in percent (0: drained, or
   * a canary's), and whether the plan still changes its endpoint group.
   */
  regions: Array<{ region: string; weight: number; pending?: Pending }>;
}

export interface RegionNode {
  region: string;
  loadBalancers: LoadBalancerNode[];
}

/** What a change plan will do to a node: nothing, or create/modify/replace/delete it. */
export type Pending = 'create' | 'modify' | 'replace' | 'delete' | undefined;

export interface LoadBalancerNode {
  id: string;
  name: string;
  type: 'application' | 'network';
  scheme: 'internal' | 'internet-facing';
  /** The address clients use (the object's status), once it has one. */
  dnsName?: string;
  pending?: Pending;
  listeners: ListenerNode[];
  targetGroups: TargetGroupNode[];
}

export interface ListenerNode {
  id: string;
  protocol: string;
  port: number;
  certificates: string[];
  sslPolicy?: string;
  defaultAction: ActionNode;
  rules: RuleNode[];
  pending?: Pending;
}

export interface RuleNode {
  id: string;
  priority: number;
  /** `host`, `path`, or another ELBv2 condition field (`http-header Name`, `query-string`, ...). */
  conditions: Array<{ field: string; values: string[] }>;
  action: ActionNode;
  pending?: Pending;
}

export type ActionNode =
  | { type: 'forward'; targetGroups: Array<{ id: string; weight: number }> }
  | { type: 'redirect'; protocol: string; port: string; statusCode: string }
  | { type: 'fixed-response'; statusCode: string };

export interface TargetGroupNode {
  id: string;
  name: string;
  protocol: string;
  port: number;
  healthCheck: string;
  pending?: Pending;
  clusters: ClusterNode[];
}

export interface ClusterNode {
  name: string;
  /**
   * Share of the target group's traffic, in percent: its registered targets' share (IP targets
   * share traffic evenly), 0 when the group is drained.
   */
  weight: number;
  /**
   * Drained (per-cluster traffic at weight 0, blocked or asked): its targets stay registered until
   * the deregistration delay has passed, but take no new requests, as its ClusterDrained Event and
   * its rule's 0% say.
   */
  drained?: true;
  targets: TargetNode[];
  /** Endpoints of this cluster that are not ready (terminating or failing): not registered. */
  notReady: number;
}

export interface TargetNode {
  id: string;
  port: number;
  /** `registered`; `registering` or `draining` while the plan adds or removes it. */
  state: 'registered' | 'registering' | 'draining';
  outsideVpc: boolean;
}
