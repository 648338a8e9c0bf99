/**
 * Every annotation key that AWS Load Balancer Controller (LBC) documents, for an Ingress
 * (docs/guide/ingress/annotations.md) and for a Service (docs/guide/service/annotations.md), and
 * what it means here. The README's key tables are generated from these lists
 * (scripts/gen-readme-keys.ts), and a MultiClusterIngress or MultiClusterService that carries a key
 * not marked `supported` gets a Warning Event naming it (unknown-keys.ts): no key is ignored
 * silently. test/unit/lbc-keys.test.ts checks that the keys marked `supported` are exactly the ones
 * the model reads (ALB_KEYS, NLB_KEYS and the templated families).
 */

/** How a key is spelled after `alb.ingress.kubernetes.io/`; `${…}` marks a user-chosen part. */
export type LbcKeyName = string;

export type KeySupport =
  /** Read with LBC's meaning; `differs` says where this provider's behaviour is not LBC's. */
  | { status: 'supported'; differs?: string }
  /** Has no meaning for a load balancer fronting several clusters' pod IPs; `why` says why. */
  | { status: 'not-applicable'; why: string }
  /** Has a meaning here but is not built yet; `why` says what to use meanwhile or where it is planned. */
  | { status: 'unsupported'; why: string };

export interface LbcKey {
  key: LbcKeyName;
  /** LBC's value type, as its table gives it. */
  type: string;
  support: KeySupport;
}

export const ALB_PREFIX = 'alb.ingress.kubernetes.io/';

const AS_LBC: KeySupport = { status: 'supported' };
const CREATED_CERTIFICATES: KeySupport = {
  status: 'unsupported',
  why: 'certificates are not requested from ACM: a public one needs DNS validation records in Route 53 (no client or simulator here yet) and can take up to 30 minutes to issue; give `certificate-arn`, or let discovery find an issued certificate for the hosts',
};
/** The frontend NLB's keys (model/frontend-nlb.ts): each is the IngressGroup's, as LBC's Exclusive ones. */
const FRONTEND_NLB: KeySupport = { status: 'supported' };
const FRONTEND_NLB_DIFFERS = (differs: string): KeySupport => ({ status: 'supported', differs });
const FRONTEND_HEALTH_CHECK = FRONTEND_NLB_DIFFERS(
  'one value per IngressGroup (members must agree), where LBC merges it per NLB port; TCP is refused (ELBv2 checks an ALB target over HTTP or HTTPS only)',
);

export const LBC_INGRESS_KEYS: readonly LbcKey[] = [
  {
    key: 'load-balancer-name',
    type: 'string',
    support: {
      status: 'supported',
      differs: 'a change replaces the load balancer (announced; its DNS name changes) where LBC refuses it',
    },
  },
  {
    key: 'group.name',
    type: 'string',
    support: {
      status: 'supported',
      differs:
        "a group is confined to its namespace unless the tenant policy's sharedGroups shares it; a member whose settings conflict, whose route overlaps another namespace's, or that would make the group's load balancer break another member's tenant policy is left out with a Warning where LBC fails the whole group (or serves it)",
    },
  },
  {
    key: 'group.order',
    type: 'integer',
    support: {
      status: 'supported',
      differs:
        "orders members that join together and consecutive members of one namespace, as LBC; a member never goes ahead of a member already served when it joined, nor of another namespace's member that joined before it",
    },
  },
  {
    key: 'tags',
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        "on the MultiClusterIngress only; `multicluster.karmada.io/*` and `aws:*` are reserved; the configuration's `defaultTags` apply first",
    },
  },
  {
    key: 'ip-address-type',
    type: 'ipv4 | dualstack | dualstack-without-public-ipv4',
    support: {
      status: 'supported',
      differs:
        "as in LBC, a Service with the IPv6 family gets an ipv6 target group of its IPv6 EndpointSlices; IPv6 targets outside the VPC's IPv6 blocks (from EC2, or the configuration's `vpc.ipv6Cidrs`) are registered with zone `all`",
    },
  },
  {
    key: 'scheme',
    type: 'internal | internet-facing',
    support: {
      status: 'supported',
      differs: "the default is the configuration's `scheme`; a change replaces the load balancer (announced)",
    },
  },
  {
    key: 'subnets',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "IDs or names (Name tag), as in LBC; without it the configuration's `subnets`, else discovery by LBC's role tags (one per zone, the lowest ID, at least 8 free addresses, IPv6 for dualstack, within the tenant policy's allowed subnets) without LBC's cluster tag check: the VPC's clusters are this provider's members",
    },
  },
  {
    key: 'security-groups',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "security group IDs only; without it the configuration's `securityGroups`, else a managed frontend group of the ALB's own (LBC's), owner-tagged, opening the listen ports to `inbound-cidrs` and `security-group-prefix-lists`",
    },
  },
  {
    key: 'manage-backend-security-group-rules',
    type: 'boolean',
    support: {
      status: 'not-applicable',
      why: "LBC adds rules to the targets' security groups (node or pod ENIs); here the targets are pods of the member clusters, often in other VPCs or accounts, whose groups this provider neither knows nor owns, and it changes nothing it does not own: allow the ALB's group (or the configuration's) in the targets' groups",
    },
  },
  {
    key: 'customer-owned-ipv4-pool',
    type: 'string',
    support: {
      status: 'not-applicable',
      why: "it addresses an ALB in an Outpost's subnets; this provider places the ALB in the Region's subnets, in front of clusters in several networks, and has no Outpost placement",
    },
  },
  {
    key: 'load-balancer-attributes',
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        'keys and values are checked before any call (LBC leaves that to AWS); an enabled log needs its bucket in the same annotation',
    },
  },
  {
    key: 'wafv2-acl-arn',
    type: 'string',
    support: {
      status: 'supported',
      differs:
        'a web ACL of another Region is refused before any call; removing the annotation disassociates the web ACL if we associated it (LBC leaves it), and `none` disassociates whatever is there, as in LBC; checked and repaired on every resync',
    },
  },
  {
    key: 'wafv2-acl-name',
    type: 'string',
    support: {
      status: 'supported',
      differs:
        'refused beside `wafv2-acl-arn` (LBC lets the ARN win); a name the Region has no web ACL for is an error naming the key before any change; names are listed once per container for 5 minutes',
    },
  },
  {
    key: 'waf-acl-id',
    type: 'string',
    support: {
      status: 'not-applicable',
      why: 'WAF Classic has reached its end of life; use `wafv2-acl-arn` with a WAFv2 web ACL',
    },
  },
  {
    key: 'shield-advanced-protection',
    type: 'boolean',
    support: {
      status: 'supported',
      differs:
        'the protection carries our ownership tags, and only ours is ever deleted (`false` leaves a protection someone else made); removing the annotation deletes ours; a missing subscription is an error naming the key before any change; deleting the object deletes its protection',
    },
  },
  {
    key: 'listen-ports',
    type: 'json',
    support: {
      status: 'supported',
      differs: "every listener carries all of the MultiClusterIngress's rules, as in LBC",
    },
  },
  { key: 'ssl-redirect', type: 'integer', support: AS_LBC },
  {
    key: 'inbound-cidrs',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "the managed security group's sources (IPv6 ones on a dualstack ALB only, as in LBC); ignored, with a Warning Event, when `security-groups` or the configuration names the groups; a CIDR is checked before any call",
    },
  },
  {
    key: 'security-group-prefix-lists',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "the managed security group's sources, as in LBC; ignored, with a Warning Event, beside named groups",
    },
  },
  {
    key: 'certificate-arn',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        'without it, HTTPS listen-ports get the issued ACM certificates covering the rule hosts and spec.tls hosts (LBC’s discovery and wildcard rule); HTTPS:443 is the default listener when it is given and HTTP:80 otherwise, as in LBC (spec.tls alone keeps HTTP:80: LBC’s discovery needs HTTPS in listen-ports); the default moving between the two is made before broken; a host no certificate covers is an error naming this key before any change',
    },
  },
  { key: 'ssl-policy', type: 'string', support: AS_LBC },
  {
    key: 'create-acm-cert',
    type: 'boolean',
    support: CREATED_CERTIFICATES,
  },
  { key: 'acm-pca-arn', type: 'string', support: CREATED_CERTIFICATES },
  {
    key: 'target-type',
    type: 'instance | ip',
    support: {
      status: 'supported',
      differs:
        '`ip` only: targets are pod IPs in the member clusters; `instance` gets a Warning Event (UnsupportedTargetType) and `ip` is used',
    },
  },
  {
    key: 'backend-protocol',
    type: 'HTTP | HTTPS',
    support: AS_LBC,
  },
  {
    key: 'backend-protocol-version',
    type: 'HTTP1 | HTTP2 | GRPC',
    support: AS_LBC,
  },
  {
    key: 'target-group-attributes',
    type: 'stringMap',
    support: {
      status: 'supported',
      differs: 'keys and values are checked before any call (LBC leaves that to AWS)',
    },
  },
  { key: 'healthcheck-port', type: 'integer | traffic-port', support: AS_LBC },
  { key: 'healthcheck-protocol', type: 'HTTP | HTTPS', support: AS_LBC },
  {
    key: 'healthcheck-path',
    type: 'string',
    support: { status: 'supported', differs: "the default is the configuration's `healthCheck.path` (`/`)" },
  },
  { key: 'healthcheck-interval-seconds', type: 'integer', support: AS_LBC },
  { key: 'healthcheck-timeout-seconds', type: 'integer', support: AS_LBC },
  { key: 'healthy-threshold-count', type: 'integer', support: AS_LBC },
  { key: 'unhealthy-threshold-count', type: 'integer', support: AS_LBC },
  { key: 'success-codes', type: 'string', support: AS_LBC },
  {
    key: 'auth-type',
    type: 'none | oidc | cognito',
    support: {
      status: 'supported',
      differs:
        'on the MCI or a backend Service (whose keys win, as in LBC); a route served on an HTTP listener (no ssl-redirect) is refused, where LBC serves it unauthenticated',
    },
  },
  { key: 'auth-idp-cognito', type: 'json', support: AS_LBC },
  {
    key: 'auth-idp-oidc',
    type: 'json',
    support: {
      status: 'supported',
      differs:
        "the Secret (`clientID` or `clientId`, and `clientSecret`) is read by name in the MCI's namespace, which needs the opt-in Role of infra/functions-rbac/oidc-secrets there; a missing Secret or key is an error naming this key; unknown JSON fields are refused",
    },
  },
  { key: 'auth-on-unauthenticated-request', type: 'authenticate | allow | deny', support: AS_LBC },
  { key: 'auth-scope', type: 'string', support: AS_LBC },
  { key: 'auth-session-cookie', type: 'string', support: AS_LBC },
  { key: 'auth-session-timeout', type: 'integer', support: AS_LBC },
  {
    key: 'jwt-validation',
    type: 'json',
    support: {
      status: 'supported',
      differs: 'on the MCI only (as LBC); refused together with auth-type oidc or cognito on the same route',
    },
  },
  {
    key: 'actions.${action-name}',
    type: 'json',
    support: {
      status: 'supported',
      differs:
        'forwards name Services only: `targetGroupARN`/`targetGroupName` (a target group outside the provider) are refused; a backend using `use-annotation` without its action is an error where LBC serves a 503; unknown JSON fields are refused; an action no backend uses gets a Warning Event',
    },
  },
  {
    key: 'transforms.${transforms-name}',
    type: 'json',
    support: {
      status: 'supported',
      differs:
        'one rewrite per transform and one transform of each type, as ELBv2 takes them, checked before any call; one no path uses gets a Warning Event',
    },
  },
  {
    key: 'conditions.${conditions-name}',
    type: 'json',
    support: {
      status: 'supported',
      differs:
        'limits (5 values, 5 wildcards, 5 match evaluations per rule) and value syntax are checked before any call; unknown JSON fields are refused; one no path uses gets a Warning Event',
    },
  },
  { key: 'use-regex-path-match', type: 'boolean', support: AS_LBC },
  {
    key: 'target-node-labels',
    type: 'stringMap',
    support: {
      status: 'not-applicable',
      why: "it selects nodes for instance targets; targets here are pod IPs from the member clusters' EndpointSlices",
    },
  },
  {
    key: 'mutual-authentication',
    type: 'json',
    support: {
      status: 'supported',
      differs:
        'a port that is not an HTTPS listen-port, an unknown field or a missing trust store name is refused (LBC ignores the first two); a listener the annotation no longer names goes back to `off` (LBC needs an explicit `off`); at most 2 trust stores per ALB',
    },
  },
  {
    key: 'multi-cluster-target-group',
    type: 'boolean',
    support: {
      status: 'not-applicable',
      why: "every target group here already carries the targets of all member clusters, and keeps the per-stack record of them that LBC's multi-cluster mode keeps",
    },
  },
  {
    key: 'listener-attributes.${Protocol}-${Port}',
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        'keys and values are checked against the ALB listener attributes before any call, and a key for a listener listen-ports does not have is refused (LBC ignores it)',
    },
  },
  {
    key: 'minimum-load-balancer-capacity',
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        'removing the annotation resets a reservation the provider made (LBC leaves it until `CapacityUnits=0`); a pending change or the daily decrease limit is retried later',
    },
  },
  {
    key: 'ipam-ipv4-pool-id',
    type: 'string',
    support: {
      status: 'not-applicable',
      why: "left out: the ALB takes AWS-assigned addresses, and a static, owned address plan for a MultiClusterIngress is Global Accelerator's job here: `multicluster.karmada.io/global-accelerator` gives an object two static IPs that outlive its load balancers",
    },
  },
  {
    key: 'enable-frontend-nlb',
    type: 'boolean',
    support: FRONTEND_NLB_DIFFERS(
      "the status lists the ALB's hostname, then the NLB's, as LBC, without `ports` (as every status here); a bad frontend-nlb-* value fails the MultiClusterIngress before any call, and `false` deletes only the NLB, its listeners and its target groups",
    ),
  },
  { key: 'frontend-nlb-scheme', type: 'internal | internet-facing', support: FRONTEND_NLB },
  {
    key: 'frontend-nlb-subnets',
    type: 'stringList',
    support: FRONTEND_NLB_DIFFERS(
      "absent: the configuration's `subnets`, else discovered for the NLB's scheme (LBC: discovered)",
    ),
  },
  {
    key: 'frontend-nlb-security-groups',
    type: 'stringList',
    support: FRONTEND_NLB_DIFFERS(
      "IDs only (names are not resolved, as for `security-groups`); absent: the ALB's, as LBC",
    ),
  },
  {
    key: 'frontend-nlb-listener-port-mapping',
    type: 'stringMap',
    support: FRONTEND_NLB_DIFFERS(
      "a mapping to a port the ALB does not listen on is refused (LBC skips it with a log line); one mapping per IngressGroup, where LBC merges the members'",
    ),
  },
  { key: 'frontend-nlb-healthcheck-port', type: 'integer | traffic-port', support: FRONTEND_HEALTH_CHECK },
  { key: 'frontend-nlb-healthcheck-protocol', type: 'HTTP | HTTPS', support: FRONTEND_HEALTH_CHECK },
  { key: 'frontend-nlb-healthcheck-path', type: 'string', support: FRONTEND_HEALTH_CHECK },
  { key: 'frontend-nlb-healthcheck-interval-seconds', type: 'integer', support: FRONTEND_HEALTH_CHECK },
  {
    key: 'frontend-nlb-healthcheck-timeout-seconds',
    type: 'integer',
    support: FRONTEND_NLB_DIFFERS(
      'one value per IngressGroup (LBC merges it per NLB port); a timeout above the interval is refused before any call',
    ),
  },
  {
    key: 'frontend-nlb-healthcheck-healthy-threshold-count',
    type: 'integer',
    support: FRONTEND_HEALTH_CHECK,
  },
  {
    key: 'frontend-nlb-healthcheck-unhealthy-threshold-count',
    type: 'integer',
    support: FRONTEND_HEALTH_CHECK,
  },
  { key: 'frontend-nlb-healthcheck-success-codes', type: 'string', support: FRONTEND_HEALTH_CHECK },
  {
    key: 'frontend-nlb-tags',
    type: 'stringMap',
    support: FRONTEND_NLB_DIFFERS(
      "absent: the ALB's tags, as LBC; the configuration's `defaultTags` apply first, and the ownership tags always",
    ),
  },
  {
    key: 'frontend-nlb-eip-allocations',
    type: 'stringList',
    support: FRONTEND_NLB_DIFFERS(
      'one per subnet and internet-facing only, refused before any call otherwise (LBC fails at build too); a changed allocation of a subnet replaces the NLB (announced)',
    ),
  },
  {
    key: 'frontend-nlb-attributes',
    type: 'stringMap',
    support: FRONTEND_NLB_DIFFERS("every key and value checked as an NLB's `attributes` before any call"),
  },
  {
    key: 'target-control-port.${serviceName}.${servicePort}',
    type: 'integer',
    support: {
      status: 'unsupported',
      why: 'not passed on yet: target groups are created without a target control port (the ALB target optimizer is off), and a port once set cannot be modified, which needs the replace-and-re-point path',
    },
  },
];

export const SERVICE_PREFIX = 'service.beta.kubernetes.io/';

const IPV6_SOURCE_NAT: KeySupport = {
  status: 'unsupported',
  why: "not read: a dualstack NLB is created without IPv6 source NAT prefixes (AWS's default), so its UDP listeners keep to IPv4 targets",
};
const DEPRECATED_ATTRIBUTE: KeySupport = {
  status: 'unsupported',
  why: 'deprecated by LBC in favour of `aws-load-balancer-attributes`, which is supported: use that',
};
const AWS_LB = 'aws-load-balancer-';
const STATIC_ADDRESSES: KeySupport = {
  status: 'supported',
  differs:
    'one per subnet, the nth to the nth subnet as listed; a different address for a subnet the NLB has replaces it (announced); removing the key keeps the addresses until then',
};

/** LBC's Service keys, spelled after `service.beta.kubernetes.io/` (most start `aws-load-balancer-`). */
export const LBC_SERVICE_KEYS: readonly LbcKey[] = [
  {
    key: 'load-balancer-source-ranges',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "the managed security group's sources, as in LBC (an IPv6 range needs a dualstack NLB); the annotation only: the namesake Service's spec.loadBalancerSourceRanges is not read; ignored, with a Warning Event, beside named groups or `disable-nlb-sg`; an NLB of ours created without security groups keeps none, and the ranges are then not enforced (a Warning Event says so)",
    },
  },
  {
    key: `${AWS_LB}security-group-prefix-lists`,
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "the managed security group's sources, as in LBC; ignored, with a Warning Event, beside named groups or `disable-nlb-sg`",
    },
  },
  {
    key: `${AWS_LB}type`,
    type: 'string',
    support: {
      status: 'not-applicable',
      why: "it picks the controller that provisions a Service's load balancer; a MultiClusterService of type LoadBalancer always gets an NLB from this provider",
    },
  },
  {
    key: `${AWS_LB}nlb-target-type`,
    type: 'instance | ip',
    support: { status: 'unsupported', why: 'not read: targets are always pod IPs (target type ip)' },
  },
  {
    key: `${AWS_LB}name`,
    type: 'string',
    support: {
      status: 'supported',
      differs: 'a change replaces the load balancer (announced; its DNS name changes)',
    },
  },
  {
    key: `${AWS_LB}internal`,
    type: 'boolean',
    support: {
      status: 'unsupported',
      why: 'deprecated by LBC in favour of `aws-load-balancer-scheme`, which is supported: use that',
    },
  },
  {
    key: `${AWS_LB}scheme`,
    type: 'internal | internet-facing',
    support: {
      status: 'supported',
      differs: "the default is the configuration's `scheme`; a change replaces the load balancer (announced)",
    },
  },
  {
    key: `${AWS_LB}proxy-protocol`,
    type: 'string',
    support: {
      status: 'supported',
      differs:
        '`proxy_protocol_v2.enabled` is stated on every target group (false unless asked for), so removing the key turns it off',
    },
  },
  { key: `${AWS_LB}proxy-protocol-per-target-group`, type: 'string', support: AS_LBC },
  {
    key: `${AWS_LB}ip-address-type`,
    type: 'ipv4 | dualstack',
    support: {
      status: 'supported',
      differs:
        'a Service with the IPv6 family (`spec.ipFamilies`) gets ipv6 target groups and needs `dualstack`; the default is ipv4',
    },
  },
  { key: `${AWS_LB}access-log-enabled`, type: 'boolean', support: DEPRECATED_ATTRIBUTE },
  { key: `${AWS_LB}access-log-s3-bucket-name`, type: 'string', support: DEPRECATED_ATTRIBUTE },
  { key: `${AWS_LB}access-log-s3-bucket-prefix`, type: 'string', support: DEPRECATED_ATTRIBUTE },
  { key: `${AWS_LB}cross-zone-load-balancing-enabled`, type: 'boolean', support: DEPRECATED_ATTRIBUTE },
  { key: `${AWS_LB}ssl-cert`, type: 'stringList', support: AS_LBC },
  {
    key: `${AWS_LB}ssl-ports`,
    type: 'stringList',
    support: { status: 'supported', differs: 'every port is TLS once `ssl-cert` is set and this is absent' },
  },
  { key: `${AWS_LB}ssl-negotiation-policy`, type: 'string', support: AS_LBC },
  {
    key: `${AWS_LB}backend-protocol`,
    type: 'ssl | tcp',
    support: {
      status: 'supported',
      differs:
        '`ssl` makes TLS target groups behind TLS listeners only; a change replaces those target groups (announced)',
    },
  },
  {
    key: `${AWS_LB}additional-resource-tags`,
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        "`multicluster.karmada.io/*` and `aws:*` are reserved; the configuration's `defaultTags` apply first",
    },
  },
  { key: `${AWS_LB}healthcheck-protocol`, type: 'TCP | HTTP | HTTPS', support: AS_LBC },
  {
    key: `${AWS_LB}healthcheck-port`,
    type: 'integer | traffic-port | named-service-port',
    support: {
      status: 'supported',
      differs: 'a port number or `traffic-port`: a Service port name is refused',
    },
  },
  { key: `${AWS_LB}healthcheck-path`, type: 'string', support: AS_LBC },
  { key: `${AWS_LB}healthcheck-healthy-threshold`, type: 'integer', support: AS_LBC },
  { key: `${AWS_LB}healthcheck-unhealthy-threshold`, type: 'integer', support: AS_LBC },
  { key: `${AWS_LB}healthcheck-timeout`, type: 'integer', support: AS_LBC },
  { key: `${AWS_LB}healthcheck-interval`, type: 'integer', support: AS_LBC },
  { key: `${AWS_LB}healthcheck-success-codes`, type: 'string', support: AS_LBC },
  { key: `${AWS_LB}eip-allocations`, type: 'stringList', support: STATIC_ADDRESSES },
  { key: `${AWS_LB}private-ipv4-addresses`, type: 'stringList', support: STATIC_ADDRESSES },
  { key: `${AWS_LB}ipv6-addresses`, type: 'stringList', support: STATIC_ADDRESSES },
  {
    key: `${AWS_LB}target-group-attributes`,
    type: 'stringMap',
    support: { status: 'supported', differs: 'for every target group of the MultiClusterService' },
  },
  {
    key: `${AWS_LB}target-group-attributes.\${port}`,
    type: 'stringMap',
    support: {
      status: 'supported',
      differs:
        'over the MultiClusterService-wide key for that Service port (an empty value keeps the wide one); a part after the dot that is not a port number is refused',
    },
  },
  {
    key: `${AWS_LB}subnets`,
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "IDs or names (Name tag), as in LBC; without it the configuration's `subnets`, else discovery by LBC's role tags, as for the ALB",
    },
  },
  {
    key: `${AWS_LB}alpn-policy`,
    type: 'string',
    support: {
      status: 'supported',
      differs: 'on TLS listeners only (a port without TLS has no ALPN); removing it sets `None`',
    },
  },
  {
    key: `${AWS_LB}target-node-labels`,
    type: 'stringMap',
    support: {
      status: 'not-applicable',
      why: "it selects nodes for instance targets; targets here are pod IPs from the member clusters' EndpointSlices",
    },
  },
  { key: `${AWS_LB}attributes`, type: 'stringMap', support: AS_LBC },
  {
    key: `${AWS_LB}security-groups`,
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "security group IDs only; without it the configuration's `securityGroups`, else a managed frontend group of the NLB's own (LBC's), owner-tagged, opening the listen ports (TCP or UDP) to `load-balancer-source-ranges` and `security-group-prefix-lists`; an NLB of ours created without security groups keeps none (AWS adds none to it), with a Warning Event",
    },
  },
  {
    key: `${AWS_LB}manage-backend-security-group-rules`,
    type: 'boolean',
    support: {
      status: 'not-applicable',
      why: "LBC adds rules to the targets' security groups (node or pod ENIs); here the targets are pods of the member clusters, often in other VPCs or accounts, whose groups this provider neither knows nor owns, and it changes nothing it does not own: allow the NLB's group (or the configuration's) in the targets' groups",
    },
  },
  {
    key: `${AWS_LB}inbound-sg-rules-on-private-link-traffic`,
    type: 'string',
    support: {
      status: 'supported',
      differs:
        'on or off (SetSecurityGroups), verified on resync; removing it leaves the setting as it is, as in LBC; ignored, with a Warning Event, under `disable-nlb-sg` or on an NLB kept without security groups',
    },
  },
  {
    key: `${AWS_LB}listener-attributes.\${Protocol}-\${Port}`,
    type: 'stringMap',
    support: { status: 'unsupported', why: 'NLB listener attributes are left as AWS sets them for now' },
  },
  {
    key: `${AWS_LB}multi-cluster-target-group`,
    type: 'boolean',
    support: {
      status: 'not-applicable',
      why: 'every target group here already carries the targets of all member clusters',
    },
  },
  { key: `${AWS_LB}enable-prefix-for-ipv6-source-nat`, type: 'on | off', support: IPV6_SOURCE_NAT },
  { key: `${AWS_LB}source-nat-ipv6-prefixes`, type: 'stringList', support: IPV6_SOURCE_NAT },
  {
    key: `${AWS_LB}minimum-load-balancer-capacity`,
    type: 'stringMap',
    support: { status: 'unsupported', why: 'NLB capacity reservations are not managed yet' },
  },
  {
    key: `${AWS_LB}enable-icmp-for-path-mtu-discovery`,
    type: 'string',
    support: {
      status: 'supported',
      differs:
        'on or off (LBC takes any other value as off; here it is an error); with on, the managed group lets each source range (not the prefix lists, as in LBC) send ICMP type 3 code 4, and ICMPv6 type 2 code 0',
    },
  },
  {
    key: `${AWS_LB}enable-tcp-udp-listener`,
    type: 'boolean',
    support: {
      status: 'unsupported',
      why: 'a TCP and a UDP port on one number are not merged into TCP_UDP yet',
    },
  },
  {
    key: `${AWS_LB}disable-nlb-sg`,
    type: 'boolean',
    support: {
      status: 'supported',
      differs:
        'the NLB gets no security groups (the security-group keys beside it are ignored with a Warning Event); on an NLB that has some it is refused, as in LBC, since AWS never takes the last one away',
    },
  },
  {
    key: `${AWS_LB}quic-enabled-ports`,
    type: 'stringList',
    support: { status: 'unsupported', why: 'QUIC listeners are not built' },
  },
  {
    key: 'actions.${protocol}-${port}',
    type: 'stringMap',
    support: {
      status: 'unsupported',
      why: "LBC's own NLB action key is not read; weighted NLB forwards come from `multicluster.karmada.io/cluster-weights` (per cluster; see Per-cluster traffic)",
    },
  },
];

/** A key name as a pattern: `${…}` parts match one or more characters other than `/`. */
export function keyPattern(key: LbcKeyName): RegExp {
  const parts = key.split(/\$\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** One of LBC's two key families: the prefix an annotation must have, and which of those are ours. */
export interface KeyFamily {
  prefix: string;
  keys: readonly LbcKey[];
  /**
   * Whether an annotation under the prefix that is not in `keys` is meant for LBC (a typo of ours):
   * every `alb.ingress.kubernetes.io/` key is; under `service.beta.kubernetes.io/` only the
   * `aws-load-balancer-` ones are (the rest belong to other clouds' controllers).
   */
  claims(suffix: string): boolean;
  patterns: ReadonlyArray<{ entry: LbcKey; pattern: RegExp }>;
}

function family(prefix: string, keys: readonly LbcKey[], claims: (suffix: string) => boolean): KeyFamily {
  return { prefix, keys, claims, patterns: keys.map((k) => ({ entry: k, pattern: keyPattern(k.key) })) };
}

export const INGRESS_KEY_FAMILY = family(ALB_PREFIX, LBC_INGRESS_KEYS, () => true);
export const SERVICE_KEY_FAMILY = family(SERVICE_PREFIX, LBC_SERVICE_KEYS, (s) => s.startsWith(AWS_LB));

/** The LBC key an annotation (without the family's prefix) is an instance of, if it is one. */
export function lbcKeyOf(suffix: string, keys: KeyFamily = INGRESS_KEY_FAMILY): LbcKey | undefined {
  return keys.patterns.find((p) => p.pattern.test(suffix))?.entry;
}
