/**
 * The Global Accelerator simulator's records and limits. Records are plain JSON (persisted as
 * they are); timestamps are milliseconds, sent on the wire as epoch seconds.
 */

/** Global Accelerator's API has one endpoint, in us-west-2, whatever the endpoints' Regions. */
export const GA_API_REGION = 'us-west-2';
export const GA_TARGET_PREFIX = 'GlobalAccelerator_V20180706';

/** The documented default quotas ("Quotas for AWS Global Accelerator"). */
export interface GaLimits {
  acceleratorsPerAccount: number;
  listenersPerAccelerator: number;
  portRangesPerListener: number;
  endpointGroupsPerListener: number;
  endpointsPerEndpointGroup: number;
}

export const DEFAULT_GA_LIMITS: Readonly<GaLimits> = {
  acceleratorsPerAccount: 20,
  listenersPerAccelerator: 10,
  portRangesPerListener: 10,
  endpointGroupsPerListener: 10,
  endpointsPerEndpointGroup: 10,
};

export type GaIpAddressType = 'IPV4' | 'DUAL_STACK';
export type GaProtocol = 'TCP' | 'UDP';
export type GaClientAffinity = 'NONE' | 'SOURCE_IP';
export type GaHealthCheckProtocol = 'TCP' | 'HTTP' | 'HTTPS';

export interface PortRangeRecord {
  FromPort: number;
  ToPort: number;
}

export interface AcceleratorRecord {
  seq: number;
  arn: string;
  name: string;
  ipAddressType: GaIpAddressType;
  enabled: boolean;
  ipv4: string[];
  ipv6: string[];
  /** The 16 hex digits of `a<hex>.awsglobalaccelerator.com`. */
  dnsHex: string;
  createdAt: number;
  modifiedAt: number;
  /** Status is IN_PROGRESS until this instant, DEPLOYED from then on. */
  deployedAt: number;
  events: Array<{ message: string; at: number }>;
}

export interface ListenerRecord {
  seq: number;
  arn: string;
  acceleratorArn: string;
  portRanges: PortRangeRecord[];
  protocol: GaProtocol;
  clientAffinity: GaClientAffinity;
}

export interface EndpointRecord {
  endpointId: string;
  weight: number;
  clientIpPreservation: boolean;
}

export interface PortOverrideRecord {
  ListenerPort: number;
  EndpointPort: number;
}

export interface EndpointGroupRecord {
  seq: number;
  arn: string;
  listenerArn: string;
  region: string;
  endpoints: EndpointRecord[];
  trafficDial: number;
  /** Unset: the listener's first port, as Global Accelerator reports it. */
  healthCheckPort?: number;
  healthCheckProtocol: GaHealthCheckProtocol;
  healthCheckPath?: string;
  healthCheckIntervalSeconds: number;
  thresholdCount: number;
  portOverrides: PortOverrideRecord[];
}

/** An idempotency token's use: what it made, and the request it came with. */
export interface TokenRecord {
  arn: string;
  request: string;
}

/** What the simulator needs to know of an endpoint's load balancer (ELBv2 records have it). */
export interface SimEndpointView {
  type: string;
}
