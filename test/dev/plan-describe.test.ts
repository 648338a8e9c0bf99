/** The change plan's text for the backend settings: protocol version, IP family, gRPC codes, the ALB's IP address type. */
import { describe, expect, it } from 'vitest';
import { describeCall } from '../../dev/plan/describe.js';

describe('describeCall (backend settings)', () => {
  it('a gRPC target group of IPv6 targets: version, family and gRPC codes', () => {
    expect(
      describeCall({
        action: 'CreateTargetGroup',
        input: {
          Name: 'k8s-x',
          Protocol: 'HTTPS',
          ProtocolVersion: 'GRPC',
          Port: 50051,
          TargetType: 'ip',
          IpAddressType: 'ipv6',
          VpcId: 'vpc-1',
          HealthCheckPath: '/AWS.ALB/healthcheck',
          Matcher: { GrpcCode: '12' },
        },
      }),
    ).toStrictEqual([
      'HTTPS GRPC:50051, ipv6 ip targets in vpc-1',
      'health check /AWS.ALB/healthcheck, gRPC codes 12',
    ]);
  });

  it('HTTP/1.1 over IPv4 reads as before', () => {
    expect(
      describeCall({
        action: 'CreateTargetGroup',
        input: {
          Name: 'k8s-x',
          Protocol: 'HTTP',
          ProtocolVersion: 'HTTP1',
          Port: 8080,
          TargetType: 'ip',
          IpAddressType: 'ipv4',
          VpcId: 'vpc-1',
        },
      }),
    ).toStrictEqual(['HTTP:8080, ip targets in vpc-1']);
  });

  it('the load balancer’s IP address type, when created dualstack and when changed', () => {
    expect(
      describeCall({
        action: 'CreateLoadBalancer',
        input: { Name: 'k8s-lb', Subnets: ['subnet-a'], IpAddressType: 'dualstack' },
      }),
    ).toStrictEqual(['subnets subnet-a', 'ip address type dualstack']);
    expect(
      describeCall({
        action: 'CreateLoadBalancer',
        input: { Name: 'k8s-lb', Subnets: ['subnet-a'], IpAddressType: 'ipv4' },
      }),
    ).toStrictEqual(['subnets subnet-a']);
    expect(
      describeCall({
        action: 'SetIpAddressType',
        input: { LoadBalancerArn: 'arn:lb', IpAddressType: 'ipv4' },
      }),
    ).toStrictEqual(['ip address type ipv4']);
  });
});
