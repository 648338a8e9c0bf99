/**
 * Deterministic AWS names (ELBv2 allows at most 32 characters), with LBC's recipe
 * (pkg/ingress/model_build_load_balancer.go, model_build_target_group.go):
 * `k8s-<namespace:8>-<name:8>-<sha256 hex:10>`, non-alphanumerics stripped.
 *
 * Names are for uniqueness and readability only; ownership is decided by tags (tagging.ts). The hash
 * covers every input that forces a replacement (scheme, protocol, port...), so a replacement gets a
 * new name and never collides with the resource it replaces.
 */
import { createHash } from 'node:crypto';

export const MAX_NAME_LENGTH = 32;

function sanitize(s: string): string {
  return s.replace(/[^a-zA-Z0-9]/g, '');
}

/** `k8s-<ns:8>-<name:8>-<hash:10>`, where the hash covers `hashInputs` (in order). */
export function elbv2Name(namespace: string, name: string, hashInputs: readonly string[]): string {
  const hash = createHash('sha256');
  // A separator byte keeps ("ab","c") and ("a","bc") apart; LBC concatenates without one.
  for (const input of hashInputs) hash.update(input).update('\0');
  const digest = hash.digest('hex').slice(0, 10);
  return `k8s-${sanitize(namespace).slice(0, 8)}-${sanitize(name).slice(0, 8)}-${digest}`;
}

export interface LoadBalancerNameInput {
  ownerId: string;
  stackId: string;
  namespace: string;
  name: string;
  type: 'application' | 'network';
  scheme: 'internal' | 'internet-facing';
}

export function loadBalancerName(i: LoadBalancerNameInput): string {
  return elbv2Name(i.namespace, i.name, [i.ownerId, i.stackId, i.type, i.scheme]);
}

export interface TargetGroupNameInput {
  ownerId: string;
  stackId: string;
  serviceNamespace: string;
  serviceName: string;
  /** The backend's service port as written (number or name). */
  servicePort: string;
  port: number;
  protocol: string;
  /** ALB groups: HTTP1 (the default, left out of the hash so older names stay), HTTP2 or GRPC. */
  protocolVersion?: string | undefined;
  targetType: string;
  vpcId: string;
  /**
   * In a stack several objects share (an IngressGroup): the group's resource ID, which names the
   * member, so two members routing to one Service get two groups. Left out of one object's stack,
   * whose names stay as they were.
   */
  member?: string;
  /** ipv4 (the default, left out of the hash) or ipv6: the groups of two families never share a name. */
  ipAddressType?: string | undefined;
  /**
   * Per-cluster mode: the cluster (`cluster:<name>`) or weight class (`weight:<n>`) the group
   * serves. Absent in per-backend mode, whose names stay as they were.
   */
  slice?: string | undefined;
}

/**
 * Every immutable setting is hashed, so changing one gives the group a new name and the deploy
 * replaces it (a new group first, rules moved to it, the old one deleted last). The defaults
 * (HTTP1, ipv4) add nothing, so names from before those settings existed do not change.
 */
export function targetGroupName(i: TargetGroupNameInput): string {
  return elbv2Name(i.serviceNamespace, i.serviceName, [
    i.ownerId,
    i.stackId,
    i.servicePort,
    String(i.port),
    i.protocol,
    i.targetType,
    i.vpcId,
    ...(i.member !== undefined ? [i.member] : []),
    ...(i.protocolVersion !== undefined && i.protocolVersion !== 'HTTP1' ? [i.protocolVersion] : []),
    ...(i.ipAddressType !== undefined && i.ipAddressType !== 'ipv4' ? [`ip:${i.ipAddressType}`] : []),
    ...(i.slice !== undefined ? [`slice:${i.slice}`] : []),
  ]);
}

/**
 * The load balancer name inside an ELBv2 DNS name (`[internal-]<name>-<id>.<region>.elb.amazonaws.com`
 * for ALBs, `…-<id>.elb.<region>.amazonaws.com` for NLBs), or undefined. The status we write holds
 * this hostname, so it remembers the previous name when an explicit name annotation changes.
 */
export function loadBalancerNameFromHostname(hostname: string | undefined): string | undefined {
  const m =
    /^(?:internal-)?([a-z0-9-]+)-[0-9a-z]+\.(?:elb\.)?[a-z0-9-]+\.(?:elb\.)?amazonaws\.com(?:\.cn)?$/i.exec(
      hostname ?? '',
    );
  const name = m?.[1];
  return name !== undefined && name.length <= MAX_NAME_LENGTH ? name : undefined;
}
