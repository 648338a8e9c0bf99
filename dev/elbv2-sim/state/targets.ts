import type {
  DeregisterTargetsInput,
  DescribeTargetHealthInput,
  DescribeTargetHealthOutput,
  RegisterTargetsInput,
  TargetDescription,
  TargetHealthDescription,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import { isPrivateIpv4, parseIpv4, parseIpv6, subnetOf, subnetOf6 } from '../network.js';
import type { HealthOverride, TargetGroupRecord, TargetRecord } from './model.js';
import { checkTargetsFit, routedTargetGroups } from './quotas.js';
import type { Store } from './store.js';
import { checkPort } from './validate.js';

const key = (id: string, port: number): string => `${id}:${port}`;

/** Drops targets whose draining period is over; done lazily whenever targets are read. */
export function purgeDrained(store: Store, tg: TargetGroupRecord): void {
  for (const [k, t] of tg.targets) {
    if (t.drainingSince !== undefined && store.now() - t.drainingSince >= store.drainingMs)
      tg.targets.delete(k);
  }
}

function resolveTarget(store: Store, tg: TargetGroupRecord, target: TargetDescription): TargetRecord {
  if (!target.Id) throw required('targets.member.id');
  const port = target.Port ?? tg.port;
  if (tg.targetType !== 'lambda') checkPort(port, 'targets.member.port');
  const az = target.AvailabilityZone;
  const zones = new Set(store.network.subnets.map((s) => s.availabilityZone));
  if (az !== undefined && az !== 'all' && !zones.has(az)) {
    throw new SimError('InvalidTarget', `Availability Zone '${az}' is not valid for target '${target.Id}'`);
  }
  if (tg.targetType === 'ip') {
    return {
      id: target.Id,
      port: port!,
      availabilityZone: ipTargetZone(store, tg, target.Id, az),
      registeredAt: store.now(),
    };
  }
  if (az !== undefined && (tg.targetType === 'instance' || tg.targetType === 'alb')) {
    throw validation(`An Availability Zone cannot be specified for '${tg.targetType}' targets`);
  }
  if (tg.targetType === 'alb') checkAlbTarget(store, target.Id, port ?? 0);
  if (tg.targetType === 'lambda' && az !== undefined && az !== 'all')
    throw validation(`The only supported Availability Zone for Lambda targets is 'all'`);
  if (tg.targetType === 'instance' && !/^i-[0-9a-f]{8,17}$/.test(target.Id)) {
    throw new SimError('InvalidTarget', `The following targets are not valid instances: '${target.Id}'`);
  }
  return { id: target.Id, port: port ?? 0, availabilityZone: az, registeredAt: store.now() };
}

/**
 * The zone an ip target is registered with, following API_TargetDescription: an address in a
 * subnet of the VPC has its zone detected (and cannot be moved to another one or to `all`);
 * one outside needs a zone, and `all` is refused by ALB target groups with cross-zone off.
 * "In the VPC" means in one of its subnets, as AWS decides it (a VPC CIDR with no subnet is out).
 */
function ipTargetZone(store: Store, tg: TargetGroupRecord, id: string, az: string | undefined): string {
  if (tg.ipAddressType === 'ipv6') {
    const ip6 = parseIpv6(id);
    if (ip6 === undefined)
      throw new SimError('InvalidTarget', `The IP address '${id}' is not a valid IPv6 address`);
    const subnet = subnetOf6(store.network, ip6);
    if (!subnet)
      throw new SimError('InvalidTarget', `The IPv6 address '${id}' is not in a subnet of the VPC`);
    return checkDetectedZone(id, subnet.availabilityZone, az);
  }
  const ip = parseIpv4(id);
  if (ip === undefined)
    throw new SimError('InvalidTarget', `The IP address '${id}' is not a valid IPv4 address`);
  const subnet = subnetOf(store.network, ip);
  if (subnet) return checkDetectedZone(id, subnet.availabilityZone, az);
  // Outside the VPC AWS only accepts private (RFC 1918 / RFC 6598) addresses.
  if (!isPrivateIpv4(ip)) {
    throw new SimError(
      'InvalidTarget',
      `The IP address '${id}' is not a private address and cannot be registered`,
    );
  }
  if (az === undefined)
    throw validation(`The Availability Zone is required for IP address '${id}' because it is not in the VPC`);
  const albGroup = tg.protocol === 'HTTP' || tg.protocol === 'HTTPS';
  if (az === 'all' && albGroup && tg.attributes.get('load_balancing.cross_zone.enabled') === 'false') {
    throw validation(
      `When cross-zone load balancing is disabled on this target group, you must specify an Availability Zone ` +
        `for IP target '${id}' since it is outside of the VPC`,
    );
  }
  return az;
}

function checkDetectedZone(id: string, detected: string, requested: string | undefined): string {
  if (requested !== undefined && requested !== detected) {
    throw validation(
      `The IP address '${id}' is within the VPC, and cannot have its Availability Zone overridden to '${requested}' from '${detected}'`,
    );
  }
  return detected;
}

/**
 * An alb target (API_RegisterTargets, "Use an Application Load Balancer as a target"): an ALB of
 * this account and VPC, registered on a port it has a listener on.
 */
function checkAlbTarget(store: Store, id: string, port: number): void {
  const lb = store.loadBalancers.get(id);
  if (!lb || lb.type !== 'application')
    throw new SimError('InvalidTarget', `The target '${id}' is not an Application Load Balancer`);
  if (!store.listenersOf(lb.arn).some((l) => l.port === port))
    throw new SimError(
      'InvalidTarget',
      `The Application Load Balancer '${id}' has no listener on port ${port}: register it on the port of one of its listeners`,
    );
}

/** The NLBs whose listeners forward to a group that has `albArn` as its target. */
export function nlbsFronting(
  store: Store,
  albArn: string,
  extra: { tg?: string; lb?: string } = {},
): Set<string> {
  const out = new Set<string>();
  for (const tg of store.targetGroups.values()) {
    if (tg.targetType !== 'alb') continue;
    const holds = [...tg.targets.values()].some((t) => t.id === albArn) || tg.arn === extra.tg;
    if (!holds) continue;
    for (const lb of store.loadBalancersOfTargetGroup(tg.arn)) out.add(lb);
    if (extra.lb && tg.arn === extra.tg) out.add(extra.lb);
  }
  return out;
}

/** "You can associate an Application Load Balancer as a target of up to two Network Load Balancers." */
export const NLBS_PER_ALB_TARGET = 2;

export function registerTargets(store: Store, input: RegisterTargetsInput): Record<string, never> {
  const tg = store.targetGroup(input.TargetGroupArn);
  if (!input.Targets?.length) throw required('targets');
  purgeDrained(store, tg);
  const resolved = input.Targets.map((t) => resolveTarget(store, tg, t));
  const fresh = new Set(resolved.map((t) => key(t.id, t.port)).filter((k) => !tg.targets.has(k)));
  if (tg.targetType === 'alb') {
    const live = [...tg.targets.values()].filter(
      (t) => t.drainingSince === undefined && !fresh.has(key(t.id, t.port)),
    );
    if (live.length + fresh.size > 1)
      throw validation('You can register only one Application Load Balancer per target group');
    for (const t of resolved) {
      if (nlbsFronting(store, t.id, { tg: tg.arn }).size > NLBS_PER_ALB_TARGET)
        throw new SimError(
          'TooManyRegistrationsForTargetId',
          `The Application Load Balancer '${t.id}' is already the target of ${NLBS_PER_ALB_TARGET} Network Load Balancers`,
        );
    }
  }
  if (tg.targets.size + fresh.size > store.limits.targetsPerTargetGroup) {
    throw new SimError(
      'TooManyTargets',
      `You've reached the limit on the number of targets (${store.limits.targetsPerTargetGroup})`,
    );
  }
  const added = [
    ...new Map(
      resolved.filter((t) => fresh.has(key(t.id, t.port))).map((t) => [key(t.id, t.port), t]),
    ).values(),
  ];
  for (const lbArn of store.loadBalancersOfTargetGroup(tg.arn)) {
    const lb = store.loadBalancer(lbArn);
    checkTargetsFit(store, lb, routedTargetGroups(store, lb), added);
  }
  for (const t of resolved) {
    const existing = tg.targets.get(key(t.id, t.port));
    // Re-registering a live target is a no-op; a draining one starts over as a new registration.
    if (existing && existing.drainingSince === undefined) continue;
    tg.targets.set(key(t.id, t.port), t);
  }
  return {};
}

export function deregisterTargets(store: Store, input: DeregisterTargetsInput): Record<string, never> {
  const tg = store.targetGroup(input.TargetGroupArn);
  if (!input.Targets?.length) throw required('targets');
  purgeDrained(store, tg);
  const found = input.Targets.map((t) => {
    const record = tg.targets.get(key(t.Id ?? '', t.Port ?? tg.port ?? 0));
    if (!record)
      throw new SimError(
        'InvalidTarget',
        `The following targets are not registered in target group '${tg.arn}': '${t.Id}'`,
      );
    return record;
  });
  for (const record of found) {
    if (store.drainingMs <= 0) tg.targets.delete(key(record.id, record.port));
    else record.drainingSince ??= store.now();
  }
  purgeDrained(store, tg);
  return {};
}

function health(store: Store, tg: TargetGroupRecord, t: TargetRecord): HealthOverride {
  if (t.drainingSince !== undefined) {
    return {
      State: 'draining',
      Reason: 'Target.DeregistrationInProgress',
      Description: 'Target deregistration is in progress',
    };
  }
  if (t.healthOverride) return { ...t.healthOverride };
  if (store.loadBalancersOfTargetGroup(tg.arn).length === 0) {
    return {
      State: 'unused',
      Reason: 'Target.NotInUse',
      Description: 'Target group is not configured to receive traffic from the load balancer',
    };
  }
  if (!tg.healthCheckEnabled)
    return {
      State: 'unavailable',
      Reason: 'Target.HealthCheckDisabled',
      Description: 'Health checks disabled',
    };
  if (store.now() - t.registeredAt < store.initialMs) {
    return {
      State: 'initial',
      Reason: 'Elb.RegistrationInProgress',
      Description: 'Target registration is in progress',
    };
  }
  return { State: 'healthy' };
}

function describeOne(store: Store, tg: TargetGroupRecord, t: TargetRecord): TargetHealthDescription {
  return {
    Target: { Id: t.id, Port: t.port, AvailabilityZone: t.availabilityZone },
    HealthCheckPort: tg.healthCheckPort === 'traffic-port' ? String(t.port) : tg.healthCheckPort,
    TargetHealth: health(store, tg, t),
  };
}

export function describeTargetHealth(
  store: Store,
  input: DescribeTargetHealthInput,
): DescribeTargetHealthOutput {
  const tg = store.targetGroup(input.TargetGroupArn);
  purgeDrained(store, tg);
  if (!input.Targets?.length) {
    return { TargetHealthDescriptions: [...tg.targets.values()].map((t) => describeOne(store, tg, t)) };
  }
  return {
    TargetHealthDescriptions: input.Targets.map((q) => {
      const port = q.Port ?? tg.port ?? 0;
      const t = tg.targets.get(key(q.Id ?? '', port));
      if (t) return describeOne(store, tg, t);
      return {
        Target: { Id: q.Id, Port: port, AvailabilityZone: q.AvailabilityZone },
        TargetHealth: {
          State: 'unused',
          Reason: 'Target.NotRegistered',
          Description: 'Target is not registered to the target group',
        },
      };
    }),
  };
}

/** Test hook: pin a target's health (e.g. `unhealthy`), or pass undefined to return to the model. */
export function setTargetHealth(
  store: Store,
  targetGroupArn: string,
  target: { Id: string; Port?: number },
  override: HealthOverride | undefined,
): void {
  const tg = store.targetGroup(targetGroupArn);
  const record = tg.targets.get(key(target.Id, target.Port ?? tg.port ?? 0));
  if (!record)
    throw new SimError('InvalidTarget', `Target '${target.Id}' is not registered in '${targetGroupArn}'`);
  record.healthOverride = override;
}
