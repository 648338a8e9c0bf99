/**
 * The simulator's NLB edge shapes, as ELBv2 checks them: SubnetMappings with static addresses
 * (which scheme and address type each needs, the subnet's range, fixed once attached), ALPN
 * policies (TLS listeners only) and which target group protocols an NLB listener forwards to.
 */
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  ModifyListenerCommand,
  SetSubnetsCommand,
  type SubnetMapping,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { sdkError, SUBNET_A, SUBNET_B, useSim, VPC } from './elbv2-sim-fixtures.js';

const EIP_1 = 'eipalloc-0b000000000000001';
const EIP_2 = 'eipalloc-0b000000000000002';
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/aaaa-1111';

describe('ELBv2 simulator: NLB subnet mappings, ALPN and listener/target group protocols', () => {
  const ctx = useSim();
  const nlb = (
    SubnetMappings: SubnetMapping[],
    o: { Scheme?: 'internal' | 'internet-facing'; IpAddressType?: 'ipv4' | 'dualstack'; Name?: string } = {},
  ) =>
    ctx.client.send(
      new CreateLoadBalancerCommand({
        Name: o.Name ?? 'k8s-static',
        Type: 'network',
        Scheme: o.Scheme ?? 'internet-facing',
        ...(o.IpAddressType ? { IpAddressType: o.IpAddressType } : {}),
        SubnetMappings,
      }),
    );

  it('reports EIPs, private IPv4 and IPv6 addresses per subnet as LoadBalancerAddresses', async () => {
    const eip = (await nlb([{ SubnetId: SUBNET_A, AllocationId: EIP_1 }])).LoadBalancers![0]!;
    expect(eip.AvailabilityZones?.[0]?.LoadBalancerAddresses).toStrictEqual([
      { IpAddress: expect.stringMatching(/^3\.\d+\.\d+\.\d+$/) as unknown, AllocationId: EIP_1 },
    ]);
    const internal = (
      await nlb([{ SubnetId: SUBNET_A, PrivateIPv4Address: '10.0.0.10' }], {
        Scheme: 'internal',
        Name: 'k8s-int',
      })
    ).LoadBalancers![0]!;
    expect(internal.AvailabilityZones?.[0]?.LoadBalancerAddresses).toStrictEqual([
      { PrivateIPv4Address: '10.0.0.10' },
    ]);
    const v6 = (
      await nlb([{ SubnetId: SUBNET_B, IPv6Address: '2600:1f18:e1b5:5001::5' }], {
        IpAddressType: 'dualstack',
        Name: 'k8s-v6',
      })
    ).LoadBalancers![0]!;
    expect(v6.AvailabilityZones?.[0]?.LoadBalancerAddresses).toStrictEqual([
      { IPv6Address: '2600:1f18:e1b5:5001::5' },
    ]);
  });

  it('refuses addresses the load balancer cannot take, as ELBv2 does', async () => {
    const cases: Array<[Promise<unknown>, string, RegExp]> = [
      [
        nlb([{ SubnetId: SUBNET_A, AllocationId: EIP_1 }], { Scheme: 'internal' }),
        'InvalidConfigurationRequest',
        /internet-facing/,
      ],
      [nlb([{ SubnetId: SUBNET_A, AllocationId: 'eip-1' }]), 'AllocationIdNotFound', /eip-1/],
      [
        nlb([
          { SubnetId: SUBNET_A, AllocationId: EIP_1 },
          { SubnetId: SUBNET_B, AllocationId: EIP_1 },
        ]),
        'ValidationError',
        /more than one subnet/,
      ],
      [
        nlb([{ SubnetId: SUBNET_A, PrivateIPv4Address: '10.0.0.10' }]),
        'InvalidConfigurationRequest',
        /internal/,
      ],
      [
        nlb([{ SubnetId: SUBNET_A, PrivateIPv4Address: '10.0.16.10' }], { Scheme: 'internal' }),
        'ValidationError',
        /not in the range of subnet/,
      ],
      [
        nlb([{ SubnetId: SUBNET_A, PrivateIPv4Address: '10.0.0.2' }], { Scheme: 'internal' }),
        'ValidationError',
        /reserved/,
      ],
      [
        nlb([{ SubnetId: SUBNET_A, IPv6Address: '2600:1f18:e1b5:5000::5' }]),
        'InvalidConfigurationRequest',
        /dualstack/,
      ],
      [
        nlb([{ SubnetId: SUBNET_A, IPv6Address: '2600:1f18:e1b5:5001::5' }], { IpAddressType: 'dualstack' }),
        'ValidationError',
        /not in the range/,
      ],
      [
        ctx.client.send(
          new CreateLoadBalancerCommand({
            Name: 'k8s-alb',
            SubnetMappings: [{ SubnetId: SUBNET_A, AllocationId: EIP_1 }, { SubnetId: SUBNET_B }],
          }),
        ),
        'InvalidConfigurationRequest',
        /only for Network Load Balancers/,
      ],
    ];
    for (const [call, code, message] of cases) {
      const err = await sdkError(call);
      expect(err.Error?.Code ?? err.name).toBe(code);
      expect(err.message).toMatch(message);
    }
  });

  it("SetSubnets adds a subnet with its address but cannot change an attached subnet's", async () => {
    const lb = (await nlb([{ SubnetId: SUBNET_A, AllocationId: EIP_1 }])).LoadBalancers![0]!;
    const out = await ctx.client.send(
      new SetSubnetsCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        SubnetMappings: [
          { SubnetId: SUBNET_A, AllocationId: EIP_1 },
          { SubnetId: SUBNET_B, AllocationId: EIP_2 },
        ],
      }),
    );
    expect(out.AvailabilityZones?.map((az) => az.LoadBalancerAddresses?.[0]?.AllocationId)).toStrictEqual([
      EIP_1,
      EIP_2,
    ]);
    const err = await sdkError(
      ctx.client.send(
        new SetSubnetsCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          SubnetMappings: [{ SubnetId: SUBNET_A, AllocationId: 'eipalloc-0b000000000000003' }],
        }),
      ),
    );
    expect(err.message).toMatch(/cannot be changed: it is already attached/);
  });

  it('takes an ALPN policy on TLS listeners only, and forwards TLS to TCP or TLS groups only', async () => {
    const lb = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'k8s-tls', Type: 'network', Subnets: [SUBNET_A] }),
      )
    ).LoadBalancers![0]!;
    const tg = async (Name: string, Protocol: 'TCP' | 'TLS') =>
      (
        await ctx.client.send(
          new CreateTargetGroupCommand({ Name, Protocol, Port: 443, VpcId: VPC, TargetType: 'ip' }),
        )
      ).TargetGroups![0]!.TargetGroupArn!;
    const tlsGroup = await tg('k8s-tls-tg', 'TLS');
    const forward = (arn: string) => [{ Type: 'forward' as const, TargetGroupArn: arn }];
    const listener = (
      await ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Port: 443,
          Protocol: 'TLS',
          Certificates: [{ CertificateArn: CERT }],
          AlpnPolicy: ['HTTP2Preferred'],
          DefaultActions: forward(tlsGroup),
        }),
      )
    ).Listeners![0]!;
    expect(listener.AlpnPolicy).toStrictEqual(['HTTP2Preferred']);

    const onTcp = await sdkError(
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Port: 80,
          Protocol: 'TCP',
          AlpnPolicy: ['HTTP2Only'],
          DefaultActions: forward(await tg('k8s-tcp-tg', 'TCP')),
        }),
      ),
    );
    expect(onTcp.message).toMatch(/only for TLS listeners/);
    const unknown = await sdkError(
      ctx.client.send(new ModifyListenerCommand({ ListenerArn: listener.ListenerArn, AlpnPolicy: ['h2'] })),
    );
    expect(unknown.name).toBe('ValidationError');
    // A TCP listener cannot forward to a TLS group.
    const tcpToTls = await sdkError(
      ctx.client.send(
        new ModifyListenerCommand({
          ListenerArn: listener.ListenerArn,
          Protocol: 'TCP',
          DefaultActions: forward(tlsGroup),
        }),
      ),
    );
    expect(tcpToTls.name).toBe('IncompatibleProtocolsException');
  });
});
