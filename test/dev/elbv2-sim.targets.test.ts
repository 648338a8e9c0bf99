import {
  DeregisterTargetsCommand,
  DescribeTargetHealthCommand,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { attach, createTg, health, sdkError, useSim } from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: targets', () => {
  const ctx = useSim();

  it('registers ip targets inside the VPC (AZ detected) and private IPs outside it with AZ all', async () => {
    const tg = await createTg(ctx.client);
    await attach(ctx.client, tg);
    await ctx.client.send(
      new RegisterTargetsCommand({
        TargetGroupArn: tg.TargetGroupArn,
        Targets: [
          { Id: '10.0.16.10' },
          { Id: '10.0.0.7', Port: 9000, AvailabilityZone: 'us-east-1a' },
          { Id: '172.20.1.1', AvailabilityZone: 'all' },
          { Id: '100.100.3.4', AvailabilityZone: 'all' },
        ],
      }),
    );
    const out = await ctx.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }));
    expect(out.TargetHealthDescriptions![0]).toEqual({
      Target: { Id: '10.0.16.10', Port: 8080, AvailabilityZone: 'us-east-1b' },
      HealthCheckPort: '8080',
      TargetHealth: { State: 'healthy' },
    });
    expect(await health(ctx.client, tg)).toEqual([
      '10.0.16.10:8080=healthy',
      '10.0.0.7:9000=healthy',
      '172.20.1.1:8080=healthy',
      '100.100.3.4:8080=healthy',
    ]);
  });

  it.each<[TargetDescription, string]>([
    [{ Id: '8.8.8.8', AvailabilityZone: 'all' }, 'public IP'],
    [{ Id: 'i-0123456789abcdef0' }, 'not an IP'],
    [{ Id: '10.0.0.1', AvailabilityZone: 'eu-west-1a' }, 'unknown AZ'],
  ])('rejects %o (%s) with InvalidTarget', async (target, _why) => {
    const tg = await createTg(ctx.client);
    const err = await sdkError(
      ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [target] })),
    );
    expect(err.name).toBe('InvalidTargetException');
    expect(ctx.sim.state.targets()).toEqual([]);
  });

  it('reports unused targets while the TG is not behind a load balancer', async () => {
    const tg = await createTg(ctx.client);
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.9' }] }),
    );
    const out = await ctx.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }));
    expect(out.TargetHealthDescriptions![0]!.TargetHealth).toMatchObject({
      State: 'unused',
      Reason: 'Target.NotInUse',
    });
  });

  it('deregisters targets; deregistering an unknown target is InvalidTarget', async () => {
    const tg = await createTg(ctx.client);
    await ctx.client.send(
      new RegisterTargetsCommand({
        TargetGroupArn: tg.TargetGroupArn,
        Targets: [{ Id: '10.0.0.1' }, { Id: '10.0.0.2' }],
      }),
    );
    await ctx.client.send(
      new DeregisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.1' }] }),
    );
    expect(ctx.sim.state.targets().map((t) => t.Id)).toEqual(['10.0.0.2']);
    const err = await sdkError(
      ctx.client.send(
        new DeregisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.1' }] }),
      ),
    );
    expect(err.name).toBe('InvalidTargetException');
  });

  it('caps a target group at 1000 targets with TooManyTargets', async () => {
    const tg = await createTg(ctx.client);
    const targets = Array.from({ length: 1000 }, (_, i) => ({
      Id: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    }));
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: targets }),
    );
    const err = await sdkError(
      ctx.client.send(
        new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.130.1' }] }),
      ),
    );
    expect(err.name).toBe('TooManyTargetsException');
    expect(ctx.sim.state.targets()).toHaveLength(1000);
  });

  it('lets tests pin a health state, as an operator-visible failure would', async () => {
    const tg = await createTg(ctx.client);
    await attach(ctx.client, tg);
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.3' }] }),
    );
    ctx.sim.state.setTargetHealth(
      tg.TargetGroupArn!,
      { Id: '10.0.0.3' },
      { State: 'unhealthy', Reason: 'Target.FailedHealthChecks' },
    );
    expect(await health(ctx.client, tg)).toEqual(['10.0.0.3:8080=unhealthy']);
  });
});

describe('ELBv2 simulator: target health timeline', () => {
  let now = 0;
  const ctx = useSim({ now: () => now, targetHealth: { initialMs: 1_000, drainingMs: 2_000 } });

  it('goes initial -> healthy, and draining -> gone after deregistration; re-register restarts', async () => {
    const tg = await createTg(ctx.client);
    await attach(ctx.client, tg);
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.4' }] }),
    );
    expect(await health(ctx.client, tg)).toEqual(['10.0.0.4:8080=initial']);
    now += 1_000;
    expect(await health(ctx.client, tg)).toEqual(['10.0.0.4:8080=healthy']);

    await ctx.client.send(
      new DeregisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.4' }] }),
    );
    expect(await health(ctx.client, tg)).toEqual(['10.0.0.4:8080=draining']);
    now += 1_000;
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.4' }] }),
    );
    expect(await health(ctx.client, tg)).toEqual(['10.0.0.4:8080=initial']);

    await ctx.client.send(
      new DeregisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: '10.0.0.4' }] }),
    );
    now += 2_000;
    expect(await health(ctx.client, tg)).toEqual([]);
  });
});
