/**
 * Deploys a stack: the fingerprint fast path, then discovery (by name, ownership checked by tags
 * before anything else), a pure plan (plan.ts), a log of it, and — unless this is a dry run —
 * exactly that plan applied (apply.ts). Nothing is changed until every resource found under one of
 * our names has proved to be ours.
 */
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import { errorMessage } from '../../../errors.js';
import { stackFingerprint } from '../model/fingerprint.js';
import { resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { FINGERPRINT_TAG, isOwnedBy } from '../tagging.js';
import { applyPlan } from './apply.js';
import { checkAborted, type DeployContext } from './context.js';
import { ownedByName } from './lookup.js';
import {
  assertOwned,
  describeExtraCertificates,
  describeListeners,
  describeLoadBalancerAttributes,
  describeRules,
  describeTags,
  describeTargetGroupAttributes,
  describeTargets,
  findTargetGroupsByLoadBalancer,
  findTargetGroupsByNames,
} from './discovery.js';
import { SECURE_PROTOCOLS, type ActualListener } from './listener.js';
import { requiresReplacement, type OwnedLoadBalancer } from './load-balancer.js';
import { formatPlan, operationSubject, type Operation } from './operations.js';
import { planStack } from './plan.js';
import { planTargetGroups, type OwnedTargetGroup } from './target-group.js';
import { liveTargets } from './targets.js';

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
  const [lbRes] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  if (!lbRes) throw new Error(`stack ${stack.id} has no load balancer`);
  const fingerprint = stackFingerprint(stack);

  // 1. The load balancer, and the fast path: same fingerprint, not a resync → done (2 calls).
  const found = await ownedByName(ctx, lbRes.spec.name, 'use');
  if (found) assertOwned(ctx, 'load balancer', found.lb.LoadBalancerName, found.tags);
  const replace = found ? requiresReplacement(lbRes, found.lb) : undefined;
  if (found && !replace && !options.resync && found.tags[FINGERPRINT_TAG] === fingerprint) {
    ctx.logger.info('stack unchanged', { stack: stack.id, fingerprint });
    return { dnsName: found.lb.DNSName ?? '', plan: [], skipped: true, applied: false };
  }
  const current: OwnedLoadBalancer | undefined = found && !replace ? { ...found } : undefined;
  const stale: OwnedLoadBalancer[] = found && replace ? [found] : [];
  if (!found) {
    for (const name of options.previousNames ?? []) {
      if (name === lbRes.spec.name) continue;
      const other = await ownedByName(ctx, name, 'use');
      if (other && isOwnedBy(other.tags, ctx.owner)) stale.push(other);
    }
  }

  // 2. Target groups: attached to our load balancers, or under the names we want (this finds an
  //    unattached leftover of an interrupted reconcile too, as long as the stack still wants it).
  const desiredTgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  const attached = [];
  for (const l of [...(current ? [current] : []), ...stale]) {
    attached.push(...(await findTargetGroupsByLoadBalancer(ctx, l.lb.LoadBalancerArn ?? '')));
  }
  const attachedNames = new Set(attached.map((tg) => tg.TargetGroupName));
  const byName = await findTargetGroupsByNames(
    ctx,
    desiredTgs.map((t) => t.spec.name).filter((n) => !attachedNames.has(n)),
  );
  const candidates = [...attached, ...byName];
  const tags = await describeTags(
    ctx,
    candidates.flatMap((tg) => (tg.TargetGroupArn ? [tg.TargetGroupArn] : [])),
  );
  const tagsOf = (arn: string | undefined) => tags.get(arn ?? '') ?? {};
  const desiredNames = new Set(desiredTgs.map((d) => d.spec.name));
  for (const tg of candidates) {
    if (desiredNames.has(tg.TargetGroupName ?? '')) {
      assertOwned(ctx, 'target group', tg.TargetGroupName, tagsOf(tg.TargetGroupArn));
    }
  }
  const owned = new Map<string, OwnedTargetGroup>();
  for (const tg of candidates) {
    const t = tagsOf(tg.TargetGroupArn);
    // A foreign group someone attached to our load balancer is not ours to delete.
    if (tg.TargetGroupArn && isOwnedBy(t, ctx.owner)) owned.set(tg.TargetGroupArn, { tg, tags: t });
  }
  // No account-wide tag sweep here, not even on a resync: it made each object's reconcile cost
  // O(account), a resync O(N²). An owned group that is neither attached nor under a desired name
  // (a replaced group whose deletion failed) is the hourly orphan sweep's (lib/maintenance/sweep.ts).
  checkAborted(ctx);

  // 3. What the plan compares against: listeners, rules, certificates, attributes, targets.
  const listeners: ActualListener[] = [];
  if (current) {
    const desiredPorts = new Set(resourcesOf(stack, ResourceTypes.Listener).map((l) => l.spec.port));
    for (const listener of await describeListeners(ctx, current.lb.LoadBalancerArn ?? '')) {
      const arn = listener.ListenerArn ?? '';
      const kept = listener.Port !== undefined && desiredPorts.has(listener.Port);
      const secure = SECURE_PROTOCOLS.includes(listener.Protocol ?? '');
      const http = listener.Protocol === 'HTTP' || listener.Protocol === 'HTTPS';
      listeners.push({
        listener,
        extraCertificates: kept && secure ? await describeExtraCertificates(ctx, arn) : [],
        rules: kept && http ? await describeRules(ctx, arn) : [],
      });
    }
    if (options.resync) {
      // Drift repair: listener and rule tags are only worth a DescribeTags when looking for drift.
      const tags = await describeTags(
        ctx,
        listeners.flatMap((l) => [
          l.listener.ListenerArn ?? '',
          ...l.rules.filter((r) => !r.IsDefault).map((r) => r.RuleArn ?? ''),
        ]),
      );
      for (const l of listeners) l.tags = tags;
    }
    if (lbRes.spec.attributes) {
      current.attributes = await describeLoadBalancerAttributes(ctx, current.lb.LoadBalancerArn ?? '');
    }
  }
  const kept = planTargetGroups(desiredTgs, [...owned.values()]).kept;
  const targets = new Map<string, TargetDescription[]>();
  for (const tg of desiredTgs) {
    const k = kept.get(tg.id);
    const arn = k?.tg.TargetGroupArn;
    if (!k || !arn) continue;
    targets.set(arn, liveTargets(await describeTargets(ctx, arn)));
    if (tg.spec.attributes) k.attributes = await describeTargetGroupAttributes(ctx, arn);
  }
  checkAborted(ctx);

  // 4. Plan, log, and stop here in a dry run.
  const plan = planStack(
    stack,
    {
      ...(current ? { loadBalancer: current } : {}),
      staleLoadBalancers: stale,
      listeners,
      targetGroups: [...owned.values()],
      targets,
    },
    fingerprint,
    options.externalManagedTags,
  );
  ctx.logger.info(options.dryRun ? 'change plan (dry run: not applied)' : 'change plan', {
    stack: stack.id,
    operations: formatPlan(plan),
  });
  if (options.dryRun) {
    return { dnsName: current?.lb.DNSName, plan, skipped: false, applied: false };
  }

  // 5. Announce replacements before they happen, then apply.
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
    dnsName: current?.lb.DNSName ?? applied.dnsNames.get(lbRes.id) ?? '',
    plan,
    skipped: false,
    applied: true,
  };
}
