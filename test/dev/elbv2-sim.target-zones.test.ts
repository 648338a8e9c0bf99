import {
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  DescribeTargetHealthCommand,
  ModifyTargetGroupAttributesCommand,
  RegisterTargetsCommand,
  SetIpAddressTypeCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  createHttpListener,
  createTg,
  sdkError,
  SUBNET_A,
  SUBNET_B,
  useSim,
  VPC,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: ip target zones', () => {
  const ctx = useSim();
  const register = (arn: string | undefined, targets: TargetDescription[]) =>
    ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: arn, Targets: targets }));

  it('needs a zone for an address outside the VPC, with the message LBC and the provider look for', async () => {
    const tg = await createTg(ctx.client);
    const err = await sdkError(register(tg.TargetGroupArn, [{ Id: '172.20.1.1' }]));
    expect(err.name).toBe('ValidationError');
    expect(err.message).toBe(
      "The Availability Zone is required for IP address '172.20.1.1' because it is not in the VPC",
    );
    // A VPC address that is in no subnet is "not in the VPC" for AWS too.
    const noSubnet = await sdkError(register(tg.TargetGroupArn, [{ Id: '10.0.100.1' }]));
    expect(noSubnet.message).toContain("'10.0.100.1' because it is not in the VPC");
    await register(tg.TargetGroupArn, [
      { Id: '172.20.1.1', AvailabilityZone: 'all' },
      { Id: '10.0.100.1', AvailabilityZone: 'us-east-1c' },
    ]);
    const zones = (
      await ctx.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }))
    ).TargetHealthDescriptions!.map((d) => `${d.Target!.Id}@${d.Target!.AvailabilityZone}`);
    expect(zones).toEqual(['172.20.1.1@all', '10.0.100.1@us-east-1c']);
  });

  it("refuses 'all' outside the VPC when the ALB target group has cross-zone off, and takes the pod's zone", async () => {
    const tg = await createTg(ctx.client);
    await ctx.client.send(
      new ModifyTargetGroupAttributesCommand({
        TargetGroupArn: tg.TargetGroupArn,
        Attributes: [{ Key: 'load_balancing.cross_zone.enabled', Value: 'false' }],
      }),
    );
    const err = await sdkError(register(tg.TargetGroupArn, [{ Id: '172.20.1.1', AvailabilityZone: 'all' }]));
    expect(err.name).toBe('ValidationError');
    expect(err.message).toContain('you must specify an Availability Zone');
    await register(tg.TargetGroupArn, [{ Id: '172.20.1.1', AvailabilityZone: 'us-east-1b' }]);
    expect(ctx.sim.state.targets().map((t) => t.AvailabilityZone)).toEqual(['us-east-1b']);
  });

  it('detects the zone of pod addresses in the secondary CIDR, which a primary-CIDR-only list would send as all', async () => {
    const tg = await createTg(ctx.client);
    await register(tg.TargetGroupArn, [{ Id: '100.64.70.9' }]);
    expect(ctx.sim.state.targets().map((t) => t.AvailabilityZone)).toEqual(['us-east-1b']);
    const all = await sdkError(register(tg.TargetGroupArn, [{ Id: '100.64.1.1', AvailabilityZone: 'all' }]));
    expect(all.message).toContain("cannot have its Availability Zone overridden to 'all' from 'us-east-1a'");
  });

  it('keeps an in-VPC address in its own zone: neither all nor another zone', async () => {
    const tg = await createTg(ctx.client);
    const all = await sdkError(register(tg.TargetGroupArn, [{ Id: '10.0.16.5', AvailabilityZone: 'all' }]));
    expect(all.message).toBe(
      "The IP address '10.0.16.5' is within the VPC, and cannot have its Availability Zone overridden to 'all' from 'us-east-1b'",
    );
    const other = await sdkError(
      register(tg.TargetGroupArn, [{ Id: '10.0.16.5', AvailabilityZone: 'us-east-1a' }]),
    );
    expect(other.name).toBe('ValidationError');
    await register(tg.TargetGroupArn, [{ Id: '10.0.16.5', AvailabilityZone: 'us-east-1b' }]);
    expect(ctx.sim.state.targets()).toHaveLength(1);
  });
});

describe('ELBv2 simulator: IPv6 and dualstack', () => {
  const ctx = useSim();

  const ipv6Tg = async () =>
    (
      await ctx.client.send(
        new CreateTargetGroupCommand({
          Name: 'v6',
          Protocol: 'HTTP',
          Port: 8080,
          VpcId: VPC,
          TargetType: 'ip',
          IpAddressType: 'ipv6',
        }),
      )
    ).TargetGroups![0]!;

  it('registers IPv6 targets from the subnets IPv6 ranges into ipv6 target groups, zone detected', async () => {
    const tg = await ipv6Tg();
    expect(tg.IpAddressType).toBe('ipv6');
    await ctx.client.send(
      new RegisterTargetsCommand({
        TargetGroupArn: tg.TargetGroupArn,
        Targets: [{ Id: '2600:1f18:e1b5:5001::1a' }, { Id: '2600:1f18:e1b5:5080:0:0:0:7' }],
      }),
    );
    expect(ctx.sim.state.targets().map((t) => `${t.Id}@${t.AvailabilityZone}`)).toEqual([
      '2600:1f18:e1b5:5001::1a@us-east-1b',
      '2600:1f18:e1b5:5080:0:0:0:7@us-east-1a',
    ]);
    const bad = async (id: string) =>
      sdkError(
        ctx.client.send(
          new RegisterTargetsCommand({ TargetGroupArn: tg.TargetGroupArn, Targets: [{ Id: id }] }),
        ),
      );
    expect((await bad('10.0.0.5')).message).toContain('not a valid IPv6 address');
    expect((await bad('2001:db8::1')).message).toContain('not in a subnet of the VPC');
    const v4 = await createTg(ctx.client, 'v4');
    const v6InV4 = await sdkError(
      ctx.client.send(
        new RegisterTargetsCommand({
          TargetGroupArn: v4.TargetGroupArn,
          Targets: [{ Id: '2600:1f18:e1b5:5001::1' }],
        }),
      ),
    );
    expect(v6InV4.name).toBe('InvalidTargetException');
  });

  it('routes to an ipv6 target group only from a dualstack load balancer', async () => {
    const tg = await ipv6Tg();
    const lb = async (name: string, IpAddressType?: 'dualstack') =>
      (
        await ctx.client.send(
          new CreateLoadBalancerCommand({ Name: name, Subnets: [SUBNET_A, SUBNET_B], IpAddressType }),
        )
      ).LoadBalancers![0]!;
    const v4 = await lb('v4');
    const err = await sdkError(
      createHttpListener(ctx.client, v4, 80, [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }]),
    );
    expect(err.message).toContain('dualstack');
    const ds = await lb('ds', 'dualstack');
    expect(ds.IpAddressType).toBe('dualstack');
    await createHttpListener(ctx.client, ds, 80, [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }]);
    const back = await sdkError(
      ctx.client.send(
        new SetIpAddressTypeCommand({ LoadBalancerArn: ds.LoadBalancerArn, IpAddressType: 'ipv4' }),
      ),
    );
    expect(back.message).toContain('IPv6 target groups');
  });

  it('allows dualstack-without-public-ipv4 only for internet-facing ALBs, and SetIpAddressType switches types', async () => {
    const internal = await sdkError(
      ctx.client.send(
        new CreateLoadBalancerCommand({
          Name: 'int',
          Subnets: [SUBNET_A, SUBNET_B],
          Scheme: 'internal',
          IpAddressType: 'dualstack-without-public-ipv4',
        }),
      ),
    );
    expect(internal.name).toBe('ValidationError');
    const lb = (
      await ctx.client.send(new CreateLoadBalancerCommand({ Name: 'pub', Subnets: [SUBNET_A, SUBNET_B] }))
    ).LoadBalancers![0]!;
    const out = await ctx.client.send(
      new SetIpAddressTypeCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        IpAddressType: 'dualstack-without-public-ipv4',
      }),
    );
    expect(out.IpAddressType).toBe('dualstack-without-public-ipv4');
    expect(ctx.sim.state.loadBalancers()[0]!.IpAddressType).toBe('dualstack-without-public-ipv4');
  });

  it('rejects ipv6 target groups for Lambda targets', async () => {
    const err = await sdkError(
      ctx.client.send(
        new CreateTargetGroupCommand({ Name: 'fn', TargetType: 'lambda', IpAddressType: 'ipv6' }),
      ),
    );
    expect(err.name).toBe('ValidationError');
  });
});
