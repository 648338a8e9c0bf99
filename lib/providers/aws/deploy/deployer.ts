/**
 * Deploys a stack: discovery (the fingerprint fast path first; ownership checked by tags before
 * anything else), a pure plan (plan.ts), a log of it, and — unless this is a dry run — exactly
 * that plan applied (apply.ts). Nothing is changed until every resource found under one of our
 * names has proved to be ours.
 */
import { errorMessage } from '../../../errors.js';
import { stackFingerprint } from '../model/fingerprint.js';
import { LOAD_BALANCER_ID, resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { applyPlan } from './apply.js';
import { findStackByTags } from './stack-tags.js';
import { deployTargetsOnly, viewFromCache, viewFromTags, type TargetsOnlyResult } from './targets-only.js';
import type { DeployContext } from './context.js';
import { formatPlan, operationSubject, type Operation } from './operations.js';
import { loadFullPath } from '../lazy-parts.js';

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
  plan: Operation[];
  /** Stopped after confirming the load balancer and its fingerprint. */
  skipped: boolean;
  applied: boolean;
}

export async function deployStack(
  ctx: DeployContext,
  stack: Stack,
  options: DeployStackOptions = {},
): Promise<DeployResult> {
  const fingerprint = stackFingerprint(stack);
  if (!options.resync) {
    const fast = await deployTargetsOnlyFromMemoryOrTags(ctx, stack, fingerprint, options.dryRun === true);
    if (fast) {
      // The same line as the ELBv2 path's: operators (and the local narrator) read it as "nothing to do".
      if (fast.skipped) ctx.logger.info('stack unchanged', { stack: stack.id, fingerprint });
      return fast;
    }
  }
  // The full path: whatever this container remembered of the stack may no longer hold.
  ctx.targetCache?.forget(ctx.owner.stackId);
  // Its code is a chunk of its own (full-path.ts), read at a container's first full deploy.
  const { discover, planStack } = await loadFullPath();
  const found = await discover(ctx, {
    stack,
    fingerprint,
    previousNames: options.previousNames ?? [],
    resync: options.resync === true,
  });
  if (found.upToDate) {
    ctx.logger.info('stack unchanged', { stack: stack.id, fingerprint });
    return { dnsName: found.loadBalancer.lb.DNSName ?? '', plan: [], skipped: true, applied: false };
  }
  const { actual } = found;

  const plan = planStack(stack, actual, {
    fingerprint,
    externalManagedTags: options.externalManagedTags ?? [],
  });
  ctx.logger.info(options.dryRun ? 'change plan (dry run: not applied)' : 'change plan', {
    stack: stack.id,
    operations: formatPlan(plan),
  });
  const current = actual.loadBalancer;
  if (options.dryRun) {
    return { dnsName: current?.lb.DNSName, plan, skipped: false, applied: false };
  }

  // Announce replacements before they happen, then apply.
  for (const op of plan.filter((o) => o.op === 'replace')) {
    const message = `replacing ${operationSubject(op)}: ${op.detail}`;
    ctx.logger.warn(message, { stack: stack.id });
    try {
      await ctx.announce?.(`Replacing${op.resource}`, message);
    } catch (err) {
      // The announcement is a courtesy (an Event); failing to record it must not wedge the object.
      ctx.logger.warn('could not announce a replacement', { error: errorMessage(err) });
    }
  }
  const applied = await applyPlan(ctx, plan);
  return {
    dnsName: current?.lb.DNSName ?? applied.dnsNames.get(LOAD_BALANCER_ID) ?? '',
    plan,
    skipped: false,
    applied: true,
  };
}

/**
 * Endpoint churn: structure as recorded, only targets to sync (targets-only.ts). A warm container
 * starts from what it remembers (target-cache.ts); if that fails in any way (a group deleted
 * meanwhile, a target someone else deregistered) it forgets the stack and asks the Tagging API.
 */
async function deployTargetsOnlyFromMemoryOrTags(
  ctx: DeployContext,
  stack: Stack,
  fingerprint: string,
  dryRun: boolean,
): Promise<TargetsOnlyResult | undefined> {
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  if (!lb) return undefined;
  const { stackId } = ctx.owner;
  const cache = ctx.targetCache;
  const remembered = cache?.get(stackId, fingerprint);
  if (cache && remembered) {
    try {
      const warm = await deployTargetsOnly(ctx, stack, fingerprint, viewFromCache(ctx, remembered), dryRun);
      if (warm) {
        if (!dryRun) cache.set(stackId, warm.remembered);
        return warm;
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      ctx.logger.info('remembered targets no longer hold; reading the stack again', {
        stack: stack.id,
        error: errorMessage(err),
      });
    }
    cache.forget(stackId);
  }
  if (!ctx.tagging) return undefined;
  const tagged = ctx.lookups?.takeTagged(stackId) ?? (await findStackByTags(ctx));
  const view = tagged && viewFromTags(ctx, lb.spec.name, tagged);
  const cold = view && (await deployTargetsOnly(ctx, stack, fingerprint, view, dryRun));
  if (cold && !dryRun) cache?.set(stackId, cold.remembered);
  return cold;
}
