/**
 * The targets record: for each stack, the targets its groups hold as far as our last completed
 * deploy knows, kept in a ConfigMap on the Karmada API server instead of in AWS tags. It is what
 * lets an endpoint change cost one ELBv2 call (the registration, or the deregistration of
 * `recorded − desired`) instead of three (reading the targets, changing them, recording them in
 * a tag), and it is what the resync's fingerprint pass compares with the desired targets to find
 * a lost endpoint notification. Kubernetes calls do not spend the account's ELBv2 budget.
 *
 * It is trusted only as far as this holds: a record, when present, is exactly what ELBv2 held
 * after the deploy that wrote it. So a deploy that will change targets forgets the record
 * before its first call and writes the new one after its last: an interrupted deploy leaves no
 * record, and the next one reads the truth (DescribeTargetHealth). Everything that can still
 * make a record wrong (a hand edit in the console, another tool) is what the deep drift check is
 * for, exactly as with a record in tags. Why a wrong record cannot deregister a desired target:
 * deregistration is always `recorded − desired`, and desired is never in it.
 *
 * One ConfigMap per stack, in one namespace the deployment owns (default: the lock namespace),
 * labelled with the owner so that the fingerprint pass lists them all in one paged LIST.
 * LBC's multi-cluster mode keeps the targets it registered in a ConfigMap too
 * (`aws-lbc-targets-<binding>`, pkg/targetgroupbinding/multicluster_manager.go).
 */
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { KubeClient } from '../../../kube/client.js';
import type { Logger } from '../../../log/logger.js';
import { ConfigMapRecords, type RecordKind } from '../record-store.js';
import { targetsFingerprint } from '../model/fingerprint.js';
import { resourcesOf, ResourceTypes, type Stack, type TargetGroupResource } from '../model/types.js';

export interface RecordedGroup {
  /** targetsFingerprint() of the targets, as the desired side computes it. */
  fingerprint: string;
  /** Id, Port and (off the VPC) AvailabilityZone, as RegisterTargets was given them. */
  targets: TargetDescription[];
}

export interface TargetRecord {
  /** The structure fingerprint the targets were set under (the load balancer's fingerprint tag). */
  fingerprint: string;
  /** By target group name. */
  groups: Record<string, RecordedGroup>;
  /** When each drained group's weight went to 0 (ms since the epoch), by name (deploy/drains.ts). */
  drains?: Record<string, number>;
}

/** Where the records live. One per provider; every method may throw a Kubernetes API error. */
export interface TargetRecordStore {
  read(stackId: string): Promise<TargetRecord | undefined>;
  /** Drops the record (a missing one is fine): a deploy about to change targets calls it first. */
  forget(stackId: string): Promise<void>;
  write(stackId: string, record: TargetRecord): Promise<void>;
  /** Every record of this owner, by stack ID (one paged LIST). */
  list(): Promise<Map<string, TargetRecord>>;
}

/**
 * The groups whose targets are endpoints: every group but a frontend NLB's (target type alb),
 * whose one target is the ALB, registered and checked by the full deploy (deploy/frontend-nlb.ts).
 */
export function endpointGroups(stack: Stack): TargetGroupResource[] {
  return resourcesOf(stack, ResourceTypes.TargetGroup).filter((tg) => tg.spec.targetType !== 'alb');
}

/** The record a completed deploy of `stack` leaves: every group's desired targets. */
export function recordOf(stack: Stack, fingerprint: string): TargetRecord {
  return {
    fingerprint,
    groups: Object.fromEntries(
      endpointGroups(stack).map((tg) => [
        tg.spec.name,
        {
          fingerprint: targetsFingerprint(tg.spec.targets),
          targets: tg.spec.targets.map((t) => ({
            Id: t.id,
            Port: t.port,
            ...(t.availabilityZone ? { AvailabilityZone: t.availabilityZone } : {}),
          })),
        },
      ]),
    ),
    ...(stack.drains ? { drains: { ...stack.drains } } : {}),
  };
}

/** Whether `record` says what `fresh` says: same structure, same groups, same targets. */
export function recordHolds(record: TargetRecord, fresh: TargetRecord): boolean {
  const names = Object.keys(fresh.groups);
  return (
    record.fingerprint === fresh.fingerprint &&
    Object.keys(record.groups).length === names.length &&
    names.every((n) => record.groups[n]?.fingerprint === fresh.groups[n]?.fingerprint)
  );
}

/**
 * The recorded targets of each group whose desired targets are the recorded ones, by group name.
 * The record is written only after a deploy completed (and forgotten before one starts), so for
 * those groups it says what ELBv2 holds, as far as anything short of a resync can know.
 */
export function unchangedGroupTargets(
  record: TargetRecord,
  fresh: TargetRecord,
): Map<string, TargetDescription[]> {
  const out = new Map<string, TargetDescription[]>();
  for (const [name, group] of Object.entries(fresh.groups)) {
    const recorded = record.groups[name];
    if (recorded && recorded.fingerprint === group.fingerprint) out.set(name, recorded.targets);
  }
  return out;
}

/** Each group's targets fingerprint, by group name (what the fingerprint pass compares). */
export function groupFingerprints(record: TargetRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(record.groups).map(([name, g]) => [name, g.fingerprint]));
}

export const RECORD_OWNER_LABEL = 'multicluster.karmada.io/targets-record-owner';
export { RECORD_REGION_ANNOTATION, RECORD_STACK_ANNOTATION } from '../record-store.js';

/** Targets as stored: `[id, port]` or `[id, port, zone]`, a fraction of TargetDescription's JSON. */
type StoredTarget = [string, number] | [string, number, string];
interface StoredRecord {
  fingerprint: string;
  groups: Record<string, { fingerprint: string; targets: StoredTarget[] }>;
  drains?: Record<string, number>;
}

const TARGETS_RECORDS: RecordKind<TargetRecord> = {
  prefix: 'mcp-targets',
  ownerLabel: RECORD_OWNER_LABEL,
  dataKey: 'record',
  encode: toStored,
  decode: fromStored,
  unreadable: 'unreadable targets record; reading the targets from ELBv2 instead',
};

/** `mcp-targets-<hash>` ConfigMaps (record-store.ts). */
export class KubeTargetRecords extends ConfigMapRecords<TargetRecord> implements TargetRecordStore {
  constructor(
    kube: KubeClient,
    namespace: string,
    ownerId: string,
    logger: Pick<Logger, 'warn'>,
    /**
     * The Region of the stacks recorded here, for every Region but the primary one of a
     * multi-Region provider (regions/): their records are named and listed apart. The primary
     * Region's records are a one-Region provider's, so a provider given more Regions keeps them.
     */
    region?: string,
  ) {
    super(TARGETS_RECORDS, kube, namespace, ownerId, logger, region);
  }
}

function toStored(record: TargetRecord): StoredRecord {
  return {
    fingerprint: record.fingerprint,
    groups: Object.fromEntries(
      Object.entries(record.groups).map(([name, g]) => [
        name,
        {
          fingerprint: g.fingerprint,
          targets: g.targets.map((t): StoredTarget =>
            t.AvailabilityZone ? [t.Id ?? '', t.Port ?? 0, t.AvailabilityZone] : [t.Id ?? '', t.Port ?? 0],
          ),
        },
      ]),
    ),
    ...(record.drains ? { drains: record.drains } : {}),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** The stored JSON back, checked field by field: anything else is an error (see parse()). */
function fromStored(raw: unknown): TargetRecord {
  const r = raw as Partial<StoredRecord> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    !isString(r.fingerprint) ||
    typeof r.groups !== 'object' ||
    !r.groups
  )
    throw new Error('not a targets record');
  const groups: Record<string, RecordedGroup> = {};
  for (const [name, g] of Object.entries(r.groups)) {
    if (!isString(g.fingerprint) || !Array.isArray(g.targets)) throw new Error(`group ${name}: malformed`);
    groups[name] = {
      fingerprint: g.fingerprint,
      targets: g.targets.map((t: unknown) => {
        if (
          !Array.isArray(t) ||
          !isString(t[0]) ||
          typeof t[1] !== 'number' ||
          (t.length > 2 && !isString(t[2]))
        )
          throw new Error(`group ${name}: malformed target`);
        return { Id: t[0], Port: t[1], ...(t.length > 2 ? { AvailabilityZone: t[2] as string } : {}) };
      }),
    };
  }
  let drains: Record<string, number> | undefined;
  if (r.drains !== undefined) {
    if (typeof r.drains !== 'object' || r.drains === null) throw new Error('drains: malformed');
    drains = {};
    for (const [name, since] of Object.entries(r.drains)) {
      if (typeof since !== 'number' || !Number.isFinite(since)) throw new Error(`drain ${name}: malformed`);
      drains[name] = since;
    }
  }
  return { fingerprint: r.fingerprint, groups, ...(drains ? { drains } : {}) };
}
