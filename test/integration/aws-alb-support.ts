/**
 * Helpers for the AWS provider's simulator tests: a readable summary of the simulator's FULL state
 * (names instead of ARNs), and the same summary derived from a desired stack, so a test can assert
 * "AWS now holds exactly this stack and nothing else".
 */
import type { Action as SdkAction } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Elbv2Snapshot } from '../../dev/elbv2-sim/index.js';
import { stackFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { resourcesOf, ResourceTypes, type Action, type Stack } from '../../lib/providers/aws/model/types.js';
import { CREATED_AT_TAG, FINGERPRINT_TAG, OIDC_SECRETS_TAG } from '../../lib/providers/aws/tagging.js';
import { oidcSecretsVersion } from '../../lib/providers/aws/deploy/plan.js';
import { DNS_NAME_TAG } from '../../lib/providers/aws/deploy/targets-only.js';

export interface StateSummary {
  loadBalancers: Array<Record<string, unknown>>;
  targetGroups: Array<Record<string, unknown>>;
  listeners: Array<Record<string, unknown>>;
  rules: Array<Record<string, unknown>>;
  targets: Array<{ targetGroup: string; id: string; port: number; zone: 'all' | 'vpc' }>;
}

// Plain code-unit order, as the simulator sorts (localeCompare may weigh punctuation differently).
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  cmp(String(a.name), String(b.name));

function withoutCreatedAt(tags: Record<string, string>): Record<string, string> {
  const { [CREATED_AT_TAG]: _createdAt, ...rest } = tags;
  return rest;
}

/** The DNS name the simulator made up is not predictable: shown as OWN_DNS_NAME when it is the load balancer's own. */
export const OWN_DNS_NAME = '<its own DNS name>';
function ownDnsName(tags: Record<string, string>, dnsName: string | undefined): Record<string, string> {
  return tags[DNS_NAME_TAG] !== undefined && tags[DNS_NAME_TAG] === dnsName
    ? { ...tags, [DNS_NAME_TAG]: OWN_DNS_NAME }
    : tags;
}

export function summarize(s: Elbv2Snapshot): StateSummary {
  const tags = new Map(s.tags.map((t) => [t.ResourceArn, t.Tags]));
  const tgName = new Map(s.targetGroups.map((tg) => [tg.TargetGroupArn, tg.TargetGroupName]));
  const lbName = new Map(s.loadBalancers.map((lb) => [lb.LoadBalancerArn, lb.LoadBalancerName]));
  const listenerPort = new Map(s.listeners.map((l) => [l.ListenerArn, l.Port]));
  const actions = (as: SdkAction[] | undefined) =>
    (as ?? []).map((a) =>
      a.Type === 'forward'
        ? {
            type: 'forward',
            targetGroup: tgName.get(a.TargetGroupArn ?? a.ForwardConfig?.TargetGroups?.[0]?.TargetGroupArn),
          }
        : a.Type === 'redirect'
          ? {
              type: 'redirect',
              protocol: a.RedirectConfig?.Protocol,
              port: a.RedirectConfig?.Port,
              statusCode: a.RedirectConfig?.StatusCode,
            }
          : {
              type: a.Type,
              statusCode: a.FixedResponseConfig?.StatusCode,
              contentType: a.FixedResponseConfig?.ContentType,
            },
    );
  return {
    loadBalancers: s.loadBalancers
      .map((lb) => ({
        name: lb.LoadBalancerName,
        type: lb.Type,
        scheme: lb.Scheme,
        ipAddressType: lb.IpAddressType,
        subnets: (lb.AvailabilityZones ?? []).map((az) => az.SubnetId).sort(),
        securityGroups: [...(lb.SecurityGroups ?? [])].sort(),
        tags: ownDnsName(tags.get(lb.LoadBalancerArn ?? '') ?? {}, lb.DNSName),
      }))
      .sort(byName),
    targetGroups: s.targetGroups
      .map((tg) => ({
        name: tg.TargetGroupName,
        targetType: tg.TargetType,
        protocol: tg.Protocol,
        protocolVersion: tg.ProtocolVersion,
        ipAddressType: tg.IpAddressType,
        port: tg.Port,
        vpcId: tg.VpcId,
        healthCheck: [
          tg.HealthCheckPath,
          tg.HealthCheckPort,
          tg.HealthCheckProtocol,
          tg.HealthCheckIntervalSeconds,
          tg.HealthCheckTimeoutSeconds,
          tg.HealthyThresholdCount,
          tg.UnhealthyThresholdCount,
          tg.Matcher?.GrpcCode !== undefined ? `grpc:${tg.Matcher.GrpcCode}` : tg.Matcher?.HttpCode,
        ].join(' '),
        loadBalancers: (tg.LoadBalancerArns ?? []).map((a) => lbName.get(a)),
        // The creation time is stamped when the group is created: not part of any desired stack.
        tags: withoutCreatedAt(tags.get(tg.TargetGroupArn ?? '') ?? {}),
      }))
      .sort(byName),
    listeners: s.listeners.map((l) => ({
      loadBalancer: lbName.get(l.LoadBalancerArn),
      port: l.Port,
      protocol: l.Protocol,
      certificate: l.Certificates?.[0]?.CertificateArn,
      sslPolicy: l.SslPolicy,
      defaultActions: actions(l.DefaultActions),
      tags: tags.get(l.ListenerArn ?? '') ?? {},
    })),
    rules: s.rules
      .filter((r) => !r.IsDefault)
      .map((r) => ({
        listener: listenerPort.get(r.ListenerArn),
        priority: Number(r.Priority),
        conditions: (r.Conditions ?? []).map((c) => ({
          field: c.Field,
          values:
            c.HostHeaderConfig?.Values ??
            c.PathPatternConfig?.Values ??
            c.HttpHeaderConfig?.Values ??
            c.HttpRequestMethodConfig?.Values ??
            c.SourceIpConfig?.Values ??
            c.QueryStringConfig?.Values?.map((p) => `${p.Key ?? ''}=${p.Value ?? ''}`) ??
            c.Values,
        })),
        actions: actions(r.Actions),
        tags: tags.get(r.RuleArn ?? '') ?? {},
      }))
      .sort((a, b) => Number(a.listener) - Number(b.listener) || a.priority - b.priority),
    targets: s.targets.map((t) => ({
      targetGroup: t.TargetGroupName,
      id: t.Id,
      port: t.Port,
      zone: t.AvailabilityZone === 'all' ? ('all' as const) : ('vpc' as const),
    })),
  };
}

/** What `summarize` should return when AWS holds exactly `stack`. */
export function expectedSummary(stack: Stack): StateSummary {
  const tgs = resourcesOf(stack, ResourceTypes.TargetGroup);
  const tgNameById = new Map(tgs.map((t) => [t.id, t.spec.name]));
  const [lb] = resourcesOf(stack, ResourceTypes.LoadBalancer);
  const listeners = resourcesOf(stack, ResourceTypes.Listener);
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
  const portById = new Map(listeners.map((l) => [l.id, l.spec.port]));
  const actions = (as: Action[]) =>
    as.map((a) =>
      a.type === 'forward'
        ? {
            type: 'forward',
            targetGroup: tgNameById.get(
              'targetGroup' in a ? a.targetGroup.$ref : (a.targetGroups[0]?.targetGroup.$ref ?? ''),
            ),
          }
        : a.type === 'redirect'
          ? {
              type: 'redirect',
              // ELBv2 reports the request's own for what a redirect leaves out.
              protocol: a.redirect.protocol ?? '#{protocol}',
              port: a.redirect.port ?? '#{port}',
              statusCode: a.redirect.statusCode,
            }
          : a.type === 'fixed-response'
            ? {
                type: 'fixed-response',
                statusCode: a.fixedResponse.statusCode,
                contentType: a.fixedResponse.contentType,
              }
            : // An authentication action: summarize() reports its type alone.
              { type: a.type, statusCode: undefined, contentType: undefined },
    );
  const referenced = new Set(
    [...listeners.flatMap((l) => l.spec.defaultActions), ...rules.flatMap((r) => r.spec.actions)].flatMap(
      (a) =>
        a.type !== 'forward'
          ? []
          : 'targetGroup' in a
            ? [a.targetGroup.$ref]
            : a.targetGroups.map((g) => g.targetGroup.$ref),
    ),
  );
  return {
    loadBalancers: lb
      ? [
          {
            name: lb.spec.name,
            type: lb.spec.type,
            scheme: lb.spec.scheme,
            ipAddressType: lb.spec.ipAddressType,
            subnets: [...lb.spec.subnets].sort(),
            securityGroups: [...(lb.spec.securityGroups ?? [])].sort(),
            // Written last by every full deploy: the hash of exactly this stack.
            tags: {
              ...lb.spec.tags,
              [DNS_NAME_TAG]: OWN_DNS_NAME,
              [FINGERPRINT_TAG]: stackFingerprint(stack),
              // With OIDC: the versions of the client Secrets the rules were given.
              ...(oidcSecretsVersion(stack) !== undefined
                ? { [OIDC_SECRETS_TAG]: oidcSecretsVersion(stack) }
                : {}),
            },
          },
        ]
      : [],
    targetGroups: tgs
      .map((t) => {
        const hc = t.spec.healthCheck;
        return {
          name: t.spec.name,
          targetType: t.spec.targetType,
          protocol: t.spec.protocol,
          // AWS reports HTTP1 for an HTTP(S) group created without a version, none for TCP/UDP.
          protocolVersion:
            t.spec.protocolVersion ?? (t.spec.protocol.startsWith('HTTP') ? 'HTTP1' : undefined),
          ipAddressType: t.spec.ipAddressType,
          port: t.spec.port,
          vpcId: t.spec.vpcId,
          healthCheck: [
            hc.path,
            hc.port,
            hc.protocol,
            hc.intervalSeconds,
            hc.timeoutSeconds,
            hc.healthyThresholdCount,
            hc.unhealthyThresholdCount,
            hc.matcher && ('grpcCode' in hc.matcher ? `grpc:${hc.matcher.grpcCode}` : hc.matcher.httpCode),
          ].join(' '),
          loadBalancers: lb && referenced.has(t.id) ? [lb.spec.name] : [],
          tags: t.spec.tags,
        };
      })
      .sort(byName),
    listeners: listeners.map((l) => ({
      loadBalancer: lb?.spec.name,
      port: l.spec.port,
      protocol: l.spec.protocol,
      certificate: l.spec.certificates?.[0],
      sslPolicy: l.spec.sslPolicy,
      defaultActions: actions(l.spec.defaultActions),
      tags: l.spec.tags,
    })),
    rules: rules
      .map((r) => ({
        listener: portById.get(r.spec.listener.$ref),
        priority: r.spec.priority,
        conditions: r.spec.conditions.map((c) => ({
          field: c.field,
          values: c.field === 'query-string' ? c.values.map((p) => `${p.key ?? ''}=${p.value}`) : c.values,
        })),
        actions: actions(r.spec.actions),
        tags: r.spec.tags,
      }))
      .sort((a, b) => Number(a.listener) - Number(b.listener) || a.priority - b.priority),
    targets: tgs
      .sort((a, b) => cmp(a.spec.name, b.spec.name))
      .flatMap((t) =>
        [...t.spec.targets]
          .sort((a, b) => cmp(a.id, b.id) || a.port - b.port)
          .map((x) => ({
            targetGroup: t.spec.name,
            id: x.id,
            port: x.port,
            zone: x.availabilityZone === 'all' ? ('all' as const) : ('vpc' as const),
          })),
      ),
  };
}

/** Call counts per action, without the zero-call noise: `{ DescribeTags: 1, ... }`. */
export function callCounts(all: Record<string, { calls: number }>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(all)
      .filter(([, c]) => c.calls > 0)
      .map(([k, c]) => [k, c.calls]),
  );
}
