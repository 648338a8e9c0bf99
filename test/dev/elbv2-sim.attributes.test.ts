import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  DescribeCapacityReservationCommand,
  DescribeListenerAttributesCommand,
  DescribeLoadBalancerAttributesCommand,
  ModifyCapacityReservationCommand,
  ModifyListenerAttributesCommand,
  ModifyListenerCommand,
  ModifyLoadBalancerAttributesCommand,
  ModifyTargetGroupAttributesCommand,
  DescribeTargetGroupAttributesCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { LoadBalancerAttribute } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  CERT,
  createAlb,
  createHttpListener,
  createTg,
  sdkError,
  SUBNET_A,
  SUBNET_B,
  useSim,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: listener attributes', () => {
  const ctx = useSim();

  it('lists the ALB listener attributes with their defaults and changes them all-or-nothing', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const attrs = async () =>
      Object.fromEntries(
        (
          await ctx.client.send(new DescribeListenerAttributesCommand({ ListenerArn: l.ListenerArn }))
        ).Attributes!.map((a) => [a.Key, a.Value]),
      );
    const defaults = await attrs();
    expect(defaults).toMatchObject({
      'routing.http.response.server.enabled': 'true',
      'routing.http.request.x_amzn_tls_version.header_name': 'X-Amzn-Tls-Version',
      'routing.http.response.strict_transport_security.header_value': '',
    });
    expect(Object.keys(defaults)).toHaveLength(19);

    const out = await ctx.client.send(
      new ModifyListenerAttributesCommand({
        ListenerArn: l.ListenerArn,
        Attributes: [
          { Key: 'routing.http.response.server.enabled', Value: 'false' },
          { Key: 'routing.http.response.access_control_allow_methods.header_value', Value: 'GET,POST' },
          { Key: 'routing.http.response.x_frame_options.header_value', Value: 'SAMEORIGIN' },
        ],
      }),
    );
    expect(out.Attributes).toContainEqual({ Key: 'routing.http.response.server.enabled', Value: 'false' });
    const bad = (Key: string, Value: string) =>
      sdkError(
        ctx.client.send(
          new ModifyListenerAttributesCommand({
            ListenerArn: l.ListenerArn,
            Attributes: [
              { Key: 'routing.http.response.server.enabled', Value: 'true' },
              { Key, Value },
            ],
          }),
        ),
      );
    expect((await bad('tcp.idle_timeout.seconds', '400')).message).toContain(
      'not recognized for HTTP listeners',
    );
    expect((await bad('routing.http.response.x_frame_options.header_value', 'ALLOW')).message).toContain(
      "cannot have the value 'ALLOW'",
    );
    expect((await bad('routing.http.response.access_control_max_age.header_value', '90000')).name).toBe(
      'ValidationError',
    );
    expect((await attrs())['routing.http.response.server.enabled']).toBe('false');
  });

  it('gives NLB TCP listeners tcp.idle_timeout.seconds (60-6000, default 350)', async () => {
    const nlb = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'nlb', Type: 'network', Subnets: [SUBNET_A] }),
      )
    ).LoadBalancers![0]!;
    const tg = await createTg(ctx.client, 'tcp', { Protocol: 'TCP', Port: 80 });
    const l = (
      await ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: nlb.LoadBalancerArn,
          Protocol: 'TCP',
          Port: 80,
          DefaultActions: [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }],
        }),
      )
    ).Listeners![0]!;
    const out = await ctx.client.send(new DescribeListenerAttributesCommand({ ListenerArn: l.ListenerArn }));
    expect(out.Attributes).toEqual([{ Key: 'tcp.idle_timeout.seconds', Value: '350' }]);
    const tooLong = await sdkError(
      ctx.client.send(
        new ModifyListenerAttributesCommand({
          ListenerArn: l.ListenerArn,
          Attributes: [{ Key: 'tcp.idle_timeout.seconds', Value: '6001' }],
        }),
      ),
    );
    expect(tooLong.name).toBe('ValidationError');
  });

  it('keeps shared attribute values across an HTTP -> HTTPS protocol change', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    await ctx.client.send(
      new ModifyListenerAttributesCommand({
        ListenerArn: l.ListenerArn,
        Attributes: [{ Key: 'routing.http.response.server.enabled', Value: 'false' }],
      }),
    );
    await ctx.client.send(
      new ModifyListenerCommand({
        ListenerArn: l.ListenerArn,
        Protocol: 'HTTPS',
        Certificates: [{ CertificateArn: CERT }],
      }),
    );
    const out = await ctx.client.send(new DescribeListenerAttributesCommand({ ListenerArn: l.ListenerArn }));
    expect(out.Attributes).toContainEqual({ Key: 'routing.http.response.server.enabled', Value: 'false' });
  });
});

describe('ELBv2 simulator: load balancer attributes', () => {
  const ctx = useSim();
  const modify = (arn: string | undefined, Attributes: LoadBalancerAttribute[]) =>
    ctx.client.send(new ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes }));

  it('has connection logs, health check logs, zonal shift and IPv6 IGW keys, with value checks', async () => {
    const lb = await createAlb(ctx.client);
    const attrs = Object.fromEntries(
      (
        await ctx.client.send(
          new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: lb.LoadBalancerArn }),
        )
      ).Attributes!.map((a) => [a.Key, a.Value]),
    );
    expect(attrs).toMatchObject({
      'connection_logs.s3.enabled': 'false',
      'health_check_logs.s3.enabled': 'false',
      'zonal_shift.config.enabled': 'false',
      'ipv6.deny_all_igw_traffic': 'false',
      'load_balancing.cross_zone.enabled': 'true',
    });
    await modify(lb.LoadBalancerArn, [
      { Key: 'connection_logs.s3.enabled', Value: 'true' },
      { Key: 'connection_logs.s3.bucket', Value: 'my-logs' },
      { Key: 'connection_logs.s3.prefix', Value: 'alb/conn' },
      { Key: 'zonal_shift.config.enabled', Value: 'true' },
      { Key: 'idle_timeout.timeout_seconds', Value: '4000' },
    ]);
    const err = async (a: LoadBalancerAttribute[]) => (await sdkError(modify(lb.LoadBalancerArn, a))).message;
    expect(await err([{ Key: 'access_logs.s3.enabled', Value: 'true' }])).toContain(
      "'access_logs.s3.bucket' cannot be empty",
    );
    expect(await err([{ Key: 'idle_timeout.timeout_seconds', Value: '4001' }])).toContain(
      'between 1 and 4000',
    );
    expect(await err([{ Key: 'routing.http.xff_header_processing.mode', Value: 'drop' }])).toContain(
      'append, preserve, remove',
    );
    expect(await err([{ Key: 'load_balancing.cross_zone.enabled', Value: 'false' }])).toContain(
      'cannot be changed',
    );
    expect(await err([{ Key: 'zonal_shift.config.enabled', Value: 'yes' }])).toContain('true or false');
    expect(
      await err([{ Key: 'dns_record.client_routing_policy', Value: 'any_availability_zone' }]),
    ).toContain('not recognized');
  });

  it('defaults ipv6.deny_all_igw_traffic to true for internal load balancers; NLB secondary IPs only grow', async () => {
    const internal = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({
          Name: 'nlb',
          Type: 'network',
          Scheme: 'internal',
          Subnets: [SUBNET_A, SUBNET_B],
        }),
      )
    ).LoadBalancers![0]!;
    const attrs = (
      await ctx.client.send(
        new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: internal.LoadBalancerArn }),
      )
    ).Attributes!;
    expect(attrs).toContainEqual({ Key: 'ipv6.deny_all_igw_traffic', Value: 'true' });
    await modify(internal.LoadBalancerArn, [{ Key: 'secondary_ips.auto_assigned.per_subnet', Value: '3' }]);
    const down = await sdkError(
      modify(internal.LoadBalancerArn, [{ Key: 'secondary_ips.auto_assigned.per_subnet', Value: '2' }]),
    );
    expect(down.message).toContain('cannot be decreased');
  });
});

describe('ELBv2 simulator: target group attributes', () => {
  const ctx = useSim();

  it('has the ALB and NLB target group keys with value checks and cross-key rules', async () => {
    const http = await createTg(ctx.client, 'http');
    const keys = (
      await ctx.client.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: http.TargetGroupArn }))
    ).Attributes!.map((a) => a.Key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'stickiness.app_cookie.cookie_name',
        'load_balancing.algorithm.anomaly_mitigation',
        'target_group_health.unhealthy_state_routing.minimum_healthy_targets.count',
      ]),
    );
    const modify = (arn: string | undefined, Attributes: { Key: string; Value: string }[]) =>
      ctx.client.send(new ModifyTargetGroupAttributesCommand({ TargetGroupArn: arn, Attributes }));
    await modify(http.TargetGroupArn, [
      { Key: 'stickiness.enabled', Value: 'true' },
      { Key: 'stickiness.type', Value: 'app_cookie' },
      { Key: 'stickiness.app_cookie.cookie_name', Value: 'SESSION' },
      { Key: 'load_balancing.algorithm.type', Value: 'weighted_random' },
      { Key: 'load_balancing.algorithm.anomaly_mitigation', Value: 'on' },
      { Key: 'slow_start.duration_seconds', Value: '30' },
    ]);
    const err = async (arn: string | undefined, a: { Key: string; Value: string }[]) =>
      (await sdkError(modify(arn, a))).message;
    expect(await err(http.TargetGroupArn, [{ Key: 'slow_start.duration_seconds', Value: '10' }])).toContain(
      '0 or between 30 and 900',
    );
    expect(
      await err(http.TargetGroupArn, [{ Key: 'load_balancing.algorithm.type', Value: 'round_robin' }]),
    ).toContain('weighted_random');
    expect(await err(http.TargetGroupArn, [{ Key: 'stickiness.type', Value: 'source_ip' }])).toContain(
      'lb_cookie, app_cookie',
    );
    expect(await err(http.TargetGroupArn, [{ Key: 'proxy_protocol_v2.enabled', Value: 'true' }])).toContain(
      'not recognized',
    );
    const tcp = await createTg(ctx.client, 'tcp', { Protocol: 'TCP', Port: 80 });
    await modify(tcp.TargetGroupArn, [
      { Key: 'proxy_protocol_v2.enabled', Value: 'true' },
      { Key: 'target_health_state.unhealthy.draining_interval_seconds', Value: '600' },
      { Key: 'target_group_health.dns_failover.minimum_healthy_targets.percentage', Value: '50' },
    ]);
    expect(
      await err(tcp.TargetGroupArn, [
        { Key: 'target_group_health.dns_failover.minimum_healthy_targets.count', Value: '0' },
      ]),
    ).toContain('off or between 1 and 1000');
  });
});

describe('ELBv2 simulator: capacity reservation', () => {
  let now = Date.UTC(2026, 11, 1, 8, 0, 0);
  const ctx = useSim({ now: () => now, provisioningMs: 60_000 });

  it('reserves minimum capacity per zone, goes pending -> provisioned, and limits decreases per day', async () => {
    const lb = await createAlb(ctx.client);
    const empty = await ctx.client.send(
      new DescribeCapacityReservationCommand({ LoadBalancerArn: lb.LoadBalancerArn }),
    );
    expect(empty.MinimumLoadBalancerCapacity).toBeUndefined();
    expect(empty.DecreaseRequestsRemaining).toBe(4);
    const set = (CapacityUnits: number) =>
      ctx.client.send(
        new ModifyCapacityReservationCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          MinimumLoadBalancerCapacity: { CapacityUnits },
        }),
      );
    const out = await set(1000);
    expect(out.MinimumLoadBalancerCapacity).toEqual({ CapacityUnits: 1000 });
    expect(out.CapacityReservationState).toEqual([
      { AvailabilityZone: 'us-east-1a', State: { Code: 'pending' }, EffectiveCapacityUnits: 500 },
      { AvailabilityZone: 'us-east-1b', State: { Code: 'pending' }, EffectiveCapacityUnits: 500 },
    ]);
    expect((await sdkError(set(2000))).name).toBe('CapacityReservationPendingException');
    now += 60_000;
    const described = await ctx.client.send(
      new DescribeCapacityReservationCommand({ LoadBalancerArn: lb.LoadBalancerArn }),
    );
    expect(described.CapacityReservationState!.map((s) => s.State!.Code)).toEqual([
      'provisioned',
      'provisioned',
    ]);
    expect(described.LastModifiedTime).toEqual(new Date(now - 60_000));

    expect((await sdkError(set(50))).message).toContain('at least 100');
    expect((await sdkError(set(15001))).name).toBe('CapacityUnitsLimitExceededException');
    for (const units of [900, 800, 700]) {
      await set(units);
      now += 60_000;
    }
    const reset = await ctx.client.send(
      new ModifyCapacityReservationCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        ResetCapacityReservation: true,
      }),
    );
    expect(reset.DecreaseRequestsRemaining).toBe(0);
    expect(reset.MinimumLoadBalancerCapacity).toBeUndefined();
    now += 60_000;
    await set(500);
    now += 60_000;
    expect((await sdkError(set(400))).name).toBe('CapacityDecreaseRequestsLimitExceededException');
    now += 86_400_000;
    await set(400);
    const both = await sdkError(
      ctx.client.send(
        new ModifyCapacityReservationCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          MinimumLoadBalancerCapacity: { CapacityUnits: 500 },
          ResetCapacityReservation: true,
        }),
      ),
    );
    expect(both.name).toBe('ValidationError');
  });
});
