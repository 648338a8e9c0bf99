/**
 * Target groups (LBC pkg/deploy/elbv2/target_group_synthesizer.go), planned: create and update
 * before the load balancer, delete orphans only at the very end, when no rule points at them.
 */
import type { TargetGroup } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { HealthCheckSpec, TargetGroupResource } from '../model/types.js';
import { recordToTags, resourceIdOf } from '../tagging.js';
import { arnRef, planTags, type Operation, type PlanContext, type PlannedCall } from './operations.js';

export interface OwnedTargetGroup {
  tg: TargetGroup;
  tags: Record<string, string>;
  /** Described only for desired groups that have attributes. */
  attributes?: Record<string, string>;
}

export interface TargetGroupPlan {
  /** Creates, replacements and modifications: run before the load balancer. */
  upserts: Operation[];
  /** Orphans: run last. */
  deletes: Operation[];
  /** Desired resource ID → actual group, for those that exist and are kept. */
  kept: Map<string, OwnedTargetGroup>;
}

function healthCheckParams(hc: HealthCheckSpec) {
  return {
    HealthCheckEnabled: hc.enabled,
    ...(hc.path !== undefined ? { HealthCheckPath: hc.path } : {}),
    HealthCheckPort: hc.port,
    HealthCheckProtocol: hc.protocol,
    HealthCheckIntervalSeconds: hc.intervalSeconds,
    HealthCheckTimeoutSeconds: hc.timeoutSeconds,
    HealthyThresholdCount: hc.healthyThresholdCount,
    UnhealthyThresholdCount: hc.unhealthyThresholdCount,
    ...(hc.matcher ? { Matcher: sdkMatcher(hc.matcher) } : {}),
  };
}

function sdkMatcher(m: NonNullable<HealthCheckSpec['matcher']>): { HttpCode: string } | { GrpcCode: string } {
  return 'grpcCode' in m ? { GrpcCode: m.grpcCode } : { HttpCode: m.httpCode };
}

/** A gRPC group's matcher is its GrpcCode, any other's its HttpCode: AWS reports only the one that applies. */
function matcherDiffers(m: HealthCheckSpec['matcher'], actual: TargetGroup['Matcher']): boolean {
  if (m === undefined) return false;
  return 'grpcCode' in m ? actual?.GrpcCode !== m.grpcCode : actual?.HttpCode !== m.httpCode;
}

function healthCheckDiffers(hc: HealthCheckSpec, tg: TargetGroup): boolean {
  return (
    (tg.HealthCheckEnabled ?? true) !== hc.enabled ||
    (hc.path !== undefined && tg.HealthCheckPath !== hc.path) ||
    tg.HealthCheckPort !== hc.port ||
    tg.HealthCheckProtocol !== hc.protocol ||
    tg.HealthCheckIntervalSeconds !== hc.intervalSeconds ||
    tg.HealthCheckTimeoutSeconds !== hc.timeoutSeconds ||
    tg.HealthyThresholdCount !== hc.healthyThresholdCount ||
    tg.UnhealthyThresholdCount !== hc.unhealthyThresholdCount ||
    matcherDiffers(hc.matcher, tg.Matcher)
  );
}

/** Attributes we want that AWS does not have yet (keys we do not set are left alone). */
export function attributesToSet(
  desired: Readonly<Record<string, string>> | undefined,
  actual: Readonly<Record<string, string>> | undefined,
): Array<{ Key: string; Value: string }> {
  return Object.entries(desired ?? {})
    .filter(([k, v]) => actual?.[k] !== v)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([Key, Value]) => ({ Key, Value }));
}

/**
 * The attributes a new group already has that the model always states (NLB groups say
 * `proxy_protocol_v2.enabled`, so that removing proxy protocol turns it off): not sent at creation.
 */
const NLB_CREATED_WITH = { 'proxy_protocol_v2.enabled': 'false' };
const CREATED_WITH: Record<TargetGroupResource['spec']['protocol'], Record<string, string> | undefined> = {
  HTTP: undefined,
  HTTPS: undefined,
  TCP: NLB_CREATED_WITH,
  TLS: NLB_CREATED_WITH,
  UDP: NLB_CREATED_WITH,
  TCP_UDP: NLB_CREATED_WITH,
};

const arnOf = (o: OwnedTargetGroup) => o.tg.TargetGroupArn ?? '';

/** The settings a group is created with besides HTTP/1.1 over IPv4, for the plan's text. */
function createDetail(d: TargetGroupResource): string {
  const extra = [
    d.spec.protocol === 'HTTPS' || d.spec.protocol === 'TLS' ? d.spec.protocol : undefined,
    d.spec.protocolVersion !== undefined && d.spec.protocolVersion !== 'HTTP1'
      ? d.spec.protocolVersion
      : undefined,
    d.spec.ipAddressType === 'ipv6' ? 'ipv6' : undefined,
  ].filter((x) => x !== undefined);
  return extra.length ? `${d.spec.name} (${extra.join(', ')})` : d.spec.name;
}

/** Which immutable settings differ between the group AWS has and the one wanted, in words. */
function immutableChanges(d: TargetGroupResource, tg: TargetGroup): string {
  const pairs: Array<[string, unknown, unknown]> = [
    ['protocol', tg.Protocol, d.spec.protocol],
    // AWS reports HTTP1 for an HTTP(S) group created without one.
    ['protocol version', tg.ProtocolVersion, d.spec.protocolVersion ?? tg.ProtocolVersion],
    ['port', tg.Port, d.spec.port],
    ['target type', tg.TargetType, d.spec.targetType],
    ['VPC', tg.VpcId, d.spec.vpcId],
    ['ip address type', tg.IpAddressType, d.spec.ipAddressType],
  ];
  // What AWS did not report cannot be compared.
  const changed = pairs
    .filter(([, a, b]) => a !== undefined && a !== b)
    .map(([what, a, b]) => `${what} ${String(a)} → ${String(b)}`);
  return changed.length ? changed.join(', ') : 'protocol/port/target type/VPC';
}

/**
 * The owned group each desired group keeps, matched on the resource-ID tag and the name (the name
 * hashes every immutable field, so another name under the same ID is a replacement). Discovery
 * uses it to know whose targets to describe; the plan, to know what to modify.
 */
export function matchTargetGroups(
  desired: readonly TargetGroupResource[],
  owned: readonly OwnedTargetGroup[],
): Map<string, OwnedTargetGroup> {
  const kept = new Map<string, OwnedTargetGroup>();
  const matched = new Set<string>();
  for (const d of desired) {
    const actual = owned.find(
      (o) => resourceIdOf(o.tags) === d.id && o.tg.TargetGroupName === d.spec.name && !matched.has(arnOf(o)),
    );
    if (!actual) continue;
    matched.add(arnOf(actual));
    kept.set(d.id, actual);
  }
  return kept;
}

/**
 * Creates, modifies and replaces the desired groups (see matchTargetGroups), and deletes the
 * owned ones no desired group keeps. A replacement is announced as such.
 */
export function planTargetGroups(
  pc: PlanContext,
  desired: readonly TargetGroupResource[],
  owned: readonly OwnedTargetGroup[],
): TargetGroupPlan {
  const upserts: Operation[] = [];
  const kept = matchTargetGroups(desired, owned);
  const matched = new Set([...kept.values()].map(arnOf));
  for (const d of desired) {
    const actual = kept.get(d.id);
    if (actual) {
      const arn = arnOf(actual);
      const calls: PlannedCall[] = [];
      const changes: string[] = [];
      if (healthCheckDiffers(d.spec.healthCheck, actual.tg)) {
        changes.push('health check');
        calls.push({
          action: 'ModifyTargetGroup',
          input: { TargetGroupArn: arn, ...healthCheckParams(d.spec.healthCheck) },
        });
      }
      const attrs = attributesToSet(d.spec.attributes, actual.attributes);
      if (attrs.length > 0) {
        changes.push(`attributes ${attrs.map((a) => a.Key).join(', ')}`);
        calls.push({
          action: 'ModifyTargetGroupAttributes',
          input: { TargetGroupArn: arn, Attributes: attrs },
        });
      }
      const tags = planTags(pc, arn, d.spec.tags, actual.tags);
      changes.push(...tags.changes);
      calls.push(...tags.calls);
      if (calls.length > 0) {
        upserts.push({ op: 'modify', resource: 'TargetGroup', id: d.id, detail: changes.join('; '), calls });
      }
      continue;
    }
    const previous = owned.find((o) => resourceIdOf(o.tags) === d.id && !matched.has(arnOf(o)));
    const calls: PlannedCall[] = [
      {
        action: 'CreateTargetGroup',
        produces: d.id,
        input: {
          Name: d.spec.name,
          TargetType: d.spec.targetType,
          Protocol: d.spec.protocol,
          ...(d.spec.protocolVersion ? { ProtocolVersion: d.spec.protocolVersion } : {}),
          Port: d.spec.port,
          VpcId: d.spec.vpcId,
          IpAddressType: d.spec.ipAddressType,
          ...healthCheckParams(d.spec.healthCheck),
          Tags: recordToTags(d.spec.tags),
        },
      },
    ];
    const attrs = attributesToSet(d.spec.attributes, CREATED_WITH[d.spec.protocol]);
    if (attrs.length > 0) {
      calls.push({
        action: 'ModifyTargetGroupAttributes',
        input: { TargetGroupArn: arnRef(d.id), Attributes: attrs },
      });
    }
    upserts.push(
      previous
        ? {
            op: 'replace',
            resource: 'TargetGroup',
            id: d.id,
            detail: `immutable settings changed (${immutableChanges(d, previous.tg)}): ${previous.tg.TargetGroupName ?? ''} is replaced by ${createDetail(d)}, deleted once nothing points at it`,
            calls,
          }
        : { op: 'create', resource: 'TargetGroup', id: d.id, detail: createDetail(d), calls },
    );
  }
  const deletes: Operation[] = owned
    .filter((o) => !matched.has(arnOf(o)))
    .map((o) => ({
      op: 'delete',
      resource: 'TargetGroup',
      id: o.tg.TargetGroupName ?? arnOf(o),
      detail: `no longer in the stack (resource ${resourceIdOf(o.tags) ?? '?'})`,
      calls: [{ action: 'DeleteTargetGroup', input: { TargetGroupArn: arnOf(o) } }],
    }));
  return { upserts, deletes, kept };
}
