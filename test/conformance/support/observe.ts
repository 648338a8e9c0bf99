/**
 * What a target's account holds after a step, read back through the SDK (the same Describe calls
 * on moto and on our simulators) and written without the target's own IDs: load balancers, target
 * groups and security groups by name, subnets by their Name tag, certificates by domain, listeners
 * and rules by their load balancer and port. Two targets that did the same thing observe the same.
 */
import { DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { DescribeSecurityGroupsCommand, type IpPermission } from '@aws-sdk/client-ec2';
import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeRulesCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  type Action,
  type RuleCondition,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { OWNER_ID, type Clients } from './clients.js';
import type { Network } from './network.js';

export interface ObservedLoadBalancer {
  name: string;
  type: string;
  scheme: string;
  ipAddressType: string;
  subnets: string[];
  securityGroups: string[];
  tags: Record<string, string>;
}
export interface ObservedListener {
  /** `<load balancer>:<port>`. */
  at: string;
  protocol: string;
  certificates: string[];
  sslPolicy?: string;
  defaultActions: string[];
  tags: Record<string, string>;
}
export interface ObservedRule {
  at: string;
  priority: string;
  conditions: string[];
  actions: string[];
  tags: Record<string, string>;
}
export interface ObservedTargetGroup {
  name: string;
  protocol: string;
  port: number;
  targetType: string;
  healthCheck: string;
  loadBalancers: string[];
  /** `<id>:<port>@<zone>` (`@-` when the target has none). */
  targets: string[];
  tags: Record<string, string>;
}
export interface ObservedSecurityGroup {
  name: string;
  ingress: string[];
  tags: Record<string, string>;
}

export interface RegionState {
  loadBalancers: ObservedLoadBalancer[];
  listeners: ObservedListener[];
  rules: ObservedRule[];
  targetGroups: ObservedTargetGroup[];
  securityGroups: ObservedSecurityGroup[];
}

/** Tag values that are the target's IDs or times, not meaning: kept as their key with `…`. */
const VOLATILE_TAGS = [
  'multicluster.karmada.io/fingerprint',
  'multicluster.karmada.io/created-at',
  'multicluster.karmada.io/dns-name',
  'multicluster.karmada.io/frontend-nlb-dns-name',
];

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
const byAt = <T extends { at: string }>(a: T, b: T) => a.at.localeCompare(b.at);

export async function observeRegion(clients: Clients, network: Network): Promise<RegionState> {
  const { elbv2, ec2, acm } = clients;
  const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
  const tgs = (await elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? [];
  const groups =
    (
      await ec2.send(
        new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [network.vpcId] }] }),
      )
    ).SecurityGroups ?? [];
  const groupName = new Map(groups.map((g) => [g.GroupId ?? '', g.GroupName ?? '']));
  const subnetName = new Map(network.subnets.map((s) => [s.id, s.name]));
  const lbName = new Map(lbs.map((lb) => [lb.LoadBalancerArn ?? '', lb.LoadBalancerName ?? '']));
  const tgName = new Map<string, string>();
  const certName = new Map<string, string>();
  const certificate = async (arn: string) => {
    if (!certName.has(arn)) {
      try {
        const c = await acm.send(new DescribeCertificateCommand({ CertificateArn: arn }));
        certName.set(arn, `cert:${c.Certificate?.DomainName ?? '?'}`);
      } catch {
        certName.set(arn, `cert:<not in ACM>`);
      }
    }
    return certName.get(arn)!;
  };
  const text = (s: string) =>
    s
      .replace(
        /arn:aws:elasticloadbalancing:[^\s,"]+:targetgroup\/[^\s,"]+/g,
        (a) => `tg:${tgName.get(a) ?? '?'}`,
      )
      .replace(
        /arn:aws:elasticloadbalancing:[^\s,"]+:loadbalancer\/[^\s,"]+/g,
        (a) => `lb:${lbName.get(a) ?? '?'}`,
      )
      .replace(/\bsg-[0-9a-f]+\b/g, (id) => `sg:${groupName.get(id) ?? '?'}`)
      .replace(/\bsubnet-[0-9a-f]+\b/g, (id) => `subnet:${subnetName.get(id) ?? '?'}`)
      .replace(/\bvpc-[0-9a-f]+\b/g, (id) => (id === network.vpcId ? 'vpc' : 'vpc:?'));

  const tagsOf = new Map<string, Record<string, string>>();
  const arns = [...lbs.map((l) => l.LoadBalancerArn ?? ''), ...tgs.map((t) => t.TargetGroupArn ?? '')];
  const readTags = async (list: string[]) => {
    for (let i = 0; i < list.length; i += 20) {
      const out = await elbv2.send(new DescribeTagsCommand({ ResourceArns: list.slice(i, i + 20) }));
      for (const d of out.TagDescriptions ?? []) tagsOf.set(d.ResourceArn ?? '', tagRecord(d.Tags, text));
    }
  };

  await readTags(arns);
  // A group's name hashes the VPC ID (naming.ts), which is the target's: ours are named by what
  // they serve (their resource tag), any other by its name.
  for (const tg of tgs) {
    const arn = tg.TargetGroupArn ?? '';
    const tags = tagsOf.get(arn);
    const resource =
      tags?.['multicluster.karmada.io/owner'] === OWNER_ID
        ? tags['multicluster.karmada.io/resource']
        : undefined;
    tgName.set(
      arn,
      resource
        ? `${tg.TargetGroupName?.replace(/-[0-9a-f]{10}$/, '')}(${resource})`
        : (tg.TargetGroupName ?? ''),
    );
  }

  const listeners: ObservedListener[] = [];
  const rules: ObservedRule[] = [];
  const listenerArns: string[] = [];
  const ruleArns: string[] = [];
  const pending: Array<() => void> = [];
  for (const lb of lbs) {
    const ls =
      (await elbv2.send(new DescribeListenersCommand({ LoadBalancerArn: lb.LoadBalancerArn }))).Listeners ??
      [];
    for (const l of ls) {
      const at = `${lb.LoadBalancerName}:${l.Port}`;
      listenerArns.push(l.ListenerArn ?? '');
      const certificates = await Promise.all(
        (l.Certificates ?? []).map((c) => certificate(c.CertificateArn ?? '')),
      );
      const observed: ObservedListener = {
        at,
        protocol: l.Protocol ?? '',
        certificates,
        // Only a TLS listener has a policy (moto names one for every listener: README).
        ...(l.SslPolicy && (l.Protocol === 'HTTPS' || l.Protocol === 'TLS')
          ? { sslPolicy: l.SslPolicy }
          : {}),
        defaultActions: actions(l.DefaultActions, text),
        tags: {},
      };
      listeners.push(observed);
      pending.push(() => (observed.tags = tagsOf.get(l.ListenerArn ?? '') ?? {}));
      const rs = (await elbv2.send(new DescribeRulesCommand({ ListenerArn: l.ListenerArn }))).Rules ?? [];
      for (const r of rs) {
        if (r.IsDefault) continue;
        ruleArns.push(r.RuleArn ?? '');
        const rule: ObservedRule = {
          at,
          priority: r.Priority ?? '',
          conditions: conditions(r.Conditions),
          actions: actions(r.Actions, text),
          tags: {},
        };
        rules.push(rule);
        pending.push(() => (rule.tags = tagsOf.get(r.RuleArn ?? '') ?? {}));
      }
    }
  }
  await readTags([...listenerArns, ...ruleArns]);
  for (const p of pending) p();

  const targetGroups: ObservedTargetGroup[] = [];
  for (const tg of tgs) {
    const health =
      (await elbv2.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn })))
        .TargetHealthDescriptions ?? [];
    targetGroups.push({
      name: tgName.get(tg.TargetGroupArn ?? '') ?? '',
      protocol: tg.Protocol ?? '',
      port: tg.Port ?? 0,
      targetType: tg.TargetType ?? '',
      healthCheck: [
        tg.HealthCheckProtocol,
        tg.HealthCheckPort,
        tg.HealthCheckPath ?? '-',
        `${tg.HealthCheckIntervalSeconds}s/${tg.HealthCheckTimeoutSeconds}s`,
        `${tg.HealthyThresholdCount}/${tg.UnhealthyThresholdCount}`,
        tg.Matcher?.HttpCode ?? tg.Matcher?.GrpcCode ?? '-',
      ].join(' '),
      // Each load balancer once (moto lists it once per rule that forwards to the group: README).
      loadBalancers: [...new Set((tg.LoadBalancerArns ?? []).map((a) => lbName.get(a) ?? '?'))].sort(),
      targets: health
        .filter((h) => h.TargetHealth?.State !== 'draining')
        .map((h) => `${h.Target?.Id}:${h.Target?.Port}@${h.Target?.AvailabilityZone ?? '-'}`)
        .sort(),
      tags: tagsOf.get(tg.TargetGroupArn ?? '') ?? {},
    });
  }

  const loadBalancers: ObservedLoadBalancer[] = lbs.map((lb) => ({
    name: lb.LoadBalancerName ?? '',
    type: lb.Type ?? '',
    scheme: lb.Scheme ?? '',
    ipAddressType: lb.IpAddressType ?? '',
    subnets: (lb.AvailabilityZones ?? []).map((z) => subnetName.get(z.SubnetId ?? '') ?? '?').sort(),
    securityGroups: (lb.SecurityGroups ?? []).map((g) => groupName.get(g) ?? '?').sort(),
    tags: tagsOf.get(lb.LoadBalancerArn ?? '') ?? {},
  }));

  const securityGroups: ObservedSecurityGroup[] = groups
    .filter((g) => g.GroupName !== 'default')
    .map((g) => ({
      name: g.GroupName ?? '',
      ingress: (g.IpPermissions ?? []).flatMap((p) => permission(p, (id) => groupName.get(id) ?? '?')).sort(),
      tags: tagRecord(g.Tags, text),
    }));

  return {
    loadBalancers: loadBalancers.sort(byName),
    listeners: listeners.sort(byAt),
    rules: rules.sort((a, b) => byAt(a, b) || Number(a.priority) - Number(b.priority)),
    targetGroups: targetGroups.sort(byName),
    securityGroups: securityGroups.sort(byName),
  };
}

function tagRecord(
  tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined,
  text: (s: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of [...(tags ?? [])].sort((a, b) => (a.Key ?? '').localeCompare(b.Key ?? ''))) {
    const key = t.Key ?? '';
    out[key] = VOLATILE_TAGS.includes(key) ? '…' : text(t.Value ?? '');
  }
  return out;
}

function actions(list: Action[] | undefined, text: (s: string) => string): string[] {
  return [...(list ?? [])]
    .sort((a, b) => (a.Order ?? 0) - (b.Order ?? 0))
    .map((a) => {
      if (a.Type === 'forward') {
        const stickiness = a.ForwardConfig?.TargetGroupStickinessConfig?.Enabled
          ? ` sticky ${a.ForwardConfig.TargetGroupStickinessConfig.DurationSeconds}s`
          : '';
        const groups = a.ForwardConfig?.TargetGroups ?? [];
        // One group, however it is spelled (AWS adds the ForwardConfig; moto does not: README).
        if (groups.length <= 1 && !stickiness)
          return `forward ${text(a.TargetGroupArn ?? groups[0]?.TargetGroupArn ?? '')}`;
        return `forward ${groups
          .map((g) => `${text(g.TargetGroupArn ?? '')}*${g.Weight ?? 1}`)
          .sort()
          .join(' ')}${stickiness}`;
      }
      if (a.Type === 'fixed-response') {
        const f = a.FixedResponseConfig;
        return `fixed-response ${f?.StatusCode} ${f?.ContentType ?? '-'} ${JSON.stringify(f?.MessageBody ?? '')}`;
      }
      if (a.Type === 'redirect') {
        const r = a.RedirectConfig;
        return `redirect ${r?.StatusCode} ${r?.Protocol}://${r?.Host}:${r?.Port}${r?.Path}?${r?.Query}`;
      }
      return `${a.Type}`;
    });
}

/** A condition as `field values`, whichever of AWS's two forms (Values, or the field's Config) holds them. */
function conditions(list: RuleCondition[] | undefined): string[] {
  return (list ?? [])
    .map((c) => {
      switch (c.Field) {
        case 'host-header':
          return `host-header ${(c.HostHeaderConfig?.Values ?? c.Values ?? []).join(',')}`;
        case 'path-pattern':
          return `path-pattern ${(c.PathPatternConfig?.Values ?? c.Values ?? []).join(',')}`;
        case 'http-header':
          return `http-header ${c.HttpHeaderConfig?.HttpHeaderName}=${(c.HttpHeaderConfig?.Values ?? []).join(',')}`;
        case 'http-request-method':
          return `http-request-method ${(c.HttpRequestMethodConfig?.Values ?? []).join(',')}`;
        case 'query-string':
          return `query-string ${(c.QueryStringConfig?.Values ?? []).map((v) => `${v.Key ?? ''}=${v.Value}`).join(',')}`;
        case 'source-ip':
          return `source-ip ${(c.SourceIpConfig?.Values ?? []).join(',')}`;
        default:
          return `${c.Field} ${(c.Values ?? []).join(',')}`;
      }
    })
    .sort();
}

function permission(p: IpPermission, group: (id: string) => string): string[] {
  const proto = p.IpProtocol === '-1' ? 'all' : p.IpProtocol;
  const ports = p.IpProtocol === '-1' ? '' : `/${p.FromPort}${p.ToPort !== p.FromPort ? `-${p.ToPort}` : ''}`;
  const what = `${proto}${ports}`;
  return [
    ...(p.IpRanges ?? []).map((r) => `${what} from ${r.CidrIp}`),
    ...(p.Ipv6Ranges ?? []).map((r) => `${what} from ${r.CidrIpv6}`),
    ...(p.PrefixListIds ?? []).map((r) => `${what} from ${r.PrefixListId}`),
    ...(p.UserIdGroupPairs ?? []).map((r) => `${what} from sg:${group(r.GroupId ?? '')}`),
  ];
}
