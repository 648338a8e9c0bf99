import type {
  Action,
  EnforceSecurityGroupInboundRulesOnPrivateLinkTrafficEnum,
  IpAddressType,
  LoadBalancerStateEnum,
  Matcher,
  MutualAuthenticationAttributes,
  ProtocolEnum,
  RuleCondition,
  RuleTransform,
  TargetGroupIpAddressTypeEnum,
  TargetHealthReasonEnum,
  TargetHealthStateEnum,
  TargetTypeEnum,
} from '@aws-sdk/client-elastic-load-balancing-v2';

// Internal records. Every record carries `seq` (creation order) which drives paging markers and
// the deterministic ordering of describe results and snapshots.

export type LoadBalancerKind = 'application' | 'network';

export interface LoadBalancerRecord {
  seq: number;
  arn: string;
  name: string;
  type: LoadBalancerKind;
  scheme: 'internet-facing' | 'internal';
  ipAddressType: IpAddressType;
  createdAt: number;
  dnsName: string;
  subnets: string[];
  /** NLB subnets' static addresses (SubnetMappings), by subnet ID; absent or missing: none. */
  addresses?: Map<string, SubnetAddress>;
  securityGroups: string[];
  enforcePrivateLinkSg?: EnforceSecurityGroupInboundRulesOnPrivateLinkTrafficEnum;
  attributes: Map<string, string>;
  stateOverride?: LoadBalancerStateEnum;
  capacity?: CapacityReservationRecord;
}

export interface SubnetAddress {
  allocationId?: string;
  /** The Elastic IP's public address. */
  ipAddress?: string;
  privateIPv4Address?: string;
  ipv6Address?: string;
}

export interface HealthOverride {
  State: TargetHealthStateEnum;
  Reason?: TargetHealthReasonEnum;
  Description?: string;
}

export interface TargetRecord {
  id: string;
  port: number;
  availabilityZone?: string;
  registeredAt: number;
  drainingSince?: number;
  healthOverride?: HealthOverride;
}

export interface TargetGroupRecord {
  seq: number;
  arn: string;
  name: string;
  protocol?: ProtocolEnum;
  protocolVersion?: string;
  port?: number;
  vpcId?: string;
  targetType: TargetTypeEnum;
  ipAddressType: TargetGroupIpAddressTypeEnum;
  healthCheckProtocol?: ProtocolEnum;
  healthCheckPort?: string;
  healthCheckEnabled: boolean;
  healthCheckPath?: string;
  healthCheckIntervalSeconds: number;
  healthCheckTimeoutSeconds: number;
  healthyThresholdCount: number;
  unhealthyThresholdCount: number;
  matcher?: Matcher;
  attributes: Map<string, string>;
  /** Keyed by `${id}:${port}`, in registration order. */
  targets: Map<string, TargetRecord>;
}

export interface ListenerRecord {
  seq: number;
  arn: string;
  loadBalancerArn: string;
  port: number;
  protocol: ProtocolEnum;
  sslPolicy?: string;
  defaultCertificate?: string;
  extraCertificates: string[];
  alpnPolicy?: string[];
  defaultRuleArn: string;
  /** HTTPS only; undefined reads as mode `off`. */
  mutualAuthentication?: MutualAuthenticationAttributes;
  attributes: Map<string, string>;
}

export interface TrustStoreRecord {
  seq: number;
  arn: string;
  name: string;
  bucket: string;
  key: string;
  objectVersion?: string;
}

export interface CapacityReservationRecord {
  capacityUnits: number;
  modifiedAt: number;
  /** Decreases (including resets) so far in the current UTC day, and which day that is. */
  decreases: number;
  decreaseDay: number;
}

export interface RuleRecord {
  seq: number;
  arn: string;
  listenerArn: string;
  priority: number | 'default';
  conditions: RuleCondition[];
  /** For the default rule these are the listener's DefaultActions (single source of truth). */
  actions: Action[];
  transforms: RuleTransform[];
}
