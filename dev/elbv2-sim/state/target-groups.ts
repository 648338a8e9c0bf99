import type {
  CreateTargetGroupInput,
  CreateTargetGroupOutput,
  DeleteTargetGroupInput,
  DescribeTargetGroupAttributesInput,
  DescribeTargetGroupAttributesOutput,
  DescribeTargetGroupsInput,
  DescribeTargetGroupsOutput,
  ModifyTargetGroupAttributesInput,
  ModifyTargetGroupAttributesOutput,
  ModifyTargetGroupInput,
  ModifyTargetGroupOutput,
  TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, quotaReached, required, validation } from '../errors.js';
import type { TargetGroupRecord } from './model.js';
import { forwardTargetGroups, paginate } from './store.js';
import type { Store } from './store.js';
import { checkMatcher } from './matcher.js';
import { applyTags, checkTagQuota } from './tags.js';
import { defaultTargetGroupAttributes, modifiedTargetGroupAttributes } from './tg-attributes.js';
import { checkEnum, checkName, checkPort, checkRange, checkTags } from './validate.js';

const HTTP_FAMILY = new Set(['HTTP', 'HTTPS']);
const PROTOCOLS = ['HTTP', 'HTTPS', 'TCP', 'TLS', 'UDP', 'TCP_UDP', 'GENEVE'];

type HealthCheckFields = Pick<
  TargetGroupRecord,
  | 'healthCheckProtocol'
  | 'healthCheckPort'
  | 'healthCheckEnabled'
  | 'healthCheckPath'
  | 'healthCheckIntervalSeconds'
  | 'healthCheckTimeoutSeconds'
  | 'healthyThresholdCount'
  | 'unhealthyThresholdCount'
  | 'matcher'
>;

/** Merges requested health-check settings over `base` (AWS defaults on create, current values on modify). */
function healthCheck(
  input: ModifyTargetGroupInput | CreateTargetGroupInput,
  base: HealthCheckFields,
  tgProtocol: string | undefined,
  grpc: boolean,
): HealthCheckFields {
  checkMatcher(input.Matcher, { grpc, alb: HTTP_FAMILY.has(tgProtocol ?? '') });
  checkEnum(input.HealthCheckProtocol, 'healthCheckProtocol', ['HTTP', 'HTTPS', 'TCP']);
  checkRange(input.HealthCheckIntervalSeconds, 'healthCheckIntervalSeconds', 5, 300);
  checkRange(input.HealthCheckTimeoutSeconds, 'healthCheckTimeoutSeconds', 2, 120);
  checkRange(input.HealthyThresholdCount, 'healthyThresholdCount', 2, 10);
  checkRange(input.UnhealthyThresholdCount, 'unhealthyThresholdCount', 2, 10);
  const protocol = input.HealthCheckProtocol ?? base.healthCheckProtocol;
  if (HTTP_FAMILY.has(tgProtocol ?? '') && protocol === 'TCP')
    throw validation('TCP health checks are not supported for HTTP target groups');
  const httpCheck = HTTP_FAMILY.has(protocol ?? '');
  const path = httpCheck ? (input.HealthCheckPath ?? base.healthCheckPath ?? '/') : input.HealthCheckPath;
  if (path !== undefined && (!httpCheck || !path.startsWith('/') || path.length > 1024)) {
    throw validation(`Health check path '${path}' is not valid for health check protocol ${protocol}`);
  }
  const port = input.HealthCheckPort ?? base.healthCheckPort;
  if (port !== 'traffic-port' && port !== undefined) checkPort(Number(port), 'healthCheckPort');
  const out: HealthCheckFields = {
    healthCheckProtocol: protocol,
    healthCheckPort: port,
    healthCheckEnabled: input.HealthCheckEnabled ?? base.healthCheckEnabled,
    healthCheckPath: path,
    healthCheckIntervalSeconds: input.HealthCheckIntervalSeconds ?? base.healthCheckIntervalSeconds,
    healthCheckTimeoutSeconds: input.HealthCheckTimeoutSeconds ?? base.healthCheckTimeoutSeconds,
    healthyThresholdCount: input.HealthyThresholdCount ?? base.healthyThresholdCount,
    unhealthyThresholdCount: input.UnhealthyThresholdCount ?? base.unhealthyThresholdCount,
    matcher: httpCheck
      ? (input.Matcher ?? base.matcher ?? { HttpCode: HTTP_FAMILY.has(tgProtocol ?? '') ? '200' : '200-399' })
      : undefined,
  };
  // ALB: strictly smaller. NLB (TCP/TLS/UDP groups) since Nov 2022: not greater, so LBC's NLB
  // defaults (interval 10, timeout 10) are valid.
  const nlbGroup = !HTTP_FAMILY.has(tgProtocol ?? '');
  if (
    nlbGroup
      ? out.healthCheckTimeoutSeconds > out.healthCheckIntervalSeconds
      : out.healthCheckTimeoutSeconds >= out.healthCheckIntervalSeconds
  ) {
    throw validation(
      nlbGroup
        ? 'Health check timeout must not be greater than the interval'
        : 'Health check timeout must be smaller than the interval',
    );
  }
  return out;
}

export function renderTargetGroup(store: Store, tg: TargetGroupRecord): TargetGroup {
  return {
    TargetGroupArn: tg.arn,
    TargetGroupName: tg.name,
    Protocol: tg.protocol,
    Port: tg.port,
    VpcId: tg.vpcId,
    HealthCheckProtocol: tg.healthCheckProtocol,
    HealthCheckPort: tg.healthCheckPort,
    HealthCheckEnabled: tg.healthCheckEnabled,
    HealthCheckIntervalSeconds: tg.healthCheckIntervalSeconds,
    HealthCheckTimeoutSeconds: tg.healthCheckTimeoutSeconds,
    HealthyThresholdCount: tg.healthyThresholdCount,
    UnhealthyThresholdCount: tg.unhealthyThresholdCount,
    HealthCheckPath: tg.healthCheckPath,
    Matcher: tg.matcher ? { ...tg.matcher } : undefined,
    LoadBalancerArns: store.loadBalancersOfTargetGroup(tg.arn),
    TargetType: tg.targetType,
    ProtocolVersion: tg.protocolVersion,
    IpAddressType: tg.targetType === 'lambda' ? undefined : tg.ipAddressType,
  };
}

/**
 * Target type alb (an ALB as the target of an NLB): TCP only, IPv4, no protocol version, and a
 * health check over HTTP or HTTPS (the NLB checks the ALB's listener).
 */
function checkAlbTargetGroup(input: CreateTargetGroupInput): void {
  if (input.Protocol !== 'TCP')
    throw validation(`Target type 'alb' supports only protocol 'TCP', not '${input.Protocol ?? ''}'`);
  if (input.IpAddressType !== undefined && input.IpAddressType !== 'ipv4')
    throw validation(`Target type 'alb' supports only IP address type 'ipv4'`);
  checkAlbHealthCheckProtocol(input.HealthCheckProtocol);
}

function checkAlbHealthCheckProtocol(protocol: string | undefined): void {
  if (protocol !== undefined && protocol !== 'HTTP' && protocol !== 'HTTPS')
    throw validation(
      `Health check protocol '${protocol}' is not supported for target type 'alb': use HTTP or HTTPS`,
    );
}

export function createTargetGroup(store: Store, input: CreateTargetGroupInput): CreateTargetGroupOutput {
  const name = checkName(input.Name, 'target group');
  checkEnum(input.TargetType, 'targetType', ['instance', 'ip', 'lambda', 'alb']);
  const targetType = input.TargetType ?? 'instance';
  const lambda = targetType === 'lambda';
  checkEnum(input.Protocol, 'protocol', PROTOCOLS);
  if (!lambda) {
    if (!input.Protocol) throw required('protocol');
    checkPort(input.Port);
    if (!input.VpcId) throw required('vpcId');
    if (input.VpcId !== store.network.vpcId) throw validation(`The VPC ID '${input.VpcId}' is not found`);
  }
  const http = HTTP_FAMILY.has(input.Protocol ?? '');
  checkEnum(input.ProtocolVersion, 'protocolVersion', ['HTTP1', 'HTTP2', 'GRPC']);
  if (input.ProtocolVersion && !http)
    throw validation('Protocol version is only supported for HTTP and HTTPS target groups');
  checkEnum(input.IpAddressType, 'ipAddressType', ['ipv4', 'ipv6']);
  if (lambda && input.IpAddressType !== undefined)
    throw validation('An IP address type cannot be specified for Lambda target groups');
  const grpc = input.ProtocolVersion === 'GRPC';
  const alb = targetType === 'alb';
  if (alb) checkAlbTargetGroup(input);
  const hc = healthCheck(
    input,
    {
      // An ALB target is checked over HTTP (API_CreateTargetGroup: alb targets take HTTP or HTTPS only).
      healthCheckProtocol: lambda ? undefined : http ? input.Protocol : alb ? 'HTTP' : 'TCP',
      healthCheckPort: lambda ? undefined : 'traffic-port',
      healthCheckEnabled: !lambda,
      healthCheckPath: grpc ? '/AWS.ALB/healthcheck' : undefined,
      healthCheckIntervalSeconds: lambda ? 35 : 30,
      healthCheckTimeoutSeconds: lambda ? 30 : http ? 5 : 10,
      healthyThresholdCount: 5,
      unhealthyThresholdCount: 2,
      matcher: grpc ? { GrpcCode: '12' } : undefined,
    },
    input.Protocol,
    grpc,
  );
  const tags = checkTags(input.Tags);
  checkTagQuota(store, tags);
  const candidate = {
    protocol: input.Protocol,
    protocolVersion: http ? (input.ProtocolVersion ?? 'HTTP1') : undefined,
    port: input.Port,
    vpcId: lambda ? undefined : input.VpcId,
    targetType,
    ipAddressType: input.IpAddressType ?? 'ipv4',
    ...hc,
  };
  const existing = [...store.targetGroups.values()].find((tg) => tg.name === name);
  if (existing) {
    // AWS returns the existing group for a repeat create with identical settings.
    const same = (Object.keys(candidate) as (keyof typeof candidate)[]).every(
      (k) => JSON.stringify(existing[k]) === JSON.stringify(candidate[k]),
    );
    if (!same)
      throw new SimError(
        'DuplicateTargetGroupName',
        `A target group with the same name '${name}' exists, but with different settings`,
      );
    return { TargetGroups: [renderTargetGroup(store, existing)] };
  }
  if (store.targetGroups.size >= store.limits.targetGroups) {
    throw quotaReached('TooManyTargetGroups', 'target groups', store.limits.targetGroups);
  }
  const record: TargetGroupRecord = {
    seq: store.nextSeq(),
    arn: store.arn(`targetgroup/${name}/${store.newHexId()}`),
    name,
    ...candidate,
    attributes: defaultTargetGroupAttributes(candidate),
    targets: new Map(),
  };
  store.targetGroups.set(record.arn, record);
  if (tags.length > 0) applyTags(store, record.arn, tags);
  return { TargetGroups: [renderTargetGroup(store, record)] };
}

export function describeTargetGroups(
  store: Store,
  input: DescribeTargetGroupsInput,
): DescribeTargetGroupsOutput {
  const filters = [input.LoadBalancerArn, input.TargetGroupArns?.length, input.Names?.length].filter(
    Boolean,
  ).length;
  if (filters > 1) throw validation('Specify only one of load balancer ARN, target group ARNs or names');
  let items = [...store.targetGroups.values()];
  if (input.LoadBalancerArn) {
    const lb = store.loadBalancer(input.LoadBalancerArn);
    const used = new Set(
      store
        .listenersOf(lb.arn)
        .flatMap((l) => store.rulesOf(l.arn).flatMap((r) => forwardTargetGroups(r.actions))),
    );
    items = items.filter((tg) => used.has(tg.arn));
  } else if (input.TargetGroupArns?.length) {
    items = [...new Set(input.TargetGroupArns.map((arn) => store.targetGroup(arn)))];
  } else if (input.Names?.length) {
    items = input.Names.map((name) => {
      const tg = items.find((t) => t.name === name);
      if (!tg) throw new SimError('TargetGroupNotFound', `One or more target groups not found`);
      return tg;
    });
  }
  const { page, nextMarker } = paginate([...new Set(items)], input.Marker, input.PageSize);
  return { TargetGroups: page.map((tg) => renderTargetGroup(store, tg)), NextMarker: nextMarker };
}

export function modifyTargetGroup(store: Store, input: ModifyTargetGroupInput): ModifyTargetGroupOutput {
  const tg = store.targetGroup(input.TargetGroupArn);
  if (tg.targetType === 'alb') checkAlbHealthCheckProtocol(input.HealthCheckProtocol);
  Object.assign(tg, healthCheck(input, tg, tg.protocol, tg.protocolVersion === 'GRPC'));
  return { TargetGroups: [renderTargetGroup(store, tg)] };
}

const attributeList = (tg: TargetGroupRecord) => [...tg.attributes].map(([Key, Value]) => ({ Key, Value }));

export function describeTargetGroupAttributes(
  store: Store,
  input: DescribeTargetGroupAttributesInput,
): DescribeTargetGroupAttributesOutput {
  return { Attributes: attributeList(store.targetGroup(input.TargetGroupArn)) };
}

export function modifyTargetGroupAttributes(
  store: Store,
  input: ModifyTargetGroupAttributesInput,
): ModifyTargetGroupAttributesOutput {
  const tg = store.targetGroup(input.TargetGroupArn);
  tg.attributes = modifiedTargetGroupAttributes(tg, input.Attributes);
  return { Attributes: attributeList(tg) };
}

export function deleteTargetGroup(store: Store, input: DeleteTargetGroupInput): Record<string, never> {
  const tg = store.lookup(store.targetGroups, 'targetgroup', input.TargetGroupArn, 'targetGroupArn');
  if (!tg) return {};
  const user = [...store.rules.values()].find((r) => forwardTargetGroups(r.actions).includes(tg.arn));
  if (user) {
    const listener = store.listeners.get(user.listenerArn);
    throw new SimError(
      'ResourceInUse',
      `Target group '${tg.arn}' is currently in use by a listener or a rule (${listener?.arn ?? user.arn})`,
    );
  }
  store.targetGroups.delete(tg.arn);
  store.deleteTags(tg.arn);
  return {};
}
