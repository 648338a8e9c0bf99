/**
 * The desired-state model: a plain, JSON-serialisable stack of ELBv2 resources (LBC's
 * pkg/model/core + pkg/model/elbv2, without the runtime machinery). Resources refer to each other
 * by resource ID (`{ $ref: id }`), so a stack can be built, printed and compared before anything
 * exists in AWS; the deployer resolves references to ARNs as it creates resources.
 */
import type { AwsProviderConfig } from '../config-types.js';
import type { VpcSubnet } from '../vpc-network.js';
import type { CatalogCertificate, CertificateAllowList } from './certificates.js';
import type { AcceleratorIntent } from '../accelerator/types.js';

/** The ELBv2 quotas a stack must fit, per account and Region. */
export interface ElbQuotas {
  /** rules-per-application-load-balancer (default rules excluded). */
  rulesPerLoadBalancer: number;
  /** condition-values-per-alb-rule: every value of every condition (plain, regex, query pair). */
  conditionValuesPerRule: number;
  /** condition-wildcards-per-alb-rule: unescaped `*` and `?` in host, path, header and query values. */
  conditionWildcardsPerRule: number;
  /**
   * Match evaluations per rule: a fixed limit ELBv2 documents besides the adjustable condition
   * values (one evaluation per value), so a rule keeps to it whatever the account's quota says.
   */
  matchEvaluationsPerRule: number;
  /** target-groups-per-action-on-application-load-balancer (not adjustable). */
  targetGroupsPerAction: number;
  /** target-groups-per-application-load-balancer. */
  targetGroupsPerLoadBalancer: number;
  listenersPerApplicationLoadBalancer: number;
  listenersPerNetworkLoadBalancer: number;
  /** targets-per-application-load-balancer: registrations in every group the ALB routes to. */
  targetsPerApplicationLoadBalancer: number;
  targetsPerNetworkLoadBalancer: number;
  /**
   * IP targets per target group. Not among DescribeAccountLimits' answers: the documented value
   * (a Service Quotas request raises it, and then `targetsPerTargetGroup` stays the default).
   */
  targetsPerTargetGroup: number;
}

/**
 * The target groups' VPC as the model sees it: the provider resolves `cidrs` and `subnets`
 * (vpc-network.ts: EC2, or the configured override) before it builds. Without `cidrs` nothing is
 * known of the network and every address is taken as off the VPC (zone `all`).
 */
export interface ModelVpc {
  id: string;
  cidrs?: readonly string[];
  /** The VPC's IPv6 blocks, for IPv6 targets (absent: none known, every IPv6 target off the VPC). */
  ipv6Cidrs?: readonly string[];
  subnets?: readonly VpcSubnet[];
}

/** The configuration the model reads (a subset of the provider configuration). */
export type ModelConfig = Pick<
  AwsProviderConfig,
  'ownerId' | 'scheme' | 'subnets' | 'securityGroups' | 'defaultTags' | 'externalManagedTags' | 'healthCheck'
> & {
  /** The load balancers' Region: a web ACL ARN of another one is refused (absent: not checked). */
  region?: string;
  vpc: ModelVpc;
  /** The account's quotas in the Region, once read (DescribeAccountLimits); AWS's defaults when unset. */
  accountQuotas?: Readonly<ElbQuotas>;
  /**
   * The Region's issued ACM certificates, read when a stack's HTTPS listeners have no
   * certificate-arn (model/certificates.ts); absent: none read, and such a listener is refused.
   * `not-read`: a model for its target group names only (they do not depend on certificates).
   */
  certificates?: readonly CatalogCertificate[] | 'not-read';
  /** The tenant policy's allowed certificates for the object built: discovery keeps to them. */
  allowedCertificates?: CertificateAllowList;
  /** The tenant policy's allowed subnets for the object built (model/subnets.ts): discovery keeps to them. */
  allowedSubnets?: readonly string[];
};

/** Where a stack's load balancer lives: one Region's VPC, its subnets and security groups. */
export interface Placement {
  vpc: ModelConfig['vpc'];
  /** IDs or names; absent: discovered by tags (model/subnets.ts). */
  subnets?: readonly string[];
  /** The tenant policy's allowed subnets, which discovery keeps to. */
  allowedSubnets?: readonly string[];
  /** Absent: the load balancer type's default (see each builder). */
  securityGroups?: readonly string[];
  /** The account's quotas in this Region, if read; otherwise AWS's defaults apply. */
  accountQuotas?: Readonly<ElbQuotas>;
  /** The Region's issued ACM certificates, when read (certificate discovery); see ModelConfig. */
  certificates?: readonly CatalogCertificate[] | 'not-read';
  /** The tenant policy's allowed certificates, which certificate discovery keeps to. */
  allowedCertificates?: CertificateAllowList;
}

export const ResourceTypes = {
  LoadBalancer: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
  TargetGroup: 'AWS::ElasticLoadBalancingV2::TargetGroup',
  Listener: 'AWS::ElasticLoadBalancingV2::Listener',
  ListenerRule: 'AWS::ElasticLoadBalancingV2::ListenerRule',
} as const;

/** A reference to another resource of the same stack, by resource ID. */
export interface Ref {
  $ref: string;
}

export type Tags = Record<string, string>;

/** ELBv2's load balancer IP address types that this provider sets (ALBs: every one; NLBs: ipv4). */
export type LoadBalancerIpAddressType = 'ipv4' | 'dualstack' | 'dualstack-without-public-ipv4';

/**
 * The regional WAFv2 web ACL a load balancer is to have: by ARN, by name (resolved when deployed,
 * ListWebACLs), or none (whatever is associated is removed).
 */
export type WebAclSpec = { kind: 'arn'; arn: string } | { kind: 'name'; name: string } | { kind: 'none' };

/** An NLB subnet's static addresses (ELBv2 SubnetMapping); each is fixed once the subnet is in use. */
export interface SubnetMappingSpec {
  subnetId: string;
  /** An Elastic IP allocation (internet-facing NLBs). */
  allocationId?: string;
  /** A private IPv4 address from the subnet's range (internal NLBs). */
  privateIPv4Address?: string;
  /** An IPv6 address from the subnet's range (dualstack NLBs). */
  ipv6Address?: string;
}

export interface LoadBalancerSpec {
  name: string;
  type: 'application' | 'network';
  scheme: 'internal' | 'internet-facing';
  ipAddressType: LoadBalancerIpAddressType;
  subnets: string[];
  /** NLB only, present when a static address is asked for: one per subnet, in `subnets` order. */
  subnetMappings?: SubnetMappingSpec[];
  /** Absent: AWS picks (ALB: the VPC's default group); we then leave security groups alone. */
  securityGroups?: string[];
  /**
   * NLB with security groups: whether their inbound rules apply to PrivateLink traffic
   * (SetSecurityGroups EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic). Absent: left as is.
   */
  privateLinkInboundRules?: 'on' | 'off';
  /** Only the keys we set: attributes absent here are left as they are in AWS. */
  attributes?: Record<string, string>;
  /**
   * The reserved capacity (ModifyCapacityReservation), in capacity units; 0 resets it. Absent:
   * reset if we reserved some before (CAPACITY_TAG says so), else left alone.
   */
  minimumCapacityUnits?: number;
  /** ALBs only. Absent: left as it is, unless we associated one (WAF_TAG): then disassociated. */
  webAcl?: WebAclSpec;
  /**
   * Shield Advanced protection wanted or not. Absent: left as it is, unless we created one
   * (SHIELD_TAG): then deleted. Only a protection carrying our ownership tags is ever deleted.
   */
  shieldAdvanced?: boolean;
  tags: Tags;
}

export interface HealthCheckSpec {
  enabled: true;
  path?: string;
  port: string;
  protocol: 'HTTP' | 'HTTPS' | 'TCP';
  intervalSeconds: number;
  timeoutSeconds: number;
  healthyThresholdCount: number;
  unhealthyThresholdCount: number;
  /** gRPC target groups (protocol version GRPC) take gRPC status codes, the others HTTP codes. */
  matcher?: { httpCode: string } | { grpcCode: string };
}

export interface TargetSpec {
  /** An IPv4 address, or an IPv6 one in RFC 5952 form for an ipv6 target group (target type ip). */
  id: string;
  port: number;
  /**
   * `all` for addresses outside the target group's VPC (peered VPCs, other clusters' networks);
   * inside it, the zone of the address's subnet or else the endpoint's zone when it is one of the
   * VPC's (model/targets.ts); absent when neither is known (AWS detects it).
   */
  availabilityZone?: string;
  /**
   * An off-VPC target's own zone (its EndpointSlice endpoint's `zone`): what it is registered with
   * instead of `all` when AWS answers that an Availability Zone must be specified (deploy/apply.ts).
   */
  endpointZone?: string;
}

export interface TargetGroupSpec {
  name: string;
  /** `alb`: a frontend NLB's group, whose one target is the stack's ALB (`albTarget`). */
  targetType: 'ip' | 'alb';
  protocol: 'HTTP' | 'HTTPS' | 'TCP' | 'UDP' | 'TCP_UDP' | 'TLS';
  /** ALB target groups only (HTTP/HTTPS); immutable, like the protocol. */
  protocolVersion?: 'HTTP1' | 'HTTP2' | 'GRPC';
  port: number;
  /** Immutable: an ipv6 group takes only IPv6 targets and needs a dualstack load balancer. */
  ipAddressType: 'ipv4' | 'ipv6';
  vpcId: string;
  healthCheck: HealthCheckSpec;
  /** The registered targets: exactly these, sorted by address then port (none for `alb` groups). */
  targets: TargetSpec[];
  /**
   * Target type `alb` only: the ALB registered as the one target, on its listener's port. Kept
   * apart from `targets` (endpoints, recorded in Kubernetes): its ARN is known only once deployed.
   */
  albTarget?: { loadBalancer: Ref; port: number };
  /** Only the keys we set (target-group-attributes annotation). */
  attributes?: Record<string, string>;
  /**
   * Per-cluster mode (model/cluster-weights.ts): the member clusters whose endpoints this group
   * holds. Absent: every cluster's (one group per backend).
   */
  clusters?: string[];
  /**
   * Its clusters are drained (weight 0 in every forward): `targets` stay registered until the
   * deploy has held them at weight 0 for the deregistration delay, then none (deploy/drains.ts).
   */
  drain?: true;
  tags: Tags;
}

/** One target group of a weighted forward, with its share (0-999, relative to the others). */
export interface WeightedTargetGroup {
  targetGroup: Ref;
  weight: number;
}

/** Sends a client back to the same target group of a weighted forward for `durationSeconds`. */
export interface TargetGroupStickiness {
  enabled: boolean;
  durationSeconds?: number;
}

/** A redirect; an absent component keeps the request's (`#{protocol}`, `#{port}`, `#{host}`, `/#{path}`, `#{query}`). */
export interface RedirectSpec {
  protocol?: string;
  port?: string;
  host?: string;
  path?: string;
  query?: string;
  statusCode: 'HTTP_301' | 'HTTP_302';
}

export type Action =
  | { type: 'forward'; targetGroup: Ref }
  | {
      type: 'forward';
      /** A forward across several target groups (or one, with a weight or stickiness). */
      targetGroups: WeightedTargetGroup[];
      stickiness?: TargetGroupStickiness;
    }
  | {
      type: 'fixed-response';
      fixedResponse: { statusCode: string; contentType?: string; messageBody?: string };
    }
  | { type: 'redirect'; redirect: RedirectSpec }
  | AuthenticationAction;

/** What ELBv2 does with a request that has no valid session (API_AuthenticateOidcActionConfig). */
export type OnUnauthenticatedRequest = 'authenticate' | 'allow' | 'deny';

/** The session settings OIDC and Cognito share, with LBC's (and ELBv2's) defaults filled in. */
export interface AuthenticationSession {
  onUnauthenticatedRequest: OnUnauthenticatedRequest;
  scope: string;
  sessionCookieName: string;
  sessionTimeout: number;
  /** Query parameters for the IdP's authorization endpoint (at most 10). */
  extraParams?: Record<string, string>;
}

/**
 * The OIDC client secret as the model sees it: which Secret holds it and which version of that
 * Secret was read. Never the secret itself: the stack is logged, fingerprinted and printed by the
 * plan, and the value is put into the request only when it is sent (deploy/apply.ts).
 */
export interface ClientSecretRef {
  /** `<namespace>/<name>` of the Kubernetes Secret. */
  secret: string;
  /** Changes whenever the Secret does (a rotated secret changes the stack and its fingerprint). */
  version: string;
}

export interface AuthenticateOidcSpec extends AuthenticationSession {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string;
  clientId: string;
  clientSecret: ClientSecretRef;
}

export interface AuthenticateCognitoSpec extends AuthenticationSession {
  userPoolArn: string;
  userPoolClientId: string;
  userPoolDomain: string;
}

export interface JwtValidationSpec {
  jwksEndpoint: string;
  issuer: string;
  additionalClaims?: Array<{
    name: string;
    format: 'single-string' | 'string-array' | 'space-separated-values';
    values: string[];
  }>;
}

/** An action in front of the terminal one (HTTPS listeners only). */
export type AuthenticationAction =
  | { type: 'authenticate-oidc'; oidc: AuthenticateOidcSpec }
  | { type: 'authenticate-cognito'; cognito: AuthenticateCognitoSpec }
  | { type: 'jwt-validation'; jwt: JwtValidationSpec };

/**
 * A rule condition, as ELBv2 names its fields. `regex`: the values are regular expressions
 * (ELBv2's `RegexValues`), else wildcard patterns (`Values`).
 */
export type RuleCondition =
  | { field: 'host-header' | 'path-pattern'; values: string[]; regex?: true }
  | { field: 'http-header'; httpHeaderName: string; values: string[]; regex?: true }
  | { field: 'http-request-method' | 'source-ip'; values: string[] }
  | { field: 'query-string'; values: QueryStringPair[] };

export interface QueryStringPair {
  key?: string;
  value: string;
}

/** A rule transform (ELBv2 `RuleTransform`): rewrites the host header or the URL before forwarding. */
export interface RuleTransform {
  type: 'host-header-rewrite' | 'url-rewrite';
  rewrites: Array<{ regex: string; replace: string }>;
}

/** Mutual TLS of an HTTPS listener; absent on an HTTPS listener means `off`. */
export type MutualAuthenticationSpec =
  | { mode: 'off' | 'passthrough' }
  | {
      mode: 'verify';
      /** A trust store ARN, or a name the deploy resolves (DescribeTrustStores). */
      trustStore: string;
      ignoreClientCertificateExpiry: boolean;
      advertiseTrustStoreCaNames: 'on' | 'off';
    };

export interface ListenerSpec {
  loadBalancer: Ref;
  port: number;
  protocol: 'HTTP' | 'HTTPS' | 'TCP' | 'UDP' | 'TCP_UDP' | 'TLS';
  defaultActions: Action[];
  /** HTTPS/TLS: the first is the default certificate, the rest are added as extra certificates. */
  certificates?: string[];
  sslPolicy?: string;
  /** Only the keys we set: attributes absent here are left as they are in AWS. */
  attributes?: Record<string, string>;
  /** HTTPS only (mutual-authentication). */
  mutualAuthentication?: MutualAuthenticationSpec;
  /** TLS (NLB) only: the ALPN policy; absent means ELBv2's `None`. */
  alpnPolicy?: string;
  tags: Tags;
}

export interface ListenerRuleSpec {
  listener: Ref;
  priority: number;
  conditions: RuleCondition[];
  actions: Action[];
  /** Absent or empty: none. */
  transforms?: RuleTransform[];
  tags: Tags;
}

export interface LoadBalancerResource {
  id: string;
  type: typeof ResourceTypes.LoadBalancer;
  spec: LoadBalancerSpec;
}

/** Every stack has one load balancer, under this resource id. */
export const LOAD_BALANCER_ID = 'LoadBalancer';
/**
 * An ALB stack may have a second one in front of it, under this id: LBC's frontend NLB
 * (enable-frontend-nlb, model/frontend-nlb.ts), whose target groups forward to the ALB.
 */
export const FRONTEND_NLB_ID = 'FrontendNlb';

/** A load balancer of the stack (the stack's own by default); security groups and attributes appear only when there are some. */
export function loadBalancerResource(
  spec: {
    name: string;
    type: LoadBalancerSpec['type'];
    scheme: LoadBalancerSpec['scheme'];
    /** Absent: ipv4. */
    ipAddressType?: LoadBalancerIpAddressType | undefined;
    subnets: readonly string[];
    subnetMappings?: readonly SubnetMappingSpec[] | undefined;
    securityGroups?: readonly string[] | undefined;
    privateLinkInboundRules?: 'on' | 'off' | undefined;
    attributes?: Record<string, string> | undefined;
    minimumCapacityUnits?: number | undefined;
    webAcl?: WebAclSpec | undefined;
    shieldAdvanced?: boolean | undefined;
    tags: Tags;
  },
  id: string = LOAD_BALANCER_ID,
): LoadBalancerResource {
  return {
    id,
    type: ResourceTypes.LoadBalancer,
    spec: {
      name: spec.name,
      type: spec.type,
      scheme: spec.scheme,
      ipAddressType: spec.ipAddressType ?? 'ipv4',
      subnets: [...spec.subnets],
      ...(spec.subnetMappings ? { subnetMappings: spec.subnetMappings.map((m) => ({ ...m })) } : {}),
      ...(spec.securityGroups ? { securityGroups: [...spec.securityGroups] } : {}),
      ...(spec.privateLinkInboundRules ? { privateLinkInboundRules: spec.privateLinkInboundRules } : {}),
      ...(spec.attributes ? { attributes: spec.attributes } : {}),
      ...(spec.minimumCapacityUnits !== undefined ? { minimumCapacityUnits: spec.minimumCapacityUnits } : {}),
      ...(spec.webAcl ? { webAcl: spec.webAcl } : {}),
      ...(spec.shieldAdvanced !== undefined ? { shieldAdvanced: spec.shieldAdvanced } : {}),
      tags: spec.tags,
    },
  };
}
export interface TargetGroupResource {
  id: string;
  type: typeof ResourceTypes.TargetGroup;
  spec: TargetGroupSpec;
}
export interface ListenerResource {
  id: string;
  type: typeof ResourceTypes.Listener;
  spec: ListenerSpec;
}
export interface ListenerRuleResource {
  id: string;
  type: typeof ResourceTypes.ListenerRule;
  spec: ListenerRuleSpec;
}

export type StackResource =
  LoadBalancerResource | TargetGroupResource | ListenerResource | ListenerRuleResource;

/**
 * Something in the objects the stack cannot honour but that does not stop it from being served
 * (an annotation this provider does not support): reported as a Warning Event, never dropped.
 */
export interface ModelWarning {
  /** The Event's reason (lib/reconcile/next-steps.ts has the operator's next step for it). */
  reason: string;
  message: string;
  /**
   * The member the warning is about (an object of a stack with several reports only its own);
   * absent: the stack as a whole, reported by whichever member is reconciled.
   */
  object?: { namespace: string; name: string };
  /**
   * An UnsupportedAnnotation warning's keys, whose reasons are worded when it is reported
   * (annotations/unknown-keys.ts `wordWarnings`, which loads LBC's key table only then).
   */
  ignored?: { family: 'ingress' | 'service'; keys: string[] };
}

/** A source of the managed security group's inbound rules. */
export type SecurityGroupSource = { cidrIpv4: string } | { cidrIpv6: string } | { prefixListId: string };

/**
 * One inbound rule: a port from one source (EC2 keeps one rule per source). ICMP rules carry the
 * ICMP type in `port` and the code in `toPort`, as EC2 keeps them (FromPort, ToPort).
 */
export interface SecurityGroupRuleSpec {
  protocol: 'tcp' | 'udp' | 'icmp' | 'icmpv6';
  port: number;
  /** Absent: `port` (a single port). */
  toPort?: number;
  source: SecurityGroupSource;
}

/** The load balancer's managed frontend security group (model/security-group.ts), an EC2 resource. */
export interface ManagedSecurityGroupSpec {
  /** Unique in the VPC, stable for the stack (LBC's `k8s-<ns>-<name>-<hash>`). */
  name: string;
  description: string;
  vpcId: string;
  ingress: SecurityGroupRuleSpec[];
  tags: Tags;
}

export interface Stack {
  /** The stack tag's value, e.g. `mci/default/demo`. */
  id: string;
  ownerId: string;
  resources: StackResource[];
  /**
   * The managed security group, when the load balancer names no group of its own: its spec
   * names it `{{sg:ManagedLBSecurityGroup}}` until the deploy knows its ID.
   */
  securityGroup?: ManagedSecurityGroupSpec;
  /** Not part of the desired state (nor of its fingerprint): what the reconcile must report. */
  warnings?: ModelWarning[];
  /**
   * Global Accelerator (accelerator/): what the object asks of it, attached by the provider after
   * the model is built when the accelerator path must run; outside the stack's fingerprint (the
   * accelerator has its own record).
   */
  accelerator?: AcceleratorIntent;
  /**
   * The OIDC client secrets the stack's authenticate actions name (ClientSecretRef), by the
   * namespace and name of their Secret: attached by the provider after the model is built, read
   * only when a call is sent; not part of the desired state, and never printed (oidc-secrets.ts).
   */
  clientSecrets?: { get(namespace: string, name: string): string | undefined };
  /**
   * Not part of the fingerprint either: each per-cluster backend's effective weights
   * (`web:80 member1=95 member2=5`), for the load-balancer condition's message.
   */
  traffic?: string[];
  /**
   * Set by the deploy (deploy/drains.ts), not the model: when each drained group's weight went to
   * 0 (ms since the epoch), by group name. Recorded with the targets, outside the fingerprint.
   */
  drains?: Record<string, number>;
}

type ResourceOfType<T extends StackResource['type']> = Extract<StackResource, { type: T }>;

/** The stack's resources of one type, in stack order. */
export function resourcesOf<T extends StackResource['type']>(
  stack: Stack,
  type: T,
): Array<ResourceOfType<T>> {
  return stack.resources.filter((r): r is ResourceOfType<T> => r.type === type);
}

export function ref(id: string): Ref {
  return { $ref: id };
}
