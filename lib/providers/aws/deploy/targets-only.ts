/**
 * The endpoint-churn path: when a stack's structure is as recorded (the load balancer's
 * fingerprint tag) and only targets changed, register and deregister just those, without
 * rediscovering the stack. The load balancer records, next to the structure fingerprint, its DNS
 * name and each target group's targets fingerprint, so one look at its tags tells which groups
 * changed; those are found by tags too (stack-tags.ts), their registered targets read
 * (DescribeTargetHealth: the truth, never a cache), diffed and changed; one AddTags records the
 * new fingerprints. See bench/README.md ("endpoint churn") for why this is the floor.
 *
 * Deregistration is always `registered − desired` as DescribeTargetHealth reports it at that
 * moment, so a desired target is never deregistered, whatever anything recorded or cached says.
 */
import { createHash } from 'node:crypto';
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TargetGroupSpec, TargetSpec } from '../model/types.js';
import { LOAD_BALANCER_ID, resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { targetsFingerprint } from '../model/fingerprint.js';
import { FINGERPRINT_TAG, isOwnedBy, recordToTags, TAG_PREFIX } from '../tagging.js';
import { applyPlan } from './apply.js';
import type { DeployContext } from './context.js';
import { describeTargets } from './describe.js';
import type { Operation } from './operations.js';
import type { TaggedStack } from './stack-tags.js';
import type { CachedGroup, CachedStack } from './target-cache.js';
import { liveTargets, planTargets } from './targets.js';

/** On the load balancer: its DNS name, so that a status needs no DescribeLoadBalancers. */
export const DNS_NAME_TAG = `${TAG_PREFIX}/dns-name`;
/** On the load balancer, one per target group: `<prefix><group name>` → its targets fingerprint. */
export const TARGETS_TAG_PREFIX = `${TAG_PREFIX}/targets/`;
/**
 * ELBv2 allows 50 tags per resource: past this many groups (an ALB with many backends) no
 * per-group record is kept, and every endpoint change takes the long way.
 */
export const MAX_RECORDED_GROUPS = 20;

/** The bookkeeping tags a full deploy writes last, beside the structure fingerprint. */
export function targetRecordTags(stack: Stack): Record<string, string> {
  const groups = resourcesOf(stack, ResourceTypes.TargetGroup);
  if (groups.length > MAX_RECORDED_GROUPS) return {};
  return Object.fromEntries(
    groups.map((tg) => [`${TARGETS_TAG_PREFIX}${tg.spec.name}`, targetsFingerprint(tg.spec.targets)]),
  );
}

/** Keys of per-group records a load balancer carries that the stack no longer has. */
export function staleTargetRecords(
  lbTags: Readonly<Record<string, string>>,
  wanted: Readonly<Record<string, string>>,
): string[] {
  return Object.keys(lbTags).filter((k) => k.startsWith(TARGETS_TAG_PREFIX) && !(k in wanted));
}

export interface TargetsOnlyResult {
  dnsName: string;
  plan: Operation[];
  /** Nothing changed at all: structure and every group's targets as recorded. */
  skipped: boolean;
  applied: boolean;
  /** What a warm container may remember of the stack afterwards (target-cache.ts). */
  remembered: CachedStack;
}

/**
 * Where the targets-only deploy reads the stack: the Tagging API's answer (a cold container) or
 * the target cache (a warm one). Either way the desired targets come from the stack alone.
 */
export interface StackView {
  loadBalancer: {
    arn: string;
    dnsName: string;
    fingerprint: string | undefined;
    records: Record<string, string>;
  };
  groupArn(name: string): string | undefined;
  /** A group's registered targets: remembered, or read from ELBv2 (DescribeTargetHealth). */
  registered(name: string, arn: string): Promise<TargetDescription[]>;
  /** Groups whose registered targets the view already holds (kept in what is remembered). */
  known: Record<string, CachedGroup>;
}

const recordsOf = (tags: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith(TARGETS_TAG_PREFIX)));

/** The stack as the Tagging API shows it (undefined: its load balancer is not among ours there). */
export function viewFromTags(ctx: DeployContext, lbName: string, tagged: TaggedStack): StackView | undefined {
  const lb = tagged.loadBalancers.find((l) => l.name === lbName && isOwnedBy(l.tags, ctx.owner));
  const dnsName = lb?.tags[DNS_NAME_TAG];
  if (!lb || !dnsName) return undefined;
  return {
    loadBalancer: {
      arn: lb.arn,
      dnsName,
      fingerprint: lb.tags[FINGERPRINT_TAG],
      records: recordsOf(lb.tags),
    },
    groupArn: (name) => tagged.targetGroups.find((t) => t.name === name && isOwnedBy(t.tags, ctx.owner))?.arn,
    registered: async (_name, arn) => liveTargets(await describeTargets(ctx, arn)),
    known: {},
  };
}

/** The stack as this container last left it (target-cache.ts says why that is safe). */
export function viewFromCache(ctx: DeployContext, cached: CachedStack): StackView {
  return {
    loadBalancer: { ...cached.loadBalancer, fingerprint: cached.fingerprint, records: cached.records },
    groupArn: (name) => cached.groups[name]?.arn,
    registered: async (name, arn) =>
      cached.groups[name]?.registered ?? liveTargets(await describeTargets(ctx, arn)),
    known: cached.groups,
  };
}

/**
 * The targets-only deploy, or undefined when it does not apply (structure changed, a record or a
 * group missing: the caller takes the full path).
 */
export async function deployTargetsOnly(
  ctx: DeployContext,
  stack: Stack,
  fingerprint: string,
  view: StackView,
  dryRun: boolean,
): Promise<TargetsOnlyResult | undefined> {
  const { loadBalancer: lb } = view;
  if (lb.fingerprint !== fingerprint) return undefined;
  const wanted = targetRecordTags(stack);
  const groups = resourcesOf(stack, ResourceTypes.TargetGroup);
  if (Object.keys(wanted).length !== groups.length) return undefined;
  const changed = groups.filter(
    (tg) => lb.records[`${TARGETS_TAG_PREFIX}${tg.spec.name}`] !== wantedOf(wanted, tg),
  );
  const remembered: CachedStack = {
    fingerprint,
    loadBalancer: { arn: lb.arn, dnsName: lb.dnsName },
    records: { ...lb.records },
    groups: { ...view.known },
  };
  if (changed.length === 0)
    return { dnsName: lb.dnsName, plan: [], skipped: true, applied: false, remembered };

  const plan: Operation[] = [];
  for (const tg of changed) {
    const arn = view.groupArn(tg.spec.name);
    if (!arn) return undefined; // not visible (yet) by tags: the full path finds it through ELBv2
    const registered = await view.registered(tg.spec.name, arn);
    plan.push(...planTargets(tg.id, arn, tg.spec.targets, registered));
    remembered.groups[tg.spec.name] = { arn, registered: tg.spec.targets.map(asRegistered) };
    remembered.records[`${TARGETS_TAG_PREFIX}${tg.spec.name}`] = wantedOf(wanted, tg);
  }
  plan.push({
    op: 'modify',
    resource: 'LoadBalancer',
    id: lbResourceId(stack),
    detail: `targets recorded for ${changed.map((t) => t.spec.name).join(', ')}`,
    calls: [
      {
        action: 'AddTags',
        input: {
          ResourceArns: [lb.arn],
          Tags: recordToTags(
            Object.fromEntries(
              changed.map((tg) => [`${TARGETS_TAG_PREFIX}${tg.spec.name}`, wantedOf(wanted, tg)]),
            ),
          ),
        },
      },
    ],
  });
  ctx.logger.info(dryRun ? 'targets plan (dry run: not applied)' : 'targets plan', {
    stack: stack.id,
    groups: changed.length,
  });
  if (dryRun) return { dnsName: lb.dnsName, plan, skipped: false, applied: false, remembered };
  await applyPlan(ctx, plan);
  return { dnsName: lb.dnsName, plan, skipped: false, applied: true, remembered };
}

/** A desired target as ELBv2 then holds it (the zone only when we set one: `all` off the VPC). */
function asRegistered(t: TargetSpec): TargetDescription {
  return { Id: t.id, Port: t.port, ...(t.availabilityZone ? { AvailabilityZone: t.availabilityZone } : {}) };
}

function lbResourceId(stack: Stack): string {
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  return lb?.id ?? LOAD_BALANCER_ID;
}

function wantedOf(wanted: Record<string, string>, tg: { spec: TargetGroupSpec }): string {
  return wanted[`${TARGETS_TAG_PREFIX}${tg.spec.name}`] ?? '';
}

/**
 * What the resync's fingerprint pass compares for a stack: the structure fingerprint and every
 * group's targets record together, so a missed endpoint notification shows as a difference too.
 * Built the same way from the desired stack and from a load balancer's tags.
 */
export function recordedState(fingerprint: string, tags: Readonly<Record<string, string>>): string {
  const records = Object.entries(tags)
    .filter(([k]) => k.startsWith(TARGETS_TAG_PREFIX))
    .map(([k, v]) => `${k.slice(TARGETS_TAG_PREFIX.length)}=${v}`)
    .sort();
  return `${fingerprint}+${createHash('sha256').update(records.join(',')).digest('hex').slice(0, 16)}`;
}
