/**
 * The settings a planned call carries, in words, so the text plan shows what `--json` shows:
 * certificates, SSL policies, redirects and other listener actions, rule conditions, health
 * checks, targets and attributes. Tags are left out (the operation's detail names the keys).
 */
import type {
  Action as SdkAction,
  MutualAuthenticationAttributes,
  RuleCondition as SdkCondition,
  RuleTransform as SdkTransform,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Operation } from '../../lib/providers/aws/index.js';
import { ArnRef, type Arn, type Planned } from '../../lib/providers/aws/deploy/refs.js';

type PlannedCall = Operation['calls'][number];
type PlannedAction = Planned<SdkAction>;

/** A placeholder shows the stack resource it stands for; an ARN its readable tail. */
export function shortArn(arn: Arn | undefined): string {
  if (arn instanceof ArnRef) return arn.resourceId;
  if (!arn) return '?';
  const tg = /:targetgroup\/([^/]+)\//.exec(arn);
  if (tg) return tg[1] ?? arn;
  return arn;
}

export function describeAction(a: PlannedAction): string {
  switch (a.Type) {
    case 'forward': {
      const groups = a.ForwardConfig?.TargetGroups;
      if (a.TargetGroupArn || !groups) return `forward to ${shortArn(a.TargetGroupArn)}`;
      const sticky = a.ForwardConfig?.TargetGroupStickinessConfig;
      return `forward to ${groups.map((g) => `${shortArn(g.TargetGroupArn)} (weight ${g.Weight ?? 1})`).join(', ')}${
        sticky?.Enabled ? `, sticky for ${sticky.DurationSeconds ?? '?'}s` : ''
      }`;
    }
    case 'redirect': {
      const r = a.RedirectConfig;
      const code = r?.StatusCode?.replace('HTTP_', '') ?? '';
      // Host, path and query only when set: the common HTTPS redirect stays one short line.
      const more = [
        r?.Host !== undefined ? `host ${r.Host}` : '',
        r?.Path !== undefined ? `path ${r.Path}` : '',
        r?.Query !== undefined ? `query ${r.Query}` : '',
      ].filter(Boolean);
      return `redirect ${code} to ${r?.Protocol ?? '#{protocol}'}:${r?.Port ?? '#{port}'}${more.length ? ` (${more.join(', ')})` : ''}`;
    }
    case 'fixed-response': {
      const f = a.FixedResponseConfig;
      return `fixed response ${f?.StatusCode ?? ''}${f?.ContentType ? ` ${f.ContentType}` : ''}${
        f?.MessageBody !== undefined ? ` ${JSON.stringify(f.MessageBody)}` : ''
      }`;
    }
    default:
      return a.Type ?? 'unknown action';
  }
}

export function describeCondition(c: SdkCondition): string {
  const match = (m: { Values?: string[]; RegexValues?: string[] } | undefined, legacy?: string[]) =>
    m?.RegexValues?.length ? `~ ${m.RegexValues.join(' | ')}` : (m?.Values ?? legacy ?? []).join(' | ');
  switch (c.Field) {
    case 'host-header':
      return `host ${match(c.HostHeaderConfig, c.Values)}`;
    case 'path-pattern':
      return `path ${match(c.PathPatternConfig, c.Values)}`;
    case 'http-header':
      return `header ${c.HttpHeaderConfig?.HttpHeaderName ?? '?'} ${match(c.HttpHeaderConfig)}`;
    case 'http-request-method':
      return `method ${(c.HttpRequestMethodConfig?.Values ?? []).join(' | ')}`;
    case 'source-ip':
      return `source ${(c.SourceIpConfig?.Values ?? []).join(' | ')}`;
    case 'query-string':
      return `query ${(c.QueryStringConfig?.Values ?? []).map((p) => (p.Key !== undefined ? `${p.Key}=${p.Value ?? ''}` : (p.Value ?? ''))).join(' | ')}`;
    default:
      return `${c.Field ?? '?'} ${(c.Values ?? []).join(' | ')}`;
  }
}

function describeTransform(t: SdkTransform): string {
  const rewrites = (t.Type === 'host-header-rewrite' ? t.HostHeaderRewriteConfig : t.UrlRewriteConfig)
    ?.Rewrites;
  const what = t.Type === 'host-header-rewrite' ? 'host' : 'URL';
  return (rewrites ?? []).map((r) => `rewrite ${what} ${r.Regex ?? ''} → ${r.Replace ?? ''}`).join(', ');
}

function healthCheck(i: {
  HealthCheckProtocol?: string | undefined;
  HealthCheckPort?: string | undefined;
  HealthCheckPath?: string | undefined;
  HealthCheckIntervalSeconds?: number | undefined;
  HealthCheckTimeoutSeconds?: number | undefined;
  HealthyThresholdCount?: number | undefined;
  UnhealthyThresholdCount?: number | undefined;
  Matcher?: { HttpCode?: string | undefined; GrpcCode?: string | undefined } | undefined;
}): string[] {
  const parts: string[] = [];
  if (i.HealthCheckProtocol !== undefined) parts.push(i.HealthCheckProtocol);
  if (i.HealthCheckPath !== undefined) parts.push(i.HealthCheckPath);
  if (i.HealthCheckPort !== undefined) parts.push(`port ${i.HealthCheckPort}`);
  if (i.HealthCheckIntervalSeconds !== undefined) parts.push(`every ${i.HealthCheckIntervalSeconds}s`);
  if (i.HealthCheckTimeoutSeconds !== undefined) parts.push(`timeout ${i.HealthCheckTimeoutSeconds}s`);
  if (i.HealthyThresholdCount !== undefined || i.UnhealthyThresholdCount !== undefined)
    parts.push(`healthy ${i.HealthyThresholdCount ?? '-'}/unhealthy ${i.UnhealthyThresholdCount ?? '-'}`);
  if (i.Matcher?.HttpCode !== undefined) parts.push(`codes ${i.Matcher.HttpCode}`);
  if (i.Matcher?.GrpcCode !== undefined) parts.push(`gRPC codes ${i.Matcher.GrpcCode}`);
  return parts.length > 0 ? [`health check ${parts.join(', ')}`] : [];
}

function listener(i: {
  Certificates?: Array<{ CertificateArn?: string | undefined }> | undefined;
  SslPolicy?: string | undefined;
  DefaultActions?: PlannedAction[] | undefined;
  MutualAuthentication?: MutualAuthenticationAttributes | undefined;
}): string[] {
  const lines: string[] = [];
  for (const c of i.Certificates ?? []) lines.push(`default certificate ${c.CertificateArn ?? ''}`);
  if (i.SslPolicy) lines.push(`SSL policy ${i.SslPolicy}`);
  const m = i.MutualAuthentication;
  if (m) {
    const verify =
      m.Mode === 'verify'
        ? `, trust store ${m.TrustStoreArn ?? '?'}, ignore client certificate expiry ${String(m.IgnoreClientCertificateExpiry ?? false)}, advertise CA names ${m.AdvertiseTrustStoreCaNames ?? 'off'}`
        : '';
    lines.push(`mutual TLS ${m.Mode ?? 'off'}${verify}`);
  }
  if (i.DefaultActions) lines.push(`default action: ${i.DefaultActions.map(describeAction).join(', then ')}`);
  return lines;
}

function rule(i: {
  Priority?: number | undefined;
  Conditions?: SdkCondition[] | undefined;
  Actions?: PlannedAction[] | undefined;
  Transforms?: SdkTransform[] | undefined;
  ResetTransforms?: boolean | undefined;
}): string[] {
  const lines: string[] = [];
  const when = (i.Conditions ?? []).map(describeCondition).join(' and ');
  const then = (i.Actions ?? []).map(describeAction).join(', then ');
  if (when || then)
    lines.push(
      `${i.Priority !== undefined ? `priority ${i.Priority}: ` : ''}if ${when || 'anything'} then ${then}`,
    );
  lines.push(...(i.Transforms ?? []).map(describeTransform));
  if (i.ResetTransforms) lines.push('transforms removed');
  return lines;
}

function attributes(
  list: Array<{ Key?: string | undefined; Value?: string | undefined }> | undefined,
): string[] {
  return (list ?? []).map((a) => `attribute ${a.Key ?? ''}=${a.Value ?? ''}`);
}

function targets(
  sign: string,
  list:
    | Array<{ Id?: Arn | undefined; Port?: number | undefined; AvailabilityZone?: string | undefined }>
    | undefined,
): string[] {
  const ids = (list ?? []).map(
    (t) => `${t.Id ?? ''}:${t.Port ?? ''}${t.AvailabilityZone ? ` (zone ${t.AvailabilityZone})` : ''}`,
  );
  return ids.length > 0 ? [`targets ${sign} ${ids.join(', ')}`] : [];
}

/** What one planned call sets, one line per setting (nothing for deletions and tag calls). */
export function describeCall(call: PlannedCall): string[] {
  switch (call.action) {
    case 'CreateLoadBalancer': {
      const i = call.input;
      return [
        `subnets ${(i.Subnets ?? []).join(', ')}`,
        ...(i.SecurityGroups?.length ? [`security groups ${i.SecurityGroups.join(', ')}`] : []),
        ...(i.IpAddressType !== undefined && i.IpAddressType !== 'ipv4'
          ? [`ip address type ${i.IpAddressType}`]
          : []),
      ];
    }
    case 'SetIpAddressType':
      return [`ip address type ${call.input.IpAddressType ?? ''}`];
    case 'SetSubnets':
      return [`subnets ${(call.input.Subnets ?? []).join(', ')}`];
    case 'SetSecurityGroups':
      return [`security groups ${(call.input.SecurityGroups ?? []).join(', ')}`];
    case 'ModifyLoadBalancerAttributes':
    case 'ModifyTargetGroupAttributes':
    case 'ModifyListenerAttributes':
      return attributes(call.input.Attributes);
    case 'ModifyCapacityReservation':
      return [
        call.input.ResetCapacityReservation
          ? 'capacity reservation reset'
          : `minimum capacity ${call.input.MinimumLoadBalancerCapacity?.CapacityUnits ?? '?'} units`,
      ];
    case 'CreateTargetGroup': {
      const i = call.input;
      // HTTP/1.1 and IPv4 are the defaults: named only when the group is otherwise.
      const version =
        i.ProtocolVersion !== undefined && i.ProtocolVersion !== 'HTTP1' ? ` ${i.ProtocolVersion}` : '';
      const family = i.IpAddressType === 'ipv6' ? 'ipv6 ' : '';
      return [
        `${i.Protocol ?? ''}${version}:${i.Port ?? ''}, ${family}${i.TargetType ?? ''} targets in ${i.VpcId ?? ''}`,
        ...healthCheck(i),
      ];
    }
    case 'ModifyTargetGroup':
      return healthCheck(call.input);
    case 'RegisterTargets':
      return targets('+', call.input.Targets);
    case 'DeregisterTargets':
      return targets('-', call.input.Targets);
    case 'CreateListener':
    case 'ModifyListener':
      return listener(call.input);
    case 'AddListenerCertificates':
      return (call.input.Certificates ?? []).map((c) => `+ certificate ${c.CertificateArn ?? ''}`);
    case 'RemoveListenerCertificates':
      return (call.input.Certificates ?? []).map((c) => `- certificate ${c.CertificateArn ?? ''}`);
    case 'CreateRule':
    case 'ModifyRule':
      return rule(call.input);
    case 'SetRulePriorities':
      return (call.input.RulePriorities ?? []).map(
        (p) => `priority ${p.Priority ?? ''} for ${shortArn(p.RuleArn)}`,
      );
    case 'AssociateWebACL':
      return [`web ACL ${call.input.WebACLArn ?? ''} on ${shortArn(call.input.ResourceArn)}`];
    case 'CreateProtection':
      return [`Shield Advanced protection "${call.input.Name ?? ''}" of ${shortArn(call.input.ResourceArn)}`];
    default:
      return [];
  }
}

/** The plan as text: each operation's line, then what its calls set, indented. */
export function describePlan(plan: readonly Operation[], formatLine: (o: Operation) => string): string[] {
  if (plan.length === 0) return ['no changes'];
  return plan.flatMap((o) => [formatLine(o), ...o.calls.flatMap(describeCall).map((l) => `    ${l}`)]);
}
