/**
 * The endpoint-churn path: when a stack's structure is as recorded (the load balancer's
 * fingerprint tag, found with its DNS name and the groups' ARNs through the Tagging API) and only
 * targets changed, register or deregister just those, without rediscovering the stack. Which
 * groups changed, and what they hold, comes from the targets record (target-records.ts), so an
 * endpoint change costs one ELBv2 call: RegisterTargets for `desired − recorded`, or
 * DeregisterTargets for `recorded − desired`. Without a record (an interrupted deploy, a first
 * reconcile after an upgrade) the changed groups' targets are read (DescribeTargetHealth: the
 * truth). See bench/README.md ("endpoint churn") for why this is the floor.
 *
 * A desired target is never deregistered, whatever the record says: it is never in
 * `recorded − desired`. A record that claims a target ELBv2 no longer holds makes the
 * deregistration fail (InvalidTarget); the reconcile then forgets the record and reads the truth.
 */
import { createHash } from 'node:crypto';
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Stack } from '../model/types.js';
import { targetsFingerprint } from '../model/fingerprint.js';
import { FINGERPRINT_TAG, FRONTEND_NLB_DNS_TAG, isOwnedBy, TAG_PREFIX } from '../tagging.js';
import { applyPlan } from './apply.js';
import { isAwsError, type DeployContext } from './context.js';
import { describeTargets } from './describe.js';
import type { Operation } from './operations.js';
import type { TaggedStack } from './stack-tags.js';
import { endpointGroups, recordOf, type TargetRecord } from './target-records.js';
import { liveTargets, planTargets } from './targets.js';

/** On the load balancer: its DNS name, so that a status needs no DescribeLoadBalancers. */
export const DNS_NAME_TAG = `${TAG_PREFIX}/dns-name`;
/**
 * Before the targets record moved to Kubernetes, each group's targets fingerprint was a tag on
 * the load balancer under this prefix. A full deploy removes what an older version left.
 */
export const LEGACY_TARGETS_TAG_PREFIX = `${TAG_PREFIX}/targets/`;

/** Keys of per-group targets tags an older version left on a load balancer. */
export function legacyTargetTags(lbTags: Readonly<Record<string, string>>): string[] {
  return Object.keys(lbTags).filter((k) => k.startsWith(LEGACY_TARGETS_TAG_PREFIX));
}

export interface TargetsOnlyResult {
  dnsName: string;
  loadBalancerArn: string;
  /** The frontend NLB's DNS name, as recorded on the ALB (FRONTEND_NLB_DNS_TAG). */
  frontendDnsName?: string;
  plan: Operation[];
  /** Nothing changed at all: structure and every group's targets as recorded. */
  skipped: boolean;
  applied: boolean;
}

/** The stack as the Tagging API shows it, with the targets record when it was written for it. */
export interface StackView {
  loadBalancer: { arn: string; dnsName: string; fingerprint: string | undefined; frontendDnsName?: string };
  groupArn(name: string): string | undefined;
  /** The record, if it was written under the load balancer's current structure fingerprint. */
  record: TargetRecord | undefined;
}

/** The stack as the Tagging API shows it (undefined: its load balancer is not among ours there). */
export function viewFromTags(
  ctx: DeployContext,
  lbName: string,
  tagged: TaggedStack,
  record: TargetRecord | undefined,
): StackView | undefined {
  const lb = tagged.loadBalancers.find((l) => l.name === lbName && isOwnedBy(l.tags, ctx.owner));
  const dnsName = lb?.tags[DNS_NAME_TAG];
  if (!lb || !dnsName) return undefined;
  const fingerprint = lb.tags[FINGERPRINT_TAG];
  const frontendDnsName = lb.tags[FRONTEND_NLB_DNS_TAG];
  return {
    loadBalancer: { arn: lb.arn, dnsName, fingerprint, ...(frontendDnsName ? { frontendDnsName } : {}) },
    groupArn: (name) => tagged.targetGroups.find((t) => t.name === name && isOwnedBy(t.tags, ctx.owner))?.arn,
    record: record && record.fingerprint === fingerprint ? record : undefined,
  };
}

/**
 * The targets-only deploy, or undefined when it does not apply (structure changed, a group not
 * visible by tags: the caller takes the full path).
 */
export async function deployTargetsOnly(
  ctx: DeployContext,
  stack: Stack,
  fingerprint: string,
  view: StackView,
  dryRun: boolean,
): Promise<TargetsOnlyResult | undefined> {
  const { loadBalancer: lb, record } = view;
  if (lb.fingerprint !== fingerprint) return undefined;
  const groups = endpointGroups(stack);
  const changed = groups.filter(
    (tg) => record?.groups[tg.spec.name]?.fingerprint !== targetsFingerprint(tg.spec.targets),
  );
  const fresh = recordOf(stack, fingerprint);
  // Every group as recorded (and no group recorded that the stack no longer has): nothing to do.
  if (changed.length === 0 && record && Object.keys(record.groups).length === groups.length)
    return {
      dnsName: lb.dnsName,
      loadBalancerArn: lb.arn,
      ...frontendOf(lb),
      plan: [],
      skipped: true,
      applied: false,
    };

  const plan: Operation[] = [];
  for (const tg of changed) {
    const arn = view.groupArn(tg.spec.name);
    if (!arn) return undefined; // not visible (yet) by tags: the full path finds it through ELBv2
    const registered: TargetDescription[] =
      record?.groups[tg.spec.name]?.targets ?? liveTargets(await describeTargets(ctx, arn));
    plan.push(...planTargets(tg.id, arn, tg.spec.targets, registered));
  }
  ctx.logger.info(dryRun ? 'targets plan (dry run: not applied)' : 'targets plan', {
    stack: stack.id,
    groups: changed.length,
  });
  if (dryRun)
    return {
      dnsName: lb.dnsName,
      loadBalancerArn: lb.arn,
      ...frontendOf(lb),
      plan,
      skipped: plan.length === 0,
      applied: false,
    };
  if (plan.length > 0) {
    // Forgotten first: if this deploy stops half-way, no record claims what ELBv2 may not hold.
    if (record) await ctx.records.forget(ctx.owner.stackId);
    try {
      await applyPlan(ctx, plan);
    } catch (err) {
      if (!record || !isAwsError(err, 'InvalidTarget')) throw err;
      // The record claimed a target ELBv2 no longer holds (someone else deregistered it): read
      // the truth and start again, once.
      ctx.logger.info('the targets record no longer holds; reading the targets from ELBv2', {
        stack: stack.id,
      });
      return deployTargetsOnly(ctx, stack, fingerprint, { ...view, record: undefined }, dryRun);
    }
  }
  await ctx.records.write(ctx.owner.stackId, fresh);
  return {
    dnsName: lb.dnsName,
    loadBalancerArn: lb.arn,
    ...frontendOf(lb),
    plan,
    skipped: false,
    applied: plan.length > 0,
  };
}

/**
 * What the resync's fingerprint pass compares for a stack: the structure fingerprint and every
 * group's targets fingerprint together, so a missed endpoint notification shows as a difference
 * too. Built the same way from the desired stack and from a record.
 */
export function recordedState(fingerprint: string, groups: Readonly<Record<string, string>>): string {
  const entries = Object.entries(groups)
    .map(([name, v]) => `${name}=${v}`)
    .sort();
  return `${fingerprint}+${createHash('sha256').update(entries.join(',')).digest('hex').slice(0, 16)}`;
}

/** The result's frontend NLB DNS name, when the ALB records one. */
function frontendOf(lb: StackView['loadBalancer']): { frontendDnsName?: string } {
  return lb.frontendDnsName ? { frontendDnsName: lb.frontendDnsName } : {};
}
