/**
 * EC2's view of the one network the simulators share (dev/elbv2-sim/config.ts `SIM_NETWORK`): the
 * VPC with its primary and secondary IPv4 CIDR block associations and its IPv6 one, and every
 * subnet (load balancer subnets and pod subnets), each with the filter keys EC2 matches it by.
 * Written here with EC2's own XML member names (`vpcId`, `cidrBlockAssociationSet`, `tagSet`...),
 * so the server writes them as they are and the real SDK client parses them.
 */
import { SIM_ACCOUNT_ID, type SimNetwork, type SimSubnet } from '../elbv2-sim/config.js';

/** An XML element tree: arrays are EC2 `<item>` lists, undefined members are left out. */
export type XmlTree = { [name: string]: XmlValue };
export type XmlValue = string | number | boolean | undefined | XmlTree | XmlValue[];

/** A described resource: its XML and the values each filter name matches against. */
export interface Ec2Resource {
  id: string;
  xml: XmlTree;
  filters: ReadonlyMap<string, readonly string[]>;
  tags: Readonly<Record<string, string>>;
}

/**
 * Zone IDs are per account in AWS (us-east-1a here is not us-east-1a elsewhere); these are the
 * simulated account's mapping.
 */
export const ZONE_IDS: Readonly<Record<string, string>> = {
  'us-east-1a': 'use1-az4',
  'us-east-1b': 'use1-az6',
  'us-east-1c': 'use1-az1',
};

/**
 * A zone's ID: the table's, else in the shape AWS uses (`eu-west-1b` → `euw1-az2`, the account's
 * mapping taken to be the identity there).
 */
export function zoneIdOf(zone: string): string {
  const known = ZONE_IDS[zone];
  if (known) return known;
  const m = /^([a-z]{2})-([a-z]+)-(\d+)([a-z])$/.exec(zone);
  if (!m) return 'use1-az0';
  const [, area, direction, n, letter] = m as unknown as [string, string, string, string, string];
  const short = direction
    .replace('north', 'n')
    .replace('south', 's')
    .replace('east', 'e')
    .replace('west', 'w')
    .replace('central', 'c');
  return `${area}${short}${n}-az${letter.charCodeAt(0) - 96}`;
}

const hexSuffix = (id: string): string => id.slice(id.indexOf('-') + 1);
const tagSet = (tags: Record<string, string>): XmlTree[] =>
  Object.entries(tags).map(([key, value]) => ({ key, value }));

function addressCount(cidr: string): number {
  // AWS reserves 5 addresses in every subnet.
  return 2 ** (32 - Number(cidr.split('/')[1])) - 5;
}

/** The VPC's IPv4 CIDRs in association order: the primary block, then the secondary ones. */
export function vpcIpv4Cidrs(network: SimNetwork): string[] {
  return [network.vpcCidr, ...network.secondaryCidrs];
}

export function vpcResource(network: SimNetwork): Ec2Resource {
  const suffix = hexSuffix(network.vpcId);
  const ipv4 = vpcIpv4Cidrs(network).map((cidrBlock, i) => ({
    associationId: `vpc-cidr-assoc-${suffix.slice(0, -1)}${i}`,
    cidrBlock,
    cidrBlockState: { state: 'associated' },
  }));
  const ipv6 = [
    {
      associationId: `vpc-cidr-assoc-${suffix.slice(0, -2)}60`,
      ipv6CidrBlock: network.vpcIpv6Cidr,
      ipv6CidrBlockState: { state: 'associated' },
      networkBorderGroup: network.region,
      ipv6Pool: 'Amazon',
    },
  ];
  const tags = { Name: 'simulated-vpc' };
  const dhcpOptionsId = `dopt-${suffix}`;
  return {
    id: network.vpcId,
    tags,
    xml: {
      vpcId: network.vpcId,
      ownerId: SIM_ACCOUNT_ID,
      state: 'available',
      cidrBlock: network.vpcCidr,
      cidrBlockAssociationSet: ipv4,
      ipv6CidrBlockAssociationSet: ipv6,
      dhcpOptionsId,
      instanceTenancy: 'default',
      isDefault: false,
      blockPublicAccessStates: { internetGatewayBlockMode: 'off' },
      tagSet: tagSet(tags),
    },
    filters: new Map([
      ['vpc-id', [network.vpcId]],
      ['cidr', [network.vpcCidr]],
      ['cidr-block-association.cidr-block', ipv4.map((a) => a.cidrBlock)],
      ['cidr-block-association.association-id', ipv4.map((a) => a.associationId)],
      ['cidr-block-association.state', ipv4.map((a) => a.cidrBlockState.state)],
      ['ipv6-cidr-block-association.ipv6-cidr-block', ipv6.map((a) => a.ipv6CidrBlock)],
      ['ipv6-cidr-block-association.association-id', ipv6.map((a) => a.associationId)],
      ['ipv6-cidr-block-association.ipv6-pool', ipv6.map((a) => a.ipv6Pool)],
      ['ipv6-cidr-block-association.state', ipv6.map((a) => a.ipv6CidrBlockState.state)],
      ['dhcp-options-id', [dhcpOptionsId]],
      ['is-default', ['false']],
      ['owner-id', [SIM_ACCOUNT_ID]],
      ['state', ['available']],
    ]),
  };
}

/**
 * The tags LBC's subnet discovery reads (`kubernetes.io/role/elb` on public subnets,
 * `kubernetes.io/role/internal-elb` on private load balancer subnets; pod subnets carry neither).
 */
export function subnetTags(subnet: SimSubnet, pod: boolean): Record<string, string> {
  const zone = subnet.availabilityZone.slice(-2);
  if (pod) return { Name: `simulated-pods-${zone}` };
  return subnet.public
    ? { Name: `simulated-public-${zone}`, 'kubernetes.io/role/elb': '1' }
    : { Name: `simulated-private-${zone}`, 'kubernetes.io/role/internal-elb': '1' };
}

function subnetResource(network: SimNetwork, subnet: SimSubnet, tags: Record<string, string>): Ec2Resource {
  const ipv6 = subnet.ipv6Cidr
    ? [
        {
          associationId: `subnet-cidr-assoc-${hexSuffix(subnet.subnetId)}`,
          ipv6CidrBlock: subnet.ipv6Cidr,
          ipv6CidrBlockState: { state: 'associated' },
          ipv6AddressAttribute: subnet.public ? 'public' : 'private',
          ipSource: 'amazon',
        },
      ]
    : [];
  const subnetArn = `arn:aws:ec2:${network.region}:${SIM_ACCOUNT_ID}:subnet/${subnet.subnetId}`;
  const zoneId = zoneIdOf(subnet.availabilityZone);
  const available = addressCount(subnet.cidr);
  return {
    id: subnet.subnetId,
    tags,
    xml: {
      subnetId: subnet.subnetId,
      subnetArn,
      state: 'available',
      vpcId: network.vpcId,
      ownerId: SIM_ACCOUNT_ID,
      cidrBlock: subnet.cidr,
      ipv6CidrBlockAssociationSet: ipv6,
      availableIpAddressCount: available,
      availabilityZone: subnet.availabilityZone,
      availabilityZoneId: zoneId,
      defaultForAz: false,
      mapPublicIpOnLaunch: subnet.public,
      mapCustomerOwnedIpOnLaunch: false,
      assignIpv6AddressOnCreation: false,
      enableDns64: false,
      ipv6Native: false,
      privateDnsNameOptionsOnLaunch: {
        hostnameType: 'ip-name',
        enableResourceNameDnsARecord: false,
        enableResourceNameDnsAAAARecord: false,
      },
      tagSet: tagSet(tags),
    },
    filters: new Map([
      ['subnet-id', [subnet.subnetId]],
      ['subnet-arn', [subnetArn]],
      ['vpc-id', [network.vpcId]],
      ['availability-zone', [subnet.availabilityZone]],
      ['availability-zone-id', [zoneId]],
      ['availabilityZone', [subnet.availabilityZone]],
      ['cidr-block', [subnet.cidr]],
      ['cidr', [subnet.cidr]],
      ['cidrBlock', [subnet.cidr]],
      ['available-ip-address-count', [String(available)]],
      ['ipv6-cidr-block-association.ipv6-cidr-block', ipv6.map((a) => a.ipv6CidrBlock)],
      ['ipv6-cidr-block-association.association-id', ipv6.map((a) => a.associationId)],
      ['ipv6-cidr-block-association.state', ipv6.map((a) => a.ipv6CidrBlockState.state)],
      ['default-for-az', ['false']],
      ['defaultForAz', ['false']],
      ['map-public-ip-on-launch', [String(subnet.public)]],
      ['ipv6-native', ['false']],
      ['owner-id', [SIM_ACCOUNT_ID]],
      ['state', ['available']],
    ]),
  };
}

/**
 * Every subnet of the network, load balancer subnets first, each in its zone order, with its
 * tags as they are now (`tagsOf`: CreateTags/DeleteTags change them; the initial ones otherwise).
 */
export function subnetResources(
  network: SimNetwork,
  tagsOf: (subnet: SimSubnet, pod: boolean) => Record<string, string> = subnetTags,
): Ec2Resource[] {
  return [
    ...network.subnets.map((s) => subnetResource(network, s, tagsOf(s, false))),
    ...network.podSubnets.map((s) => subnetResource(network, s, tagsOf(s, true))),
  ];
}
