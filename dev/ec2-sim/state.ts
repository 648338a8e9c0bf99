/**
 * The simulated EC2 account: DescribeVpcs and DescribeSubnets over the network the ELBv2
 * simulator uses too (one description, dev/elbv2-sim/config.ts), so a subnet EC2 lists is a
 * subnet ELBv2 places load balancers in and detects target zones from.
 */
import { SIM_NETWORK, type SimNetwork } from '../elbv2-sim/config.js';
import { Ec2Error, invalidParameter } from './errors.js';
import { checkFilters, matches } from './filters.js';
import type { DescribeInput } from './query.js';
import { subnetResources, vpcResource, type Ec2Resource, type XmlTree } from './resources.js';

const VPC_FILTERS = new Set([
  'vpc-id',
  'cidr',
  'cidr-block-association.cidr-block',
  'cidr-block-association.association-id',
  'cidr-block-association.state',
  'ipv6-cidr-block-association.ipv6-cidr-block',
  'ipv6-cidr-block-association.association-id',
  'ipv6-cidr-block-association.ipv6-pool',
  'ipv6-cidr-block-association.state',
  'dhcp-options-id',
  'is-default',
  'owner-id',
  'state',
]);

const SUBNET_FILTERS = new Set([
  'subnet-id',
  'subnet-arn',
  'vpc-id',
  'availability-zone',
  'availability-zone-id',
  'availabilityZone',
  'cidr-block',
  'cidr',
  'cidrBlock',
  'available-ip-address-count',
  'ipv6-cidr-block-association.ipv6-cidr-block',
  'ipv6-cidr-block-association.association-id',
  'ipv6-cidr-block-association.state',
  'default-for-az',
  'defaultForAz',
  'map-public-ip-on-launch',
  'ipv6-native',
  'owner-id',
  'state',
]);

interface Kind {
  /** `vpc`, `subnet`: the ID prefix and the word EC2's messages use. */
  word: string;
  /** `InvalidVpcID`, `InvalidSubnetID`: the error code family. */
  codes: string;
  filters: ReadonlySet<string>;
  /** The response's list element. */
  set: string;
}

const VPCS: Kind = { word: 'vpc', codes: 'InvalidVpcID', filters: VPC_FILTERS, set: 'vpcSet' };
const SUBNETS: Kind = { word: 'subnet', codes: 'InvalidSubnetID', filters: SUBNET_FILTERS, set: 'subnetSet' };

const encodeToken = (kind: Kind, offset: number): string =>
  Buffer.from(`${kind.word}:${offset}`).toString('base64url');

function decodeToken(kind: Kind, token: string): number {
  const [word, offset] = Buffer.from(token, 'base64url').toString('utf8').split(':');
  const n = Number(offset);
  if (word !== kind.word || !Number.isInteger(n) || n < 0)
    throw new Ec2Error('InvalidNextToken', `The token '${token}' is invalid.`);
  return n;
}

export class Ec2State {
  constructor(readonly network: SimNetwork = SIM_NETWORK) {}

  vpcs(): Ec2Resource[] {
    return [vpcResource(this.network)];
  }

  subnets(): Ec2Resource[] {
    return subnetResources(this.network);
  }

  describeVpcs(input: DescribeInput): XmlTree {
    return this.describe(VPCS, this.vpcs(), input);
  }

  describeSubnets(input: DescribeInput): XmlTree {
    return this.describe(SUBNETS, this.subnets(), input);
  }

  private describe(kind: Kind, all: Ec2Resource[], input: DescribeInput): XmlTree {
    for (const id of input.ids) {
      if (!new RegExp(`^${kind.word}-([0-9a-f]{8}|[0-9a-f]{17})$`).test(id))
        throw new Ec2Error(`${kind.codes}.Malformed`, `Invalid id: "${id}" (expecting "${kind.word}-...")`);
    }
    const missing = input.ids.filter((id) => !all.some((r) => r.id === id));
    if (missing.length === 1)
      throw new Ec2Error(`${kind.codes}.NotFound`, `The ${kind.word} ID '${missing[0]}' does not exist`);
    if (missing.length > 1)
      throw new Ec2Error(
        `${kind.codes}.NotFound`,
        `The ${kind.word} IDs '${missing.join(', ')}' do not exist`,
      );
    checkFilters(input.filters, kind.filters);
    if (input.dryRun)
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    const selected = all.filter(
      (r) => (input.ids.length === 0 || input.ids.includes(r.id)) && matches(r, input.filters),
    );
    const start = input.nextToken !== undefined ? decodeToken(kind, input.nextToken) : 0;
    if (start > selected.length) throw invalidParameter(`The token '${input.nextToken}' is invalid.`);
    const end = input.maxResults !== undefined ? start + input.maxResults : selected.length;
    const page = selected.slice(start, end);
    return {
      [kind.set]: page.map((r) => r.xml),
      ...(end < selected.length ? { nextToken: encodeToken(kind, end) } : {}),
    };
  }
}
