/**
 * One ALB for an IngressGroup's members, as LBC builds it (pkg/ingress/group_loader.go,
 * model_build_listener.go, model_build_listener_rules.go), with two differences: where LBC fails
 * the whole group when one member disagrees, here that member is left out (and told why) and the
 * rest keep being served; and a member already served never loses its place to a newcomer.
 *
 * - Each member's rules go on the listeners of its own listen-ports; the group's listeners are the
 *   union (one port, one protocol). Certificates are merged (the first member's first is the
 *   default), and so are tags (one key, one value).
 * - Exclusive settings (LBC's MergeBehavior column: scheme, subnets, security groups, name,
 *   attributes, ssl-policy, ssl-redirect..., and here the accelerator's keys) may be set on any
 *   member, but where two set one, the values must agree; at most one member may have a default
 *   backend. Listener attributes (`listener-attributes.${Protocol}-${Port}`, LBC: Merge) are
 *   merged per attribute; two members setting one attribute of one listener must agree.
 * - Health checks, target-group attributes and backends are each member's own.
 *
 * Join time, not `group.order`, decides between members. `group.order` is the tenant's to set,
 * so LBC's order would let a newcomer with `group.order: -1000` put its settings (an
 * internet-facing scheme) on a load balancer that already carries another team's routes, and its
 * rules ahead of theirs. Join time is read from the group's join record (ingress-group-record.ts):
 * the members its load balancer served after its last deploy, in the order they joined, each
 * with its UID and a fingerprint of what it asked for. It is a ConfigMap in the deployment's own
 * namespace, which tenants cannot write, and it survives restarts. The alternatives do not hold:
 * `creationTimestamp` is when the object was made, not when it joined (a year-old MCI that names
 * the group today would count as its oldest member); the rule priorities on the listener can only
 * be read from AWS, after the model is built. Without a record (a group deployed before it
 * existed), every member is a newcomer and LBC's order applies once.
 *
 * - Admission: members are admitted one by one, those the record holds with what they asked for
 *   then first (in join order), then the ones that changed since (in join order), then newcomers
 *   (by `group.order`, then `<namespace>/<name>`, as LBC orders members that join together). Each
 *   is checked against those admitted before it: exclusive settings, listeners, tags, the default
 *   backend; a route overlapping (route-overlap.ts) a route of another namespace's member; the
 *   account's quotas; and `check`, which holds every admitted member's tenant policy to the
 *   group's stack with the candidate on it. The first to fail is left out. So a member that
 *   would widen the load balancer's exposure beyond what an earlier member's policy allows is
 *   refused, and the earlier member is never exposed; a member that changes is refused rather
 *   than the member it would now conflict with. The whole group is checked at once first; only
 *   when that fails are members admitted one at a time.
 * - Rule order: join order (the record's, then newcomers in LBC's order), where consecutive
 *   members of one namespace go by `group.order`, then `<namespace>/<name>`, as LBC's. A group of
 *   one namespace is ordered exactly as LBC orders it; across namespaces no member's rules go
 *   ahead of a member of another namespace that joined before it.
 */
import { createHash } from 'node:crypto';
import { InvalidObjectError, findCause } from '../../../errors.js';
import { groupOrderOf } from '../../../karmada/ingress-group.js';
import { CLUSTER_WEIGHTS_KEY } from '../../../karmada/placement.js';
import type { MultiClusterIngress } from '../../../karmada/types.js';
import type { StackRef } from '../../../provider/stack-id.js';
import { GA_KEYS, GA_PREFIX } from '../accelerator/keys.js';
import { ALB_KEYS } from './annotations/keys.js';
import { listenerAttributesKey } from './annotations/listener-attributes.js';
import { raw, type Annotations } from './annotations/parse.js';
import { canonicalJson } from './fingerprint.js';
import {
  assembleAlb,
  memberRoutes,
  readAlbSettings,
  refuseMemberReservedText,
  type AlbSettings,
  type IngressMember,
  type MemberRoutes,
} from './ingress.js';
import { ACCOUNT_LIMIT_NAMES, QuotaExceededError } from './limits.js';
import { describeRoute, routeMatch, routesOverlap, type RouteMatch } from './route-overlap.js';
import { configuredPlacement, objectName, type StackSource } from './stack.js';
import { ResourceTypes, type ModelConfig, type Stack, type TargetGroupResource } from './types.js';

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
  // So is the accelerator in front (accelerator/): one member must not put it in front of the
  // others' routes by a setting they do not share.
  ...Object.values(GA_KEYS),
];

function frontendNlbKeys(keys: object): string[] {
  return Object.values(keys).flatMap((v: unknown) =>
    typeof v === 'string' ? [v] : frontendNlbKeys(v as object),
  );
}

/** What the group's join record holds of one member it served (ingress-group-record.ts). */
export interface JoinedMember {
  /** `<namespace>/<name>`. */
  key: string;
  /** Its UID: an object deleted and made again under the same name is a newcomer. */
  uid?: string;
  /** memberFingerprint() when it was last served. */
  fingerprint: string;
}

/** What a group's stack is built from: its identity and every member that asks to be in it. */
export interface IngressGroupInput {
  ref: StackRef;
  /** The group's name, for messages. */
  group: string;
  /** The members, in any order (they are ordered here). */
  members: readonly IngressMember[];
  config: ModelConfig;
  /** The group's join record (absent or empty: none, every member is a newcomer). */
  joined?: readonly JoinedMember[];
}

export interface IngressGroupModel {
  /** Undefined when no member can be served: then nothing of the group is changed. */
  stack: Stack | undefined;
  /** `<namespace>/<name>` of the members on the load balancer, in rule order. */
  served: string[];
  /** Why each member left out is not served. */
  excluded: Map<string, InvalidObjectError>;
  /** The join record once this stack is deployed: its members, in join order. */
  joined: JoinedMember[];
  /** Whether `joined` differs from the input's record (only then is it written). */
  joinedChanged: boolean;
}

/** One member on a stack the admission `check` is asked about. */
export interface AdmittedMember {
  key: string;
  mci: MultiClusterIngress;
  /**
   * The member's annotations with the group's over them (the merged exclusive keys, listen-ports,
   * certificates, tags): what the shared load balancer was asked for, for the policy's messages.
   */
  annotations: Record<string, string>;
  /**
   * A stack of this group (`request.stack`, or one made from it) as far as it is this member's:
   * everything shared (load balancer, listeners, security group, frontend NLB, accelerator) and
   * its own rules and target groups, none of another member's.
   */
  view(stack: Stack): Stack;
}

/** What the admission `check` is asked: may the group's load balancer be this stack? */
export interface AdmissionRequest {
  stack: Stack;
  /** Every member on it, in admission order (the candidate last). */
  members: readonly AdmittedMember[];
  /** The member being admitted; undefined when the whole group is checked at once. */
  candidate: string | undefined;
}

/** Why the candidate may not be admitted (any reason, for the whole group), or undefined. */
export type AdmissionCheck = (request: AdmissionRequest) => Promise<InvalidObjectError | undefined>;

export const GROUP_CONFLICT_REASON = 'IngressGroupConflict';
/** A route overlapping another namespace's route ahead of it. */
export const GROUP_ROUTE_TAKEN_REASON = 'IngressGroupRouteTaken';

/** Why one member is ahead of another, as every refusal says it. */
export const AHEAD = 'members already served first, then group.order, then namespace/name';

export function memberKey(member: IngressMember): string {
  const { namespace, name } = objectName(member.mci);
  return `${namespace}/${name}`;
}

/** What a member asks of its group: its spec and the annotations this provider reads. */
export function memberFingerprint(mci: Readonly<MultiClusterIngress>): string {
  const asked = Object.entries(mci.metadata.annotations ?? {})
    .filter(([k]) => k.startsWith(ALB) || k.startsWith(GA_PREFIX) || k.startsWith(CLUSTER_WEIGHTS_KEY))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(canonicalJson({ spec: mci.spec ?? null, annotations: asked }))
    .digest('hex')
    .slice(0, 32);
}

/** Two spellings of one list (`a, b` and `a,b`) are one value. */
function normalized(value: string): string {
  return value
    .split(',')
    .map((s) => s.trim())
    .join(',');
}

function namespaceOf(key: string): string {
  return key.slice(0, key.indexOf('/'));
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
    const error = (field: string, what: string, other: string, theirs: string) =>
      this.error(candidate.key, field, what, other, theirs);
    for (const key of EXCLUSIVE_GROUP_KEYS) {
      const value = raw(candidate.annotations, key);
      const first = this.exclusive.get(key);
      if (value !== undefined && first && normalized(value) !== first.value) {
        return error(
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
        return error(
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
          return error(key, `annotation ${key} sets ${k}=${v}`, first.by, `${k}=${first.value}`);
      }
    }
    for (const [k, v] of Object.entries(candidate.settings.loadBalancer.tags ?? {})) {
      const first = this.tags.get(k);
      if (first && first.value !== v) {
        return error(
          ALB_KEYS.tags,
          `annotation ${ALB_KEYS.tags} sets tag ${k}=${v}`,
          first.by,
          `${k}=${first.value}`,
        );
      }
    }
    if (hasDefaultBackend && this.defaultBackendBy !== undefined) {
      return error(
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

  private error(
    candidate: string,
    field: string,
    what: string,
    other: string,
    theirs: string,
  ): InvalidObjectError {
    return new InvalidObjectError(
      `${what}, but ${nameFor(candidate, other)}, ahead of it in IngressGroup "${this.group}" (${AHEAD}), has ${theirs}: this MultiClusterIngress is left out of the group's load balancer until the two agree; the rest of the group is served`,
      { field, reason: GROUP_CONFLICT_REASON },
    );
  }
}

/**
 * How a message to `candidate` names another member: by name in its own namespace; elsewhere
 * only as a member of another namespace (another team's object names are not its business).
 */
export function nameFor(candidate: string, other: string): string {
  return namespaceOf(candidate) === namespaceOf(other) ? other : 'a member of another namespace';
}

/** One member that builds a model of its own, with its place in the join record. */
interface Candidate {
  key: string;
  namespace: string;
  order: number;
  member: IngressMember;
  accepted: Accepted;
  own: MemberRoutes;
  ownGroups: ReadonlyMap<string, TargetGroupResource>;
  hasDefault: boolean;
  routes: Array<{ match: RouteMatch; ports: readonly number[] | undefined; field: string }>;
  fingerprint: string;
  uid: string | undefined;
  /** Its index in the join record; undefined for a newcomer. */
  joinedAt: number | undefined;
  /** In the record with what it asks for now. */
  unchanged: boolean;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
/** LBC's sortGroupMembers: `group.order`, then `<namespace>/<name>`. */
const lbcOrder = (a: Candidate, b: Candidate) => a.order - b.order || byKey(a, b);

/** Join order: the record's members as it has them, then newcomers in LBC's order. */
function joinOrder(a: Candidate, b: Candidate): number {
  if (a.joinedAt !== undefined && b.joinedAt !== undefined) return a.joinedAt - b.joinedAt;
  if (a.joinedAt !== undefined) return -1;
  if (b.joinedAt !== undefined) return 1;
  return lbcOrder(a, b);
}

/** Admission order: recorded and unchanged, then recorded and changed, then newcomers. */
function admissionOrder(a: Candidate, b: Candidate): number {
  const rank = (c: Candidate) => (c.joinedAt === undefined ? 2 : c.unchanged ? 0 : 1);
  return rank(a) - rank(b) || joinOrder(a, b);
}

/**
 * Rule order: join order, where each run of consecutive members of one namespace goes by LBC's
 * order. A group of one namespace is one run (LBC's order exactly); across namespaces no member
 * goes ahead of another namespace's member that joined before it.
 */
function ruleOrder(members: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  let run: Candidate[] = [];
  for (const c of [...members].sort(joinOrder)) {
    if (run.length > 0 && run[0]!.namespace !== c.namespace) {
      out.push(...run.sort(lbcOrder));
      run = [];
    }
    run.push(c);
  }
  return [...out, ...run.sort(lbcOrder)];
}

function invalidOf(err: unknown): InvalidObjectError {
  const invalid = findCause(err, InvalidObjectError);
  if (!invalid) throw err;
  return invalid;
}

function routeTaken(group: string, route: Candidate['routes'][number]): InvalidObjectError {
  return new InvalidObjectError(
    `${route.field}: ${describeRoute(route.match)} overlap a route of a member of another namespace ahead of it in IngressGroup "${group}" (${AHEAD}), which the load balancer would send their requests to: this MultiClusterIngress is left out of the group's load balancer until it routes other hosts or paths; the rest of the group is served`,
    { field: route.field, reason: GROUP_ROUTE_TAKEN_REASON },
  );
}

/** Why `c` may not join the `admitted` of other namespaces by its routes, or undefined. */
function routeConflict(
  group: string,
  c: Candidate,
  admitted: readonly Candidate[],
): InvalidObjectError | undefined {
  const shares = (a: readonly number[] | undefined, b: readonly number[] | undefined) =>
    a === undefined || b === undefined || a.some((p) => b.includes(p));
  for (const other of admitted) {
    if (other.namespace === c.namespace) continue;
    for (const mine of c.routes)
      if (other.routes.some((r) => shares(mine.ports, r.ports) && routesOverlap(mine.match, r.match)))
        return routeTaken(group, mine);
  }
  return undefined;
}

/**
 * The group's stack from `input`, asking `check` (a generator's yield) whether each stack may be
 * the group's; `buildIngressGroupStack` and `admitIngressGroupStack` drive it.
 */
function* admission(
  input: IngressGroupInput,
): Generator<AdmissionRequest, IngressGroupModel, InvalidObjectError | undefined> {
  const { ref, config } = input;
  const excluded = new Map<string, InvalidObjectError>();
  const source: StackSource<IngressMember> = {
    ref,
    ownerId: config.ownerId,
    members: [],
    placement: configuredPlacement(config),
    annotations: {},
  };
  const record = new Map<string, { at: number; entry: JoinedMember }>();
  (input.joined ?? []).forEach((entry, at) => {
    if (!record.has(entry.key)) record.set(entry.key, { at, entry });
  });

  const candidates: Candidate[] = [];
  for (const member of input.members) {
    const key = memberKey(member);
    const annotations = member.mci.metadata.annotations;
    try {
      const order = groupOrderOf(member.mci);
      // The member on its own first: its annotations and backends must build a model by themselves.
      refuseMemberReservedText(member);
      const settings = readAlbSettings({ ...source, annotations }, config);
      const ownGroups = new Map<string, TargetGroupResource>();
      const own = memberRoutes(source, settings, member, ownGroups, {
        keyPrefix: `${key}/`,
        ports: settings.particular.listeners.listeners.map((l) => l.port),
      });
      const uid = member.mci.metadata.uid;
      const found = record.get(key);
      // Another object under the same name (another UID) did not join: this one is new.
      const recorded =
        found && (found.entry.uid === undefined || uid === undefined || found.entry.uid === uid)
          ? found
          : undefined;
      const fingerprint = memberFingerprint(member.mci);
      candidates.push({
        key,
        namespace: namespaceOf(key),
        order,
        member,
        accepted: { key, annotations, settings },
        own,
        ownGroups,
        hasDefault: own.defaultAction !== undefined,
        routes: own.routes.map((r) => ({ match: routeMatch(r.conditions), ports: r.ports, field: r.field })),
        fingerprint,
        uid,
        joinedAt: recorded?.at,
        unchanged: recorded?.entry.fingerprint === fingerprint,
      });
    } catch (err) {
      excluded.set(key, invalidOf(err));
    }
  }
  candidates.sort(admissionOrder);

  const assemble = (members: readonly Candidate[]): Stack => {
    const ordered = ruleOrder(members);
    const settings = new GroupSettings(input.group);
    const targetGroups = new Map<string, TargetGroupResource>();
    for (const c of ordered) {
      settings.accept(c.accepted, c.hasDefault);
      for (const [id, tg] of c.ownGroups) targetGroups.set(id, tg);
    }
    const groupSource = {
      ...source,
      members: ordered.map((c) => c.member),
      annotations: settings.annotations(),
    };
    return assembleAlb(
      groupSource,
      readAlbSettings(groupSource, config),
      ordered.map((c) => c.own),
      targetGroups,
    );
  };
  /** A stack's failure that is the candidate's: quotas not read yet are the caller's to read (account-quotas.ts). */
  const stackFailure = (err: unknown): InvalidObjectError => {
    const invalid = invalidOf(err);
    if (invalid instanceof QuotaExceededError && !config.accountQuotas && ACCOUNT_LIMIT_NAMES[invalid.quota])
      throw err;
    return invalid;
  };
  const request = (stack: Stack, members: readonly Candidate[], candidate: string | undefined) => {
    const merged = new GroupSettings(input.group);
    for (const c of ruleOrder(members)) merged.accept(c.accepted, c.hasDefault);
    const groupAnnotations = merged.annotations();
    return {
      stack,
      candidate,
      members: members.map((c) => {
        const others = new Set(
          members.filter((o) => o !== c).flatMap((o) => [...o.ownGroups.values()].map((tg) => tg.id)),
        );
        return {
          key: c.key,
          mci: c.member.mci,
          annotations: { ...(c.member.mci.metadata.annotations ?? {}), ...groupAnnotations },
          view: (s: Stack) => memberView(s, c.key, others),
        };
      }),
    };
  };

  /**
   * Walks the candidates in admission order; `stepwise`: each is also assembled and checked with
   * those before it, else only settings and routes are compared.
   */
  function* walk(
    stepwise: boolean,
  ): Generator<
    AdmissionRequest,
    { admitted: Candidate[]; stack: Stack | undefined; excluded: Map<string, InvalidObjectError> },
    InvalidObjectError | undefined
  > {
    const left = new Map<string, InvalidObjectError>();
    const settings = new GroupSettings(input.group);
    const admitted: Candidate[] = [];
    let stack: Stack | undefined;
    for (const c of candidates) {
      const conflict = settings.conflict(c.accepted, c.hasDefault) ?? routeConflict(input.group, c, admitted);
      if (conflict) {
        left.set(c.key, conflict);
        continue;
      }
      if (stepwise) {
        const tentative = [...admitted, c];
        let built: Stack;
        try {
          built = assemble(tentative);
        } catch (err) {
          left.set(c.key, stackFailure(err));
          continue;
        }
        const refusal = yield request(built, tentative, c.key);
        if (refusal) {
          left.set(c.key, refusal);
          continue;
        }
        stack = built;
      }
      settings.accept(c.accepted, c.hasDefault);
      admitted.push(c);
    }
    return { admitted, stack, excluded: left };
  }

  const done = (
    admitted: readonly Candidate[],
    stack: Stack | undefined,
    left: Map<string, InvalidObjectError>,
  ) => {
    for (const [k, v] of left) excluded.set(k, v);
    const joined = [...admitted].sort(joinOrder).map((c): JoinedMember => ({
      key: c.key,
      ...(c.uid !== undefined ? { uid: c.uid } : {}),
      fingerprint: c.fingerprint,
    }));
    return {
      stack,
      served: stack ? ruleOrder(admitted).map((c) => c.key) : [],
      excluded,
      joined: stack ? joined : [],
      joinedChanged: canonicalJson(stack ? joined : []) !== canonicalJson(input.joined ?? []),
    };
  };

  // The whole group at once: what nearly every build is.
  const whole = yield* walk(false);
  if (whole.admitted.length === 0) return done([], undefined, whole.excluded);
  let stack: Stack | undefined;
  try {
    stack = assemble(whole.admitted);
  } catch (err) {
    stackFailure(err);
  }
  if (stack && !(yield request(stack, whole.admitted, undefined)))
    return done(whole.admitted, stack, whole.excluded);
  // Something breaks: admitted one by one, the first that breaks it is left out.
  const stepwise = yield* walk(true);
  return done(
    stepwise.admitted,
    stepwise.admitted.length > 0 ? stepwise.stack : undefined,
    stepwise.excluded,
  );
}

/**
 * `stack` without the rules and target groups of other members: rule IDs start with
 * `<listener>:<namespace>/<name>/` (MemberScope.keyPrefix), target groups are the members' own.
 */
function memberView(stack: Stack, key: string, others: ReadonlySet<string>): Stack {
  const prefix = `${key}/`;
  return {
    ...stack,
    resources: stack.resources.filter((r) => {
      if (r.type === ResourceTypes.ListenerRule) return r.id.slice(r.id.indexOf(':') + 1).startsWith(prefix);
      if (r.type === ResourceTypes.TargetGroup) return !others.has(r.id);
      return true;
    }),
  };
}

/** The group's stack and, for each member, whether it is on it (and why not), without a policy check. */
export function buildIngressGroupStack(input: IngressGroupInput): IngressGroupModel {
  const run = admission(input);
  let step = run.next();
  while (!step.done) step = run.next(undefined);
  return step.value;
}

/** The group's stack with every admitted member's `check` (the tenant policy) holding on it. */
export async function admitIngressGroupStack(
  input: IngressGroupInput,
  check: AdmissionCheck,
): Promise<IngressGroupModel> {
  const run = admission(input);
  let step = run.next();
  while (!step.done) step = run.next(await check(step.value));
  return step.value;
}
