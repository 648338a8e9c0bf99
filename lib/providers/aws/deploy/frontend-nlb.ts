/**
 * The frontend NLB of an ALB stack (model/frontend-nlb.ts), discovered and planned with the ALB's
 * stack: the NLB (created, modified, replaced when its scheme or name changes, deleted when it is
 * no longer wanted), its TCP listeners, and the ALB registered in each of its alb-type target
 * groups on the ALB listener's port. The groups themselves are the stack's (target-group.ts),
 * created before and deleted after everything here. It runs after the ALB's listeners exist:
 * ELBv2 registers an ALB only on a port it listens on.
 */
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import {
  FRONTEND_NLB_ID,
  resourcesOf,
  ResourceTypes,
  type LoadBalancerResource,
  type Stack,
  type TargetGroupResource,
} from '../model/types.js';
import { isFrontendResource } from '../model/frontend-nlb.js';
import { FRONTEND_NLB_DNS_TAG, FRONTEND_NLB_TAG, isOwnedBy, resourceIdOf } from '../tagging.js';
import type { ArnResolver } from './actions.js';
import { checkAborted, type DeployContext } from './context.js';
import { describeListeners, describeLoadBalancerAttributes, describeTags } from './describe.js';
import type { ActualListener } from './listener.js';
import { planListeners } from './listener.js';
import {
  planLoadBalancer,
  requiresReplacement,
  type OwnedLoadBalancer,
  type PlannedLoadBalancer,
} from './load-balancer.js';
import { ownedByName } from './lookup.js';
import type { Operation, PlanContext } from './operations.js';
import { arnRef, dnsRef, type Arn, type DnsRef } from './refs.js';

/** What exists of a stack's frontend NLB. */
export interface ActualFrontendNlb {
  /** Ours, under the desired name, scheme and type. */
  loadBalancer?: OwnedLoadBalancer;
  /** Ours and not wanted: replaced (another name or scheme), or the frontend NLB turned off. */
  stale: OwnedLoadBalancer[];
  /** Listeners of `loadBalancer`. */
  listeners: ActualListener[];
}

/** The stack's frontend NLB, when it has one. */
export function frontendNlbOf(stack: Stack): LoadBalancerResource | undefined {
  return resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === FRONTEND_NLB_ID);
}

/** Whether a load balancer of ours is a stack's frontend NLB (by its resource-ID tag). */
export function isFrontendNlb(lb: OwnedLoadBalancer): boolean {
  return resourceIdOf(lb.tags) === FRONTEND_NLB_ID;
}

/**
 * The frontend NLBs to look at: the desired one, and the one each of the stack's ALBs records
 * (FRONTEND_NLB_TAG), so that one no longer wanted, or renamed with its ALB, is found to delete.
 * Nothing is looked up for a stack that neither wants nor had one.
 */
export async function discoverFrontendNlb(
  ctx: DeployContext,
  desired: LoadBalancerResource | undefined,
  albs: readonly OwnedLoadBalancer[],
  resync: boolean,
  assertOwned: (name: string | undefined, tags: Readonly<Record<string, string>>) => void,
): Promise<ActualFrontendNlb | undefined> {
  const names = [
    ...new Set(
      [desired?.spec.name, ...albs.map((a) => a.tags[FRONTEND_NLB_TAG])].filter(
        (n): n is string => n !== undefined,
      ),
    ),
  ];
  if (names.length === 0) return undefined;
  const out: ActualFrontendNlb = { stale: [], listeners: [] };
  for (const name of names) {
    const found = await ownedByName(ctx, name, 'use');
    if (!found) continue;
    if (name === desired?.spec.name) assertOwned(name, found.tags);
    else if (!isOwnedBy(found.tags, ctx.owner)) continue;
    if (desired && name === desired.spec.name && !requiresReplacement(desired, found.lb))
      out.loadBalancer = { ...found };
    else out.stale.push(found);
  }
  const current = out.loadBalancer;
  if (current && desired) {
    const arn = current.lb.LoadBalancerArn ?? '';
    out.listeners = (await describeListeners(ctx, arn)).map((listener) => ({
      listener,
      extraCertificates: [],
      rules: [],
    }));
    if (resync) {
      const tags = await describeTags(
        ctx,
        out.listeners.map((l) => l.listener.ListenerArn ?? ''),
      );
      for (const l of out.listeners) l.tags = tags;
    }
    if (desired.spec.attributes) current.attributes = await describeLoadBalancerAttributes(ctx, arn);
  }
  checkAborted(ctx);
  return out;
}

/** What the frontend NLB's plan adds to the stack's. */
export interface FrontendNlbPlan {
  operations: Operation[];
  /** The tags recorded on the ALB with the fingerprint (a new NLB's DNS name: its placeholder). */
  record: Record<string, string | DnsRef>;
  /** Record tags the ALB carries that go (the frontend NLB is no longer wanted). */
  staleRecord: string[];
}

/** The alb-type groups' registrations: the ALB on its listener's port, and nothing else. */
function planRegistrations(
  groups: readonly TargetGroupResource[],
  albArn: Arn,
  groupArn: (id: string) => string | undefined,
  targets: ReadonlyMap<string, TargetDescription[]>,
): Operation[] {
  const ops: Operation[] = [];
  for (const tg of groups) {
    const target = tg.spec.albTarget;
    if (!target) continue;
    const arn = groupArn(tg.id);
    const actual = arn ? (targets.get(arn) ?? []) : [];
    const wanted = actual.some((t) => t.Id === albArn && t.Port === target.port);
    const others = actual.filter((t) => !(t.Id === albArn && t.Port === target.port));
    // Out first: ELBv2 holds one ALB per group, so another port (or a replaced ALB) must make room.
    const calls: Operation['calls'] = [];
    if (others.length > 0)
      calls.push({
        action: 'DeregisterTargets',
        input: {
          TargetGroupArn: arn ?? arnRef(tg.id),
          Targets: others.map((t) => ({ Id: t.Id, Port: t.Port })),
        },
      });
    if (!wanted)
      calls.push({
        action: 'RegisterTargets',
        input: { TargetGroupArn: arn ?? arnRef(tg.id), Targets: [{ Id: albArn, Port: target.port }] },
      });
    if (calls.length === 0) continue;
    ops.push({
      op: 'modify',
      resource: 'TargetGroup',
      id: tg.id,
      detail: [
        ...(others.length
          ? [`deregister ${others.map((t) => `${t.Id ?? ''}:${t.Port ?? ''}`).join(', ')}`]
          : []),
        ...(wanted ? [] : [`register the ALB on port ${target.port}`]),
      ].join('; '),
      calls,
    });
  }
  return ops;
}

/**
 * The frontend NLB's operations, run after the ALB's listeners and rules and before the stack's
 * orphaned groups are deleted: a group the NLB no longer forwards to is free by then.
 */
export function planFrontendNlb(
  pc: PlanContext,
  stack: Stack,
  actual: ActualFrontendNlb | undefined,
  refs: {
    albArn: Arn;
    resolve: ArnResolver;
    groupArn: (id: string) => string | undefined;
    targets: ReadonlyMap<string, TargetDescription[]>;
    /** The NLB naming the managed group by ID (the model names it by placeholder). */
    withManagedGroup: (lb: LoadBalancerResource) => PlannedLoadBalancer;
  },
  albTags: Readonly<Record<string, string>>,
): FrontendNlbPlan {
  const modelled = frontendNlbOf(stack);
  const stale = actual?.stale ?? [];
  const staleRecord = [FRONTEND_NLB_TAG, FRONTEND_NLB_DNS_TAG].filter((k) => albTags[k] !== undefined);
  if (!modelled) {
    const operations = stale.map((l): Operation => ({
      op: 'delete',
      resource: 'LoadBalancer',
      id: l.lb.LoadBalancerName ?? FRONTEND_NLB_ID,
      detail: 'frontend NLB no longer wanted (enable-frontend-nlb): its listeners go with it',
      calls: [{ action: 'DeleteLoadBalancer', input: { LoadBalancerArn: l.lb.LoadBalancerArn } }],
    }));
    return { operations, record: {}, staleRecord };
  }
  const nlb = refs.withManagedGroup(modelled);
  const current = actual?.loadBalancer;
  const operations: Operation[] = [];
  if (current) {
    // Kept: a leftover under another name (an interrupted replacement) goes now.
    for (const l of stale)
      operations.push({
        op: 'delete',
        resource: 'LoadBalancer',
        id: l.lb.LoadBalancerName ?? FRONTEND_NLB_ID,
        detail: `replaced by frontend NLB ${nlb.spec.name}`,
        calls: [{ action: 'DeleteLoadBalancer', input: { LoadBalancerArn: l.lb.LoadBalancerArn } }],
      });
  }
  operations.push(...planLoadBalancer(pc, nlb, current, current ? [] : stale));
  const nlbArn = current?.lb.LoadBalancerArn ?? arnRef(FRONTEND_NLB_ID);
  const groups = resourcesOf(stack, ResourceTypes.TargetGroup).filter(isFrontendResource);
  // Registered before the listeners forward to the groups, so a new listener has its target.
  operations.push(...planRegistrations(groups, refs.albArn, refs.groupArn, refs.targets));
  const listeners = planListeners(
    pc,
    nlbArn,
    resourcesOf(stack, ResourceTypes.Listener).filter(isFrontendResource),
    current ? (actual?.listeners ?? []) : [],
    refs.resolve,
  );
  operations.push(...listeners.operations);
  return {
    operations,
    record: {
      [FRONTEND_NLB_TAG]: nlb.spec.name,
      [FRONTEND_NLB_DNS_TAG]: current?.lb.DNSName ?? dnsRef(FRONTEND_NLB_ID),
    },
    staleRecord: [],
  };
}
