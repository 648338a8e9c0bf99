/**
 * One ALB for an IngressGroup's members, as LBC builds it (pkg/ingress/group_loader.go,
 * model_build_listener.go, model_build_listener_rules.go), with one difference: where LBC fails
 * the whole group when one member disagrees, here that member is left out (and told why) and the
 * rest keep being served.
 *
 * - Members are ordered by `group.order`, then by `<namespace>/<name>`; each member's rules follow
 *   in its own order, so priorities on each listener count through the members in that order.
 * - Each member's rules go on the listeners of its own listen-ports; the group's listeners are the
 *   union (one port, one protocol). Certificates are merged (the first member's first is the
 *   default), and so are tags (one key, one value).
 * - Exclusive settings (LBC's MergeBehavior column: scheme, subnets, security groups, name,
 *   attributes, ssl-policy, ssl-redirect...) may be set on any member, but where two set one, the
 *   values must agree; at most one member may have a default backend.
 * - The conflicting member is always the later one in group order: walking the members in order,
 *   each is checked against those already accepted, so the earliest member's settings win and a
 *   member never loses its place to a later one.
 * - Listener attributes (`listener-attributes.${Protocol}-${Port}`, LBC: Merge) are merged per
 *   attribute; two members setting one attribute of one listener must agree.
 * - Health checks, target-group attributes and backends are each member's own.
 */
import { InvalidObjectError, findCause } from '../../../errors.js';
import { groupOrderOf } from '../../../karmada/ingress-group.js';
import type { StackRef } from '../../../provider/stack-id.js';
import { ALB_KEYS } from './annotations/keys.js';
import { listenerAttributesKey } from './annotations/listener-attributes.js';
import { raw, type Annotations } from './annotations/parse.js';
import {
  assembleAlb,
  memberRoutes,
  readAlbSettings,
  refuseMemberReservedText,
  type AlbSettings,
  type IngressMember,
  type MemberRoutes,
} from './ingress.js';
import { configuredPlacement, objectName, type StackSource } from './stack.js';
import type { ModelConfig, Stack, TargetGroupResource } from './types.js';

const ALB = 'alb.ingress.kubernetes.io/';

/**
 * LBC's Exclusive keys (docs/guide/ingress/annotations.md, MergeBehavior): one value per group.
 * Listed whether or not this provider reads them, so a group never mixes two meanings.
 */
export const EXCLUSIVE_GROUP_KEYS: readonly string[] = [
  ALB_KEYS.name,
  `${ALB}ip-address-type`,
  ALB_KEYS.scheme,
  ALB_KEYS.subnets,
  ALB_KEYS.securityGroups,
  `${ALB}manage-backend-security-group-rules`,
  `${ALB}customer-owned-ipv4-pool`,
  ALB_KEYS.loadBalancerAttributes,
  `${ALB}wafv2-acl-arn`,
  `${ALB}wafv2-acl-name`,
  `${ALB}waf-acl-id`,
  `${ALB}shield-advanced-protection`,
  ALB_KEYS.sslRedirect,
  `${ALB}inbound-cidrs`,
  `${ALB}security-group-prefix-lists`,
  ALB_KEYS.sslPolicy,
  `${ALB}mutual-authentication`,
  `${ALB}minimum-load-balancer-capacity`,
  `${ALB}ipam-ipv4-pool-id`,
  // The frontend NLB is one per group: every one of its keys is the group's (LBC merges the
  // port mapping and the health checks per NLB port; here the members must agree on them too).
  ...frontendNlbKeys(ALB_KEYS.frontendNlb),
];

function frontendNlbKeys(keys: object): string[] {
  return Object.values(keys).flatMap((v: unknown) =>
    typeof v === 'string' ? [v] : frontendNlbKeys(v as object),
  );
}

/** What a group's stack is built from: its identity and every member that asks to be in it. */
export interface IngressGroupInput {
  ref: StackRef;
  /** The group's name, for messages. */
  group: string;
  /** The members, in any order (they are ordered here). */
  members: readonly IngressMember[];
  config: ModelConfig;
}

export interface IngressGroupModel {
  /** Undefined when no member can be served: then nothing of the group is changed. */
  stack: Stack | undefined;
  /** `<namespace>/<name>` of the members on the load balancer, in group order. */
  served: string[];
  /** Why each member left out is not served. */
  excluded: Map<string, InvalidObjectError>;
}

export const GROUP_CONFLICT_REASON = 'IngressGroupConflict';

export function memberKey(member: IngressMember): string {
  const { namespace, name } = objectName(member.mci);
  return `${namespace}/${name}`;
}

/** Two spellings of one list (`a, b` and `a,b`) are one value. */
function normalized(value: string): string {
  return value
    .split(',')
    .map((s) => s.trim())
    .join(',');
}

interface Accepted {
  key: string;
  annotations: Annotations;
  settings: AlbSettings;
}

/** What the members accepted so far set, and who set it first. */
class GroupSettings {
  private readonly exclusive = new Map<string, { value: string; raw: string; by: string }>();
  private readonly ports = new Map<number, { protocol: string; by: string }>();
  private readonly tags = new Map<string, { value: string; by: string }>();
  /** Annotation key (one listener) → attribute → its value, and who set it first. */
  private readonly listenerAttributes = new Map<string, Map<string, { value: string; by: string }>>();
  private readonly certificates: string[] = [];
  private defaultBackendBy: string | undefined;

  constructor(private readonly group: string) {}

  /** Why the member cannot join those accepted so far, or undefined when it agrees with them. */
  conflict(candidate: Accepted, hasDefaultBackend: boolean): InvalidObjectError | undefined {
    for (const key of EXCLUSIVE_GROUP_KEYS) {
      const value = raw(candidate.annotations, key);
      const first = this.exclusive.get(key);
      if (value !== undefined && first && normalized(value) !== first.value) {
        return this.error(
          key,
          `annotation ${key} is ${JSON.stringify(value)}`,
          first.by,
          JSON.stringify(first.raw),
        );
      }
    }
    for (const l of candidate.settings.particular.listeners.listeners) {
      const first = this.ports.get(l.port);
      if (first && first.protocol !== l.protocol) {
        return this.error(
          ALB_KEYS.listenPorts,
          `annotation ${ALB_KEYS.listenPorts} makes port ${l.port} ${l.protocol}`,
          first.by,
          first.protocol,
        );
      }
    }
    for (const l of candidate.settings.particular.listeners.listeners) {
      const key = listenerAttributesKey(ALB_KEYS.listenerAttributes, l.protocol, l.port);
      for (const [k, v] of Object.entries(l.attributes ?? {})) {
        const first = this.listenerAttributes.get(key)?.get(k);
        if (first && first.value !== v)
          return this.error(key, `annotation ${key} sets ${k}=${v}`, first.by, `${k}=${first.value}`);
      }
    }
    for (const [k, v] of Object.entries(candidate.settings.loadBalancer.tags ?? {})) {
      const first = this.tags.get(k);
      if (first && first.value !== v) {
        return this.error(
          ALB_KEYS.tags,
          `annotation ${ALB_KEYS.tags} sets tag ${k}=${v}`,
          first.by,
          `${k}=${first.value}`,
        );
      }
    }
    if (hasDefaultBackend && this.defaultBackendBy !== undefined) {
      return this.error(
        'spec.defaultBackend',
        'spec.defaultBackend is set',
        this.defaultBackendBy,
        'its own default backend (a group has at most one)',
      );
    }
    return undefined;
  }

  accept(member: Accepted, hasDefaultBackend: boolean): void {
    for (const key of EXCLUSIVE_GROUP_KEYS) {
      const value = raw(member.annotations, key);
      if (value !== undefined && !this.exclusive.has(key))
        this.exclusive.set(key, { value: normalized(value), raw: value, by: member.key });
    }
    for (const l of member.settings.particular.listeners.listeners) {
      if (!this.ports.has(l.port)) this.ports.set(l.port, { protocol: l.protocol, by: member.key });
      const key = listenerAttributesKey(ALB_KEYS.listenerAttributes, l.protocol, l.port);
      for (const [k, v] of Object.entries(l.attributes ?? {})) {
        const attrs = this.listenerAttributes.get(key) ?? new Map<string, { value: string; by: string }>();
        if (!attrs.has(k)) attrs.set(k, { value: v, by: member.key });
        this.listenerAttributes.set(key, attrs);
      }
    }
    for (const [k, v] of Object.entries(member.settings.loadBalancer.tags ?? {}))
      if (!this.tags.has(k)) this.tags.set(k, { value: v, by: member.key });
    for (const arn of member.settings.particular.listeners.tls?.certificates ?? [])
      if (!this.certificates.includes(arn)) this.certificates.push(arn);
    if (hasDefaultBackend) this.defaultBackendBy ??= member.key;
  }

  /** The group's own annotations: each exclusive key's value, the merged ports, certificates and tags. */
  annotations(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, { raw: value }] of this.exclusive) out[key] = value;
    const ports = [...this.ports].sort(([a], [b]) => a - b);
    if (ports.length)
      out[ALB_KEYS.listenPorts] = JSON.stringify(ports.map(([port, l]) => ({ [l.protocol]: port })));
    if (this.certificates.length) out[ALB_KEYS.certificates] = this.certificates.join(',');
    if (this.tags.size)
      out[ALB_KEYS.tags] = [...this.tags].map(([k, { value }]) => `${k}=${value}`).join(',');
    // Values as parsed: a comma (or backslash) in one is escaped again for the group's parse.
    const escape = (v: string) => v.replace(/[\\,]/g, (c) => `\\${c}`);
    for (const [key, attrs] of this.listenerAttributes)
      out[key] = [...attrs].map(([k, { value }]) => `${k}=${escape(value)}`).join(',');
    return out;
  }

  private error(field: string, what: string, other: string, theirs: string): InvalidObjectError {
    return new InvalidObjectError(
      `${what}, but ${other}, earlier in IngressGroup "${this.group}" (group.order, then namespace/name), has ${theirs}: this MultiClusterIngress is left out of the group's load balancer until the two agree; the rest of the group is served`,
      { field, reason: GROUP_CONFLICT_REASON },
    );
  }
}

/** `group.order`, then `<namespace>/<name>` (LBC's sortGroupMembers). */
function ordered(members: readonly IngressMember[], excluded: Map<string, InvalidObjectError>) {
  const out: Array<{ member: IngressMember; key: string; order: number }> = [];
  for (const member of members) {
    const key = memberKey(member);
    try {
      out.push({ member, key, order: groupOrderOf(member.mci) });
    } catch (err) {
      excluded.set(key, invalidOf(err));
    }
  }
  return out.sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function invalidOf(err: unknown): InvalidObjectError {
  const invalid = findCause(err, InvalidObjectError);
  if (!invalid) throw err;
  return invalid;
}

/** The group's stack and, for each member, whether it is on it (and why not). */
export function buildIngressGroupStack(input: IngressGroupInput): IngressGroupModel {
  const { ref, config } = input;
  const excluded = new Map<string, InvalidObjectError>();
  const source: StackSource<IngressMember> = {
    ref,
    ownerId: config.ownerId,
    members: [],
    placement: configuredPlacement(config),
    annotations: {},
  };
  const group = new GroupSettings(input.group);
  const targetGroups = new Map<string, TargetGroupResource>();
  const routes: MemberRoutes[] = [];
  const served: IngressMember[] = [];
  for (const { member, key } of ordered(input.members, excluded)) {
    const annotations = member.mci.metadata.annotations;
    let accepted: Accepted;
    let own: MemberRoutes;
    const ownGroups = new Map<string, TargetGroupResource>();
    try {
      // The member on its own first: its annotations and backends must build a model by themselves.
      refuseMemberReservedText(member);
      const settings = readAlbSettings({ ...source, annotations }, config);
      accepted = { key, annotations, settings };
      own = memberRoutes(source, settings, member, ownGroups, {
        keyPrefix: `${key}/`,
        ports: settings.particular.listeners.listeners.map((l) => l.port),
      });
    } catch (err) {
      excluded.set(key, invalidOf(err));
      continue;
    }
    const hasDefault = own.defaultAction !== undefined;
    const conflict = group.conflict(accepted, hasDefault);
    if (conflict) {
      excluded.set(key, conflict);
      continue;
    }
    group.accept(accepted, hasDefault);
    for (const [id, tg] of ownGroups) targetGroups.set(id, tg);
    routes.push(own);
    served.push(member);
  }
  if (served.length === 0) return { stack: undefined, served: [], excluded };
  const groupSource = { ...source, members: served, annotations: group.annotations() };
  const stack = assembleAlb(groupSource, readAlbSettings(groupSource, config), routes, targetGroups);
  return { stack, served: served.map(memberKey), excluded };
}
