/**
 * The tenant policy's shape (tenant-policy.ts checks it): types only, so the configuration's types
 * (config-types.ts) and the modules that pass a policy along name it without importing the checks,
 * which are a chunk of their own, loaded only when a policy is configured.
 */
import type { KubeObject } from '../../kube/types.js';

export interface KeyPatterns {
  allow?: string[];
  deny?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    values?: string[];
  }>;
}

export type PolicyKind = 'MultiClusterIngress' | 'MultiClusterService';

export type Scheme = 'internal' | 'internet-facing';

/** An OIDC identity provider tenants may name in auth-idp-oidc. */
export interface OidcProvider {
  /** The `issuer` (a pattern: `*` matches any run of characters). */
  issuer: string;
  /** Patterns every endpoint (authorization, token, user info) must match: where the ALB sends the client secret. */
  endpoints: string[];
}

export interface TenantRule {
  /** Named in every violation message. */
  name: string;
  /** The kinds of object it applies to; absent: both (then it may not name ingressClasses). */
  kinds?: PolicyKind[];
  /** MultiClusterIngresses of these IngressClasses (by name); MultiClusterServices (in `kinds`) all match. */
  ingressClasses?: string[];
  /** Objects in namespaces whose labels match; absent: every namespace. */
  namespaceSelector?: LabelSelector;
  schemes?: Scheme[];
  /** Subnet IDs or `*` patterns. */
  subnets?: string[];
  /** Security group IDs or `*` patterns; `managed` (or a pattern matching it, `*`) allows the managed group. */
  securityGroups?: string[];
  /** ARN patterns (`*` wildcards), each with the DNS names the certificate covers. */
  certificates?: { allowed: Array<{ arn: string; names?: string[] }>; matchHosts?: boolean };
  sslPolicies?: string[];
  attributes?: KeyPatterns;
  tags?: KeyPatterns;
  maxLoadBalancersPerNamespace?: number;
  /** IPv4/IPv6 CIDRs the managed security group's sources must lie within, and prefix list IDs it may name. */
  inboundCidrs?: string[];
  /** Elastic IP allocation IDs (or `*` patterns) NLBs and frontend NLBs may take. */
  eipAllocations?: string[];
  /** Whether an accelerator (public anycast addresses) may be put in front; absent: where internet-facing is allowed. */
  globalAccelerator?: boolean;
  /** ALBs must have a WAFv2 web ACL (wafv2-acl-arn or wafv2-acl-name). */
  requireWebAcl?: boolean;
  /** The OIDC identity providers auth-idp-oidc may name. */
  oidc?: OidcProvider[];
}

/** An IngressGroup whose load balancer MCIs of several namespaces may share (ingress-groups.ts). */
export interface SharedGroup {
  /** The group.name it applies to. */
  name: string;
  /** The namespaces whose MultiClusterIngresses may join it; any other is refused. */
  namespaces: string[];
}

export interface TenantPolicy {
  rules: TenantRule[];
  /** IngressGroups that span namespaces; every other group is confined to one namespace. */
  sharedGroups?: SharedGroup[];
}

/** The object a stack was built for, as the policy sees it. */
export interface PolicySubject {
  kind: PolicyKind;
  metadata: KubeObject['metadata'];
  /** MultiClusterIngress: spec.ingressClassName, or the default class it was served under. */
  ingressClassName?: string | undefined;
}

/** What the checks read from Karmada, only when a rule needs it. */
export interface PolicyReads {
  namespaceLabels(namespace: string): Promise<Record<string, string> | undefined>;
  /** The objects in the namespace that hold a load balancer of this provider, the subject included or not. */
  loadBalancerHolders(namespace: string): Promise<KubeObject[]>;
  /** The default IngressClass's name (for a MultiClusterIngress without ingressClassName). */
  defaultIngressClassName(): Promise<string | undefined>;
}
