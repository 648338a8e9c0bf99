/**
 * Backend protocols, per-Service target-group settings, dualstack ALBs with IPv6 targets and the
 * full load-balancer-attributes surface, against the ELBv2 simulator: the simulator's whole state
 * is the desired stack after each step, and replacements never leave a rule without its group.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { InvalidObjectError } from '../../lib/errors.js';
import type { EndpointSlice, MultiClusterIngress, Service } from '../../lib/karmada/types.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { CERT_A, loadBalancerAttributesOf, PUBLIC_SUBNETS, startAwsEnv, type AwsEnv } from './aws-env.js';

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
let env: AwsEnv;
afterEach(async () => {
  await env.close();
});

const described = () => env.sim.snapshot().targetGroups;
const lbAttributes = () => loadBalancerAttributesOf(env.sim);

/**
 * The order of the mutating calls a replacement made: the new group is created before any rule or
 * listener is switched to it, and the old one deleted after all of them (AWS would refuse earlier).
 */
function expectSafeReplacement(calls: string[]) {
  const created = calls.indexOf('CreateTargetGroup');
  const switched = calls.flatMap((c, i) => (c === 'ModifyRule' || c === 'ModifyListener' ? [i] : []));
  const deleted = calls.lastIndexOf('DeleteTargetGroup');
  expect(created).toBeGreaterThanOrEqual(0);
  expect(switched.length).toBeGreaterThan(0);
  expect(deleted).toBeGreaterThan(Math.max(...switched));
  expect(Math.min(...switched)).toBeGreaterThan(created);
}

describe('backend-protocol-version GRPC: LBC’s gRPC example (docs/examples/grpc)', () => {
  const grpc = (version: string): MultiClusterIngress => ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: 'grpcserver',
      namespace: 'default',
      uid: 'mci-grpc',
      annotations: {
        [A('ssl-redirect')]: '443',
        [A('backend-protocol-version')]: version,
        [A('listen-ports')]: '[{"HTTP": 80}, {"HTTPS":443}]',
        [A('scheme')]: 'internet-facing',
        [A('subnets')]: PUBLIC_SUBNETS.join(','),
        [A('target-type')]: 'ip',
        [A('certificate-arn')]: CERT_A,
      },
    },
    spec: {
      rules: [
        {
          host: 'grpcserver.example.com',
          http: { paths: [path('/helloworld.Greeter', 'Prefix', 'grpcserver', 50051)] },
        },
      ],
    },
  });

  it('creates LBC’s gRPC target group; a version change replaces it with no rule left dangling', async () => {
    env = await startAwsEnv([
      service('grpcserver', [{ port: 50051, targetPort: 50051, protocol: 'TCP' }]),
      collectedSlice('member1', 'grpcserver', { addresses: ['10.0.1.50'], ports: [{ port: 50051 }] }),
    ]);
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, grpc('GRPC'));
    expect(env.state()).toStrictEqual(await env.expectedForMci(grpc('GRPC')));
    expect(described()).toMatchObject([
      {
        Protocol: 'HTTP',
        ProtocolVersion: 'GRPC',
        Port: 50051,
        TargetType: 'ip',
        IpAddressType: 'ipv4',
        HealthCheckProtocol: 'HTTP',
        HealthCheckPath: '/AWS.ALB/healthcheck',
        HealthCheckPort: 'traffic-port',
        HealthCheckIntervalSeconds: 15,
        HealthCheckTimeoutSeconds: 5,
        HealthyThresholdCount: 2,
        UnhealthyThresholdCount: 2,
        Matcher: { GrpcCode: '12' },
      },
    ]);
    const grpcGroup = described()[0]?.TargetGroupName;

    // A no-op reconcile stays a no-op: the gRPC matcher compares equal to what AWS reports.
    const noop = (await env.provider.ingress.plan(env.ctx, grpc('GRPC'))).plan;
    expect(noop).toStrictEqual([]);

    const plan = (await env.provider.ingress.plan(env.ctx, grpc('HTTP2'))).plan;
    expect(plan.filter((o) => o.op === 'replace').map((o) => o.detail)).toStrictEqual([
      expect.stringMatching(
        new RegExp(
          `^immutable settings changed \\(protocol version GRPC → HTTP2\\): ${grpcGroup} is replaced by k8s-`,
        ),
      ),
    ]);
    env.sim.calls.reset();
    await lb.update(env.ctx, grpc('HTTP2'));
    expectSafeReplacement(env.mutatingCalls());
    expect(env.state()).toStrictEqual(await env.expectedForMci(grpc('HTTP2')));
    expect(described()).toMatchObject([
      { ProtocolVersion: 'HTTP2', HealthCheckPath: '/', Matcher: { HttpCode: '200' } },
    ]);
    expect(env.announced.map((a) => a.reason)).toStrictEqual(['ReplacingTargetGroup']);
  });

  it('target-type instance: served with ip targets and a Warning Event saying so', async () => {
    env = await startAwsEnv([
      service('grpcserver', [{ port: 50051, targetPort: 50051, protocol: 'TCP' }]),
      collectedSlice('member1', 'grpcserver', { addresses: ['10.0.1.50'], ports: [{ port: 50051 }] }),
    ]);
    const mci = grpc('GRPC');
    mci.metadata.annotations = { ...mci.metadata.annotations, [A('target-type')]: 'instance' };
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(described().map((t) => t.TargetType)).toStrictEqual(['ip']);
    expect(env.announced).toStrictEqual([
      {
        reason: 'UnsupportedTargetType',
        message: `annotation ${A('target-type')}: instance on MultiClusterIngress default/grpcserver is not supported by the aws provider: targets are the pods' IPs from the member clusters' EndpointSlices, so target type ip is used`,
      },
    ]);
  });
});

describe('the backend Service’s annotations override the MCI’s, per target group', () => {
  const mci = minimalIngress({
    metadata: {
      name: 'shop',
      namespace: 'default',
      uid: 'mci-shop',
      annotations: { [A('healthcheck-interval-seconds')]: '30' },
    },
    spec: {
      rules: [{ http: { paths: [path('/api', 'Prefix', 'api', 80), path('/', 'Prefix', 'web', 80)] } }],
    },
  });
  const api = (annotations: Record<string, string> | undefined): Service => {
    const s = service('api');
    if (annotations) s.metadata.annotations = annotations;
    return s;
  };

  it('an HTTPS Service with its own check and attributes; removing them replaces the group back', async () => {
    env = await startAwsEnv([
      api({
        [A('backend-protocol')]: 'HTTPS',
        [A('healthcheck-path')]: '/api/healthz',
        [A('target-group-attributes')]: 'deregistration_delay.timeout_seconds=10',
      }),
      service('web'),
      collectedSlice('member1', 'api', { addresses: ['10.0.1.1'] }),
      collectedSlice('member1', 'web', { addresses: ['10.0.1.2'] }),
    ]);
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, mci);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    const groups = described()
      .map((t) => ({
        protocol: t.Protocol,
        path: t.HealthCheckPath,
        hc: t.HealthCheckProtocol,
        every: t.HealthCheckIntervalSeconds,
      }))
      .sort((a, b) => ((a.protocol ?? '') < (b.protocol ?? '') ? -1 : 1));
    expect(groups).toStrictEqual([
      { protocol: 'HTTP', path: '/', hc: 'HTTP', every: 30 },
      { protocol: 'HTTPS', path: '/api/healthz', hc: 'HTTPS', every: 30 },
    ]);
    const apiArn = described().find((t) => t.Protocol === 'HTTPS')?.TargetGroupArn;
    const attrs = env.sim.state.describeTargetGroupAttributes({ TargetGroupArn: apiArn }).Attributes ?? [];
    expect(attrs).toContainEqual({ Key: 'deregistration_delay.timeout_seconds', Value: '10' });

    // The Service drops its annotations: its group is HTTP again (replaced), the web group untouched.
    const webGroup = described().find((t) => t.Protocol === 'HTTP')?.TargetGroupArn;
    env.kube.put(api(undefined));
    env.sim.calls.reset();
    await lb.update(env.ctx, mci);
    expectSafeReplacement(env.mutatingCalls());
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(described().map((t) => t.Protocol)).toStrictEqual(['HTTP', 'HTTP']);
    expect(described().map((t) => t.TargetGroupArn)).toContain(webGroup);
  });

  it('a bad Service annotation is refused before any ELBv2 call, naming the Service', async () => {
    env = await startAwsEnv([
      api({ [A('backend-protocol-version')]: 'HTTP3' }),
      service('web'),
      collectedSlice('member1', 'api', { addresses: ['10.0.1.1'] }),
    ]);
    env.sim.calls.reset();
    const err = await env.provider
      .loadBalancer()
      .ensure(env.ctx, mci)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect((err as InvalidObjectError).message).toBe(
      `Service default/api (its annotations override the MultiClusterIngress's for its target groups): annotation ${A('backend-protocol-version')}: "HTTP3" must be one of HTTP1, HTTP2, GRPC`,
    );
    expect(env.sim.calls.total()).toBe(0);
  });
});

describe('ip-address-type dualstack: IPv6 slices become IPv6 targets', () => {
  const V6_A = '2600:1f18:e1b5:5080::10'; // private subnet a's /64
  const V6_B = '2600:1f18:e1b5:5081:0:0:0:20'; // private subnet b's /64, not canonical
  const v6Slice = (cluster: string, addresses: string[]): EndpointSlice => ({
    ...collectedSlice(cluster, 'serve', { addresses, sliceName: 'serve-v6' }),
    addressType: 'IPv6',
  });
  const serve = (families: Array<'IPv4' | 'IPv6'>): Service => {
    const s = service('serve');
    s.spec = { ...s.spec, ipFamilies: families };
    return s;
  };
  const mci = (type?: string) =>
    minimalIngress({
      metadata: {
        name: 'minimal-ingress',
        namespace: 'default',
        uid: 'mci-uid-1',
        ...(type ? { annotations: { [A('ip-address-type')]: type } } : {}),
      },
    });

  it('ipv4 → dualstack with an IPv6 Service → back to ipv4: converged at each step, nothing leaked', async () => {
    env = await startAwsEnv(
      [
        serve(['IPv4']),
        collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
        v6Slice('member1', [V6_A]),
        v6Slice('member2', [V6_B]),
      ],
      {
        config: {
          vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr], ipv6Cidrs: [SIM_NETWORK.vpcIpv6Cidr] },
        },
      },
    );
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, mci());
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci()));

    // Dualstack and the Service gains IPv6: SetIpAddressType first, then the ipv6 group takes the rule.
    env.kube.put(serve(['IPv6', 'IPv4']));
    env.sim.calls.reset();
    await lb.update(env.ctx, mci('dualstack'));
    const up = env.mutatingCalls();
    expect(up).toContain('SetIpAddressType');
    expect(up.indexOf('SetIpAddressType')).toBeLessThan(up.indexOf('ModifyRule'));
    expectSafeReplacement(up);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci('dualstack')));
    expect(env.state().loadBalancers).toMatchObject([{ ipAddressType: 'dualstack' }]);
    expect(env.state().targetGroups).toMatchObject([{ ipAddressType: 'ipv6' }]);
    expect(env.state().targets).toStrictEqual([
      expect.objectContaining({ id: '2600:1f18:e1b5:5080::10', zone: 'vpc' }),
      expect.objectContaining({ id: '2600:1f18:e1b5:5081::20', zone: 'vpc' }),
    ]);
    // Nothing more to do.
    expect((await env.provider.ingress.plan(env.ctx, mci('dualstack'))).plan).toStrictEqual([]);

    // An IPv6 endpoint moves (member2 scales to another pod): one register and one deregister call.
    env.kube.put(v6Slice('member2', ['2600:1f18:e1b5:5082::30']));
    const moved = await env.measured(() => lb.update(env.ctx, mci('dualstack')));
    expect(moved).toMatchObject({ RegisterTargets: 1, DeregisterTargets: 1 });
    expect(moved.CreateTargetGroup).toBeUndefined();
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci('dualstack')));
    expect(env.state().targets.map((t) => t.id)).toStrictEqual([
      '2600:1f18:e1b5:5080::10',
      '2600:1f18:e1b5:5082::30',
    ]);

    // Back to IPv4: the rule moves to a new ipv4 group before the ALB leaves dualstack (AWS refuses otherwise).
    env.kube.put(serve(['IPv4']));
    env.sim.calls.reset();
    await lb.update(env.ctx, mci('ipv4'));
    const down = env.mutatingCalls();
    expect(down.indexOf('SetIpAddressType')).toBeGreaterThan(down.lastIndexOf('ModifyRule'));
    expectSafeReplacement(down);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci('ipv4')));
    expect(env.state().loadBalancers).toMatchObject([{ ipAddressType: 'ipv4' }]);
    expect(env.state().targets.map((t) => t.id)).toStrictEqual(['10.0.1.10']);
  });

  it('an IPv6 Service behind an ipv4 ALB is refused before any ELBv2 call', async () => {
    env = await startAwsEnv([serve(['IPv6']), v6Slice('member1', [V6_A])]);
    env.sim.calls.reset();
    await expect(env.provider.loadBalancer().ensure(env.ctx, mci())).rejects.toMatchObject({
      name: 'InvalidObjectError',
      reason: 'DualstackRequired',
      field: A('ip-address-type'),
    });
    expect(env.sim.calls.total()).toBe(0);
  });
});

describe('load-balancer-attributes: every attribute ALB documents', () => {
  it('connection and health-check logs, zonal shift, keep-alive, WAF fail-open and the routing.http keys reach AWS', async () => {
    env = await startAwsEnv([
      service('serve'),
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
    ]);
    const attrs = {
      'connection_logs.s3.enabled': 'true',
      'connection_logs.s3.bucket': 'conn-logs',
      'connection_logs.s3.prefix': 'edge',
      'health_check_logs.s3.enabled': 'true',
      'health_check_logs.s3.bucket': 'hc-logs',
      'zonal_shift.config.enabled': 'true',
      'client_keep_alive.seconds': '7200',
      'waf.fail_open.enabled': 'true',
      'routing.http.xff_header_processing.mode': 'preserve',
      'routing.http.preserve_host_header.enabled': 'true',
      'ipv6.deny_all_igw_traffic': 'true',
    };
    const mci = minimalIngress({
      metadata: {
        name: 'minimal-ingress',
        namespace: 'default',
        uid: 'mci-uid-1',
        annotations: {
          [A('load-balancer-attributes')]: Object.entries(attrs)
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
        },
      },
    });
    await env.provider.loadBalancer().ensure(env.ctx, mci);
    expect(env.state()).toStrictEqual(await env.expectedForMci(mci));
    expect(lbAttributes()).toMatchObject(attrs);
    expect((await env.provider.ingress.plan(env.ctx, mci)).plan).toStrictEqual([]);
  });

  it.each([
    ['zonal_shift.enabled=true', 'is not a supported attribute'],
    ['connection_logs.s3.enabled=true', 'needs connection_logs.s3.bucket in the same annotation'],
    ['client_keep_alive.seconds=30', 'must be a whole number of seconds from 60 to 604800'],
  ])('%s is refused before any ELBv2 call', async (value, why) => {
    env = await startAwsEnv([
      service('serve'),
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
    ]);
    env.sim.calls.reset();
    const mci = minimalIngress({
      metadata: {
        name: 'minimal-ingress',
        namespace: 'default',
        annotations: { [A('load-balancer-attributes')]: value },
      },
    });
    await expect(env.provider.loadBalancer().ensure(env.ctx, mci)).rejects.toMatchObject({
      name: 'InvalidObjectError',
      field: A('load-balancer-attributes'),
      message: expect.stringContaining(why),
    });
    expect(env.sim.calls.total()).toBe(0);
  });
});
