/**
 * Fixed "account" the simulator pretends to be. Tests and provider config refer to these
 * values, so they are exported constants rather than random per run.
 */
export const SIM_ACCOUNT_ID = '123456789012';
export const SIM_REGION = 'us-east-1';

export interface SimSubnet {
  readonly subnetId: string;
  readonly availabilityZone: string;
  readonly cidr: string;
  /** Public subnets are the ones an internet-facing LB would be placed in. */
  readonly public: boolean;
}

export interface SimNetwork {
  readonly vpcId: string;
  readonly vpcCidr: string;
  readonly defaultSecurityGroupId: string;
  readonly subnets: readonly SimSubnet[];
}

// IDs are hex-shaped (17 hex digits like real resources) so provider-side format checks pass.
export const SIM_NETWORK: SimNetwork = {
  vpcId: 'vpc-0e1b5000000000000',
  vpcCidr: '10.0.0.0/16',
  defaultSecurityGroupId: 'sg-0e1b5000000000001',
  subnets: [
    {
      subnetId: 'subnet-0e1b5000000000a01',
      availabilityZone: 'us-east-1a',
      cidr: '10.0.0.0/20',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000b01',
      availabilityZone: 'us-east-1b',
      cidr: '10.0.16.0/20',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000c01',
      availabilityZone: 'us-east-1c',
      cidr: '10.0.32.0/20',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000a02',
      availabilityZone: 'us-east-1a',
      cidr: '10.0.128.0/20',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000b02',
      availabilityZone: 'us-east-1b',
      cidr: '10.0.144.0/20',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000c02',
      availabilityZone: 'us-east-1c',
      cidr: '10.0.160.0/20',
      public: false,
    },
  ],
};

/** Route 53 zone IDs AWS publishes for us-east-1 load balancer aliases. */
export const HOSTED_ZONE_IDS = { application: 'Z35SXDOTRQ7X7K', network: 'Z26RNL4JYFTOTI' } as const;

/** AWS quotas (§4.5 of the anchors); adjustable ones can be lowered in tests to hit limits cheaply. */
export interface SimLimits {
  loadBalancersPerType: number;
  targetGroups: number;
  listenersPerLoadBalancer: number;
  rulesPerLoadBalancer: number;
  targetsPerTargetGroup: number;
  certificatesPerListener: number;
  tagsPerResource: number;
  conditionValuesPerRule: number;
  targetGroupsPerAction: number;
}

export const DEFAULT_LIMITS: SimLimits = {
  loadBalancersPerType: 50,
  targetGroups: 3000,
  listenersPerLoadBalancer: 50,
  rulesPerLoadBalancer: 100,
  targetsPerTargetGroup: 1000,
  certificatesPerListener: 25,
  tagsPerResource: 50,
  conditionValuesPerRule: 5,
  targetGroupsPerAction: 5,
};

export interface TargetHealthOptions {
  /** How long a newly registered target reports `initial` before `healthy` (default 0: healthy at once). */
  initialMs?: number;
  /** How long a deregistered target reports `draining` before it disappears (default 0: gone at once). */
  drainingMs?: number;
}

export interface BehaviourOptions {
  /** How long a new load balancer stays `provisioning` (default 0: `active` at once). */
  provisioningMs?: number;
  targetHealth?: TargetHealthOptions;
  limits?: Partial<SimLimits>;
  /** Injectable clock, mainly so health/provisioning transitions can be driven without sleeping. */
  now?: () => number;
}
