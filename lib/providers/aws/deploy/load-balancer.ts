/**
 * The load balancer (LBC pkg/deploy/elbv2/load_balancer_synthesizer.go), planned. A scheme or
 * type change cannot be made in place: the old load balancer is deleted before the new one is
 * created (its target groups can only be attached to one load balancer), as one `replace`
 * operation that the provider announces before applying.
 */
import type { LoadBalancer, SubnetMapping } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { LoadBalancerResource, SubnetMappingSpec } from '../model/types.js';
import { recordToTags } from '../tagging.js';
import { planTags, type Operation, type PlanContext, type PlannedCall } from './operations.js';
import { arnRef, type Arn } from './refs.js';
import { attributesToSet } from './target-group.js';
import { desiredCapacity, planCapacity, type ActualCapacity } from './capacity.js';
import type { ActualProtection } from '../edge/services.js';

export interface OwnedLoadBalancer {
  lb: LoadBalancer;
  tags: Record<string, string>;
  /** Described only when the stack sets attributes. */
  attributes?: Record<string, string>;
  /** Described only when the stack reserves capacity or had a reservation of ours. */
  capacity?: ActualCapacity;
  /**
   * The associated web ACL's ARN, null for none; read only when the stack names one or had one of
   * ours (WAF_TAG), and never for a load balancer being deleted (its association goes with it).
   */
  webAcl?: string | null;
  /** Its Shield Advanced protection, null for none; read only when asked for or ours (SHIELD_TAG). */
  protection?: (ActualProtection & { ours: boolean }) | null;
}

/**
 * A load balancer as planned: the model's, naming its managed security group by the group's ID or
 * by the placeholder of the one the plan creates (deploy/plan.ts withManagedGroup).
 */
export type PlannedLoadBalancer = Omit<LoadBalancerResource, 'spec'> & {
  spec: Omit<LoadBalancerResource['spec'], 'securityGroups'> & { securityGroups?: Arn[] };
};

function sameSet(a: readonly Arn[], b: readonly Arn[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

/** Whether an existing load balancer can become `desired` without being recreated. */
export function requiresReplacement(desired: PlannedLoadBalancer, lb: LoadBalancer): string | undefined {
  if (lb.Type !== desired.spec.type) return `type ${lb.Type ?? '?'} → ${desired.spec.type}`;
  if (lb.Scheme !== desired.spec.scheme) return `scheme ${lb.Scheme ?? '?'} → ${desired.spec.scheme}`;
  if (lb.LoadBalancerName !== desired.spec.name)
    return `name ${lb.LoadBalancerName ?? '?'} → ${desired.spec.name}`;
  return changedSubnetAddress(desired.spec.subnetMappings, lb);
}

/**
 * ELBv2 fixes an NLB subnet's static addresses when the subnet is attached: a different address
 * for a subnet it already has needs a new load balancer. Only the addresses we ask for are
 * compared (AWS reports addresses it picked itself too); a subnet being added takes its own.
 */
function changedSubnetAddress(
  mappings: readonly SubnetMappingSpec[] | undefined,
  lb: LoadBalancer,
): string | undefined {
  for (const m of mappings ?? []) {
    const zone = lb.AvailabilityZones?.find((az) => az.SubnetId === m.subnetId);
    if (!zone) continue;
    const have = zone.LoadBalancerAddresses?.[0];
    const fields: Array<[string, string | undefined, string | undefined]> = [
      ['Elastic IP', m.allocationId, have?.AllocationId],
      ['private IPv4 address', m.privateIPv4Address, have?.PrivateIPv4Address],
      ['IPv6 address', m.ipv6Address, have?.IPv6Address],
    ];
    for (const [what, want, got] of fields) {
      if (want !== undefined && want !== got)
        return `${what} of subnet ${m.subnetId} ${got ?? 'none'} → ${want}`;
    }
  }
  return undefined;
}

/** The request's subnets: SubnetMappings when static addresses are asked for, else subnet IDs. */
export function sdkSubnets(
  spec: Pick<LoadBalancerResource['spec'], 'subnets' | 'subnetMappings'>,
): { Subnets: string[] } | { SubnetMappings: SubnetMapping[] } {
  if (!spec.subnetMappings) return { Subnets: spec.subnets };
  return {
    SubnetMappings: spec.subnetMappings.map((m) => ({
      SubnetId: m.subnetId,
      ...(m.allocationId ? { AllocationId: m.allocationId } : {}),
      ...(m.privateIPv4Address ? { PrivateIPv4Address: m.privateIPv4Address } : {}),
      ...(m.ipv6Address ? { IPv6Address: m.ipv6Address } : {}),
    })),
  };
}

/** What the create's plan text adds about static addresses (nothing without any). */
function addressText(spec: Pick<LoadBalancerResource['spec'], 'subnetMappings'>): string[] {
  const m = spec.subnetMappings;
  if (!m) return [];
  const count = (f: keyof SubnetMappingSpec) => m.filter((x) => x[f] !== undefined).length;
  return [
    ...(count('allocationId') ? [`${count('allocationId')} Elastic IP(s)`] : []),
    ...(count('privateIPv4Address') ? [`${count('privateIPv4Address')} private IPv4 address(es)`] : []),
    ...(count('ipv6Address') ? [`${count('ipv6Address')} IPv6 address(es)`] : []),
  ];
}

export function planLoadBalancer(
  pc: PlanContext,
  desired: PlannedLoadBalancer,
  actual: OwnedLoadBalancer | undefined,
  stale: readonly OwnedLoadBalancer[],
): Operation[] {
  const spec = desired.spec;
  if (!actual) {
    const calls: PlannedCall[] = stale.map((s) => ({
      action: 'DeleteLoadBalancer',
      input: { LoadBalancerArn: s.lb.LoadBalancerArn },
    }));
    calls.push({
      action: 'CreateLoadBalancer',
      produces: desired.id,
      input: {
        Name: spec.name,
        Type: spec.type,
        Scheme: spec.scheme,
        IpAddressType: spec.ipAddressType,
        ...sdkSubnets(spec),
        ...(spec.securityGroups ? { SecurityGroups: spec.securityGroups } : {}),
        Tags: recordToTags(spec.tags),
      },
    });
    const attrs = attributesToSet(spec.attributes, undefined);
    if (attrs.length > 0) {
      calls.push({
        action: 'ModifyLoadBalancerAttributes',
        input: { LoadBalancerArn: arnRef(desired.id), Attributes: attrs },
      });
    }
    // AWS creates an NLB with security groups enforcing them on PrivateLink traffic too.
    if (spec.privateLinkInboundRules === 'off' && spec.securityGroups) {
      calls.push({
        action: 'SetSecurityGroups',
        input: {
          LoadBalancerArn: arnRef(desired.id),
          SecurityGroups: spec.securityGroups,
          EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: 'off',
        },
      });
    }
    const capacity = planCapacity(arnRef(desired.id), spec.minimumCapacityUnits, undefined);
    calls.push(...capacity.calls);
    const [first] = stale;
    return [
      first
        ? {
            op: 'replace',
            resource: 'LoadBalancer',
            id: desired.id,
            detail: `${stale.map((s) => s.lb.LoadBalancerName ?? '').join(', ')} (${requiresReplacement(desired, first.lb) ?? 'changed'}) is deleted and ${spec.name} created: its DNS name changes`,
            calls,
          }
        : {
            op: 'create',
            resource: 'LoadBalancer',
            id: desired.id,
            detail: [
              `${spec.type} ${spec.scheme} ${spec.name}`,
              ...(spec.ipAddressType !== 'ipv4' ? [spec.ipAddressType] : []),
              ...addressText(spec),
              ...(spec.privateLinkInboundRules === 'off' ? ['PrivateLink inbound rules off'] : []),
              ...capacity.changes,
            ].join('; '),
            calls,
          },
    ];
  }
  const arn = actual.lb.LoadBalancerArn ?? '';
  const calls: PlannedCall[] = [];
  const changes: string[] = [];
  const subnets = (actual.lb.AvailabilityZones ?? []).flatMap((az) => (az.SubnetId ? [az.SubnetId] : []));
  if (!sameSet(subnets, spec.subnets)) {
    // Discovered subnets change with the VPC's tags: the plan says which.
    const added = spec.subnets.filter((s) => !subnets.includes(s)).map((s) => `+${s}`);
    const removed = subnets.filter((s) => !spec.subnets.includes(s)).map((s) => `-${s}`);
    changes.push(['subnets', ...added, ...removed].join(' '));
    calls.push({ action: 'SetSubnets', input: { LoadBalancerArn: arn, ...sdkSubnets(spec) } });
  }
  const groups = spec.securityGroups && !sameSet(actual.lb.SecurityGroups ?? [], spec.securityGroups);
  const privateLink = actual.lb.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic;
  const privateLinkChange =
    spec.privateLinkInboundRules !== undefined && privateLink !== spec.privateLinkInboundRules;
  if (groups || privateLinkChange) {
    if (groups) changes.push('security groups');
    if (privateLinkChange)
      changes.push(`PrivateLink inbound rules ${privateLink ?? 'unset'} → ${spec.privateLinkInboundRules}`);
    calls.push({
      action: 'SetSecurityGroups',
      input: {
        LoadBalancerArn: arn,
        SecurityGroups: spec.securityGroups ?? actual.lb.SecurityGroups ?? [],
        ...(spec.privateLinkInboundRules
          ? { EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: spec.privateLinkInboundRules }
          : {}),
      },
    });
  }
  const attrs = attributesToSet(spec.attributes, actual.attributes);
  if (attrs.length > 0) {
    changes.push(`attributes ${attrs.map((a) => a.Key).join(', ')}`);
    calls.push({
      action: 'ModifyLoadBalancerAttributes',
      input: { LoadBalancerArn: arn, Attributes: attrs },
    });
  }
  // Before the tags: CAPACITY_TAG goes only once the reservation it records is reset.
  const capacity = planCapacity(arn, desiredCapacity(spec, actual.tags), actual.capacity);
  changes.push(...capacity.changes);
  calls.push(...capacity.calls);
  const tags = planTags(pc, arn, spec.tags, actual.tags);
  changes.push(...tags.changes);
  calls.push(...tags.calls);
  return calls.length > 0
    ? [{ op: 'modify', resource: 'LoadBalancer', id: desired.id, detail: changes.join('; '), calls }]
    : [];
}

/**
 * SetIpAddressType when the load balancer's IP address type changes. Toward dualstack it runs
 * with the load balancer's other changes (`early`: before a rule routes to an ipv6 target group);
 * back to ipv4 it runs once the rules have moved off the ipv6 groups (`late`), which AWS requires.
 */
export function planIpAddressType(
  desired: PlannedLoadBalancer,
  actual: OwnedLoadBalancer | undefined,
): { early: Operation[]; late: Operation[] } {
  const from = actual?.lb.IpAddressType;
  const to = desired.spec.ipAddressType;
  if (!actual || from === undefined || from === to) return { early: [], late: [] };
  const op: Operation = {
    op: 'modify',
    resource: 'LoadBalancer',
    id: desired.id,
    detail: `ip address type ${from} → ${to}`,
    calls: [
      {
        action: 'SetIpAddressType',
        input: { LoadBalancerArn: actual.lb.LoadBalancerArn ?? '', IpAddressType: to },
      },
    ],
  };
  return to === 'ipv4' ? { early: [], late: [op] } : { early: [op], late: [] };
}
