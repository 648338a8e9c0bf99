/**
 * The Global Accelerator simulator's state and rules: standard accelerators, their listeners and
 * endpoint groups, and the accelerators' tags. Every change to an accelerator or what hangs off it
 * puts its Status to IN_PROGRESS for `deployMs`; an accelerator is deleted only once disabled,
 * DEPLOYED and without listeners; a listener only without endpoint groups.
 */
import { createHash } from 'node:crypto';
import { SIM_ACCOUNT_ID } from '../elbv2-sim/config.js';
import { Prng } from '../elbv2-sim/prng.js';
import { JsonSimError, requiredString, tagList, type JsonInput } from '../json-sim/server.js';
import {
  DEFAULT_GA_LIMITS,
  type AcceleratorRecord,
  type EndpointGroupRecord,
  type EndpointRecord,
  type GaLimits,
  type ListenerRecord,
  type PortRangeRecord,
  type SimEndpointView,
  type TokenRecord,
} from './model.js';
import * as v from './validate.js';

const LIMIT = 'LimitExceededException';
const ACCELERATOR_ARN = new RegExp(`^arn:aws:globalaccelerator::\\d{12}:accelerator/[0-9a-f-]{36}$`);
const LISTENER_ARN = /\/listener\/[0-9a-f]{8}$/;
const ENDPOINT_GROUP_ARN = /\/endpoint-group\/[0-9a-f]{12}$/;

export interface GaStateOptions {
  seed?: number;
  /** How long a change keeps the accelerator IN_PROGRESS (default 2000 ms; AWS takes minutes). */
  deployMs?: number;
  limits?: Partial<GaLimits>;
  /** An endpoint's load balancer, by ARN (unset: any well-formed one of the group's Region). */
  endpoints?: (arn: string) => SimEndpointView | undefined;
  now?: () => number;
}

export interface GaSnapshotListener {
  ListenerArn: string;
  PortRanges: PortRangeRecord[];
  Protocol: string;
  ClientAffinity: string;
  EndpointGroups: object[];
}

export interface GaSnapshotAccelerator {
  AcceleratorArn: string;
  Name: string;
  Enabled: boolean;
  Status: 'IN_PROGRESS' | 'DEPLOYED';
  IpAddressType: string;
  DnsName: string;
  /** Its static IP addresses, IPv4 first. */
  IpAddresses: string[];
  Tags: Record<string, string>;
  Listeners: GaSnapshotListener[];
}

const seconds = (ms: number) => ms / 1000;

export class GaState {
  readonly accelerators = new Map<string, AcceleratorRecord>();
  readonly listeners = new Map<string, ListenerRecord>();
  readonly endpointGroups = new Map<string, EndpointGroupRecord>();
  readonly tags = new Map<string, Record<string, string>>();
  /** Idempotency tokens, by `<action> <scope> <token>`. */
  readonly tokens = new Map<string, TokenRecord>();
  readonly limits: GaLimits;
  deployMs: number;
  private seq = 0;
  private readonly ids: Prng;
  private readonly seed: number;
  /** How many accelerators each name was given in this process (its next identity's index). */
  private readonly createdByName = new Map<string, number>();
  private readonly now: () => number;
  private readonly resolve: ((arn: string) => SimEndpointView | undefined) | undefined;

  constructor(options: GaStateOptions = {}) {
    this.seed = options.seed ?? 1;
    this.ids = new Prng(this.seed);
    this.deployMs = options.deployMs ?? 2000;
    this.limits = { ...DEFAULT_GA_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.resolve = options.endpoints;
  }

  get lastSeq(): number {
    return this.seq;
  }

  continueSeqFrom(seq: number): void {
    this.seq = Math.max(this.seq, seq);
  }

  /** Ends every deployment now (tests that do not want to wait for `deployMs`). */
  finishDeployments(): void {
    const now = this.now();
    for (const a of this.accelerators.values()) a.deployedAt = Math.min(a.deployedAt, now);
  }

  status(a: AcceleratorRecord): 'IN_PROGRESS' | 'DEPLOYED' {
    return this.now() < a.deployedAt ? 'IN_PROGRESS' : 'DEPLOYED';
  }

  // ---- lookups ------------------------------------------------------------------------------

  private accelerator(arn: unknown): AcceleratorRecord {
    const a = typeof arn === 'string' ? this.accelerators.get(arn) : undefined;
    if (!a) throw new JsonSimError('AcceleratorNotFoundException', `Accelerator not found: ${String(arn)}`);
    return a;
  }

  private listener(arn: unknown): ListenerRecord {
    const l = typeof arn === 'string' ? this.listeners.get(arn) : undefined;
    if (!l) throw new JsonSimError('ListenerNotFoundException', `Listener not found: ${String(arn)}`);
    return l;
  }

  private endpointGroup(arn: unknown): EndpointGroupRecord {
    const g = typeof arn === 'string' ? this.endpointGroups.get(arn) : undefined;
    if (!g)
      throw new JsonSimError('EndpointGroupNotFoundException', `Endpoint group not found: ${String(arn)}`);
    return g;
  }

  private listenersOf(acceleratorArn: string): ListenerRecord[] {
    return [...this.listeners.values()].filter((l) => l.acceleratorArn === acceleratorArn);
  }

  private groupsOf(listenerArn: string): EndpointGroupRecord[] {
    return [...this.endpointGroups.values()].filter((g) => g.listenerArn === listenerArn);
  }

  /** A change to the accelerator or anything under it: IN_PROGRESS for `deployMs`. */
  private touch(a: AcceleratorRecord): void {
    const now = this.now();
    a.modifiedAt = now;
    a.deployedAt = now + this.deployMs;
  }

  private acceleratorOfListener(l: ListenerRecord): AcceleratorRecord {
    return this.accelerator(l.acceleratorArn);
  }

  // ---- idempotency --------------------------------------------------------------------------

  /** The ARN an earlier request with this token made, if it still exists; a different request is refused. */
  private reuse(
    key: string | undefined,
    request: string,
    exists: (arn: string) => boolean,
  ): string | undefined {
    if (!key) return undefined;
    const used = this.tokens.get(key);
    if (!used || !exists(used.arn)) return undefined;
    if (used.request !== request) {
      throw v.invalid('The IdempotencyToken was already used with a request of other parameters');
    }
    return used.arn;
  }

  private tokenKey(action: string, scope: string, input: JsonInput): string | undefined {
    const token = input.IdempotencyToken;
    if (token === undefined) return undefined;
    if (typeof token !== 'string' || token.length > 255) throw v.invalid('Invalid IdempotencyToken');
    return `${action} ${scope} ${token}`;
  }

  // ---- accelerators -------------------------------------------------------------------------

  private unusedAddress(make: () => string): string {
    const used = new Set([...this.accelerators.values()].flatMap((a) => [...a.ipv4, ...a.ipv6]));
    for (;;) {
      const ip = make();
      if (!used.has(ip)) return ip;
    }
  }

  private ipv6Pair(ids: Prng): string[] {
    const make = () => `2600:9000:a${ids.hex(3)}:${[0, 1, 2, 3, 4, 5].map(() => ids.hex(4)).join(':')}`;
    return [this.unusedAddress(make), this.unusedAddress(make)];
  }

  createAccelerator(input: JsonInput): object {
    const name = v.acceleratorName(input.Name);
    const ipAddressType = v.ipAddressType(input.IpAddressType, 'IPV4');
    const enabled = v.optionalBoolean(input, 'Enabled') ?? true;
    if (input.IpAddresses !== undefined) {
      throw v.invalid('IpAddresses name addresses of your own (BYOIP) address pool: none is provisioned');
    }
    const tags = tagsOf(input.Tags);
    const key = this.tokenKey('CreateAccelerator', '', input);
    const request = JSON.stringify([name, ipAddressType, enabled, tags]);
    const again = this.reuse(key, request, (arn) => this.accelerators.has(arn));
    if (again) return { Accelerator: this.wireAccelerator(this.accelerator(again)) };
    if (this.accelerators.size >= this.limits.acceleratorsPerAccount) {
      throw new JsonSimError(
        LIMIT,
        `The account has the maximum number of accelerators (${this.limits.acceleratorsPerAccount})`,
      );
    }
    // An accelerator's identity (ARN, addresses, DNS name) follows from its name, not from the
    // order of creation: two objects reconciled at once get the same entry points in every fresh
    // run, and the README can show the one `minimal-ingress` gets.
    const nth = this.createdByName.get(name) ?? 0;
    this.createdByName.set(name, nth + 1);
    const ids = new Prng(identitySeed(this.seed, name, nth));
    let arn: string;
    do {
      const id = [8, 4, 4, 4, 12].map((n) => ids.hex(n)).join('-');
      arn = `arn:aws:globalaccelerator::${SIM_ACCOUNT_ID}:accelerator/${id}`;
    } while (this.accelerators.has(arn));
    const octet = () => ids.int(0, 255);
    const ipv4 = [
      this.unusedAddress(() => `75.2.${octet()}.${octet()}`),
      this.unusedAddress(() => `99.83.${octet()}.${octet()}`),
    ];
    const now = this.now();
    const a: AcceleratorRecord = {
      seq: ++this.seq,
      arn,
      name,
      ipAddressType,
      enabled,
      ipv4,
      ipv6: ipAddressType === 'DUAL_STACK' ? this.ipv6Pair(ids) : [],
      dnsHex: ids.hex(16),
      createdAt: now,
      modifiedAt: now,
      deployedAt: now + this.deployMs,
      events: [],
    };
    this.accelerators.set(arn, a);
    this.tags.set(arn, tags);
    if (key) this.tokens.set(key, { arn, request });
    return { Accelerator: this.wireAccelerator(a, true) };
  }

  describeAccelerator(input: JsonInput): object {
    return { Accelerator: this.wireAccelerator(this.accelerator(requiredArn(input, 'AcceleratorArn'))) };
  }

  listAccelerators(input: JsonInput): object {
    const page = paginate([...this.accelerators.values()], input);
    return {
      Accelerators: page.items.map((a) => this.wireAccelerator(a)),
      ...(page.next ? { NextToken: page.next } : {}),
    };
  }

  updateAccelerator(input: JsonInput): object {
    const a = this.accelerator(requiredArn(input, 'AcceleratorArn'));
    const name = input.Name === undefined ? a.name : v.acceleratorName(input.Name);
    const ipAddressType = v.ipAddressType(input.IpAddressType, a.ipAddressType);
    const enabled = v.optionalBoolean(input, 'Enabled') ?? a.enabled;
    if (input.IpAddresses !== undefined) {
      throw v.invalid('IpAddresses name addresses of your own (BYOIP) address pool: none is provisioned');
    }
    const changed = name !== a.name || ipAddressType !== a.ipAddressType || enabled !== a.enabled;
    if (ipAddressType !== a.ipAddressType) {
      a.ipv6 = ipAddressType === 'DUAL_STACK' ? this.ipv6Pair(this.ids) : [];
      a.events = [
        ...a.events,
        { message: `Updating the IP address type to ${ipAddressType}`, at: this.now() },
      ].slice(-10);
    }
    Object.assign(a, { name, ipAddressType, enabled });
    if (changed) this.touch(a);
    return { Accelerator: this.wireAccelerator(a, changed) };
  }

  deleteAccelerator(input: JsonInput): object {
    const a = this.accelerator(requiredArn(input, 'AcceleratorArn'));
    if (a.enabled) {
      throw new JsonSimError(
        'AcceleratorNotDisabledException',
        `The accelerator ${a.arn} is enabled: disable it (UpdateAccelerator with Enabled false) and wait until its Status is DEPLOYED`,
      );
    }
    if (this.status(a) !== 'DEPLOYED') {
      throw new JsonSimError(
        'AcceleratorNotDisabledException',
        `The accelerator ${a.arn} is not yet fully disabled: its Status is IN_PROGRESS`,
      );
    }
    if (this.listenersOf(a.arn).length > 0) {
      throw new JsonSimError(
        'AssociatedListenerFoundException',
        `The accelerator ${a.arn} has listeners: delete them first`,
      );
    }
    this.accelerators.delete(a.arn);
    this.tags.delete(a.arn);
    return {};
  }

  wireAccelerator(a: AcceleratorRecord, changing = false): object {
    const dual = a.ipAddressType === 'DUAL_STACK';
    return {
      AcceleratorArn: a.arn,
      Name: a.name,
      IpAddressType: a.ipAddressType,
      Enabled: a.enabled,
      IpSets: [
        { IpFamily: 'IPv4', IpAddresses: [...a.ipv4], IpAddressFamily: 'IPv4' },
        ...(dual ? [{ IpFamily: 'IPv6', IpAddresses: [...a.ipv6], IpAddressFamily: 'IPv6' }] : []),
      ],
      DnsName: `a${a.dnsHex}.awsglobalaccelerator.com`,
      ...(dual ? { DualStackDnsName: `a${a.dnsHex}.dualstack.awsglobalaccelerator.com` } : {}),
      Status: changing ? 'IN_PROGRESS' : this.status(a),
      CreatedTime: seconds(a.createdAt),
      LastModifiedTime: seconds(a.modifiedAt),
      ...(a.events.length
        ? { Events: a.events.map((e) => ({ Message: e.message, Timestamp: seconds(e.at) })) }
        : {}),
    };
  }

  // ---- tags (accelerators only) -------------------------------------------------------------

  private taggable(input: JsonInput): Record<string, string> {
    const arn = requiredArn(input, 'ResourceArn');
    if (this.listeners.has(arn) || this.endpointGroups.has(arn)) {
      throw v.invalid(`Tags are supported on accelerators only, not on ${arn}`);
    }
    if (LISTENER_ARN.test(arn))
      throw new JsonSimError('ListenerNotFoundException', `Listener not found: ${arn}`);
    if (ENDPOINT_GROUP_ARN.test(arn)) {
      throw new JsonSimError('EndpointGroupNotFoundException', `Endpoint group not found: ${arn}`);
    }
    if (!ACCELERATOR_ARN.test(arn)) throw v.invalid(`Invalid resource ARN: ${arn}`);
    this.accelerator(arn);
    return this.tags.get(arn)!;
  }

  listTags(input: JsonInput): object {
    return { Tags: tagList(this.taggable(input)) };
  }

  tagResource(input: JsonInput): object {
    const tags = this.taggable(input);
    if (!Array.isArray(input.Tags)) throw v.invalid('Tags is required');
    Object.assign(tags, tagsOf(input.Tags));
    return {};
  }

  untagResource(input: JsonInput): object {
    const tags = this.taggable(input);
    if (!Array.isArray(input.TagKeys)) throw v.invalid('TagKeys is required');
    for (const k of input.TagKeys as unknown[]) delete tags[String(k)];
    return {};
  }

  // ---- listeners ----------------------------------------------------------------------------

  /** Ranges of the accelerator's other listeners of the same protocol must not overlap these. */
  private checkPortsFree(
    a: AcceleratorRecord,
    l: Pick<ListenerRecord, 'portRanges' | 'protocol'>,
    self?: string,
  ) {
    for (const other of this.listenersOf(a.arn)) {
      if (other.arn === self || other.protocol !== l.protocol) continue;
      for (const r of l.portRanges) {
        const clash = other.portRanges.find((o) => v.overlaps(o, r));
        if (clash) {
          throw new JsonSimError(
            v.INVALID_PORTS,
            `The port range ${v.show(r)} overlaps ${v.show(clash)} of ${l.protocol} listener ${other.arn}`,
          );
        }
      }
    }
  }

  createListener(input: JsonInput): object {
    const a = this.accelerator(requiredArn(input, 'AcceleratorArn'));
    const portRanges = v.portRanges(input.PortRanges, this.limits.portRangesPerListener);
    const protocol = v.protocol(input.Protocol);
    const clientAffinity = v.clientAffinity(input.ClientAffinity, 'NONE');
    const key = this.tokenKey('CreateListener', a.arn, input);
    const request = JSON.stringify([portRanges, protocol, clientAffinity]);
    const again = this.reuse(key, request, (arn) => this.listeners.has(arn));
    if (again) return { Listener: wireListener(this.listener(again)) };
    if (this.listenersOf(a.arn).length >= this.limits.listenersPerAccelerator) {
      throw new JsonSimError(
        LIMIT,
        `The accelerator has the maximum number of listeners (${this.limits.listenersPerAccelerator})`,
      );
    }
    this.checkPortsFree(a, { portRanges, protocol });
    const l: ListenerRecord = {
      seq: ++this.seq,
      arn: `${a.arn}/listener/${this.ids.hex(8)}`,
      acceleratorArn: a.arn,
      portRanges,
      protocol,
      clientAffinity,
    };
    this.listeners.set(l.arn, l);
    if (key) this.tokens.set(key, { arn: l.arn, request });
    this.touch(a);
    return { Listener: wireListener(l) };
  }

  describeListener(input: JsonInput): object {
    return { Listener: wireListener(this.listener(requiredArn(input, 'ListenerArn'))) };
  }

  listListeners(input: JsonInput): object {
    const a = this.accelerator(requiredArn(input, 'AcceleratorArn'));
    const page = paginate(this.listenersOf(a.arn), input);
    return { Listeners: page.items.map(wireListener), ...(page.next ? { NextToken: page.next } : {}) };
  }

  updateListener(input: JsonInput): object {
    const l = this.listener(requiredArn(input, 'ListenerArn'));
    const a = this.acceleratorOfListener(l);
    const next = {
      portRanges:
        input.PortRanges === undefined
          ? l.portRanges
          : v.portRanges(input.PortRanges, this.limits.portRangesPerListener),
      protocol: input.Protocol === undefined ? l.protocol : v.protocol(input.Protocol),
      clientAffinity: v.clientAffinity(input.ClientAffinity, l.clientAffinity),
    };
    this.checkPortsFree(a, next, l.arn);
    const changed =
      JSON.stringify([next.portRanges, next.protocol, next.clientAffinity]) !==
      JSON.stringify([l.portRanges, l.protocol, l.clientAffinity]);
    Object.assign(l, next);
    if (changed) this.touch(a);
    return { Listener: wireListener(l) };
  }

  deleteListener(input: JsonInput): object {
    const l = this.listener(requiredArn(input, 'ListenerArn'));
    if (this.groupsOf(l.arn).length > 0) {
      throw new JsonSimError(
        'AssociatedEndpointGroupFoundException',
        `The listener ${l.arn} has endpoint groups: delete them first`,
      );
    }
    this.listeners.delete(l.arn);
    this.touch(this.acceleratorOfListener(l));
    return {};
  }

  // ---- endpoint groups ----------------------------------------------------------------------

  private endpointContext(region: string): v.EndpointContext {
    return { region, ...(this.resolve ? { resolve: this.resolve } : {}) };
  }

  createEndpointGroup(input: JsonInput): object {
    const l = this.listener(requiredArn(input, 'ListenerArn'));
    const a = this.acceleratorOfListener(l);
    const region = v.region(input.EndpointGroupRegion);
    const endpoints = v.endpoints(
      input.EndpointConfigurations,
      this.endpointContext(region),
      this.limits.endpointsPerEndpointGroup,
    );
    const hc = v.healthCheck(input);
    const trafficDial = v.trafficDial(input.TrafficDialPercentage, 100);
    const portOverrides = v.portOverrides(input.PortOverrides, l.portRanges);
    const key = this.tokenKey('CreateEndpointGroup', l.arn, input);
    const request = JSON.stringify([region, endpoints, hc, trafficDial, portOverrides]);
    const again = this.reuse(key, request, (arn) => this.endpointGroups.has(arn));
    if (again) return { EndpointGroup: this.wireEndpointGroup(this.endpointGroup(again)) };
    const siblings = this.groupsOf(l.arn);
    if (siblings.some((g) => g.region === region)) {
      throw new JsonSimError(
        'EndpointGroupAlreadyExistsException',
        `The listener ${l.arn} already has an endpoint group in ${region}`,
      );
    }
    if (siblings.length >= this.limits.endpointGroupsPerListener) {
      throw new JsonSimError(
        LIMIT,
        `The listener has the maximum number of endpoint groups (${this.limits.endpointGroupsPerListener})`,
      );
    }
    const g: EndpointGroupRecord = {
      seq: ++this.seq,
      arn: `${l.arn}/endpoint-group/${this.ids.hex(12)}`,
      listenerArn: l.arn,
      region,
      endpoints,
      trafficDial,
      ...(hc.healthCheckPort !== undefined ? { healthCheckPort: hc.healthCheckPort } : {}),
      healthCheckProtocol: hc.healthCheckProtocol ?? 'TCP',
      ...(hc.healthCheckPath !== undefined ? { healthCheckPath: hc.healthCheckPath } : {}),
      healthCheckIntervalSeconds: hc.healthCheckIntervalSeconds ?? 30,
      thresholdCount: hc.thresholdCount ?? 3,
      portOverrides,
    };
    this.endpointGroups.set(g.arn, g);
    if (key) this.tokens.set(key, { arn: g.arn, request });
    this.touch(a);
    return { EndpointGroup: this.wireEndpointGroup(g) };
  }

  describeEndpointGroup(input: JsonInput): object {
    return {
      EndpointGroup: this.wireEndpointGroup(this.endpointGroup(requiredArn(input, 'EndpointGroupArn'))),
    };
  }

  listEndpointGroups(input: JsonInput): object {
    const l = this.listener(requiredArn(input, 'ListenerArn'));
    const page = paginate(this.groupsOf(l.arn), input);
    return {
      EndpointGroups: page.items.map((g) => this.wireEndpointGroup(g)),
      ...(page.next ? { NextToken: page.next } : {}),
    };
  }

  /** Only the fields given change; EndpointConfigurations, when given, replaces the whole list. */
  updateEndpointGroup(input: JsonInput): object {
    const g = this.endpointGroup(requiredArn(input, 'EndpointGroupArn'));
    const l = this.listener(g.listenerArn);
    const before = JSON.stringify(g);
    const endpoints =
      input.EndpointConfigurations === undefined
        ? g.endpoints
        : v.endpoints(
            input.EndpointConfigurations,
            this.endpointContext(g.region),
            this.limits.endpointsPerEndpointGroup,
          );
    const hc = v.healthCheck(input);
    const trafficDial = v.trafficDial(input.TrafficDialPercentage, g.trafficDial);
    const portOverrides =
      input.PortOverrides === undefined
        ? g.portOverrides
        : v.portOverrides(input.PortOverrides, l.portRanges);
    Object.assign(g, hc, { endpoints, trafficDial, portOverrides });
    if (JSON.stringify(g) !== before) this.touch(this.acceleratorOfListener(l));
    return { EndpointGroup: this.wireEndpointGroup(g) };
  }

  deleteEndpointGroup(input: JsonInput): object {
    const g = this.endpointGroup(requiredArn(input, 'EndpointGroupArn'));
    this.endpointGroups.delete(g.arn);
    this.touch(this.acceleratorOfListener(this.listener(g.listenerArn)));
    return {};
  }

  /** Adds endpoints, or updates the weight and client IP preservation of ones already there. */
  addEndpoints(input: JsonInput): object {
    const g = this.endpointGroup(requiredArn(input, 'EndpointGroupArn'));
    const added = v.endpoints(input.EndpointConfigurations ?? [], this.endpointContext(g.region), Infinity);
    if (added.length === 0) throw v.invalid('EndpointConfigurations must list at least one endpoint');
    const byId = new Map(g.endpoints.map((e) => [e.endpointId, e] as const));
    for (const e of added) byId.set(e.endpointId, e);
    v.checkEndpointCount(byId.size, this.limits.endpointsPerEndpointGroup);
    g.endpoints = [...byId.values()];
    this.touch(this.acceleratorOfListener(this.listener(g.listenerArn)));
    return { EndpointGroupArn: g.arn, EndpointDescriptions: added.map((e) => this.wireEndpoint(e)) };
  }

  /** Removes the endpoints named; one the group does not have is no error. */
  removeEndpoints(input: JsonInput): object {
    const g = this.endpointGroup(requiredArn(input, 'EndpointGroupArn'));
    const ids = input.EndpointIdentifiers;
    if (!Array.isArray(ids) || ids.length === 0)
      throw v.invalid('EndpointIdentifiers must list at least one endpoint');
    const gone = new Set((ids as Array<Record<string, unknown>>).map((i) => String(i?.EndpointId)));
    const kept = g.endpoints.filter((e) => !gone.has(e.endpointId));
    if (kept.length !== g.endpoints.length) {
      g.endpoints = kept;
      this.touch(this.acceleratorOfListener(this.listener(g.listenerArn)));
    }
    return {};
  }

  private wireEndpoint(e: EndpointRecord): object {
    const exists = !this.resolve || this.resolve(e.endpointId) !== undefined;
    return {
      EndpointId: e.endpointId,
      Weight: e.weight,
      HealthState: exists ? 'HEALTHY' : 'UNHEALTHY',
      ...(exists ? {} : { HealthReason: 'The endpoint does not exist any more' }),
      ClientIPPreservationEnabled: e.clientIpPreservation,
    };
  }

  wireEndpointGroup(g: EndpointGroupRecord): object {
    const l = this.listeners.get(g.listenerArn);
    const http = g.healthCheckProtocol !== 'TCP';
    return {
      EndpointGroupArn: g.arn,
      EndpointGroupRegion: g.region,
      EndpointDescriptions: g.endpoints.map((e) => this.wireEndpoint(e)),
      TrafficDialPercentage: g.trafficDial,
      HealthCheckPort: g.healthCheckPort ?? l?.portRanges[0]?.FromPort,
      HealthCheckProtocol: g.healthCheckProtocol,
      ...(g.healthCheckPath !== undefined || http ? { HealthCheckPath: g.healthCheckPath ?? '/' } : {}),
      HealthCheckIntervalSeconds: g.healthCheckIntervalSeconds,
      ThresholdCount: g.thresholdCount,
      PortOverrides: g.portOverrides.map((o) => ({ ...o })),
    };
  }

  /** Everything, in creation order: accelerators with their tags, listeners and endpoint groups. */
  snapshot(): GaSnapshotAccelerator[] {
    return [...this.accelerators.values()].map((a) => {
      const wire = this.wireAccelerator(a) as { Status: 'IN_PROGRESS' | 'DEPLOYED'; DnsName: string };
      return {
        AcceleratorArn: a.arn,
        Name: a.name,
        Enabled: a.enabled,
        Status: wire.Status,
        IpAddressType: a.ipAddressType,
        DnsName: wire.DnsName,
        IpAddresses: [...a.ipv4, ...a.ipv6],
        Tags: { ...this.tags.get(a.arn) },
        Listeners: this.listenersOf(a.arn).map((l) => ({
          ...(wireListener(l) as Omit<GaSnapshotListener, 'EndpointGroups'>),
          EndpointGroups: this.groupsOf(l.arn).map((g) => this.wireEndpointGroup(g)),
        })),
      };
    });
  }
}

function wireListener(l: ListenerRecord): object {
  return {
    ListenerArn: l.arn,
    PortRanges: l.portRanges.map((r) => ({ ...r })),
    Protocol: l.protocol,
    ClientAffinity: l.clientAffinity,
  };
}

function requiredArn(input: JsonInput, field: string): string {
  return requiredString(input, field, v.INVALID);
}

function tagsOf(list: unknown): Record<string, string> {
  if (list === undefined) return {};
  if (!Array.isArray(list)) throw v.invalid('Tags must be a list');
  const out: Record<string, string> = {};
  for (const t of list as Array<Record<string, unknown>>) {
    const key = t?.Key;
    const value = t?.Value;
    if (typeof key !== 'string' || key.length < 1 || key.length > 128)
      throw v.invalid(`Invalid tag key: ${String(key)}`);
    if (typeof value !== 'string' || value.length > 256) throw v.invalid(`Invalid value of tag ${key}`);
    out[key] = value;
  }
  return out;
}

/**
 * A page of `items` (in creation order) after the NextToken, whose token names the last record
 * returned: pages stay right when records are deleted between calls.
 */
function paginate<T extends { seq: number }>(items: T[], input: JsonInput): { items: T[]; next?: string } {
  const max = input.MaxResults === undefined ? 10 : input.MaxResults;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 100) {
    throw v.invalid(`MaxResults must be from 1 to 100, got ${String(max)}`);
  }
  let after = 0;
  if (input.NextToken !== undefined) {
    const m = /^ga:(\d+)$/.exec(Buffer.from(String(input.NextToken), 'base64').toString());
    if (!m) throw new JsonSimError('InvalidNextTokenException', 'The NextToken is not valid');
    after = Number(m[1]);
  }
  const rest = items.sort((x, y) => x.seq - y.seq).filter((i) => i.seq > after);
  const page = rest.slice(0, max);
  return {
    items: page,
    ...(rest.length > max
      ? { next: Buffer.from(`ga:${page[page.length - 1]!.seq}`).toString('base64') }
      : {}),
  };
}

/** The seed of the `nth` accelerator named `name` in a state seeded with `seed`. */
function identitySeed(seed: number, name: string, nth: number): number {
  return createHash('sha256').update(`${seed}\n${name}\n${nth}`).digest().readUInt32BE(0);
}
