/**
 * The load balancer's edge services, discovered and planned: its WAFv2 web ACL association and its
 * Shield Advanced protection (LBC pkg/deploy/wafv2/web_acl_association_manager.go and
 * pkg/deploy/shield/protection_manager.go). Read only for a stack that asks for them or whose load
 * balancer records that we set them up (WAF_TAG, SHIELD_TAG), so no other stack calls, or loads,
 * either client. A protection is deleted only when it carries our ownership tags; an association
 * cannot be tagged, and is ours when the load balancer says so.
 *
 * Order in the plan: what is undone (a disassociation, a deleted protection) goes before the load
 * balancer's own changes, which drop the record tag only once it is undone; what is set up goes
 * after them (a new load balancer must exist, and its record tag is written first, so a failure
 * half-way leaves a record that makes the next reconcile finish or undo it).
 */
import { InvalidObjectError } from '../../../errors.js';
import { ALB_KEYS } from '../model/annotations/keys.js';
import type { LoadBalancerResource } from '../model/types.js';
import { isOwnedBy, RESOURCE_TAG, SHIELD_TAG, WAF_TAG, CAPACITY_TAG, recordToTags } from '../tagging.js';
import type { DeployContext } from './context.js';
import type { OwnedLoadBalancer, PlannedLoadBalancer } from './load-balancer.js';
import type { Operation } from './operations.js';
import type { Arn } from './refs.js';

function edgeServices(ctx: DeployContext) {
  if (!ctx.edge) throw new Error('the deploy context has no edge services (WAFv2, Shield)');
  return ctx.edge;
}

/** Whether the stack's web ACL must be read (it names one, or had one of ours). */
function wafRelevant(spec: LoadBalancerResource['spec'], tags: Readonly<Record<string, string>> | undefined) {
  return spec.webAcl !== undefined || tags?.[WAF_TAG] !== undefined;
}

function shieldRelevant(
  spec: LoadBalancerResource['spec'] | undefined,
  tags: Readonly<Record<string, string>>,
) {
  return spec?.shieldAdvanced !== undefined || tags[SHIELD_TAG] !== undefined;
}

/**
 * The ARN of the web ACL the stack names, resolving a name (ListWebACLs, kept per container);
 * undefined when it names none. A name the Region does not have fails here, before any change.
 */
export async function resolveWebAcl(
  ctx: DeployContext,
  lb: LoadBalancerResource,
): Promise<string | undefined> {
  const acl = lb.spec.webAcl;
  if (acl?.kind === 'arn') return acl.arn;
  if (acl?.kind !== 'name') return undefined;
  const arn = await edgeServices(ctx).webAclArn(acl.name, ctx);
  if (!arn) {
    const key = ALB_KEYS.wafv2AclName;
    throw new InvalidObjectError(
      `annotation ${key}: no regional web ACL named ${JSON.stringify(acl.name)} in this Region (WAFv2 ListWebACLs): create it, or name an existing one, or give its ARN in ${ALB_KEYS.wafv2AclArn}`,
      { field: key, reason: 'InvalidAnnotation' },
    );
  }
  return arn;
}

/**
 * Reads what the plan compares of the current load balancer's edge: its web ACL and its
 * protection, each only when relevant. A stack that asks for protection while the account has no
 * Shield Advanced subscription fails here, naming the key, before any change.
 */
export async function discoverEdge(
  ctx: DeployContext,
  lb: LoadBalancerResource,
  current: OwnedLoadBalancer | undefined,
): Promise<void> {
  const arn = current?.lb.LoadBalancerArn;
  if (current && arn && wafRelevant(lb.spec, current.tags)) {
    current.webAcl = await (await edgeServices(ctx).wafv2()).webAclOf(arn, ctx);
  }
  if (current && arn && shieldRelevant(lb.spec, current.tags)) {
    current.protection = await readProtection(ctx, arn);
  }
  if (lb.spec.shieldAdvanced === true && !current?.protection) {
    if (!(await (await edgeServices(ctx).shield()).subscribed(ctx))) {
      const key = ALB_KEYS.shieldAdvancedProtection;
      throw new InvalidObjectError(
        `annotation ${key}: "true" needs a Shield Advanced subscription, and this account has none (Shield GetSubscriptionState: INACTIVE): subscribe, or remove the annotation`,
        { field: key, reason: 'InvalidAnnotation' },
      );
    }
  }
}

async function readProtection(ctx: DeployContext, lbArn: string) {
  const p = await (await edgeServices(ctx).shield()).protectionOf(lbArn, ctx);
  if (p && !isOwnedBy(p.tags, ctx.owner)) {
    ctx.logger.info('the load balancer has a Shield protection that is not ours; leaving it alone', {
      protection: p.id,
    });
  }
  return p && { ...p, ours: isOwnedBy(p.tags, ctx.owner) };
}

/** The protections of load balancers about to be deleted, where we recorded one. */
export async function discoverProtections(
  ctx: DeployContext,
  loadBalancers: readonly OwnedLoadBalancer[],
): Promise<void> {
  for (const l of loadBalancers) {
    const arn = l.lb.LoadBalancerArn;
    if (arn && shieldRelevant(undefined, l.tags)) {
      l.protection = await readProtection(ctx, arn);
    }
  }
}

export interface EdgePlan {
  /** Before the load balancer's changes: what is undone. */
  release: Operation[];
  /** After them: what is set up. */
  ensure: Operation[];
}

/** The tags of a protection we create: the load balancer's, as the protection's resource. */
function protectionTags(lb: PlannedLoadBalancer): Record<string, string> {
  const { [WAF_TAG]: _w, [SHIELD_TAG]: _s, [CAPACITY_TAG]: _c, ...tags } = lb.spec.tags;
  return { ...tags, [RESOURCE_TAG]: 'ShieldProtection' };
}

/**
 * The edge operations of the stack's load balancer. `lbArn`: its ARN or the placeholder of the one
 * the plan creates; `actual`: the current one (undefined: it is created, and has nothing yet);
 * `aclArn`: the web ACL the stack names, resolved.
 */
export function planEdge(
  lb: PlannedLoadBalancer,
  lbArn: Arn,
  actual: OwnedLoadBalancer | undefined,
  aclArn: string | undefined,
): EdgePlan {
  const release: Operation[] = [];
  const ensure: Operation[] = [];
  const spec = lb.spec;
  const tags = actual?.tags ?? {};
  const associated = actual?.webAcl ?? null;
  if (aclArn !== undefined && associated !== aclArn) {
    ensure.push({
      op: associated ? 'modify' : 'create',
      resource: 'WebACLAssociation',
      id: lb.id,
      detail: associated ? `web ACL ${associated} → ${aclArn}` : `web ACL ${aclArn}`,
      calls: [{ action: 'AssociateWebACL', input: { WebACLArn: aclArn, ResourceArn: lbArn } }],
    });
  }
  const unwanted =
    spec.webAcl?.kind === 'none'
      ? `${ALB_KEYS.wafv2AclArn}: none`
      : spec.webAcl === undefined && tags[WAF_TAG] !== undefined
        ? 'the annotation that associated it was removed'
        : undefined;
  if (unwanted && associated) {
    release.push({
      op: 'delete',
      resource: 'WebACLAssociation',
      id: lb.id,
      detail: `web ACL ${associated} (${unwanted})`,
      calls: [{ action: 'DisassociateWebACL', input: { ResourceArn: lbArn } }],
    });
  }

  const protection = actual?.protection ?? null;
  if (spec.shieldAdvanced === true && !protection) {
    ensure.push({
      op: 'create',
      resource: 'ShieldProtection',
      id: lb.id,
      detail: `Shield Advanced protection of ${spec.name}`,
      calls: [
        {
          action: 'CreateProtection',
          input: { Name: spec.name, ResourceArn: lbArn, Tags: recordToTags(protectionTags(lb)) },
        },
      ],
    });
  }
  const dropped =
    spec.shieldAdvanced === false
      ? `${ALB_KEYS.shieldAdvancedProtection}: false`
      : spec.shieldAdvanced === undefined && tags[SHIELD_TAG] !== undefined
        ? 'the annotation that asked for it was removed'
        : undefined;
  if (dropped && protection?.ours) {
    release.push(deleteProtection(lb.id, protection.id, dropped));
  }
  return { release, ensure };
}

function deleteProtection(id: string, protectionId: string, why: string): Operation {
  return {
    op: 'delete',
    resource: 'ShieldProtection',
    id,
    detail: `protection ${protectionId} (${why})`,
    calls: [{ action: 'DeleteProtection', input: { ProtectionId: protectionId } }],
  };
}

/**
 * Our protections of load balancers about to be deleted: Shield keeps a protection whose resource
 * is gone, so it is deleted first (a deletion that fails half-way is retried with the load
 * balancer still there to find it by). A foreign one is left alone.
 */
export function planProtectionDeletions(loadBalancers: readonly OwnedLoadBalancer[]): Operation[] {
  return loadBalancers.flatMap((l) =>
    l.protection?.ours
      ? [deleteProtection(l.lb.LoadBalancerName ?? '', l.protection.id, 'its load balancer is deleted')]
      : [],
  );
}
