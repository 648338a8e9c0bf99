import { DEFAULT_LIMITS, SIM_ACCOUNT_ID, SIM_REGION, simNetwork } from '../config.js';
import type { BehaviourOptions, SimLimits, SimNetwork } from '../config.js';
import { SimError, validation } from '../errors.js';
import { Prng } from '../prng.js';
import type { Action } from '@aws-sdk/client-elastic-load-balancing-v2';
import type {
  ListenerRecord,
  LoadBalancerRecord,
  RuleRecord,
  TargetGroupRecord,
  TrustStoreRecord,
} from './model.js';

const ARN_PATTERNS = {
  loadbalancer:
    /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:loadbalancer\/(app|net)\/[A-Za-z0-9-]+\/[0-9a-f]+$/,
  targetgroup: /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:targetgroup\/[A-Za-z0-9-]+\/[0-9a-f]+$/,
  listener:
    /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:listener\/(app|net)\/[A-Za-z0-9-]+\/[0-9a-f]+\/[0-9a-f]+$/,
  rule: /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:listener-rule\/(app|net)\/[A-Za-z0-9-]+\/[0-9a-f]+\/[0-9a-f]+\/[0-9a-f]+$/,
  truststore: /^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:truststore\/[A-Za-z0-9-]+\/[0-9a-f]+$/,
} as const;

export type ResourceKind = keyof typeof ARN_PATTERNS;

export function arnKind(arn: string): ResourceKind | undefined {
  return (Object.keys(ARN_PATTERNS) as ResourceKind[]).find((k) => ARN_PATTERNS[k].test(arn));
}

export interface StoreOptions extends BehaviourOptions {
  seed?: number;
}

/**
 * The EC2 simulator's security groups, when the two run linked (dev/ec2-sim/index.ts): then a
 * load balancer can only name groups that exist there, and a group it lets go of stays in use
 * (its network interfaces linger) for `releaseAttempts` DeleteSecurityGroup calls.
 */
export interface SecurityGroupDirectory {
  exists(groupId: string): boolean;
  releaseAttempts: number;
}

/** All mutable simulator state plus the lookups every action needs. */
export class Store {
  readonly loadBalancers = new Map<string, LoadBalancerRecord>();
  readonly targetGroups = new Map<string, TargetGroupRecord>();
  readonly listeners = new Map<string, ListenerRecord>();
  readonly rules = new Map<string, RuleRecord>();
  readonly trustStores = new Map<string, TrustStoreRecord>();
  readonly tags = new Map<string, Map<string, string>>();
  readonly region: string;
  readonly accountId = SIM_ACCOUNT_ID;
  /** The Region's VPC and subnets (SIM_NETWORK in SIM_REGION). */
  readonly network: SimNetwork;
  readonly limits: SimLimits;
  readonly provisioningMs: number;
  readonly initialMs: number;
  readonly drainingMs: number;
  readonly now: () => number;
  private seq = 0;
  private readonly ids: Prng;
  /** Set by the link with the EC2 simulator; absent: any well-formed group ID is taken to exist. */
  securityGroupDirectory: SecurityGroupDirectory | undefined;
  /** Groups a load balancer let go of, with the DeleteSecurityGroup calls they still refuse. */
  private readonly lingering = new Map<string, number>();

  constructor(options: StoreOptions = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.region = options.region ?? SIM_REGION;
    this.network = simNetwork(this.region);
    this.provisioningMs = options.provisioningMs ?? 0;
    this.initialMs = options.targetHealth?.initialMs ?? 0;
    this.drainingMs = options.targetHealth?.drainingMs ?? 0;
    this.now = options.now ?? Date.now;
    // A different stream from the fault dice, so fault settings never shift the generated IDs.
    this.ids = new Prng(((options.seed ?? 1) ^ 0x5eed1d5) >>> 0);
  }

  /** A load balancer stopped using these groups: their interfaces linger a while (see above). */
  releaseSecurityGroups(groupIds: readonly string[]): void {
    const attempts = this.securityGroupDirectory?.releaseAttempts ?? 0;
    if (attempts > 0) for (const id of groupIds) this.lingering.set(id, attempts);
  }

  /**
   * What holds a group (for EC2's DependencyViolation): the load balancers listing it, or its
   * lingering interfaces, each such question using up one of their attempts.
   */
  securityGroupUsers(groupId: string): string[] {
    const users = [...this.loadBalancers.values()]
      .filter((lb) => lb.securityGroups.includes(groupId))
      .map((lb) => lb.arn);
    if (users.length > 0) return users;
    const left = this.lingering.get(groupId) ?? 0;
    if (left <= 0) return [];
    if (left === 1) this.lingering.delete(groupId);
    else this.lingering.set(groupId, left - 1);
    return [`eni-of-a-deleted-load-balancer`];
  }

  /** Forgets every resource (limits, clock and the ID stream carry on). */
  clear(): void {
    this.loadBalancers.clear();
    this.targetGroups.clear();
    this.listeners.clear();
    this.rules.clear();
    this.trustStores.clear();
    this.tags.clear();
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** The last sequence number handed out (persisted, so a restored store keeps creation order). */
  get lastSeq(): number {
    return this.seq;
  }

  /** After a restore: later records sort after the restored ones. */
  continueSeqFrom(seq: number): void {
    this.seq = Math.max(this.seq, seq);
  }

  newHexId(): string {
    return this.ids.hex(16);
  }

  newDigits(length: number): string {
    return this.ids.digits(length);
  }

  arn(resource: string): string {
    return `arn:aws:elasticloadbalancing:${this.region}:${this.accountId}:${resource}`;
  }

  loadBalancer(arn: string | undefined, field = 'LoadBalancerArn'): LoadBalancerRecord {
    const lb = this.lookup(this.loadBalancers, 'loadbalancer', arn, field);
    if (!lb) throw new SimError('LoadBalancerNotFound', `Load balancer '${arn}' not found`);
    return lb;
  }

  targetGroup(arn: string | undefined, field = 'TargetGroupArn'): TargetGroupRecord {
    const tg = this.lookup(this.targetGroups, 'targetgroup', arn, field);
    if (!tg) throw new SimError('TargetGroupNotFound', `Target groups '${arn}' not found`);
    return tg;
  }

  listener(arn: string | undefined, field = 'ListenerArn'): ListenerRecord {
    const listener = this.lookup(this.listeners, 'listener', arn, field);
    if (!listener) throw new SimError('ListenerNotFound', `Listener '${arn}' not found`);
    return listener;
  }

  rule(arn: string | undefined, field = 'RuleArn'): RuleRecord {
    const rule = this.lookup(this.rules, 'rule', arn, field);
    if (!rule) throw new SimError('RuleNotFound', `One or more rules not found`);
    return rule;
  }

  trustStore(arn: string | undefined, field = 'TrustStoreArn'): TrustStoreRecord {
    const ts = this.lookup(this.trustStores, 'truststore', arn, field);
    if (!ts) throw new SimError('TrustStoreNotFound', `Trust store '${arn}' not found`);
    return ts;
  }

  /** Validates the ARN's shape first: AWS answers ValidationError, not NotFound, for garbage. */
  lookup<T>(
    records: Map<string, T>,
    kind: ResourceKind,
    arn: string | undefined,
    field: string,
  ): T | undefined {
    if (arn === undefined || arn === '') {
      throw validation(
        `1 validation error detected: Value null at '${field}' failed to satisfy constraint: Member must not be null`,
      );
    }
    if (!ARN_PATTERNS[kind].test(arn)) throw validation(`'${arn}' is not a valid ${kind} ARN`);
    return records.get(arn);
  }

  listenersOf(lbArn: string): ListenerRecord[] {
    return [...this.listeners.values()].filter((l) => l.loadBalancerArn === lbArn);
  }

  rulesOf(listenerArn: string): RuleRecord[] {
    return [...this.rules.values()].filter((r) => r.listenerArn === listenerArn);
  }

  /** Load balancers that route to a target group, derived from listeners' and rules' actions. */
  loadBalancersOfTargetGroup(tgArn: string): string[] {
    const out = new Set<string>();
    for (const rule of this.rules.values()) {
      if (!forwardTargetGroups(rule.actions).includes(tgArn)) continue;
      const listener = this.listeners.get(rule.listenerArn);
      if (listener) out.add(listener.loadBalancerArn);
    }
    return [...out].sort(
      (a, b) => (this.loadBalancers.get(a)?.seq ?? 0) - (this.loadBalancers.get(b)?.seq ?? 0),
    );
  }

  deleteTags(arn: string): void {
    this.tags.delete(arn);
  }
}

export function forwardTargetGroups(actions: readonly Action[]): string[] {
  const out: string[] = [];
  for (const action of actions) {
    if (action.Type !== 'forward') continue;
    if (action.TargetGroupArn) out.push(action.TargetGroupArn);
    for (const t of action.ForwardConfig?.TargetGroups ?? [])
      if (t.TargetGroupArn) out.push(t.TargetGroupArn);
  }
  return [...new Set(out)];
}

/** Opaque paging markers that survive deletions between pages: they name the last seq returned. */
export function paginate<T extends { seq: number }>(
  items: readonly T[],
  marker: string | undefined,
  pageSize: number | undefined,
  keepOrder = false,
): { page: T[]; nextMarker?: string } {
  if (keepOrder) return paginateByOffset(items, marker, pageSize);
  if (pageSize !== undefined && (pageSize < 1 || pageSize > 400)) {
    throw validation(`Page size '${pageSize}' must be between 1 and 400`);
  }
  let after = 0;
  if (marker !== undefined) {
    const decoded = /^seq:(\d+)$/.exec(Buffer.from(marker, 'base64').toString('utf8'));
    if (!decoded) throw validation(`Invalid marker '${marker}'`);
    after = Number(decoded[1]);
  }
  const sorted = [...items].sort((a, b) => a.seq - b.seq).filter((i) => i.seq > after);
  const size = pageSize ?? 400;
  const page = sorted.slice(0, size);
  const last = page[page.length - 1];
  if (sorted.length > size && last) {
    return { page, nextMarker: Buffer.from(`seq:${last.seq}`).toString('base64') };
  }
  return { page };
}

/** For listings whose order is not creation order (rules by priority): the marker is an offset. */
function paginateByOffset<T>(items: readonly T[], marker: string | undefined, pageSize: number | undefined) {
  if (pageSize !== undefined && (pageSize < 1 || pageSize > 400)) {
    throw validation(`Page size '${pageSize}' must be between 1 and 400`);
  }
  let offset = 0;
  if (marker !== undefined) {
    const decoded = /^off:(\d+)$/.exec(Buffer.from(marker, 'base64').toString('utf8'));
    if (!decoded) throw validation(`Invalid marker '${marker}'`);
    offset = Number(decoded[1]);
  }
  const size = pageSize ?? 400;
  const page = items.slice(offset, offset + size);
  const end = offset + size;
  return end < items.length ? { page, nextMarker: Buffer.from(`off:${end}`).toString('base64') } : { page };
}
