/**
 * The managed security group's change plan (model/security-group.ts), pure like the ELBv2
 * planners: create it with its tags and rules, then only what differs (rules authorized and
 * revoked, tags set and removed); groups of the stack it no longer wants are deleted last, after
 * the load balancer let go of them (plan.ts orders them after everything else). Discovery
 * (ec2/security-groups.ts) finds the stack's groups by their ownership tags.
 */
import type { IpPermission } from '@aws-sdk/client-ec2';
import {
  MANAGED_SECURITY_GROUP_ID,
  type ManagedSecurityGroupSpec,
  type SecurityGroupRuleSpec,
  type SecurityGroupSource,
} from '../model/security-group.js';
import { recordToTags, tagsToRemove, tagsToUpsert } from '../tagging.js';
import type { Operation, PlanContext, PlannedCall } from './operations.js';
import { arnRef, type Arn } from './refs.js';

/** One of the stack's groups as EC2 describes it, its inbound rules one per source. */
export interface ActualSecurityGroup {
  groupId: string;
  groupName: string;
  tags: Record<string, string>;
  ingress: ActualRule[];
}

export interface ActualRule {
  protocol: string;
  fromPort?: number;
  toPort?: number;
  source: SecurityGroupSource | { groupId: string };
}

const sourceText = (s: ActualRule['source']): string => Object.values(s)[0] as string;

export function ruleText(r: ActualRule): string {
  if (r.protocol === 'icmp' || r.protocol === 'icmpv6')
    return `${r.protocol} type ${r.fromPort ?? 'all'} code ${r.toPort ?? 'all'} from ${sourceText(r.source)}`;
  const ports = r.fromPort === r.toPort ? `${r.fromPort ?? 'all'}` : `${r.fromPort ?? ''}-${r.toPort ?? ''}`;
  return `${r.protocol === '-1' ? 'all' : r.protocol}/${ports} from ${sourceText(r.source)}`;
}

/** A rule of the model as EC2 describes it. */
export const asActual = (r: SecurityGroupRuleSpec): ActualRule => ({
  protocol: r.protocol,
  fromPort: r.port,
  toPort: r.toPort ?? r.port,
  source: r.source,
});

const key = (r: ActualRule): string =>
  `${r.protocol}|${r.fromPort ?? ''}|${r.toPort ?? ''}|${JSON.stringify(r.source)}`;

/** EC2's IpPermissions for rules: one permission per rule, its one source. */
export function ipPermissions(rules: readonly ActualRule[]): IpPermission[] {
  return rules.map((r) => {
    const s = r.source;
    return {
      IpProtocol: r.protocol,
      ...(r.fromPort !== undefined ? { FromPort: r.fromPort, ToPort: r.toPort } : {}),
      ...('cidrIpv4' in s ? { IpRanges: [{ CidrIp: s.cidrIpv4 }] } : {}),
      ...('cidrIpv6' in s ? { Ipv6Ranges: [{ CidrIpv6: s.cidrIpv6 }] } : {}),
      ...('prefixListId' in s ? { PrefixListIds: [{ PrefixListId: s.prefixListId }] } : {}),
      ...('groupId' in s ? { UserIdGroupPairs: [{ GroupId: s.groupId }] } : {}),
    };
  });
}

export interface SecurityGroupPlan {
  /** Before the load balancer's operations: create, or bring rules and tags to the spec. */
  upserts: Operation[];
  /** After every other operation: groups of the stack no longer wanted. */
  deletes: Operation[];
  /** What the load balancer names: the kept group's ID, or the placeholder of the one created. */
  groupId: Arn | undefined;
}

/**
 * The plan of the stack's groups: `desired` (none: the load balancer names its own, or the
 * configuration's) against what discovery found of the stack's groups.
 */
export function planSecurityGroups(
  pc: PlanContext,
  desired: ManagedSecurityGroupSpec | undefined,
  actual: readonly ActualSecurityGroup[],
): SecurityGroupPlan {
  const kept = desired ? (actual.find((g) => g.groupName === desired.name) ?? undefined) : undefined;
  const deletes = actual
    .filter((g) => g !== kept)
    .map((g): Operation => ({
      op: 'delete',
      resource: 'SecurityGroup',
      id: g.groupName,
      detail: `${g.groupId}: no longer the load balancer's`,
      calls: [{ action: 'DeleteSecurityGroup', input: { GroupId: g.groupId } }],
    }));
  if (!desired) return { upserts: [], deletes, groupId: undefined };
  const wanted = desired.ingress.map(asActual);
  if (!kept) {
    const id = MANAGED_SECURITY_GROUP_ID;
    const calls: PlannedCall[] = [
      {
        action: 'CreateSecurityGroup',
        produces: id,
        input: {
          GroupName: desired.name,
          Description: desired.description,
          VpcId: desired.vpcId,
          TagSpecifications: [{ ResourceType: 'security-group', Tags: recordToTags(desired.tags) }],
        },
      },
    ];
    if (wanted.length > 0) {
      calls.push({
        action: 'AuthorizeSecurityGroupIngress',
        input: { GroupId: arnRef(id), IpPermissions: ipPermissions(wanted) },
      });
    }
    return {
      upserts: [
        {
          op: 'create',
          resource: 'SecurityGroup',
          id,
          detail: `${desired.name}: ingress ${wanted.map(ruleText).join(', ') || 'none'}`,
          calls,
        },
      ],
      deletes,
      groupId: arnRef(id),
    };
  }
  const have = new Map(kept.ingress.map((r) => [key(r), r]));
  const want = new Map(wanted.map((r) => [key(r), r]));
  const missing = [...want].filter(([k]) => !have.has(k)).map(([, r]) => r);
  const extra = [...have].filter(([k]) => !want.has(k)).map(([, r]) => r);
  const calls: PlannedCall[] = [];
  const changes: string[] = [];
  // Revoked first: a group at the rule quota could not take a new rule before an old one is gone.
  if (extra.length > 0) {
    calls.push({
      action: 'RevokeSecurityGroupIngress',
      input: { GroupId: kept.groupId, IpPermissions: ipPermissions(extra) },
    });
    changes.push(...extra.map((r) => `-${ruleText(r)}`));
  }
  if (missing.length > 0) {
    calls.push({
      action: 'AuthorizeSecurityGroupIngress',
      input: { GroupId: kept.groupId, IpPermissions: ipPermissions(missing) },
    });
    changes.push(...missing.map((r) => `+${ruleText(r)}`));
  }
  const removed = tagsToRemove(desired.tags, kept.tags, pc.externalManagedTags);
  if (removed.length > 0) {
    calls.push({
      action: 'DeleteTags',
      input: { Resources: [kept.groupId], Tags: removed.map((Key) => ({ Key })) },
    });
    changes.push(`untag ${removed.join(', ')}`);
  }
  const upsert = tagsToUpsert(desired.tags, kept.tags);
  if (Object.keys(upsert).length > 0) {
    calls.push({ action: 'CreateTags', input: { Resources: [kept.groupId], Tags: recordToTags(upsert) } });
    changes.push(`tags ${Object.keys(upsert).sort().join(', ')}`);
  }
  return {
    upserts:
      calls.length > 0
        ? [
            {
              op: 'modify',
              resource: 'SecurityGroup',
              id: kept.groupName,
              detail: `${kept.groupId}: ${changes.join('; ')}`,
              calls,
            },
          ]
        : [],
    deletes,
    groupId: kept.groupId,
  };
}
