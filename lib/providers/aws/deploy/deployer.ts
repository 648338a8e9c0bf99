/**
 * Deploys a stack: discovery (the fingerprint fast path first; ownership checked by tags before
 * anything else), a pure plan (plan.ts), a log of it, and — unless this is a dry run — exactly
 * that plan applied (apply.ts). Nothing is changed until every resource found under one of our
 * names has proved to be ours.
 */
import { stackFingerprint } from '../model/fingerprint.js';
import {
  FRONTEND_NLB_ID,
  LOAD_BALANCER_ID,
  resourcesOf,
  ResourceTypes,
  type ModelWarning,
  type Stack,
} from '../model/types.js';
import { FRONTEND_NLB_DNS_TAG } from '../tagging.js';
import { applyPlan } from './apply.js';
import { drainEventType, settleDrains, type DrainEvent } from './drains.js';
import { findStackByTags } from './stack-tags.js';
import { recordHolds, recordOf, unchangedGroupTargets, type TargetRecord } from './target-records.js';
import { deployTargetsOnly, viewFromTags, type TargetsOnlyResult } from './targets-only.js';
import type { DeployContext } from './context.js';
import { formatPlan, operationSubject, type Operation } from './operations.js';
import { loadFullPath } from '../lazy-parts.js';
import { announceBestEffort } from '../../../provider/announce.js';

/** How one deploy runs: what discovery looks at, what the plan spares, whether it is applied. */
export interface DeployStackOptions {
  /**
   * A resync: skip the fingerprint fast path and check everything the stack has (listener and rule
   * tags too). Still only this stack's resources: its load balancer's and its desired groups.
   */
  resync?: boolean;
  /** Compute and log the plan, change nothing. */
  dryRun?: boolean;
  /** Names a previous spec may have given the load balancer (scheme or explicit name changed). */
  previousNames?: readonly string[];
  /** Tag keys other tools own on our resources: left alone when tags are reconciled. */
  externalManagedTags?: readonly string[];
}

export interface DeployResult {
  /** The load balancer's DNS name; undefined in a dry run that would create it. */
  dnsName: string | undefined;
  /** Its ARN (what Global Accelerator's endpoint names); undefined in a dry run that would create it. */
  loadBalancerArn?: string;
  /** The frontend NLB's DNS name (enable-frontend-nlb), when the stack has one and it is known. */
  frontendDnsName?: string;
  plan: Operation[];
  /** Stopped after confirming the load balancer and its fingerprint. */
  skipped: boolean;
  applied: boolean;
  /** What the deploy found it cannot do as the stack asks (an NLB kept without security groups). */
  notices?: ModelWarning[];
}

export async function deployStack(
  ctx: DeployContext,
  modelled: Stack,
  options: DeployStackOptions = {},
): Promise<DeployResult> {
  const record = await ctx.records.read(ctx.owner.stackId);
  // Drained clusters' groups as of now (drains.ts): what is fingerprinted, planned and recorded.
  const settled = settleDrains(modelled, record, Date.now());
  const { stack } = settled;
  const fingerprint = stackFingerprint(stack);
  const result = await deploySettled(ctx, stack, fingerprint, record, options);
  if (!options.dryRun) await announceDrains(ctx, settled.events);
  if (settled.dueAt !== undefined) {
    // Nothing waits for it: the first reconcile after this time (the resync's, at the latest) lets them go.
    ctx.logger.info('drain pending: targets kept until the deregistration delay has passed', {
      stack: stack.id,
      dueAt: new Date(settled.dueAt).toISOString(),
    });
  }
  return result;
}

/** Drain Events once the deploy holds what they say (best effort, like every Event). */
async function announceDrains(ctx: DeployContext, events: readonly DrainEvent[]): Promise<void> {
  for (const e of events) {
    ctx.logger.info(e.message, { reason: e.reason });
    await announceBestEffort(ctx, 'a drain', {
      reason: e.reason,
      message: e.message,
      type: drainEventType(e),
    });
  }
}

async function deploySettled(
  ctx: DeployContext,
  stack: Stack,
  fingerprint: string,
  record: TargetRecord | undefined,
  options: DeployStackOptions,
): Promise<DeployResult> {
  if (!options.resync) {
    const fast = await deployTargetsOnlyByTags(ctx, stack, fingerprint, record, options.dryRun === true);
    if (fast) {
      // The same line as the ELBv2 path's: operators (and the local narrator) read it as "nothing to do".
      if (fast.skipped) ctx.logger.info('stack unchanged', { stack: stack.id, fingerprint });
      return fast;
    }
  }
  const fresh = recordOf(stack, fingerprint);
  const recorded = record !== undefined && recordHolds(record, fresh);
  // The full path's code is a chunk of its own (full-path.ts), read at a container's first full deploy.
  const { discover, planStack, decideNlbSecurityGroups } = await loadFullPath();
  const found = await discover(ctx, {
    stack,
    fingerprint,
    previousNames: options.previousNames ?? [],
    resync: options.resync === true,
    targetsRecorded: recorded,
    ...(record ? { recordedTargets: unchangedGroupTargets(record, fresh) } : {}),
  });
  if (found.upToDate) {
    ctx.logger.info('stack unchanged', { stack: stack.id, fingerprint });
    const frontendDnsName = found.loadBalancer.tags[FRONTEND_NLB_DNS_TAG];
    return {
      dnsName: found.loadBalancer.lb.DNSName ?? '',
      ...(found.loadBalancer.lb.LoadBalancerArn
        ? { loadBalancerArn: found.loadBalancer.lb.LoadBalancerArn }
        : {}),
      ...(frontendDnsName ? { frontendDnsName } : {}),
      plan: [],
      skipped: true,
      applied: false,
    };
  }
  const { actual } = found;

  const plan = planStack(stack, actual, {
    fingerprint,
    externalManagedTags: options.externalManagedTags ?? [],
  });
  const { notice } = decideNlbSecurityGroups(stack, actual.loadBalancer);
  const notices = notice ? [notice] : [];
  ctx.logger.info(options.dryRun ? 'change plan (dry run: not applied)' : 'change plan', {
    stack: stack.id,
    operations: formatPlan(plan),
  });
  const current = actual.loadBalancer;
  const hasFrontend = resourcesOf(stack, ResourceTypes.LoadBalancer).some((r) => r.id === FRONTEND_NLB_ID);
  const frontendNow = hasFrontend ? actual.frontendNlb?.loadBalancer?.lb.DNSName : undefined;
  if (options.dryRun) {
    return {
      dnsName: current?.lb.DNSName,
      ...(current?.lb.LoadBalancerArn ? { loadBalancerArn: current.lb.LoadBalancerArn } : {}),
      ...(frontendNow ? { frontendDnsName: frontendNow } : {}),
      plan,
      skipped: false,
      applied: false,
      notices,
    };
  }
  for (const n of notices) {
    ctx.logger.warn(n.message, { stack: stack.id, reason: n.reason });
    await announceBestEffort(ctx, 'a warning Event', n);
  }

  // Announce replacements before they happen, then apply.
  for (const op of plan.filter((o) => o.op === 'replace')) {
    const message = `replacing ${operationSubject(op)}: ${op.detail}`;
    ctx.logger.warn(message, { stack: stack.id });
    await announceBestEffort(ctx, 'a replacement', { reason: `Replacing${op.resource}`, message });
  }
  // Forgotten first: if this deploy stops half-way, no record claims what ELBv2 may not hold.
  if (plan.length > 0 && record) await ctx.records.forget(ctx.owner.stackId);
  const applied = await applyPlan(ctx, plan, stack.clientSecrets);
  // Discovery read every group's targets and the plan made them the desired ones.
  if (plan.length > 0 || !recorded) await ctx.records.write(ctx.owner.stackId, fresh);
  const frontendDnsName = hasFrontend ? (frontendNow ?? applied.dnsNames.get(FRONTEND_NLB_ID)) : undefined;
  const loadBalancerArn = current?.lb.LoadBalancerArn ?? applied.arns.get(LOAD_BALANCER_ID);
  return {
    dnsName: current?.lb.DNSName ?? applied.dnsNames.get(LOAD_BALANCER_ID) ?? '',
    ...(loadBalancerArn ? { loadBalancerArn } : {}),
    ...(frontendDnsName ? { frontendDnsName } : {}),
    plan,
    skipped: false,
    applied: true,
    notices,
  };
}

/**
 * Endpoint churn: structure as recorded, only targets to sync (targets-only.ts), with the stack
 * found by tags (the look-up get() just made, or a new one).
 */
async function deployTargetsOnlyByTags(
  ctx: DeployContext,
  stack: Stack,
  fingerprint: string,
  record: TargetRecord | undefined,
  dryRun: boolean,
): Promise<TargetsOnlyResult | undefined> {
  const lb = resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID);
  if (!lb || !ctx.tagging) return undefined;
  const tagged = ctx.lookups?.takeTagged(ctx.owner.stackId) ?? (await findStackByTags(ctx));
  const view = tagged && viewFromTags(ctx, lb.spec.name, tagged, record);
  return view && deployTargetsOnly(ctx, stack, fingerprint, view, dryRun);
}
