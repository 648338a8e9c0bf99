/**
 * The simulated EC2 account: DescribeVpcs and DescribeSubnets over the network the ELBv2
 * simulator uses too (one description, dev/elbv2-sim/config.ts), so a subnet EC2 lists is a
 * subnet ELBv2 places load balancers in and detects target zones from.
 */
import { SIM_NETWORK, type SimNetwork } from '../elbv2-sim/config.js';
import { Ec2Error, invalidParameter } from './errors.js';
import { checkFilters, matches } from './filters.js';
import type { DescribeInput } from './query.js';
import { DEFAULT_SG_LIMITS, SecurityGroupState, type SecurityGroupLimits } from './security-groups.js';
import { subnetResources, subnetTags, vpcResource, type Ec2Resource, type XmlTree } from './resources.js';

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

/** EC2's tag limits (Tag restrictions, EC2 User Guide). */
const MAX_TAGS = 50;
const MAX_KEY_LENGTH = 128;
const MAX_VALUE_LENGTH = 256;

export interface TagInput {
  key: string;
  /** DeleteTags: absent deletes the key whatever its value. */
  value?: string;
}

const dryRunError = (): Ec2Error =>
  new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);

export class Ec2State {
  /** The subnets' tags once CreateTags/DeleteTags touched them (the rest keep their initial ones). */
  private readonly subnetTagsById = new Map<string, Record<string, string>>();
  readonly securityGroups: SecurityGroupState;

  constructor(
    readonly network: SimNetwork = SIM_NETWORK,
    limits: Partial<SecurityGroupLimits> = {},
  ) {
    this.securityGroups = new SecurityGroupState(network, { ...DEFAULT_SG_LIMITS, ...limits });
  }

  vpcs(): Ec2Resource[] {
    return [vpcResource(this.network)];
  }

  subnets(): Ec2Resource[] {
    return subnetResources(
      this.network,
      (s, pod) => this.subnetTagsById.get(s.subnetId) ?? subnetTags(s, pod),
    );
  }

  /** The tags of a taggable resource by ID, or undefined when there is none. */
  private tagsOf(id: string): Record<string, string> | undefined {
    if (id.startsWith('sg-')) return this.securityGroups.tagsOf(id);
    const subnet = this.subnets().find((r) => r.id === id);
    return subnet ? { ...subnet.tags } : undefined;
  }

  private setTags(id: string, tags: Record<string, string>): void {
    if (id.startsWith('sg-')) this.securityGroups.setTags(id, tags);
    else this.subnetTagsById.set(id, tags);
  }

  /** The resources of a CreateTags/DeleteTags call, all of them known, or the error EC2 gives. */
  private taggable(ids: readonly string[]): Array<[string, Record<string, string>]> {
    if (ids.length === 0)
      throw new Ec2Error('MissingParameter', 'The request must contain the parameter resourceIdSet');
    return ids.map((id) => {
      const tags = this.tagsOf(id);
      if (tags) return [id, tags];
      const kind = /^([a-z]+)-/.exec(id)?.[1];
      if (kind === 'subnet')
        throw new Ec2Error('InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`);
      throw new Ec2Error('InvalidID', `The ID '${id}' is not valid`);
    });
  }

  /** CreateTags: every resource gets every tag (a key present is overwritten), or none does. */
  createTags(ids: readonly string[], tags: readonly TagInput[], dryRun: boolean): XmlTree {
    if (tags.length === 0)
      throw new Ec2Error('MissingParameter', 'The request must contain the parameter tagSet');
    for (const t of tags) {
      if (t.key.length === 0 || t.key.length > MAX_KEY_LENGTH || (t.value ?? '').length > MAX_VALUE_LENGTH)
        throw invalidParameter(`Tag key or value is out of bounds: '${t.key}'`);
      if (t.key.toLowerCase().startsWith('aws:'))
        throw invalidParameter(`Tag keys starting with 'aws:' are reserved for internal use`);
    }
    const targets = this.taggable(ids);
    if (dryRun) throw dryRunError();
    const updated = targets.map(([id, current]) => {
      const next = { ...current };
      for (const t of tags) next[t.key] = t.value ?? '';
      if (Object.keys(next).length > MAX_TAGS)
        throw new Ec2Error(
          'TagLimitExceeded',
          `The maximum number of tags per resource (${MAX_TAGS}) is exceeded`,
        );
      return [id, next] as const;
    });
    for (const [id, next] of updated) this.setTags(id, next);
    return { return: true };
  }

  /** DeleteTags: a tag given with a value goes only when it has that value; an absent key is no error. */
  deleteTags(ids: readonly string[], tags: readonly TagInput[], dryRun: boolean): XmlTree {
    const targets = this.taggable(ids);
    if (dryRun) throw dryRunError();
    for (const [id, current] of targets) {
      const next = { ...current };
      // No tag listed: every tag goes (except aws: ones, which the simulator never sets).
      if (tags.length === 0) for (const k of Object.keys(next)) delete next[k];
      for (const t of tags) if (t.value === undefined || next[t.key] === t.value) delete next[t.key];
      this.setTags(id, next);
    }
    return { return: true };
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
    if (input.dryRun) throw dryRunError();
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
