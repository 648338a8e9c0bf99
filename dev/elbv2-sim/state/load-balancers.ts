import type {
  CreateLoadBalancerInput,
  CreateLoadBalancerOutput,
  DeleteLoadBalancerInput,
  DescribeLoadBalancerAttributesInput,
  DescribeLoadBalancerAttributesOutput,
  DescribeLoadBalancersInput,
  DescribeLoadBalancersOutput,
  LoadBalancer,
  LoadBalancerAttribute,
  ModifyLoadBalancerAttributesInput,
  ModifyLoadBalancerAttributesOutput,
  IpAddressType,
  SetIpAddressTypeInput,
  SetIpAddressTypeOutput,
  SetSecurityGroupsInput,
  SetSecurityGroupsOutput,
  SetSubnetsInput,
  SetSubnetsOutput,
  SubnetMapping,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { hostedZoneIds } from '../config.js';
import type { SimSubnet } from '../config.js';
import { SimError, quotaReached, required, validation } from '../errors.js';
import { vpcSubnet } from '../network.js';
import type { LoadBalancerKind, LoadBalancerRecord } from './model.js';
import { paginate } from './store.js';
import type { Store } from './store.js';
import { applyTags, checkTagQuota } from './tags.js';
import { checkEnum, checkName, checkTags, sameSet } from './validate.js';
import { deleteListenerRecord } from './listeners.js';
import { defaultLoadBalancerAttributes, modifiedAttributes } from './lb-attributes.js';
import { checkKeptAddresses, renderAddresses, subnetAddresses } from './subnet-mappings.js';

export function renderLoadBalancer(store: Store, lb: LoadBalancerRecord): LoadBalancer {
  const provisioning = store.now() - lb.createdAt < store.provisioningMs;
  return {
    LoadBalancerArn: lb.arn,
    DNSName: lb.dnsName,
    CanonicalHostedZoneId: hostedZoneIds(store.region)[lb.type],
    CreatedTime: new Date(lb.createdAt),
    LoadBalancerName: lb.name,
    Scheme: lb.scheme,
    VpcId: store.network.vpcId,
    State: { Code: lb.stateOverride ?? (provisioning ? 'provisioning' : 'active') },
    Type: lb.type,
    AvailabilityZones: lb.subnets.map((subnetId) => ({
      ZoneName: vpcSubnet(store.network, subnetId)?.availabilityZone,
      SubnetId: subnetId,
      LoadBalancerAddresses: lb.type === 'network' ? renderAddresses(lb, subnetId) : undefined,
    })),
    SecurityGroups:
      lb.type === 'application' || lb.securityGroups.length > 0 ? [...lb.securityGroups] : undefined,
    IpAddressType: lb.ipAddressType,
    EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: lb.enforcePrivateLinkSg,
  };
}

function resolveSubnets(
  store: Store,
  type: LoadBalancerKind,
  subnets: readonly string[] | undefined,
  mappings: readonly SubnetMapping[] | undefined,
): SimSubnet[] {
  if (subnets?.length && mappings?.length)
    throw validation('You can specify subnets or subnet mappings, not both');
  const ids = subnets?.length ? [...subnets] : (mappings ?? []).map((m) => m.SubnetId ?? '');
  const found: SimSubnet[] = [];
  for (const id of ids) {
    const subnet = vpcSubnet(store.network, id);
    if (!subnet) throw new SimError('SubnetNotFound', `The subnet ID '${id}' is not valid`);
    if (found.some((s) => s.availabilityZone === subnet.availabilityZone)) {
      throw validation(
        `You cannot specify multiple subnets in the same Availability Zone '${subnet.availabilityZone}'`,
      );
    }
    found.push(subnet);
  }
  const minimum = type === 'application' ? 2 : 1;
  if (found.length < minimum) {
    throw validation(
      type === 'application'
        ? 'At least two subnets in two different Availability Zones must be specified'
        : 'At least one subnet must be specified',
    );
  }
  return found;
}

function checkSecurityGroups(store: Store, groups: readonly string[]): void {
  for (const sg of groups) {
    // Linked with the EC2 simulator, a group must exist there; alone, any well-formed ID does.
    const exists = store.securityGroupDirectory?.exists(sg) ?? /^sg-[0-9a-f]{8,17}$/.test(sg);
    if (!exists) throw new SimError('InvalidSecurityGroup', `Security group '${sg}' does not exist`);
  }
}

/** `dualstack-without-public-ipv4` only exists for internet-facing ALBs (API_CreateLoadBalancer). */
function checkIpAddressType(
  type: LoadBalancerKind,
  scheme: string,
  value: IpAddressType | undefined,
): IpAddressType | undefined {
  checkEnum(value, 'ipAddressType', ['ipv4', 'dualstack', 'dualstack-without-public-ipv4']);
  if (value === 'dualstack-without-public-ipv4' && (type !== 'application' || scheme !== 'internet-facing')) {
    throw validation(
      `IP address type 'dualstack-without-public-ipv4' is supported only for internet-facing Application Load Balancers`,
    );
  }
  return value;
}

/** Going back to IPv4 would strand the IPv6 target groups the load balancer routes to. */
function setIpAddressTypeOf(store: Store, lb: LoadBalancerRecord, value: IpAddressType | undefined): void {
  const next = checkIpAddressType(lb.type, lb.scheme, value);
  if (next === undefined) return;
  if (next === 'ipv4') {
    const v6 = [...store.targetGroups.values()].find(
      (tg) => tg.ipAddressType === 'ipv6' && store.loadBalancersOfTargetGroup(tg.arn).includes(lb.arn),
    );
    if (v6) {
      throw validation(
        `The IP address type cannot be changed to 'ipv4' while IPv6 target groups are attached (${v6.arn})`,
      );
    }
  }
  lb.ipAddressType = next;
}

export function setIpAddressType(store: Store, input: SetIpAddressTypeInput): SetIpAddressTypeOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  if (!input.IpAddressType) throw required('ipAddressType');
  setIpAddressTypeOf(store, lb, input.IpAddressType);
  return { IpAddressType: lb.ipAddressType };
}

export function createLoadBalancer(store: Store, input: CreateLoadBalancerInput): CreateLoadBalancerOutput {
  const name = checkName(input.Name, 'load balancer');
  checkEnum(input.Type, 'type', ['application', 'network', 'gateway']);
  if (input.Type === 'gateway') throw validation('Gateway Load Balancers are not supported by the simulator');
  const type: LoadBalancerKind = input.Type === 'network' ? 'network' : 'application';
  checkEnum(input.Scheme, 'scheme', ['internet-facing', 'internal']);
  const scheme = input.Scheme === 'internal' ? 'internal' : 'internet-facing';
  const ipAddressType = checkIpAddressType(type, scheme, input.IpAddressType) ?? 'ipv4';
  const found = resolveSubnets(store, type, input.Subnets, input.SubnetMappings);
  const subnets = found.map((s) => s.subnetId);
  const addresses = subnetAddresses({ type, scheme, ipAddressType }, found, input.SubnetMappings);
  const securityGroups = [...(input.SecurityGroups ?? [])];
  checkSecurityGroups(store, securityGroups);
  if (type === 'application' && securityGroups.length === 0)
    securityGroups.push(store.network.defaultSecurityGroupId);
  const tags = checkTags(input.Tags);
  checkTagQuota(store, tags);

  const existing = [...store.loadBalancers.values()].find((lb) => lb.name === name);
  if (existing) {
    // AWS answers an identical repeat create with the existing load balancer (idempotent create).
    const identical =
      existing.type === type &&
      existing.scheme === scheme &&
      existing.ipAddressType === ipAddressType &&
      sameSet(existing.subnets, subnets) &&
      sameSet(existing.securityGroups, securityGroups) &&
      JSON.stringify([...(existing.addresses ?? new Map())].sort()) === JSON.stringify([...addresses].sort());
    if (!identical)
      throw new SimError(
        'DuplicateLoadBalancerName',
        `A load balancer with the name '${name}' already exists`,
      );
    return { LoadBalancers: [renderLoadBalancer(store, existing)] };
  }
  const sameType = [...store.loadBalancers.values()].filter((lb) => lb.type === type).length;
  if (sameType >= store.limits.loadBalancersPerType) {
    throw quotaReached('TooManyLoadBalancers', 'load balancers', store.limits.loadBalancersPerType);
  }

  const id = store.newHexId();
  const dnsPrefix = scheme === 'internal' ? 'internal-' : '';
  const dnsName =
    type === 'application'
      ? `${dnsPrefix}${name}-${store.newDigits(10)}.${store.region}.elb.amazonaws.com`
      : `${dnsPrefix}${name}-${id}.elb.${store.region}.amazonaws.com`;
  const record: LoadBalancerRecord = {
    seq: store.nextSeq(),
    arn: store.arn(`loadbalancer/${type === 'application' ? 'app' : 'net'}/${name}/${id}`),
    name,
    type,
    scheme,
    ipAddressType,
    createdAt: store.now(),
    dnsName,
    subnets,
    ...(addresses.size > 0 ? { addresses } : {}),
    securityGroups,
    enforcePrivateLinkSg: type === 'network' && securityGroups.length > 0 ? 'on' : undefined,
    attributes: new Map(),
  };
  record.attributes = defaultLoadBalancerAttributes(record);
  store.loadBalancers.set(record.arn, record);
  if (tags.length > 0) applyTags(store, record.arn, tags);
  return { LoadBalancers: [renderLoadBalancer(store, record)] };
}

export function describeLoadBalancers(
  store: Store,
  input: DescribeLoadBalancersInput,
): DescribeLoadBalancersOutput {
  const arns = input.LoadBalancerArns ?? [];
  const names = input.Names ?? [];
  if (arns.length > 0 && names.length > 0)
    throw validation('Load balancer ARNs and names cannot be specified at the same time');
  let items = [...store.loadBalancers.values()];
  if (arns.length > 0) {
    items = arns.map((arn) => store.loadBalancer(arn));
  } else if (names.length > 0) {
    items = names.map((name) => {
      const lb = items.find((l) => l.name === name);
      if (!lb) throw new SimError('LoadBalancerNotFound', `Load balancers '[${name}]' not found`);
      return lb;
    });
  }
  const { page, nextMarker } = paginate([...new Set(items)], input.Marker, input.PageSize);
  return { LoadBalancers: page.map((lb) => renderLoadBalancer(store, lb)), NextMarker: nextMarker };
}

export function deleteLoadBalancer(store: Store, input: DeleteLoadBalancerInput): Record<string, never> {
  // Deleting a load balancer that does not exist (any more) succeeds, as in AWS.
  const lb = store.lookup(store.loadBalancers, 'loadbalancer', input.LoadBalancerArn, 'loadBalancerArn');
  if (!lb) return {};
  if (lb.attributes.get('deletion_protection.enabled') === 'true') {
    throw new SimError(
      'OperationNotPermitted',
      `Load balancer '${lb.arn}' cannot be deleted because deletion protection is enabled`,
    );
  }
  for (const listener of store.listenersOf(lb.arn)) deleteListenerRecord(store, listener);
  store.loadBalancers.delete(lb.arn);
  store.releaseSecurityGroups(lb.securityGroups);
  store.deleteTags(lb.arn);
  return {};
}

const attributeList = (lb: LoadBalancerRecord): LoadBalancerAttribute[] =>
  [...lb.attributes].map(([Key, Value]) => ({ Key, Value }));

export function describeLoadBalancerAttributes(
  store: Store,
  input: DescribeLoadBalancerAttributesInput,
): DescribeLoadBalancerAttributesOutput {
  return { Attributes: attributeList(store.loadBalancer(input.LoadBalancerArn)) };
}

export function modifyLoadBalancerAttributes(
  store: Store,
  input: ModifyLoadBalancerAttributesInput,
): ModifyLoadBalancerAttributesOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  lb.attributes = modifiedAttributes(lb, input.Attributes);
  return { Attributes: attributeList(lb) };
}

export function setSecurityGroups(store: Store, input: SetSecurityGroupsInput): SetSecurityGroupsOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  const groups = input.SecurityGroups ?? [];
  checkSecurityGroups(store, groups);
  if (lb.type === 'application' && groups.length === 0) throw required('securityGroups');
  if (lb.type === 'network' && lb.securityGroups.length === 0 && groups.length > 0) {
    throw new SimError(
      'InvalidConfigurationRequest',
      'You cannot add security groups to a Network Load Balancer created without them',
    );
  }
  // AWS's other half of the rule: an NLB created with security groups keeps at least one.
  if (lb.type === 'network' && lb.securityGroups.length > 0 && groups.length === 0) {
    throw new SimError(
      'InvalidConfigurationRequest',
      'You cannot remove every security group from a Network Load Balancer created with security groups',
    );
  }
  if (input.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic !== undefined) {
    if (lb.type !== 'network' || groups.length === 0)
      throw new SimError(
        'InvalidConfigurationRequest',
        'EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic applies only to a Network Load Balancer with security groups',
      );
    if (!['on', 'off'].includes(input.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic))
      throw new SimError(
        'ValidationError',
        `Value '${input.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic}' at 'enforceSecurityGroupInboundRulesOnPrivateLinkTraffic' failed to satisfy constraint: Member must satisfy enum value set: [on, off]`,
      );
  }
  store.releaseSecurityGroups(lb.securityGroups.filter((g) => !groups.includes(g)));
  lb.securityGroups = [...groups];
  if (input.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic) {
    lb.enforcePrivateLinkSg = input.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic;
  }
  return {
    SecurityGroupIds: [...lb.securityGroups],
    EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: lb.enforcePrivateLinkSg,
  };
}

export function setSubnets(store: Store, input: SetSubnetsInput): SetSubnetsOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  const found = resolveSubnets(store, lb.type, input.Subnets, input.SubnetMappings);
  const addresses = subnetAddresses(
    { ...lb, ipAddressType: input.IpAddressType ?? lb.ipAddressType },
    found,
    input.SubnetMappings,
  );
  checkKeptAddresses(lb, addresses);
  setIpAddressTypeOf(store, lb, input.IpAddressType);
  const subnets = found.map((s) => s.subnetId);
  // A kept subnet keeps its addresses; an added one takes the request's; a removed one loses them.
  const kept = new Map([...(lb.addresses ?? [])].filter(([id]) => subnets.includes(id)));
  for (const [id, a] of addresses) kept.set(id, a);
  lb.subnets = subnets;
  if (kept.size > 0) lb.addresses = kept;
  else delete lb.addresses;
  const rendered = renderLoadBalancer(store, lb);
  return { AvailabilityZones: rendered.AvailabilityZones, IpAddressType: lb.ipAddressType };
}
