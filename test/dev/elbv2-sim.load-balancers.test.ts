import {
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand,
  ModifyLoadBalancerAttributesCommand,
  paginateDescribeLoadBalancers,
  SetSecurityGroupsCommand,
  SetSubnetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { SIM_ACCOUNT_ID, SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { createAlb, sdkError, SUBNET_A, SUBNET_B, SUBNET_C, useSim } from './elbv2-sim-fixtures.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

describe('ELBv2 simulator: load balancers', () => {
  const ctx = useSim();

  it('creates an ALB with real-format ARN, DNS name, zone and AZs from its subnets', async () => {
    // Act
    const lb = await createAlb(ctx.client, 'k8s-web');

    // Assess
    expect(lb.LoadBalancerArn).toMatch(
      new RegExp(
        `^arn:aws:elasticloadbalancing:us-east-1:${SIM_ACCOUNT_ID}:loadbalancer/app/k8s-web/[0-9a-f]{16}$`,
      ),
    );
    expect(lb.DNSName).toMatch(/^k8s-web-\d{10}\.us-east-1\.elb\.amazonaws\.com$/);
    expect(lb).toMatchObject({
      CanonicalHostedZoneId: 'Z35SXDOTRQ7X7K',
      Scheme: 'internet-facing',
      Type: 'application',
      VpcId: SIM_NETWORK.vpcId,
      State: { Code: 'active' },
      SecurityGroups: [SIM_NETWORK.defaultSecurityGroupId],
      AvailabilityZones: [
        { ZoneName: 'us-east-1a', SubnetId: SUBNET_A },
        { ZoneName: 'us-east-1b', SubnetId: SUBNET_B },
      ],
    });
    expect(lb.CreatedTime).toBeInstanceOf(Date);
  });

  it('creates an internal NLB with an internal- DNS name and the NLB zone id', async () => {
    const out = await ctx.client.send(
      new CreateLoadBalancerCommand({
        Name: 'k8s-tcp',
        Type: 'network',
        Scheme: 'internal',
        Subnets: [SUBNET_C],
      }),
    );
    const lb = out.LoadBalancers![0]!;
    expect(lb.LoadBalancerArn).toContain(':loadbalancer/net/k8s-tcp/');
    expect(lb.DNSName).toMatch(/^internal-k8s-tcp-[0-9a-f]{16}\.elb\.us-east-1\.amazonaws\.com$/);
    expect(lb.CanonicalHostedZoneId).toBe('Z26RNL4JYFTOTI');
    expect(lb.SecurityGroups).toBeUndefined();
  });

  it('returns the existing LB for an identical create and DuplicateLoadBalancerName otherwise', async () => {
    const first = await createAlb(ctx.client, 'same');
    const again = await createAlb(ctx.client, 'same');
    expect(again.LoadBalancerArn).toBe(first.LoadBalancerArn);

    const err = await sdkError(
      ctx.client.send(new CreateLoadBalancerCommand({ Name: 'same', Subnets: [SUBNET_A, SUBNET_C] })),
    );
    expect(err.name).toBe('DuplicateLoadBalancerNameException');
    expect(err.Error.Code).toBe('DuplicateLoadBalancerName');
    expect(err.$metadata.httpStatusCode).toBe(400);
  });

  it.each([
    ['a'.repeat(33), 'too long'],
    ['-lead', 'leading hyphen'],
    ['trail-', 'trailing hyphen'],
    ['under_score', 'underscore'],
    ['internal-thing', 'internal- prefix'],
  ])('rejects name %s (%s) with ValidationError', async (name) => {
    const err = await sdkError(
      ctx.client.send(new CreateLoadBalancerCommand({ Name: name, Subnets: [SUBNET_A, SUBNET_B] })),
    );
    expect(err.name).toBe('ValidationError');
    expect(err.$fault).toBe('client');
  });

  it('accepts a 32-character name', async () => {
    await expect(createAlb(ctx.client, 'a'.repeat(32))).resolves.toMatchObject({
      LoadBalancerName: 'a'.repeat(32),
    });
  });

  it('requires two AZs for an ALB and known subnets', async () => {
    const one = await sdkError(
      ctx.client.send(new CreateLoadBalancerCommand({ Name: 'x', Subnets: [SUBNET_A] })),
    );
    expect(one.name).toBe('ValidationError');
    const unknown = await sdkError(
      ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'x', Subnets: [SUBNET_A, 'subnet-0000000000000dead'] }),
      ),
    );
    expect(unknown.name).toBe('SubnetNotFoundException');
  });

  it('places a load balancer in any subnet of the VPC, the pod subnets too, as AWS does', async () => {
    // AWS asks only that the subnet exist (SubnetNotFound); the secondary CIDR's subnets are the VPC's.
    const [podA, podB] = SIM_NETWORK.podSubnets;
    const lb = await ctx.client.send(
      new CreateLoadBalancerCommand({
        Name: 'in-pods',
        Subnets: [podA!.subnetId, SUBNET_B],
        Scheme: 'internal',
      }),
    );
    expect(lb.LoadBalancers?.[0]?.AvailabilityZones).toEqual([
      { ZoneName: 'us-east-1a', SubnetId: podA!.subnetId },
      { ZoneName: 'us-east-1b', SubnetId: SUBNET_B },
    ]);
    await ctx.client.send(
      new SetSubnetsCommand({
        LoadBalancerArn: lb.LoadBalancers?.[0]?.LoadBalancerArn,
        Subnets: [podA!.subnetId, podB!.subnetId],
      }),
    );
    const [after] =
      (await ctx.client.send(new DescribeLoadBalancersCommand({ Names: ['in-pods'] }))).LoadBalancers ?? [];
    expect(after?.AvailabilityZones?.map((z) => `${z.ZoneName} ${z.SubnetId}`)).toEqual([
      `us-east-1a ${podA!.subnetId}`,
      `us-east-1b ${podB!.subnetId}`,
    ]);
  });

  it('describes by ARNs and Names, and NotFound for unknown ones', async () => {
    const a = await createAlb(ctx.client, 'lb-a');
    const b = await createAlb(ctx.client, 'lb-b');
    const byArn = await ctx.client.send(
      new DescribeLoadBalancersCommand({ LoadBalancerArns: [b.LoadBalancerArn!] }),
    );
    expect(byArn.LoadBalancers!.map((l) => l.LoadBalancerName)).toEqual(['lb-b']);
    const byName = await ctx.client.send(new DescribeLoadBalancersCommand({ Names: ['lb-a', 'lb-b'] }));
    expect(byName.LoadBalancers!.map((l) => l.LoadBalancerArn)).toEqual([
      a.LoadBalancerArn,
      b.LoadBalancerArn,
    ]);

    const missing = await sdkError(ctx.client.send(new DescribeLoadBalancersCommand({ Names: ['nope'] })));
    expect(missing.name).toBe('LoadBalancerNotFoundException');
    const badArn = await sdkError(
      ctx.client.send(new DescribeLoadBalancersCommand({ LoadBalancerArns: ['not-an-arn'] })),
    );
    expect(badArn.name).toBe('ValidationError');
  });

  it('pages with Marker/PageSize, also through the SDK paginator', async () => {
    for (let i = 0; i < 7; i++) await createAlb(ctx.client, `page-${i}`);
    const first = await ctx.client.send(new DescribeLoadBalancersCommand({ PageSize: 3 }));
    expect(first.LoadBalancers).toHaveLength(3);
    expect(first.NextMarker).toBeDefined();

    const names: string[] = [];
    for await (const page of paginateDescribeLoadBalancers({ client: ctx.client, pageSize: 3 }, {})) {
      names.push(...page.LoadBalancers!.map((l) => l.LoadBalancerName!));
    }
    expect(names).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `page-${i}`));

    const bad = await sdkError(ctx.client.send(new DescribeLoadBalancersCommand({ PageSize: 401 })));
    expect(bad.Error?.Code ?? bad.name).toBe('ValidationError');
  });

  it('modifies and describes attributes; deletion protection blocks delete', async () => {
    const lb = await createAlb(ctx.client);
    const out = await ctx.client.send(
      new ModifyLoadBalancerAttributesCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        Attributes: [
          { Key: 'idle_timeout.timeout_seconds', Value: '120' },
          { Key: 'deletion_protection.enabled', Value: 'true' },
        ],
      }),
    );
    expect(out.Attributes).toContainEqual({ Key: 'idle_timeout.timeout_seconds', Value: '120' });
    const described = await ctx.client.send(
      new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: lb.LoadBalancerArn }),
    );
    expect(described.Attributes).toContainEqual({ Key: 'deletion_protection.enabled', Value: 'true' });

    const blocked = await sdkError(
      ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lb.LoadBalancerArn })),
    );
    expect(blocked.name).toBe('OperationNotPermittedException');

    const unknownKey = await sdkError(
      ctx.client.send(
        new ModifyLoadBalancerAttributesCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Attributes: [{ Key: 'nope', Value: '1' }],
        }),
      ),
    );
    expect(unknownKey.name).toBe('ValidationError');
  });

  it("keeps an NLB's security groups as AWS does: none ever added to one created without, the last never taken from one created with", async () => {
    const create = (Name: string, SecurityGroups?: string[]) =>
      ctx.client
        .send(
          new CreateLoadBalancerCommand({
            Name,
            Type: 'network',
            Subnets: [SUBNET_A],
            ...(SecurityGroups ? { SecurityGroups } : {}),
          }),
        )
        .then((r) => r.LoadBalancers![0]!.LoadBalancerArn!);
    const set = (LoadBalancerArn: string, SecurityGroups: string[], enforce?: string) =>
      ctx.client.send(
        new SetSecurityGroupsCommand({
          LoadBalancerArn,
          SecurityGroups,
          ...(enforce ? { EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: enforce as 'on' } : {}),
        }),
      );
    const bare = await create('nlb-bare');
    const added = await sdkError(set(bare, [SIM_NETWORK.defaultSecurityGroupId]));
    expect(added.Error?.Code ?? added.name).toBe('InvalidConfigurationRequest');
    expect(added.message).toMatch(/created without them/);
    const privateLink = await sdkError(set(bare, [], 'off'));
    expect(privateLink.Error?.Code ?? privateLink.name).toBe('InvalidConfigurationRequest');
    expect(privateLink.message).toMatch(/with security groups/);

    const guarded = await create('nlb-guarded', [SIM_NETWORK.defaultSecurityGroupId]);
    const emptied = await sdkError(set(guarded, []));
    expect(emptied.Error?.Code ?? emptied.name).toBe('InvalidConfigurationRequest');
    expect(emptied.message).toMatch(/remove every security group/);
    const off = await set(guarded, [SIM_NETWORK.defaultSecurityGroupId], 'off');
    expect(off.EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic).toBe('off');
    const bad = await sdkError(set(guarded, [SIM_NETWORK.defaultSecurityGroupId], 'maybe'));
    expect(bad.Error?.Code ?? bad.name).toBe('ValidationError');
  });

  it('sets security groups and subnets', async () => {
    const lb = await createAlb(ctx.client);
    const sgs = await ctx.client.send(
      new SetSecurityGroupsCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        SecurityGroups: ['sg-0123456789abcdef0'],
      }),
    );
    expect(sgs.SecurityGroupIds).toEqual(['sg-0123456789abcdef0']);
    const subnets = await ctx.client.send(
      new SetSubnetsCommand({ LoadBalancerArn: lb.LoadBalancerArn, Subnets: [SUBNET_A, SUBNET_B, SUBNET_C] }),
    );
    expect(subnets.AvailabilityZones!.map((z) => z.ZoneName)).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
    ]);
    expect(ctx.sim.state.loadBalancers()[0]!.SecurityGroups).toEqual(['sg-0123456789abcdef0']);
  });

  it('deletes, and deleting again succeeds like AWS', async () => {
    const lb = await createAlb(ctx.client);
    await ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lb.LoadBalancerArn }));
    await ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lb.LoadBalancerArn }));
    expect(ctx.sim.snapshot().loadBalancers).toEqual([]);
  });

  it('fails a create carrying more than 50 tags with TooManyTags and creates nothing', async () => {
    const Tags = Array.from({ length: 51 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    const err = await sdkError(
      ctx.client.send(new CreateLoadBalancerCommand({ Name: 'tags', Subnets: [SUBNET_A, SUBNET_B], Tags })),
    );
    expect(err.name).toBe('TooManyTagsException');
    expect(ctx.sim.snapshot().loadBalancers).toEqual([]);
  });

  it('state.clear() forgets every resource', async () => {
    await createAlb(ctx.client);
    ctx.sim.state.clear();
    expect(ctx.sim.snapshot()).toEqual(EMPTY_SIM_STATE);
  });

  it('enforces the per-type load balancer quota', async () => {
    ctx.sim.state.store.limits.loadBalancersPerType = 2;
    await createAlb(ctx.client, 'q1');
    await createAlb(ctx.client, 'q2');
    const err = await sdkError(createAlb(ctx.client, 'q3'));
    expect(err.name).toBe('TooManyLoadBalancersException');
  });
});

describe('ELBv2 simulator: provisioning state', () => {
  let now = 1_000_000;
  const ctx = useSim({ provisioningMs: 5_000, now: () => now });

  it('reports provisioning until provisioningMs has passed, then active', async () => {
    const lb = await createAlb(ctx.client);
    expect(lb.State?.Code).toBe('provisioning');
    now += 5_000;
    const out = await ctx.client.send(
      new DescribeLoadBalancersCommand({ LoadBalancerArns: [lb.LoadBalancerArn!] }),
    );
    expect(out.LoadBalancers![0]!.State?.Code).toBe('active');
    ctx.sim.state.setLoadBalancerState(lb.LoadBalancerArn!, 'failed');
    expect(ctx.sim.state.loadBalancers()[0]!.State?.Code).toBe('failed');
  });
});
