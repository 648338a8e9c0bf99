/**
 * The annotation keys we read, spelled as the AWS Load Balancer Controller spells them so that
 * manifests written for LBC keep their meaning: `alb.ingress.kubernetes.io/…` on a
 * MultiClusterIngress, `service.beta.kubernetes.io/aws-load-balancer-…` on a MultiClusterService.
 */

export interface CommonKeys {
  scheme: string;
  subnets: string;
  securityGroups: string;
  name: string;
  loadBalancerAttributes: string;
  targetGroupAttributes: string;
  tags: string;
  healthCheck: {
    path: string;
    port: string;
    protocol: string;
    interval: string;
    timeout: string;
    healthyThreshold: string;
    unhealthyThreshold: string;
    successCodes: string;
  };
  certificates: string;
  sslPolicy: string;
}

const ALB = 'alb.ingress.kubernetes.io/';

export const ALB_KEYS = {
  scheme: `${ALB}scheme`,
  subnets: `${ALB}subnets`,
  securityGroups: `${ALB}security-groups`,
  name: `${ALB}load-balancer-name`,
  loadBalancerAttributes: `${ALB}load-balancer-attributes`,
  targetGroupAttributes: `${ALB}target-group-attributes`,
  tags: `${ALB}tags`,
  healthCheck: {
    path: `${ALB}healthcheck-path`,
    port: `${ALB}healthcheck-port`,
    protocol: `${ALB}healthcheck-protocol`,
    interval: `${ALB}healthcheck-interval-seconds`,
    timeout: `${ALB}healthcheck-timeout-seconds`,
    healthyThreshold: `${ALB}healthy-threshold-count`,
    unhealthyThreshold: `${ALB}unhealthy-threshold-count`,
    successCodes: `${ALB}success-codes`,
  },
  certificates: `${ALB}certificate-arn`,
  sslPolicy: `${ALB}ssl-policy`,
  listenPorts: `${ALB}listen-ports`,
  sslRedirect: `${ALB}ssl-redirect`,
  /** The managed security group's sources (model/security-group.ts). */
  inboundCidrs: `${ALB}inbound-cidrs`,
  securityGroupPrefixLists: `${ALB}security-group-prefix-lists`,
  /** IngressGroups (karmada/ingress-group.ts reads them: the reconcile needs them too). */
  groupName: `${ALB}group.name`,
  groupOrder: `${ALB}group.order`,
  ipAddressType: `${ALB}ip-address-type`,
  backendProtocol: `${ALB}backend-protocol`,
  backendProtocolVersion: `${ALB}backend-protocol-version`,
  targetType: `${ALB}target-type`,
  // Prefixes: the full key ends in a backend's service.name (`actions.<name>`, ...).
  actions: `${ALB}actions.`,
  conditions: `${ALB}conditions.`,
  transforms: `${ALB}transforms.`,
  useRegexPathMatch: `${ALB}use-regex-path-match`,
  mutualAuthentication: `${ALB}mutual-authentication`,
  /** Authentication (annotations/auth.ts): on the MCI, and on a backend Service over the MCI's. */
  authType: `${ALB}auth-type`,
  authIdpOidc: `${ALB}auth-idp-oidc`,
  authIdpCognito: `${ALB}auth-idp-cognito`,
  authOnUnauthenticatedRequest: `${ALB}auth-on-unauthenticated-request`,
  authScope: `${ALB}auth-scope`,
  authSessionCookie: `${ALB}auth-session-cookie`,
  authSessionTimeout: `${ALB}auth-session-timeout`,
  jwtValidation: `${ALB}jwt-validation`,
  minimumCapacity: `${ALB}minimum-load-balancer-capacity`,
  wafv2AclArn: `${ALB}wafv2-acl-arn`,
  wafv2AclName: `${ALB}wafv2-acl-name`,
  shieldAdvancedProtection: `${ALB}shield-advanced-protection`,
  /** One key per listener, as LBC documents it: `${Protocol}-${Port}` stands for e.g. `HTTPS-443`. */
  listenerAttributes: `${ALB}listener-attributes.\${Protocol}-\${Port}`,
  /** The NLB in front of the ALB (model/frontend-nlb.ts). */
  frontendNlb: {
    enable: `${ALB}enable-frontend-nlb`,
    scheme: `${ALB}frontend-nlb-scheme`,
    subnets: `${ALB}frontend-nlb-subnets`,
    securityGroups: `${ALB}frontend-nlb-security-groups`,
    listenerPortMapping: `${ALB}frontend-nlb-listener-port-mapping`,
    healthCheck: {
      port: `${ALB}frontend-nlb-healthcheck-port`,
      protocol: `${ALB}frontend-nlb-healthcheck-protocol`,
      path: `${ALB}frontend-nlb-healthcheck-path`,
      interval: `${ALB}frontend-nlb-healthcheck-interval-seconds`,
      timeout: `${ALB}frontend-nlb-healthcheck-timeout-seconds`,
      healthyThreshold: `${ALB}frontend-nlb-healthcheck-healthy-threshold-count`,
      unhealthyThreshold: `${ALB}frontend-nlb-healthcheck-unhealthy-threshold-count`,
      successCodes: `${ALB}frontend-nlb-healthcheck-success-codes`,
    },
    tags: `${ALB}frontend-nlb-tags`,
    eipAllocations: `${ALB}frontend-nlb-eip-allocations`,
    attributes: `${ALB}frontend-nlb-attributes`,
  },
} as const satisfies CommonKeys & Record<string, unknown>;

const NLB = 'service.beta.kubernetes.io/aws-load-balancer-';

export const NLB_KEYS = {
  scheme: `${NLB}scheme`,
  subnets: `${NLB}subnets`,
  securityGroups: `${NLB}security-groups`,
  name: `${NLB}name`,
  loadBalancerAttributes: `${NLB}attributes`,
  targetGroupAttributes: `${NLB}target-group-attributes`,
  tags: `${NLB}additional-resource-tags`,
  healthCheck: {
    path: `${NLB}healthcheck-path`,
    port: `${NLB}healthcheck-port`,
    protocol: `${NLB}healthcheck-protocol`,
    interval: `${NLB}healthcheck-interval`,
    timeout: `${NLB}healthcheck-timeout`,
    healthyThreshold: `${NLB}healthcheck-healthy-threshold`,
    unhealthyThreshold: `${NLB}healthcheck-unhealthy-threshold`,
    successCodes: `${NLB}healthcheck-success-codes`,
  },
  certificates: `${NLB}ssl-cert`,
  sslPolicy: `${NLB}ssl-negotiation-policy`,
  sslPorts: `${NLB}ssl-ports`,
  ipAddressType: `${NLB}ip-address-type`,
  eipAllocations: `${NLB}eip-allocations`,
  privateIpv4Addresses: `${NLB}private-ipv4-addresses`,
  ipv6Addresses: `${NLB}ipv6-addresses`,
  alpnPolicy: `${NLB}alpn-policy`,
  proxyProtocol: `${NLB}proxy-protocol`,
  proxyProtocolPerTargetGroup: `${NLB}proxy-protocol-per-target-group`,
  backendProtocol: `${NLB}backend-protocol`,
  /** One key per Service port, as LBC documents it: `${port}` stands for e.g. `3306`. */
  portTargetGroupAttributes: `${NLB}target-group-attributes.\${port}`,
  /** The managed security group (model/nlb-security-group.ts); source ranges lack the `aws-` prefix. */
  sourceRanges: 'service.beta.kubernetes.io/load-balancer-source-ranges',
  securityGroupPrefixLists: `${NLB}security-group-prefix-lists`,
  disableNlbSecurityGroups: `${NLB}disable-nlb-sg`,
  icmpForPathMtuDiscovery: `${NLB}enable-icmp-for-path-mtu-discovery`,
  privateLinkInboundRules: `${NLB}inbound-sg-rules-on-private-link-traffic`,
} as const satisfies CommonKeys & Record<string, unknown>;
