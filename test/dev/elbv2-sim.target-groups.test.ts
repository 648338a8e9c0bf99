import {
  CreateRuleCommand,
  CreateTargetGroupCommand,
  DeleteTargetGroupCommand,
  DescribeTargetGroupAttributesCommand,
  DescribeTargetGroupsCommand,
  ModifyTargetGroupAttributesCommand,
  ModifyTargetGroupCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  attach,
  createAlb,
  createHttpListener,
  createTg,
  sdkError,
  useSim,
  VPC,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: target groups', () => {
  const ctx = useSim();

  it('creates with AWS defaults and a real-format ARN', async () => {
    const tg = await createTg(ctx.client, 'k8s-svc-80');
    expect(tg.TargetGroupArn).toMatch(
      /^arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup\/k8s-svc-80\/[0-9a-f]{16}$/,
    );
    expect(tg).toMatchObject({
      Protocol: 'HTTP',
      Port: 8080,
      VpcId: VPC,
      TargetType: 'ip',
      ProtocolVersion: 'HTTP1',
      HealthCheckProtocol: 'HTTP',
      HealthCheckPort: 'traffic-port',
      HealthCheckPath: '/',
      HealthCheckIntervalSeconds: 30,
      HealthCheckTimeoutSeconds: 5,
      Matcher: { HttpCode: '200' },
      LoadBalancerArns: [],
    });
    const tcp = await createTg(ctx.client, 'k8s-tcp', { Protocol: 'TCP', Port: 5432 });
    expect(tcp).toMatchObject({ HealthCheckProtocol: 'TCP', HealthCheckTimeoutSeconds: 10 });
    expect(tcp.HealthCheckPath).toBeUndefined();
  });

  it('returns the existing TG for identical settings, DuplicateTargetGroupName for different ones', async () => {
    const a = await createTg(ctx.client, 'dup');
    const b = await createTg(ctx.client, 'dup');
    expect(b.TargetGroupArn).toBe(a.TargetGroupArn);
    const err = await sdkError(createTg(ctx.client, 'dup', { Port: 9090 }));
    expect(err.name).toBe('DuplicateTargetGroupNameException');
  });

  it('validates names, VPC and health-check ranges', async () => {
    expect((await sdkError(createTg(ctx.client, 'x'.repeat(33)))).name).toBe('ValidationError');
    const vpc = await sdkError(
      ctx.client.send(
        new CreateTargetGroupCommand({
          Name: 'v',
          Protocol: 'HTTP',
          Port: 80,
          VpcId: 'vpc-0000000000000beef',
        }),
      ),
    );
    expect(vpc.name).toBe('ValidationError');
    const hc = await sdkError(
      ctx.client.send(
        new CreateTargetGroupCommand({
          Name: 'h',
          Protocol: 'HTTP',
          Port: 80,
          VpcId: VPC,
          HealthCheckIntervalSeconds: 1,
        }),
      ),
    );
    expect(hc.name).toBe('ValidationError');
  });

  it('describes by ARNs, Names and LoadBalancerArn', async () => {
    const a = await createTg(ctx.client, 'tg-a');
    const b = await createTg(ctx.client, 'tg-b');
    await attach(ctx.client, b);
    const byName = await ctx.client.send(new DescribeTargetGroupsCommand({ Names: ['tg-a'] }));
    expect(byName.TargetGroups!.map((t) => t.TargetGroupArn)).toEqual([a.TargetGroupArn]);
    const byArn = await ctx.client.send(
      new DescribeTargetGroupsCommand({ TargetGroupArns: [b.TargetGroupArn!] }),
    );
    expect(byArn.TargetGroups![0]!.LoadBalancerArns).toHaveLength(1);
    const lbArn = byArn.TargetGroups![0]!.LoadBalancerArns![0]!;
    const byLb = await ctx.client.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: lbArn }));
    expect(byLb.TargetGroups!.map((t) => t.TargetGroupName)).toEqual(['tg-b']);
    const missing = await sdkError(ctx.client.send(new DescribeTargetGroupsCommand({ Names: ['nope'] })));
    expect(missing.name).toBe('TargetGroupNotFoundException');
  });

  it('modifies health checks and attributes', async () => {
    const tg = await createTg(ctx.client);
    const out = await ctx.client.send(
      new ModifyTargetGroupCommand({
        TargetGroupArn: tg.TargetGroupArn,
        HealthCheckPath: '/healthz',
        Matcher: { HttpCode: '200-299' },
      }),
    );
    expect(out.TargetGroups![0]).toMatchObject({
      HealthCheckPath: '/healthz',
      Matcher: { HttpCode: '200-299' },
    });
    await ctx.client.send(
      new ModifyTargetGroupAttributesCommand({
        TargetGroupArn: tg.TargetGroupArn,
        Attributes: [{ Key: 'deregistration_delay.timeout_seconds', Value: '10' }],
      }),
    );
    const attrs = await ctx.client.send(
      new DescribeTargetGroupAttributesCommand({ TargetGroupArn: tg.TargetGroupArn }),
    );
    expect(attrs.Attributes).toContainEqual({ Key: 'deregistration_delay.timeout_seconds', Value: '10' });
  });

  it('refuses to delete a TG in use (ResourceInUse) and deletes it once unreferenced', async () => {
    const tg = await createTg(ctx.client);
    const lb = await createAlb(ctx.client);
    const listener = await createHttpListener(ctx.client, lb);
    const rule = await ctx.client.send(
      new CreateRuleCommand({
        ListenerArn: listener.ListenerArn,
        Priority: 1,
        Conditions: [{ Field: 'path-pattern', Values: ['/x'] }],
        Actions: [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }],
      }),
    );
    const err = await sdkError(
      ctx.client.send(new DeleteTargetGroupCommand({ TargetGroupArn: tg.TargetGroupArn })),
    );
    expect(err.name).toBe('ResourceInUseException');

    ctx.sim.state.deleteRule({ RuleArn: rule.Rules![0]!.RuleArn });
    await ctx.client.send(new DeleteTargetGroupCommand({ TargetGroupArn: tg.TargetGroupArn }));
    expect(ctx.sim.state.targetGroups()).toEqual([]);
  });

  it('enforces the target group quota with TooManyTargetGroups', async () => {
    ctx.sim.state.store.limits.targetGroups = 1;
    await createTg(ctx.client, 'one');
    expect((await sdkError(createTg(ctx.client, 'two'))).name).toBe('TooManyTargetGroupsException');
  });

  it('checks health-check matchers: GrpcCode 0-99 for gRPC groups, HttpCode 200-499 (ALB) or 200-599 (NLB)', async () => {
    const create = (Name: string, extra: Record<string, unknown>) =>
      ctx.client.send(
        new CreateTargetGroupCommand({
          Name,
          Protocol: 'HTTP',
          Port: 50051,
          VpcId: VPC,
          TargetType: 'ip',
          ...extra,
        }),
      );
    const grpc = await create('grpc', { ProtocolVersion: 'GRPC', Matcher: { GrpcCode: '0-5,12' } });
    expect(grpc.TargetGroups![0]!.Matcher).toEqual({ GrpcCode: '0-5,12' });
    const bad = async (extra: Record<string, unknown>) => (await sdkError(create('bad', extra))).message;
    expect(await bad({ ProtocolVersion: 'GRPC', Matcher: { HttpCode: '200' } })).toContain('use GrpcCode');
    expect(await bad({ ProtocolVersion: 'GRPC', Matcher: { GrpcCode: '100' } })).toContain(
      'between 0 and 99',
    );
    expect(await bad({ Matcher: { GrpcCode: '0' } })).toContain('protocol version GRPC');
    expect(await bad({ Matcher: { HttpCode: '200-500' } })).toContain('between 200 and 499');
    expect(await bad({ Matcher: { HttpCode: 'ok' } })).toContain('between 200 and 499');
    const nlb = await create('nlb', {
      Protocol: 'TCP',
      HealthCheckProtocol: 'HTTP',
      Matcher: { HttpCode: '200-599' },
    });
    expect(nlb.TargetGroups![0]!.Matcher).toEqual({ HttpCode: '200-599' });
  });
});
