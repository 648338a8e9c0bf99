/**
 * Every Ingress annotation key that AWS Load Balancer Controller (LBC) documents
 * (docs/guide/ingress/annotations.md), and what it means here. The README's key table is generated
 * from this list (scripts/gen-readme-keys.ts), and a MultiClusterIngress that carries a key not
 * marked `supported` gets a Warning Event naming it (unknown-keys.ts): no key is ignored silently.
 * test/unit/lbc-keys.test.ts checks that the keys marked `supported` are exactly the ones the
 * model reads (ALB_KEYS and the templated families).
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
const EDGE = (what: string): KeySupport => ({
  status: 'unsupported',
  why: `${what} is planned with managed security groups, WAF and authentication (the edge issue)`,
});
const FRONTEND_NLB: KeySupport = {
  status: 'unsupported',
  why: 'no NLB is built in front of the ALB; static addresses for a MultiClusterIngress are planned with Global Accelerator (the multi-Region issue)',
};

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
      status: 'unsupported',
      why: 'IngressGroups are being built; each MultiClusterIngress has its own ALB',
    },
  },
  {
    key: 'group.order',
    type: 'integer',
    support: {
      status: 'unsupported',
      why: 'IngressGroups are being built; each MultiClusterIngress has its own ALB',
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
        "as in LBC, a Service with the IPv6 family gets an ipv6 target group of its IPv6 EndpointSlices; IPv6 targets outside the configuration's `vpc.ipv6Cidrs` are registered with zone `all`",
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
        "subnet IDs only: names and tag discovery are planned with the edge issue; the default is the configuration's `subnets`",
    },
  },
  {
    key: 'security-groups',
    type: 'stringList',
    support: {
      status: 'supported',
      differs:
        "security group IDs only; without it the configuration's `securityGroups` apply (no managed frontend group yet)",
    },
  },
  {
    key: 'manage-backend-security-group-rules',
    type: 'boolean',
    support: EDGE('Backend security group rules'),
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
  { key: 'wafv2-acl-arn', type: 'string', support: EDGE('WAFv2 association') },
  { key: 'wafv2-acl-name', type: 'string', support: EDGE('WAFv2 association') },
  {
    key: 'waf-acl-id',
    type: 'string',
    support: {
      status: 'not-applicable',
      why: 'WAF Classic has reached its end of life; use `wafv2-acl-arn` with a WAFv2 web ACL',
    },
  },
  { key: 'shield-advanced-protection', type: 'boolean', support: EDGE('Shield Advanced protection') },
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
    support: EDGE('Source restriction through a managed security group'),
  },
  {
    key: 'security-group-prefix-lists',
    type: 'stringList',
    support: EDGE('Source restriction through a managed security group'),
  },
  {
    key: 'certificate-arn',
    type: 'stringList',
    support: {
      status: 'supported',
      differs: 'required for HTTPS listeners: certificate discovery from ACM is planned with the edge issue',
    },
  },
  { key: 'ssl-policy', type: 'string', support: AS_LBC },
  {
    key: 'create-acm-cert',
    type: 'boolean',
    support: EDGE('Certificates from ACM (discovered or created)'),
  },
  { key: 'acm-pca-arn', type: 'string', support: EDGE('Certificates from ACM (discovered or created)') },
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
  { key: 'auth-type', type: 'none | oidc | cognito', support: EDGE('Authentication') },
  { key: 'auth-idp-cognito', type: 'json', support: EDGE('Authentication') },
  { key: 'auth-idp-oidc', type: 'json', support: EDGE('Authentication') },
  {
    key: 'auth-on-unauthenticated-request',
    type: 'authenticate | allow | deny',
    support: EDGE('Authentication'),
  },
  { key: 'auth-scope', type: 'string', support: EDGE('Authentication') },
  { key: 'auth-session-cookie', type: 'string', support: EDGE('Authentication') },
  { key: 'auth-session-timeout', type: 'integer', support: EDGE('Authentication') },
  { key: 'jwt-validation', type: 'json', support: EDGE('JWT validation') },
  {
    key: 'actions.${action-name}',
    type: 'json',
    support: {
      status: 'unsupported',
      why: 'custom actions are being built; every path forwards to its Service',
    },
  },
  {
    key: 'transforms.${transforms-name}',
    type: 'json',
    support: { status: 'unsupported', why: 'rule transforms are being built' },
  },
  {
    key: 'conditions.${conditions-name}',
    type: 'json',
    support: {
      status: 'unsupported',
      why: 'custom conditions are being built; rules match host and path only',
    },
  },
  {
    key: 'use-regex-path-match',
    type: 'boolean',
    support: { status: 'unsupported', why: 'path patterns are ELBv2 wildcards for now' },
  },
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
    support: { status: 'unsupported', why: 'HTTPS listeners do not verify client certificates yet' },
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
    support: { status: 'unsupported', why: 'listener attributes are left as AWS sets them for now' },
  },
  {
    key: 'minimum-load-balancer-capacity',
    type: 'stringMap',
    support: { status: 'unsupported', why: 'capacity reservations are not managed yet' },
  },
  {
    key: 'ipam-ipv4-pool-id',
    type: 'string',
    support: {
      status: 'not-applicable',
      why: "left out: the ALB takes AWS-assigned addresses, and a static, owned address plan for a MultiClusterIngress is Global Accelerator's job here (the multi-Region issue)",
    },
  },
  { key: 'enable-frontend-nlb', type: 'boolean', support: FRONTEND_NLB },
  { key: 'frontend-nlb-scheme', type: 'internal | internet-facing', support: FRONTEND_NLB },
  { key: 'frontend-nlb-subnets', type: 'stringList', support: FRONTEND_NLB },
  { key: 'frontend-nlb-security-groups', type: 'stringList', support: FRONTEND_NLB },
  { key: 'frontend-nlb-listener-port-mapping', type: 'stringMap', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-port', type: 'integer | traffic-port', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-protocol', type: 'HTTP | HTTPS', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-path', type: 'string', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-interval-seconds', type: 'integer', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-timeout-seconds', type: 'integer', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-healthy-threshold-count', type: 'integer', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-unhealthy-threshold-count', type: 'integer', support: FRONTEND_NLB },
  { key: 'frontend-nlb-healthcheck-success-codes', type: 'string', support: FRONTEND_NLB },
  { key: 'frontend-nlb-tags', type: 'stringMap', support: FRONTEND_NLB },
  { key: 'frontend-nlb-eip-allocations', type: 'stringList', support: FRONTEND_NLB },
  { key: 'frontend-nlb-attributes', type: 'stringMap', support: FRONTEND_NLB },
  {
    key: 'target-control-port.${serviceName}.${servicePort}',
    type: 'integer',
    support: {
      status: 'unsupported',
      why: 'the ALB target optimizer needs its agent in every pod of every member cluster; not built',
    },
  },
];

/** A key name as a pattern: `${…}` parts match one or more characters other than `/`. */
export function keyPattern(key: LbcKeyName): RegExp {
  const parts = key.split(/\$\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

const PATTERNS = LBC_INGRESS_KEYS.map((k) => ({ entry: k, pattern: keyPattern(k.key) }));

/** The LBC key an annotation (without the prefix) is an instance of, if it is one. */
export function lbcKeyOf(suffix: string): LbcKey | undefined {
  return PATTERNS.find((p) => p.pattern.test(suffix))?.entry;
}
