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
  /** The subnet's IPv6 /64 (every simulated subnet is dual-stack). */
  readonly ipv6Cidr?: string;
  /** Public subnets are the ones an internet-facing LB would be placed in. */
  readonly public: boolean;
}

export interface SimNetwork {
  /** The Region the VPC is in (its zones are this Region's). */
  readonly region: string;
  readonly vpcId: string;
  readonly vpcCidr: string;
  /** The VPC's Amazon-provided IPv6 /56. */
  readonly vpcIpv6Cidr: string;
  /**
   * Secondary IPv4 CIDRs associated with the VPC (what EC2 DescribeVpcs lists after `vpcCidr`),
   * e.g. EKS custom networking's pod range: a configured CIDR list that misses them is wrong.
   */
  readonly secondaryCidrs: readonly string[];
  readonly defaultSecurityGroupId: string;
  /** Load balancer subnets (public and private), the ones CreateLoadBalancer and SetSubnets take. */
  readonly subnets: readonly SimSubnet[];
  /**
   * Subnets in the secondary CIDRs, where pods get their IPs; targets there are in the VPC (zone
   * detected), but they are not offered for load balancers.
   */
  readonly podSubnets: readonly SimSubnet[];
}

// IDs are hex-shaped (17 hex digits like real resources) so provider-side format checks pass.
export const SIM_NETWORK: SimNetwork = {
  region: SIM_REGION,
  vpcId: 'vpc-0e1b5000000000000',
  vpcCidr: '10.0.0.0/16',
  vpcIpv6Cidr: '2600:1f18:e1b5:5000::/56',
  secondaryCidrs: ['100.64.0.0/16'],
  defaultSecurityGroupId: 'sg-0e1b5000000000001',
  subnets: [
    {
      subnetId: 'subnet-0e1b5000000000a01',
      availabilityZone: 'us-east-1a',
      cidr: '10.0.0.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5000::/64',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000b01',
      availabilityZone: 'us-east-1b',
      cidr: '10.0.16.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5001::/64',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000c01',
      availabilityZone: 'us-east-1c',
      cidr: '10.0.32.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5002::/64',
      public: true,
    },
    {
      subnetId: 'subnet-0e1b5000000000a02',
      availabilityZone: 'us-east-1a',
      cidr: '10.0.128.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5080::/64',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000b02',
      availabilityZone: 'us-east-1b',
      cidr: '10.0.144.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5081::/64',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000c02',
      availabilityZone: 'us-east-1c',
      cidr: '10.0.160.0/20',
      ipv6Cidr: '2600:1f18:e1b5:5082::/64',
      public: false,
    },
  ],
  podSubnets: [
    {
      subnetId: 'subnet-0e1b5000000000a03',
      availabilityZone: 'us-east-1a',
      cidr: '100.64.0.0/18',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000b03',
      availabilityZone: 'us-east-1b',
      cidr: '100.64.64.0/18',
      public: false,
    },
    {
      subnetId: 'subnet-0e1b5000000000c03',
      availabilityZone: 'us-east-1c',
      cidr: '100.64.128.0/18',
      public: false,
    },
  ],
};

/** Four hex digits of a Region's name (FNV-1a): its VPC's, subnets' and group's IDs carry them. */
function regionTag(region: string): string {
  let h = 0x811c9dc5;
  for (const c of region) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return (h & 0xffff).toString(16).padStart(4, '0');
}

const networks = new Map<string, SimNetwork>([[SIM_REGION, SIM_NETWORK]]);

/**
 * The simulated account's VPC in a Region: SIM_NETWORK in SIM_REGION; elsewhere a VPC of its own,
 * with the same address plan (IPv4 CIDRs, subnet layout, roles) but its own IDs, IPv6 block and
 * the Region's zones (`eu-west-1a`...), as one account's VPCs in two Regions are. One thing is not
 * as in AWS: the default security group has SIM_NETWORK's ID in every Region, because the
 * `security-groups` annotations take IDs only and an object across Regions names one (the chaos
 * workload does); in AWS a group ID is one VPC's, so such an object's other Regions would refuse it.
 */
export function simNetwork(region: string = SIM_REGION): SimNetwork {
  const known = networks.get(region);
  if (known) return known;
  const tag = regionTag(region);
  const id = (text: string) => text.replace('-0e1b5', `-0${tag}`);
  const ipv6 = (cidr: string) => cidr.replace(':e1b5:', `:${tag}:`);
  const subnet = (s: SimSubnet): SimSubnet => ({
    ...s,
    subnetId: id(s.subnetId),
    availabilityZone: region + s.availabilityZone.slice(SIM_REGION.length),
    ...(s.ipv6Cidr ? { ipv6Cidr: ipv6(s.ipv6Cidr) } : {}),
  });
  const network: SimNetwork = {
    ...SIM_NETWORK,
    region,
    vpcId: id(SIM_NETWORK.vpcId),
    vpcIpv6Cidr: ipv6(SIM_NETWORK.vpcIpv6Cidr),
    subnets: SIM_NETWORK.subnets.map(subnet),
    podSubnets: SIM_NETWORK.podSubnets.map(subnet),
  };
  networks.set(region, network);
  return network;
}

/** Route 53 zone IDs AWS publishes for load balancer aliases, by Region (SIM_REGION's first). */
const REGION_HOSTED_ZONE_IDS: Readonly<Record<string, { application: string; network: string }>> = {
  [SIM_REGION]: { application: 'Z35SXDOTRQ7X7K', network: 'Z26RNL4JYFTOTI' },
  'eu-west-1': { application: 'Z32O12XQLNTSW2', network: 'Z2IFOLAFXWLO4F' },
  'us-west-2': { application: 'Z1H1FL5HABSF5', network: 'Z18D5FSROUN65G' },
  'eu-central-1': { application: 'Z215JYRZR1TBD5', network: 'Z3F0SRJ5LGBH90' },
};

/** SIM_REGION's Route 53 zone IDs. */
export const HOSTED_ZONE_IDS = REGION_HOSTED_ZONE_IDS[SIM_REGION]!;

/** A Region's zone IDs; a Region not in the table gets SIM_REGION's (nothing resolves them here). */
export function hostedZoneIds(region: string): { application: string; network: string } {
  return REGION_HOSTED_ZONE_IDS[region] ?? HOSTED_ZONE_IDS;
}

/**
 * AWS quotas (the ALB/NLB quota pages and DescribeAccountLimits); every one can be changed in
 * tests (`options.limits` or `sim.state.store.limits`) to hit a limit cheaply or to model an
 * account whose adjustable quotas were raised.
 */
export interface SimLimits {
  /** Per type: application-load-balancers and network-load-balancers. */
  loadBalancersPerType: number;
  targetGroups: number;
  /** listeners-per-application-load-balancer and listeners-per-network-load-balancer. */
  listenersPerLoadBalancer: number;
  rulesPerLoadBalancer: number;
  targetsPerTargetGroup: number;
  certificatesPerListener: number;
  tagsPerResource: number;
  /** condition-values-per-alb-rule: every value (plain or regex) of every condition. */
  conditionValuesPerRule: number;
  /** condition-wildcards-per-alb-rule: `*` and `?` in host, path, header and query values. */
  conditionWildcardsPerRule: number;
  /** target-groups-per-action-on-application-load-balancer. */
  targetGroupsPerAction: number;
  /** target-groups-per-application-load-balancer (unique, across all listeners and rules). */
  targetGroupsPerLoadBalancer: number;
  /** targets-per-application-load-balancer: registrations in every TG the ALB routes to. */
  targetsPerApplicationLoadBalancer: number;
  targetsPerNetworkLoadBalancer: number;
  targetsPerAvailabilityZonePerNetworkLoadBalancer: number;
  /** Trust stores per account. */
  trustStores: number;
  /** Listeners in mTLS `verify` mode per load balancer. */
  verifyListenersPerLoadBalancer: number;
  /** Reserved LCUs per ALB (ModifyCapacityReservation). */
  capacityUnitsPerLoadBalancer: number;
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
  conditionWildcardsPerRule: 5,
  targetGroupsPerAction: 5,
  targetGroupsPerLoadBalancer: 100,
  targetsPerApplicationLoadBalancer: 1000,
  targetsPerNetworkLoadBalancer: 3000,
  targetsPerAvailabilityZonePerNetworkLoadBalancer: 500,
  trustStores: 20,
  verifyListenersPerLoadBalancer: 2,
  capacityUnitsPerLoadBalancer: 15000,
};

/**
 * DescribeAccountLimits names (API_Limit) and where each value comes from: a SimLimits field,
 * or a fixed default for what the simulator does not model (Gateway Load Balancers).
 */
export const ACCOUNT_LIMITS: readonly (readonly [string, keyof SimLimits | number])[] = [
  ['application-load-balancers', 'loadBalancersPerType'],
  ['condition-values-per-alb-rule', 'conditionValuesPerRule'],
  ['condition-wildcards-per-alb-rule', 'conditionWildcardsPerRule'],
  ['gateway-load-balancers', 100],
  ['gateway-load-balancers-per-vpc', 100],
  ['geneve-target-groups', 100],
  ['listeners-per-application-load-balancer', 'listenersPerLoadBalancer'],
  ['listeners-per-network-load-balancer', 'listenersPerLoadBalancer'],
  ['network-load-balancers', 'loadBalancersPerType'],
  ['rules-per-application-load-balancer', 'rulesPerLoadBalancer'],
  ['target-groups', 'targetGroups'],
  ['target-groups-per-action-on-application-load-balancer', 'targetGroupsPerAction'],
  ['target-groups-per-action-on-network-load-balancer', 1],
  ['target-groups-per-application-load-balancer', 'targetGroupsPerLoadBalancer'],
  ['targets-per-application-load-balancer', 'targetsPerApplicationLoadBalancer'],
  ['targets-per-availability-zone-per-gateway-load-balancer', 300],
  [
    'targets-per-availability-zone-per-network-load-balancer',
    'targetsPerAvailabilityZonePerNetworkLoadBalancer',
  ],
  ['targets-per-network-load-balancer', 'targetsPerNetworkLoadBalancer'],
];

export interface TargetHealthOptions {
  /** How long a newly registered target reports `initial` before `healthy` (default 0: healthy at once). */
  initialMs?: number;
  /** How long a deregistered target reports `draining` before it disappears (default 0: gone at once). */
  drainingMs?: number;
}

export interface BehaviourOptions {
  /**
   * The Region in its ARNs and DNS names, and of its network (`simNetwork(region)`; default
   * SIM_REGION and SIM_NETWORK): one simulator per Region for the multi-Region provider.
   */
  region?: string;
  /** How long a new load balancer stays `provisioning` (default 0: `active` at once). */
  provisioningMs?: number;
  targetHealth?: TargetHealthOptions;
  limits?: Partial<SimLimits>;
  /** Injectable clock, mainly so health/provisioning transitions can be driven without sleeping. */
  now?: () => number;
}
