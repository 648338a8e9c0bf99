/**
 * Target type alb (an ALB as the target of an NLB, what LBC's frontend NLB builds), as AWS has it:
 * TCP groups checked over HTTP(S), one ALB per group on a port it listens on, only a TCP listener
 * of an NLB forwarding to it, and an ALB behind at most two NLBs.
 */
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  ModifyTargetGroupCommand,
  RegisterTargetsCommand,
  type CreateTargetGroupCommandInput,
  type LoadBalancer,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  createAlb,
  createHttpListener,
  sdkError,
  SUBNET_A,
  SUBNET_B,
  useSim,
  VPC,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: target type alb', () => {
  const ctx = useSim();

  const albGroup = async (name: string, extra: Partial<CreateTargetGroupCommandInput> = {}) =>
    (
      await ctx.client.send(
        new CreateTargetGroupCommand({
          Name: name,
          TargetType: 'alb',
          Protocol: 'TCP',
          Port: 80,
          VpcId: VPC,
          ...extra,
        }),
      )
    ).TargetGroups![0]!;
  const nlb = async (name: string) =>
    (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: name, Type: 'network', Subnets: [SUBNET_A, SUBNET_B] }),
      )
    ).LoadBalancers![0]!;
  const register = (tg: TargetGroup, id: string | undefined, port = 80) =>
    ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: id, Port: port }] }),
    );
  const tcpListener = (lb: LoadBalancer, tg: TargetGroup, port = 80, protocol: 'TCP' | 'TLS' = 'TCP') =>
    ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        Protocol: protocol,
        Port: port,
        ...(protocol === 'TLS'
          ? { Certificates: [{ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/a' }] }
          : {}),
        DefaultActions: [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }],
      }),
    );

  it('is TCP only, and checked over HTTP by default and HTTP or HTTPS only', async () => {
    for (const Protocol of ['HTTP', 'TLS', 'UDP'] as const) {
      const err = await sdkError(albGroup(`bad-${Protocol.toLowerCase()}`, { Protocol }));
      expect(err.name).toBe('ValidationError');
    }
    const tcpCheck = await sdkError(albGroup('bad-check', { HealthCheckProtocol: 'TCP' }));
    expect(tcpCheck.message).toMatch(/use HTTP or HTTPS/);
    const tg = await albGroup('good');
    expect(tg).toMatchObject({
      TargetType: 'alb',
      Protocol: 'TCP',
      HealthCheckProtocol: 'HTTP',
      HealthCheckPath: '/',
    });
    const modify = await sdkError(
      ctx.client.send(
        new ModifyTargetGroupCommand({ TargetGroupArn: tg.TargetGroupArn, HealthCheckProtocol: 'TCP' }),
      ),
    );
    expect(modify.name).toBe('ValidationError');
  });

  it('takes one ALB, on a port it listens on', async () => {
    const alb = await createAlb(ctx.client, 'alb-1');
    const tg = await albGroup('fronts-alb-1');
    // An NLB, an IP address and an ALB without a listener on the port are not targets.
    expect((await sdkError(register(tg, (await nlb('not-an-alb')).LoadBalancerArn))).name).toBe(
      'InvalidTargetException',
    );
    expect((await sdkError(register(tg, '10.0.0.1'))).name).toBe('InvalidTargetException');
    expect((await sdkError(register(tg, alb.LoadBalancerArn))).message).toMatch(/no listener on port 80/);
    await createHttpListener(ctx.client, alb, 80);
    await createHttpListener(ctx.client, alb, 8080);
    await register(tg, alb.LoadBalancerArn);
    // A second registration (another port, or another ALB) does not fit in the group.
    const other = await createAlb(ctx.client, 'alb-2');
    await createHttpListener(ctx.client, other, 80);
    expect((await sdkError(register(tg, other.LoadBalancerArn))).message).toMatch(
      /only one Application Load Balancer/,
    );
    expect((await sdkError(register(tg, alb.LoadBalancerArn, 8080))).message).toMatch(/only one/);
    expect(ctx.sim.state.targets().map((t) => `${t.Id}:${t.Port}`)).toStrictEqual([
      `${alb.LoadBalancerArn}:80`,
    ]);
  });

  it('is forwarded to by a TCP listener of an NLB only, and an ALB is behind at most two NLBs', async () => {
    const alb = await createAlb(ctx.client, 'alb-1');
    await createHttpListener(ctx.client, alb, 80);
    const groups = await Promise.all(['a', 'b', 'c'].map((n) => albGroup(`fronts-${n}`)));
    for (const tg of groups) await register(tg, alb.LoadBalancerArn);
    const front = await nlb('front-a');
    expect((await sdkError(tcpListener(front, groups[0]!, 443, 'TLS'))).name).toBe(
      'IncompatibleProtocolsException',
    );
    const albListener = await sdkError(
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: alb.LoadBalancerArn,
          Protocol: 'HTTP',
          Port: 81,
          DefaultActions: [{ Type: 'forward', TargetGroupArn: groups[0]!.TargetGroupArn }],
        }),
      ),
    );
    expect(albListener.name).toBe('IncompatibleProtocolsException');
    await tcpListener(front, groups[0]!);
    await tcpListener(await nlb('front-b'), groups[1]!);
    const third = await sdkError(tcpListener(await nlb('front-c'), groups[2]!));
    expect(third.name).toBe('TooManyRegistrationsForTargetIdException');
  });
});
