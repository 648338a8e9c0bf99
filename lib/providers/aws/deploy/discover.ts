/**
 * Discovery: the one step that finds what exists of a stack in AWS (what is wanted in, the actual
 * resources out), shared by deploy and its dry run (deployer.ts), an object's deletion and the
 * orphan sweep's (deletion.ts). Names only locate candidates; whether a resource is ours is always
 * decided by its tags, and nothing is described that the plan will not compare.
 */
import type { TargetDescription, TargetGroup } from '@aws-sdk/client-elastic-load-balancing-v2';
import { InvalidObjectError } from '../../../errors.js';
import { ownershipConflict } from '../ownership-conflict.js';
import { ALB_KEYS } from '../model/annotations/keys.js';
import { TRUST_STORE_ARN } from '../model/annotations/mutual-authentication.js';
import { LOAD_BALANCER_ID, resourcesOf, ResourceTypes, type Stack } from '../model/types.js';
import { discoverFrontendNlb, frontendNlbOf, type ActualFrontendNlb } from './frontend-nlb.js';
import { FINGERPRINT_TAG, isOwnedBy, SECURITY_GROUP_TAG } from '../tagging.js';
import type { ActualSecurityGroup } from './security-group.js';
import { checkAborted, type DeployContext } from './context.js';
import {
  describeCapacityReservation,
  describeExtraCertificates,
  describeListenerAttributes,
  describeListeners,
  describeLoadBalancerAttributes,
  describeRules,
  describeTags,
  describeTargetGroupAttributes,
  describeTargets,
  findTargetGroupsByLoadBalancer,
  findTargetGroupsByNames,
  findTrustStoreArns,
} from './describe.js';
import { desiredCapacity } from './capacity.js';
import { SECURE_PROTOCOLS, type ActualListener } from './listener.js';
import { requiresReplacement, type OwnedLoadBalancer } from './load-balancer.js';
import { ownedByName } from './lookup.js';
import { matchTargetGroups, type OwnedTargetGroup } from './target-group.js';
import { liveTargets } from './targets.js';
import { discoverEdge, discoverProtections, resolveWebAcl } from './edge.js';

/** Every load balancer, target group and managed security group carrying this owner's tags (any stack). */
export interface OwnerInventory {
  loadBalancers: OwnedLoadBalancer[];
  targetGroups: OwnedTargetGroup[];
  /** Absent when the provider manages no security groups (the configuration names them). */
  securityGroups?: ActualSecurityGroup[];
}

/** What exists of one stack, as the planners compare it. */
export interface ActualStack {
  /** Ours, under the desired name, with the desired scheme and type. */
  loadBalancer?: OwnedLoadBalancer;
  /**
   * Ours, but replaced: another name (scheme/name changed) or the wrong scheme/type. With nothing
   * desired (a deletion), every load balancer of the stack.
   */
  staleLoadBalancers: OwnedLoadBalancer[];
  /** Listeners of `loadBalancer`, with certificates and rules where they were described. */
  listeners: ActualListener[];
  /** Our target groups (of this stack). */
  targetGroups: OwnedTargetGroup[];
  /** Registered targets by target group ARN (kept groups only). */
  targets: ReadonlyMap<string, TargetDescription[]>;
  /** The trust stores the stack names (mutual TLS) → their ARNs. */
  trustStores?: ReadonlyMap<string, string>;
  /** The web ACL the stack names, its name resolved (deploy/edge.ts). */
  webAclArn?: string;
  /**
   * The stack's managed security groups (found by tags), when read: when the stack wants one, or
   * its load balancer's SECURITY_GROUP_TAG says it had one.
   */
  securityGroups?: ActualSecurityGroup[];
  /** The frontend NLB, when the stack wants one or its ALB records one (deploy/frontend-nlb.ts). */
  frontendNlb?: ActualFrontendNlb;
}

/** A deploy (or its dry run): everything the plan of `stack` compares against. */
export interface DeployTarget {
  stack: Stack;
  /** The stack's fingerprint: a load balancer that carries it needs nothing else described. */
  fingerprint: string;
  /** Names a previous spec may have given the load balancer (scheme or explicit name changed). */
  previousNames: readonly string[];
  /**
   * A resync: no fingerprint fast path, and listener and rule tags described too (drift repair).
   * Still only this stack's resources: its load balancer's and its desired groups.
   */
  resync: boolean;
  /** The targets record (target-records.ts) says every group holds the desired targets. */
  targetsRecorded: boolean;
  /**
   * By target group name, the targets the record holds for the groups whose desired targets are
   * the recorded ones: a structure change (a rule added to a group of 50 members) then reads
   * no group's targets but the changed ones'. Never on a resync, which reads them all.
   */
  recordedTargets?: ReadonlyMap<string, TargetDescription[]>;
}

/** An object's deletion, without a model (its spec may no longer build one). */
export interface DeletionTarget {
  /** Every name the stack's load balancer may carry. */
  loadBalancerNames: readonly string[];
  /** The names its target groups would have now, if known: finds groups no load balancer uses. */
  targetGroupNames: readonly string[];
}

/** The orphan sweep's deletion: the stack's share of the owner's account-wide listing. */
export interface InventoryTarget {
  inventory: OwnerInventory;
}

export type Discovery =
  /** The load balancer carries the desired fingerprint: nothing else was described. */
  { upToDate: true; loadBalancer: OwnedLoadBalancer } | { upToDate: false; actual: ActualStack };

export function discover(ctx: DeployContext, target: DeployTarget): Promise<Discovery>;
export function discover(ctx: DeployContext, target: DeletionTarget | InventoryTarget): Promise<ActualStack>;
export async function discover(
  ctx: DeployContext,
  target: DeployTarget | DeletionTarget | InventoryTarget,
): Promise<Discovery | ActualStack> {
  if ('stack' in target) return discoverForDeploy(ctx, target);
  if ('inventory' in target) {
    const mine = <T extends { tags: Record<string, string> }>(all: readonly T[]) =>
      all.filter((e) => isOwnedBy(e.tags, ctx.owner));
    const loadBalancers = mine(target.inventory.loadBalancers).map((l) => ({ ...l }));
    await discoverProtections(ctx, loadBalancers);
    return {
      staleLoadBalancers: loadBalancers,
      listeners: [],
      targetGroups: mine(target.inventory.targetGroups),
      targets: new Map(),
    };
  }
  // Every name, even once one is found: an interrupted replacement leaves one under each scheme.
  const loadBalancers: OwnedLoadBalancer[] = [];
  for (const name of target.loadBalancerNames) {
    const found = await ownedByName(ctx, name, 'skip');
    if (!found) continue;
    if (isOwnedBy(found.tags, ctx.owner)) loadBalancers.push(found);
    else ctx.logger.warn('a load balancer with our name is not ours; leaving it alone', { name });
  }
  // The frontend NLBs the ALBs record (FRONTEND_NLB_TAG): deleted with the stack, before the ALB.
  const frontend = await discoverFrontendNlb(ctx, undefined, loadBalancers, false, () => undefined);
  for (const nlb of frontend?.stale ?? []) {
    if (!loadBalancers.some((l) => l.lb.LoadBalancerArn === nlb.lb.LoadBalancerArn)) loadBalancers.push(nlb);
  }
  await discoverProtections(ctx, loadBalancers);
  return {
    staleLoadBalancers: loadBalancers,
    listeners: [],
    targetGroups: await discoverTargetGroups(ctx, loadBalancers, target.targetGroupNames),
    targets: new Map(),
  };
}

async function discoverForDeploy(ctx: DeployContext, target: DeployTarget): Promise<Discovery> {
  const { stack } = target;
  const lbRes = resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID);
  if (!lbRes) throw new Error(`stack ${stack.id} has no load balancer`);

  // 1. The load balancer, and the fast path: same fingerprint, not a resync → done (2 calls).
  const found = await ownedByName(ctx, lbRes.spec.name, 'use');
  if (found) assertOwned(ctx, 'load balancer', found.lb.LoadBalancerName, found.tags);
  const replace = found ? requiresReplacement(lbRes, found.lb) : undefined;
  if (
    found &&
    !replace &&
    !target.resync &&
    found.tags[FINGERPRINT_TAG] === target.fingerprint &&
    // Targets are not in the fingerprint: the targets record says whether they changed.
    target.targetsRecorded
  ) {
    return { upToDate: true, loadBalancer: found };
  }
  // Trust stores and web ACLs named (not by ARN) are resolved first: a missing one fails before
  // any change.
  const trustStores = await resolveTrustStores(ctx, stack);
  const webAclArn = await resolveWebAcl(ctx, lbRes);
  const current: OwnedLoadBalancer | undefined = found && !replace ? { ...found } : undefined;
  const stale: OwnedLoadBalancer[] = found && replace ? [found] : [];
  if (!found) {
    for (const name of target.previousNames) {
      if (name === lbRes.spec.name) continue;
      const other = await ownedByName(ctx, name, 'use');
      if (other && isOwnedBy(other.tags, ctx.owner)) stale.push(other);
    }
  }

  // 2. Target groups: attached to our load balancers, or under the names we want (this finds an
  //    unattached leftover of an interrupted reconcile too, as long as the stack still wants it).
  //    No account-wide tag sweep here, not even on a resync: it made each object's reconcile cost
  //    O(account), a resync O(N²). An owned group that is neither attached nor under a desired
  //    name (a replaced group whose deletion failed) is the orphan sweep's (lib/maintenance/sweep.ts).
  const desiredTgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  const frontendNlb = await discoverFrontendNlb(
    ctx,
    frontendNlbOf(stack),
    [...(current ? [current] : []), ...stale],
    target.resync,
    (name, tags) => assertOwned(ctx, 'load balancer', name, tags),
  );
  const owned = await discoverTargetGroups(
    ctx,
    [
      ...(current ? [current] : []),
      ...stale,
      ...(frontendNlb?.loadBalancer ? [frontendNlb.loadBalancer] : []),
      ...(frontendNlb?.stale ?? []),
    ],
    desiredTgs.map((t) => t.spec.name),
    'claim',
  );
  checkAborted(ctx);

  // 3. What the plan compares against: listeners, rules, certificates, attributes, targets.
  const listeners: ActualListener[] = [];
  if (current) {
    const desiredListeners = new Map(
      resourcesOf(stack, ResourceTypes.Listener)
        .filter((l) => l.spec.loadBalancer.$ref === LOAD_BALANCER_ID)
        .map((l) => [l.spec.port, l.spec]),
    );
    for (const listener of await describeListeners(ctx, current.lb.LoadBalancerArn ?? '')) {
      const arn = listener.ListenerArn ?? '';
      const wanted = listener.Port !== undefined ? desiredListeners.get(listener.Port) : undefined;
      const secure = SECURE_PROTOCOLS.includes(listener.Protocol ?? '');
      const http = listener.Protocol === 'HTTP' || listener.Protocol === 'HTTPS';
      listeners.push({
        listener,
        extraCertificates: wanted && secure ? await describeExtraCertificates(ctx, arn) : [],
        rules: wanted && http ? await describeRules(ctx, arn) : [],
        // Like the load balancer's: read only when the stack sets some (no call otherwise).
        ...(wanted?.attributes ? { attributes: await describeListenerAttributes(ctx, arn) } : {}),
      });
    }
    if (target.resync) {
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
    if (desiredCapacity(lbRes.spec, current.tags) !== undefined) {
      current.capacity = await describeCapacityReservation(ctx, current.lb.LoadBalancerArn ?? '');
    }
  }
  await discoverEdge(ctx, lbRes, current);
  // A replaced load balancer's protection is ours to delete with it.
  await discoverProtections(ctx, stale);
  // 4. The managed security group: only a stack that has one (or had one) reads EC2.
  const hadGroup = [current, ...stale].some((l) => l?.tags[SECURITY_GROUP_TAG] !== undefined);
  const securityGroups =
    ctx.securityGroups && (stack.securityGroup || hadGroup)
      ? await (await ctx.securityGroups()).findStack(ctx)
      : undefined;
  const kept = matchTargetGroups(desiredTgs, owned);
  const targets = new Map<string, TargetDescription[]>();
  for (const tg of desiredTgs) {
    const k = kept.get(tg.id);
    const arn = k?.tg.TargetGroupArn;
    if (!k || !arn) continue;
    const recorded = target.resync ? undefined : target.recordedTargets?.get(tg.spec.name);
    targets.set(arn, recorded ?? liveTargets(await describeTargets(ctx, arn)));
    if (tg.spec.attributes) k.attributes = await describeTargetGroupAttributes(ctx, arn);
  }
  checkAborted(ctx);
  return {
    upToDate: false,
    actual: {
      ...(current ? { loadBalancer: current } : {}),
      staleLoadBalancers: stale,
      listeners,
      targetGroups: owned,
      targets,
      ...(trustStores.size > 0 ? { trustStores } : {}),
      ...(webAclArn !== undefined ? { webAclArn } : {}),
      ...(securityGroups ? { securityGroups } : {}),
      ...(frontendNlb ? { frontendNlb } : {}),
    },
  };
}

/** Name → ARN of each trust store the stack's listeners name; one DescribeTrustStores for all. */
async function resolveTrustStores(ctx: DeployContext, stack: Stack): Promise<Map<string, string>> {
  const names = [
    ...new Set(
      resourcesOf(stack, ResourceTypes.Listener).flatMap((l) => {
        const m = l.spec.mutualAuthentication;
        return m?.mode === 'verify' && !TRUST_STORE_ARN.test(m.trustStore) ? [m.trustStore] : [];
      }),
    ),
  ].sort();
  const found = await findTrustStoreArns(ctx, names);
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0) {
    // The annotation is the only place a trust store is named.
    const key = ALB_KEYS.mutualAuthentication;
    throw new InvalidObjectError(
      `annotation ${key}: no trust store named ${missing.map((n) => JSON.stringify(n)).join(', ')} in this Region (DescribeTrustStores): create it, or name an existing one or its ARN`,
      { field: key, reason: 'InvalidAnnotation' },
    );
  }
  return found;
}

/**
 * Our target groups attached to `loadBalancers` or under `names`, each once. A foreign group is
 * left out (someone attached it to our load balancer, or took one of our names); with `claim`, a
 * foreign group under one of `names` is an ownership conflict instead, since we would create it.
 */
async function discoverTargetGroups(
  ctx: DeployContext,
  loadBalancers: readonly OwnedLoadBalancer[],
  names: readonly string[],
  mode: 'claim' | 'skip-foreign' = 'skip-foreign',
): Promise<OwnedTargetGroup[]> {
  const candidates: TargetGroup[] = [];
  for (const l of loadBalancers) {
    candidates.push(...(await findTargetGroupsByLoadBalancer(ctx, l.lb.LoadBalancerArn ?? '')));
  }
  const attached = new Set(candidates.map((tg) => tg.TargetGroupName));
  candidates.push(
    ...(await findTargetGroupsByNames(
      ctx,
      [...new Set(names)].filter((n) => !attached.has(n)),
    )),
  );
  const tags = await describeTags(
    ctx,
    candidates.flatMap((tg) => (tg.TargetGroupArn ? [tg.TargetGroupArn] : [])),
  );
  const tagsOf = (tg: TargetGroup) => tags.get(tg.TargetGroupArn ?? '') ?? {};
  if (mode === 'claim') {
    const wanted = new Set(names);
    for (const tg of candidates) {
      if (wanted.has(tg.TargetGroupName ?? ''))
        assertOwned(ctx, 'target group', tg.TargetGroupName, tagsOf(tg));
    }
  }
  const owned = new Map<string, OwnedTargetGroup>();
  for (const tg of candidates) {
    const t = tagsOf(tg);
    if (tg.TargetGroupArn && !owned.has(tg.TargetGroupArn) && isOwnedBy(t, ctx.owner)) {
      owned.set(tg.TargetGroupArn, { tg, tags: t });
    }
  }
  return [...owned.values()];
}

/** Refuses to touch a resource that carries a name we would use but not our ownership tags. */
function assertOwned(
  ctx: DeployContext,
  kind: string,
  name: string | undefined,
  tags: Readonly<Record<string, string>>,
): void {
  if (isOwnedBy(tags, ctx.owner)) return;
  throw ownershipConflict(kind, name, tags, ctx.owner);
}
