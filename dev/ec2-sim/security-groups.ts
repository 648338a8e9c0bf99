/**
 * The simulated account's security groups: CreateSecurityGroup (with TagSpecifications),
 * DescribeSecurityGroups (IDs, names, filters), Authorize/RevokeSecurityGroupIngress (IPv4 and
 * IPv6 CIDRs, prefix lists, referenced groups; rules by value or by rule ID) and
 * DeleteSecurityGroup, as EC2 answers them (codes, messages, quotas). The VPC's default group
 * (SIM_NETWORK.defaultSecurityGroupId) exists from the start and cannot be deleted.
 *
 * A group in use cannot be deleted (`DependencyViolation`): one a load balancer of the ELBv2
 * simulator lists (when the two are linked, index.ts), for as long as its network interfaces
 * linger after the load balancer let go of it, or one another group's rule references.
 */
import { SIM_ACCOUNT_ID, type SimNetwork } from '../elbv2-sim/config.js';
import { Ec2Error, invalidParameter } from './errors.js';
import { checkFilters, matches } from './filters.js';
import type { Ec2Params, Filter } from './query.js';
import type { Ec2Resource, XmlTree } from './resources.js';

/** EC2's default quotas (Amazon VPC quotas): inbound rules count separately for IPv4 and IPv6. */
export interface SecurityGroupLimits {
  inboundRulesPerGroup: number;
  groupsPerVpc: number;
}

export const DEFAULT_SG_LIMITS: SecurityGroupLimits = { inboundRulesPerGroup: 60, groupsPerVpc: 2500 };

/** One rule: a protocol and port range from one source (EC2 keeps one rule ID per source). */
export interface SgRule {
  ruleId: string;
  protocol: string;
  fromPort?: number;
  toPort?: number;
  source: { cidrIpv4: string } | { cidrIpv6: string } | { prefixListId: string } | { groupId: string };
  description?: string;
}

interface SgRecord {
  groupId: string;
  groupName: string;
  description: string;
  vpcId: string;
  tags: Record<string, string>;
  ingress: SgRule[];
  egress: SgRule[];
}

/** Who else holds a group: the ELBv2 simulator's load balancers, when linked. */
export type SecurityGroupUsers = (groupId: string) => readonly string[];

const SG_FILTERS = new Set([
  'group-id',
  'group-name',
  'description',
  'vpc-id',
  'owner-id',
  'ip-permission.protocol',
  'ip-permission.from-port',
  'ip-permission.to-port',
  'ip-permission.cidr',
  'ip-permission.ipv6-cidr',
  'ip-permission.prefix-list-id',
  'ip-permission.group-id',
]);

const ID = /^sg-([0-9a-f]{8}|[0-9a-f]{17})$/;
const PROTOCOLS: Readonly<Record<string, string>> = {
  tcp: '6',
  udp: '17',
  icmp: '1',
  icmpv6: '58',
  '-1': '-1',
  all: '-1',
};

function ipv4Cidr(cidr: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
}

function ipv6Cidr(cidr: string): boolean {
  const [addr, len] = cidr.split('/');
  if (addr === undefined || len === undefined || !/^\d{1,3}$/.test(len) || Number(len) > 128) return false;
  if (!/^[0-9a-fA-F:]+$/.test(addr) || (addr.match(/::/g) ?? []).length > 1) return false;
  const groups = addr.split(':').filter((g, i, all) => g !== '' || (i > 0 && i < all.length - 1));
  return (
    groups.every((g) => g.length <= 4) && (addr.includes('::') ? groups.length < 8 : groups.length === 8)
  );
}

const sourceKey = (r: Pick<SgRule, 'source'>): string => JSON.stringify(r.source);
const ruleKey = (r: Pick<SgRule, 'protocol' | 'fromPort' | 'toPort' | 'source'>): string =>
  `${r.protocol}|${r.fromPort ?? ''}|${r.toPort ?? ''}|${sourceKey(r)}`;
const isIpv6 = (r: SgRule): boolean => 'cidrIpv6' in r.source;

/** The words EC2 uses for a rule in its duplicate message. */
function describeRule(r: SgRule): string {
  const peer = Object.values(r.source)[0] as string;
  const proto = r.protocol === '-1' ? 'ALL' : r.protocol.toUpperCase();
  return `peer: ${peer}, ${proto}, from port: ${r.fromPort ?? -1}, to port: ${r.toPort ?? -1}, ALLOW`;
}

export class SecurityGroupState {
  private readonly groups = new Map<string, SgRecord>();
  private seq = 0;
  /** Set by the link with the ELBv2 simulator (index.ts). */
  users: SecurityGroupUsers = () => [];

  constructor(
    private readonly network: SimNetwork,
    private readonly limits: SecurityGroupLimits = DEFAULT_SG_LIMITS,
  ) {
    this.groups.set(network.defaultSecurityGroupId, {
      groupId: network.defaultSecurityGroupId,
      groupName: 'default',
      description: 'default VPC security group',
      vpcId: network.vpcId,
      tags: {},
      ingress: [],
      egress: [this.allTraffic()],
    });
  }

  private nextId(prefix: string): string {
    this.seq += 1;
    // The VPC's five leading hex digits (its Region's: elbv2-sim/config.ts `simNetwork`).
    return `${prefix}-${this.network.vpcId.slice(4, 9)}${this.seq.toString(16).padStart(12, '0')}`;
  }

  private allTraffic(): SgRule {
    return { ruleId: this.nextId('sgr'), protocol: '-1', source: { cidrIpv4: '0.0.0.0/0' } };
  }

  has(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  /** Every group, for tests and the chaos suite's leak checks. */
  all(): Array<Readonly<SgRecord>> {
    return [...this.groups.values()].map((g) => structuredClone(g));
  }

  /** A rule removed as someone would by hand (the console), for drift tests. */
  revokeByHand(groupId: string, predicate: (r: SgRule) => boolean): number {
    const g = this.group(groupId);
    const before = g.ingress.length;
    g.ingress = g.ingress.filter((r) => !predicate(r));
    return before - g.ingress.length;
  }

  tagsOf(groupId: string): Record<string, string> | undefined {
    const g = this.groups.get(groupId);
    return g ? { ...g.tags } : undefined;
  }

  setTags(groupId: string, tags: Record<string, string>): void {
    this.group(groupId).tags = { ...tags };
  }

  private group(groupId: string | undefined): SgRecord {
    if (!groupId) throw new Ec2Error('MissingParameter', 'The request must contain the parameter groupId');
    if (!ID.test(groupId)) throw new Ec2Error('InvalidGroupId.Malformed', `Invalid id: "${groupId}"`);
    const g = this.groups.get(groupId);
    if (!g) throw new Ec2Error('InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
    return g;
  }

  create(params: Ec2Params): XmlTree {
    const name = params.get('GroupName');
    const description = params.get('GroupDescription');
    const vpcId = params.get('VpcId') ?? this.network.vpcId;
    if (!name) throw new Ec2Error('MissingParameter', 'The request must contain the parameter groupName');
    if (!description)
      throw new Ec2Error('MissingParameter', 'The request must contain the parameter groupDescription');
    if (name.length > 255 || description.length > 255)
      throw invalidParameter(
        'Value for parameter GroupName or GroupDescription is longer than 255 characters',
      );
    if (name.toLowerCase().startsWith('sg-'))
      throw invalidParameter('Group names may not be in the format sg-*');
    if (vpcId !== this.network.vpcId)
      throw new Ec2Error('InvalidVpcID.NotFound', `The vpc ID '${vpcId}' does not exist`);
    const inVpc = [...this.groups.values()].filter((g) => g.vpcId === vpcId);
    if (inVpc.some((g) => g.groupName === name))
      throw new Ec2Error(
        'InvalidGroup.Duplicate',
        `The security group '${name}' already exists for VPC '${vpcId}'`,
      );
    if (inVpc.length >= this.limits.groupsPerVpc)
      throw new Ec2Error(
        'SecurityGroupLimitExceeded',
        'The maximum number of security groups has been reached.',
      );
    const tags: Record<string, string> = {};
    for (let i = 1; params.get(`TagSpecification.${i}.ResourceType`) !== undefined; i++) {
      const type = params.get(`TagSpecification.${i}.ResourceType`);
      if (type !== 'security-group')
        throw invalidParameter(`'${type ?? ''}' is not a valid taggable resource type for this operation.`);
      for (const t of params.tags(`TagSpecification.${i}.Tag`)) {
        if (t.key.toLowerCase().startsWith('aws:'))
          throw invalidParameter("Tag keys starting with 'aws:' are reserved for internal use");
        tags[t.key] = t.value ?? '';
      }
    }
    if (params.dryRun())
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    const groupId = this.nextId('sg');
    this.groups.set(groupId, {
      groupId,
      groupName: name,
      description,
      vpcId,
      tags,
      ingress: [],
      egress: [this.allTraffic()],
    });
    return {
      return: true,
      groupId,
      securityGroupArn: this.arn(groupId),
      tagSet: Object.entries(tags).map(([key, value]) => ({ key, value })),
    };
  }

  private arn(groupId: string): string {
    return `arn:aws:ec2:${this.network.region}:${SIM_ACCOUNT_ID}:security-group/${groupId}`;
  }

  /** `IpPermissions.N.*` as rules, validated as EC2 does. */
  private permissions(params: Ec2Params): Array<Omit<SgRule, 'ruleId'>> {
    const out: Array<Omit<SgRule, 'ruleId'>> = [];
    for (let i = 1; params.get(`IpPermissions.${i}.IpProtocol`) !== undefined; i++) {
      const p = `IpPermissions.${i}`;
      const raw = params.get(`${p}.IpProtocol`)!.toLowerCase();
      const protocol =
        PROTOCOLS[raw] === '-1' ? '-1' : /^\d+$/.test(raw) ? raw : raw in PROTOCOLS ? raw : undefined;
      if (protocol === undefined)
        throw invalidParameter(`Invalid value '${raw}' for IP protocol. Unknown protocol.`);
      let fromPort: number | undefined;
      let toPort: number | undefined;
      if (protocol === 'tcp' || protocol === 'udp') {
        fromPort = Number(params.get(`${p}.FromPort`));
        toPort = Number(params.get(`${p}.ToPort`));
        if (![fromPort, toPort].every((n) => Number.isInteger(n) && n >= 0 && n <= 65535))
          throw invalidParameter(
            `Invalid value for portRange. Must specify both from and to ports with TCP/UDP.`,
          );
        if (fromPort > toPort)
          throw invalidParameter(
            `Invalid TCP/UDP port range: ${fromPort}-${toPort} (from port greater than to port)`,
          );
      }
      if ((protocol === 'icmp' || protocol === 'icmpv6') && params.get(`${p}.FromPort`) !== undefined) {
        // ICMP: FromPort is the ICMP type, ToPort the code, each -1 (all) to 255.
        fromPort = Number(params.get(`${p}.FromPort`));
        toPort = Number(params.get(`${p}.ToPort`) ?? '-1');
        if (![fromPort, toPort].every((n) => Number.isInteger(n) && n >= -1 && n <= 255))
          throw invalidParameter(`Invalid value for ICMP type or code: ${fromPort}, ${toPort}`);
      }
      const base = { protocol, ...(fromPort !== undefined ? { fromPort, toPort: toPort! } : {}) };
      const described = (prefix: string) => {
        const d = params.get(`${prefix}.Description`);
        return d !== undefined ? { description: d } : {};
      };
      for (let j = 1; params.get(`${p}.IpRanges.${j}.CidrIp`) !== undefined; j++) {
        const cidr = params.get(`${p}.IpRanges.${j}.CidrIp`)!;
        if (!ipv4Cidr(cidr)) throw invalidParameter(`CIDR block ${cidr} is malformed`);
        out.push({ ...base, source: { cidrIpv4: cidr }, ...described(`${p}.IpRanges.${j}`) });
      }
      for (let j = 1; params.get(`${p}.Ipv6Ranges.${j}.CidrIpv6`) !== undefined; j++) {
        const cidr = params.get(`${p}.Ipv6Ranges.${j}.CidrIpv6`)!;
        if (!ipv6Cidr(cidr)) throw invalidParameter(`CIDR block ${cidr} is malformed`);
        out.push({ ...base, source: { cidrIpv6: cidr.toLowerCase() }, ...described(`${p}.Ipv6Ranges.${j}`) });
      }
      for (let j = 1; params.get(`${p}.PrefixListIds.${j}.PrefixListId`) !== undefined; j++) {
        const id = params.get(`${p}.PrefixListIds.${j}.PrefixListId`)!;
        // Every well-formed prefix list is taken to exist: no managed prefix list is simulated.
        if (!/^pl-[0-9a-f]{8,17}$/.test(id))
          throw new Ec2Error('InvalidPrefixListId.Malformed', `The prefix list ID '${id}' is malformed`);
        out.push({ ...base, source: { prefixListId: id }, ...described(`${p}.PrefixListIds.${j}`) });
      }
      for (let j = 1; params.get(`${p}.Groups.${j}.GroupId`) !== undefined; j++) {
        const id = params.get(`${p}.Groups.${j}.GroupId`)!;
        this.group(id);
        out.push({ ...base, source: { groupId: id }, ...described(`${p}.Groups.${j}`) });
      }
    }
    return out;
  }

  authorizeIngress(params: Ec2Params): XmlTree {
    const g = this.group(params.get('GroupId'));
    const wanted = this.permissions(params);
    if (wanted.length === 0)
      throw new Ec2Error('MissingParameter', 'The request must contain the parameter ipPermissions');
    const have = new Set(g.ingress.map(ruleKey));
    const seen = new Set<string>();
    for (const r of wanted) {
      const key = ruleKey(r);
      if (have.has(key) || seen.has(key))
        throw new Ec2Error(
          'InvalidPermission.Duplicate',
          `the specified rule "${describeRule({ ...r, ruleId: '' })}" already exists`,
        );
      seen.add(key);
    }
    const v6 = g.ingress.filter(isIpv6).length + wanted.filter((r) => 'cidrIpv6' in r.source).length;
    const v4 = g.ingress.length + wanted.length - v6;
    if (v4 > this.limits.inboundRulesPerGroup || v6 > this.limits.inboundRulesPerGroup)
      throw new Ec2Error(
        'RulesPerSecurityGroupLimitExceeded',
        'The maximum number of rules per security group has been reached.',
      );
    if (params.dryRun())
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    const added = wanted.map((r) => ({ ...r, ruleId: this.nextId('sgr') }));
    g.ingress.push(...added);
    return { return: true, securityGroupRuleSet: added.map((r) => this.ruleXml(g, r)) };
  }

  revokeIngress(params: Ec2Params): XmlTree {
    const g = this.group(params.get('GroupId'));
    const ruleIds = params.list('SecurityGroupRuleId');
    if (params.dryRun())
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    if (ruleIds.length > 0) {
      const unknown = ruleIds.filter((id) => !g.ingress.some((r) => r.ruleId === id));
      if (unknown.length)
        throw new Ec2Error(
          'InvalidSecurityGroupRuleId.NotFound',
          `The security group rule ID '${unknown[0]}' does not exist`,
        );
      g.ingress = g.ingress.filter((r) => !ruleIds.includes(r.ruleId));
      return { return: true };
    }
    const wanted = this.permissions(params);
    const keys = new Set(wanted.map(ruleKey));
    const known = new Set(g.ingress.map(ruleKey));
    const unknown = wanted.filter((r) => !known.has(ruleKey(r)));
    if (unknown.length === wanted.length)
      throw new Ec2Error(
        'InvalidPermission.NotFound',
        'The specified rule does not exist in this security group.',
      );
    g.ingress = g.ingress.filter((r) => !keys.has(ruleKey(r)));
    return { return: true, unknownIpPermissionSet: unknown.map((r) => this.permissionXml([r])) };
  }

  delete(params: Ec2Params): XmlTree {
    const g = this.group(params.get('GroupId'));
    if (g.groupName === 'default')
      throw new Ec2Error(
        'CannotDelete',
        `the specified group: "${g.groupId}" name: "default" cannot be deleted by a user`,
      );
    const referenced = [...this.groups.values()].some(
      (o) =>
        o !== g &&
        [...o.ingress, ...o.egress].some((r) => 'groupId' in r.source && r.source.groupId === g.groupId),
    );
    if (referenced || this.users(g.groupId).length > 0)
      throw new Ec2Error('DependencyViolation', `resource ${g.groupId} has a dependent object`);
    if (params.dryRun())
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    this.groups.delete(g.groupId);
    return { return: true, groupId: g.groupId };
  }

  describe(params: Ec2Params): XmlTree {
    const ids = params.list('GroupId');
    const names = params.list('GroupName');
    const filters: Filter[] = params.filters();
    checkFilters(filters, SG_FILTERS);
    for (const id of ids) this.group(id);
    for (const name of names)
      if (![...this.groups.values()].some((g) => g.groupName === name))
        throw new Ec2Error(
          'InvalidGroup.NotFound',
          `The security group '${name}' does not exist in default VPC '${this.network.vpcId}'`,
        );
    if (params.dryRun())
      throw new Ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
    const selected = [...this.groups.values()].filter(
      (g) =>
        (ids.length === 0 || ids.includes(g.groupId)) &&
        (names.length === 0 || names.includes(g.groupName)) &&
        matches(this.resource(g), filters),
    );
    return { securityGroupInfo: selected.map((g) => this.groupXml(g)) };
  }

  private resource(g: SgRecord): Ec2Resource {
    const ingress = g.ingress;
    const sources = (k: string) =>
      ingress.flatMap((r) => (k in r.source ? [(r.source as Record<string, string>)[k]!] : []));
    return {
      id: g.groupId,
      tags: g.tags,
      xml: {},
      filters: new Map([
        ['group-id', [g.groupId]],
        ['group-name', [g.groupName]],
        ['description', [g.description]],
        ['vpc-id', [g.vpcId]],
        ['owner-id', [SIM_ACCOUNT_ID]],
        ['ip-permission.protocol', ingress.map((r) => r.protocol)],
        ['ip-permission.from-port', ingress.map((r) => String(r.fromPort ?? -1))],
        ['ip-permission.to-port', ingress.map((r) => String(r.toPort ?? -1))],
        ['ip-permission.cidr', sources('cidrIpv4')],
        ['ip-permission.ipv6-cidr', sources('cidrIpv6')],
        ['ip-permission.prefix-list-id', sources('prefixListId')],
        ['ip-permission.group-id', sources('groupId')],
      ]),
    };
  }

  /** EC2 describes rules grouped by protocol and port range, each group with its sources. */
  private permissionXml(rules: readonly Omit<SgRule, 'ruleId'>[]): XmlTree {
    const [first] = rules;
    const desc = (r: Omit<SgRule, 'ruleId'>) =>
      r.description !== undefined ? { description: r.description } : {};
    return {
      ipProtocol: first?.protocol,
      fromPort: first?.fromPort,
      toPort: first?.toPort,
      groups: rules.flatMap((r) =>
        'groupId' in r.source ? [{ userId: SIM_ACCOUNT_ID, groupId: r.source.groupId, ...desc(r) }] : [],
      ),
      ipRanges: rules.flatMap((r) =>
        'cidrIpv4' in r.source ? [{ cidrIp: r.source.cidrIpv4, ...desc(r) }] : [],
      ),
      ipv6Ranges: rules.flatMap((r) =>
        'cidrIpv6' in r.source ? [{ cidrIpv6: r.source.cidrIpv6, ...desc(r) }] : [],
      ),
      prefixListIds: rules.flatMap((r) =>
        'prefixListId' in r.source ? [{ prefixListId: r.source.prefixListId, ...desc(r) }] : [],
      ),
    };
  }

  private grouped(rules: readonly SgRule[]): XmlTree[] {
    const byPorts = new Map<string, SgRule[]>();
    for (const r of rules) {
      const key = `${r.protocol}|${r.fromPort ?? ''}|${r.toPort ?? ''}`;
      byPorts.set(key, [...(byPorts.get(key) ?? []), r]);
    }
    return [...byPorts.values()].map((rs) => this.permissionXml(rs));
  }

  private groupXml(g: SgRecord): XmlTree {
    return {
      ownerId: SIM_ACCOUNT_ID,
      groupId: g.groupId,
      groupName: g.groupName,
      groupDescription: g.description,
      vpcId: g.vpcId,
      securityGroupArn: this.arn(g.groupId),
      ipPermissions: this.grouped(g.ingress),
      ipPermissionsEgress: this.grouped(g.egress),
      tagSet: Object.entries(g.tags).map(([key, value]) => ({ key, value })),
    };
  }

  private ruleXml(g: SgRecord, r: SgRule): XmlTree {
    const s = r.source;
    return {
      securityGroupRuleId: r.ruleId,
      groupId: g.groupId,
      groupOwnerId: SIM_ACCOUNT_ID,
      isEgress: false,
      ipProtocol: r.protocol,
      fromPort: r.fromPort ?? -1,
      toPort: r.toPort ?? -1,
      ...('cidrIpv4' in s ? { cidrIpv4: s.cidrIpv4 } : {}),
      ...('cidrIpv6' in s ? { cidrIpv6: s.cidrIpv6 } : {}),
      ...('prefixListId' in s ? { prefixListId: s.prefixListId } : {}),
      ...('groupId' in s ? { referencedGroupInfo: { groupId: s.groupId, userId: SIM_ACCOUNT_ID } } : {}),
      ...(r.description !== undefined ? { description: r.description } : {}),
    };
  }
}
