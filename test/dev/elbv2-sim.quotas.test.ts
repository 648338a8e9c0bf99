import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  DescribeAccountLimitsCommand,
  ModifyLoadBalancerAttributesCommand,
  ModifyListenerCommand,
  ModifyRuleCommand,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Limit } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  addRule,
  createAlb,
  createHttpListener,
  createTg,
  sdkError,
  SUBNET_A,
  SUBNET_B,
  useSim,
} from './elbv2-sim-fixtures.js';

const forward = (arn: string | undefined) => [{ Type: 'forward' as const, TargetGroupArn: arn }];

describe('ELBv2 simulator: DescribeAccountLimits', () => {
  const ctx = useSim({ limits: { rulesPerLoadBalancer: 250 } });

  it('lists the documented limit names with the default quotas and configured overrides', async () => {
    const out = await ctx.client.send(new DescribeAccountLimitsCommand({}));
    const limits = Object.fromEntries(out.Limits!.map((l) => [l.Name, l.Max]));
    expect(limits).toEqual({
      'application-load-balancers': '50',
      'condition-values-per-alb-rule': '5',
      'condition-wildcards-per-alb-rule': '5',
      'gateway-load-balancers': '100',
      'gateway-load-balancers-per-vpc': '100',
      'geneve-target-groups': '100',
      'listeners-per-application-load-balancer': '50',
      'listeners-per-network-load-balancer': '50',
      'network-load-balancers': '50',
      'rules-per-application-load-balancer': '250',
      'target-groups': '3000',
      'target-groups-per-action-on-application-load-balancer': '5',
      'target-groups-per-action-on-network-load-balancer': '1',
      'target-groups-per-application-load-balancer': '100',
      'targets-per-application-load-balancer': '1000',
      'targets-per-availability-zone-per-gateway-load-balancer': '300',
      'targets-per-availability-zone-per-network-load-balancer': '500',
      'targets-per-network-load-balancer': '3000',
    });
    expect(out.NextMarker).toBeUndefined();
  });

  it('pages, and reflects a quota changed at run time', async () => {
    ctx.sim.state.store.limits.targetGroups = 5000;
    const seen: Limit[] = [];
    let marker: string | undefined;
    do {
      const page = await ctx.client.send(new DescribeAccountLimitsCommand({ PageSize: 7, Marker: marker }));
      seen.push(...page.Limits!);
      marker = page.NextMarker;
    } while (marker);
    expect(seen).toHaveLength(18);
    expect(seen.find((l) => l.Name === 'target-groups')!.Max).toBe('5000');
  });
});

describe('ELBv2 simulator: quota errors', () => {
  const ctx = useSim();

  it('TooManyRules counts rules across the load balancer and names it', async () => {
    ctx.sim.state.store.limits.rulesPerLoadBalancer = 2;
    const lb = await createAlb(ctx.client);
    const l = await createHttpListener(ctx.client, lb);
    await addRule(ctx.client, l, 1);
    await addRule(ctx.client, await createHttpListener(ctx.client, lb, 81), 1);
    const err = await sdkError(addRule(ctx.client, l, 2));
    expect(err.name).toBe('TooManyRulesException');
    expect(err.message).toContain(`The maximum number of rules on load balancer ${lb.LoadBalancerArn}`);
  });

  it('TooManyUniqueTargetGroupsPerLoadBalancer counts each target group once across listeners and rules', async () => {
    ctx.sim.state.store.limits.targetGroupsPerLoadBalancer = 2;
    const lb = await createAlb(ctx.client);
    const [a, b, c] = [
      await createTg(ctx.client, 'a'),
      await createTg(ctx.client, 'b'),
      await createTg(ctx.client, 'c'),
    ];
    const l = await createHttpListener(ctx.client, lb, 80, forward(a.TargetGroupArn));
    const r1 = await addRule(ctx.client, l, 1, forward(b.TargetGroupArn));
    await addRule(ctx.client, l, 2, forward(a.TargetGroupArn));
    const err = await sdkError(addRule(ctx.client, l, 3, forward(c.TargetGroupArn)));
    expect(err.name).toBe('TooManyUniqueTargetGroupsPerLoadBalancerException');
    expect(err.message).toContain("'2'");
    // Replacing a rule's only reference to b with c keeps the count at 2.
    await ctx.client.send(new ModifyRuleCommand({ RuleArn: r1.RuleArn, Actions: forward(c.TargetGroupArn) }));
    const viaListener = await sdkError(
      ctx.client.send(
        new ModifyListenerCommand({ ListenerArn: l.ListenerArn, DefaultActions: forward(b.TargetGroupArn) }),
      ),
    );
    expect(viaListener.name).toBe('TooManyUniqueTargetGroupsPerLoadBalancerException');
  });

  it('TooManyTargets per load balancer, both when registering and when routing to a full group', async () => {
    ctx.sim.state.store.limits.targetsPerApplicationLoadBalancer = 3;
    const lb = await createAlb(ctx.client);
    const [a, b] = [await createTg(ctx.client, 'a'), await createTg(ctx.client, 'b')];
    const l = await createHttpListener(ctx.client, lb, 80, forward(a.TargetGroupArn));
    const ips = (...n: number[]) => n.map((i) => ({ Id: `10.0.0.${i}` }));
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: a.TargetGroupArn, Targets: ips(1, 2) }),
    );
    await ctx.client.send(
      new RegisterTargetsCommand({ TargetGroupArn: b.TargetGroupArn, Targets: ips(3, 4) }),
    );
    const route = await sdkError(addRule(ctx.client, l, 1, forward(b.TargetGroupArn)));
    expect(route.name).toBe('TooManyTargetsException');
    expect(route.message).toBe("The maximum number of targets per load balancer '3' has been reached");
    await ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: a.TargetGroupArn, Targets: ips(5) }));
    const reg = await sdkError(
      ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: a.TargetGroupArn, Targets: ips(6) })),
    );
    expect(reg.name).toBe('TooManyTargetsException');
    // Re-registering targets that are already there adds nothing and passes.
    await ctx.client.send(new RegisterTargetsCommand({ TargetGroupArn: a.TargetGroupArn, Targets: ips(1) }));
  });

  it('caps NLB targets per zone (an all target counts in each), and the whole NLB with cross-zone on', async () => {
    ctx.sim.state.store.limits.targetsPerAvailabilityZonePerNetworkLoadBalancer = 2;
    const nlb = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'nlb', Type: 'network', Subnets: [SUBNET_A, SUBNET_B] }),
      )
    ).LoadBalancers![0]!;
    const tg = await createTg(ctx.client, 'tcp', { Protocol: 'TCP', Port: 80 });
    await ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: nlb.LoadBalancerArn,
        Protocol: 'TCP',
        Port: 80,
        DefaultActions: forward(tg.TargetGroupArn),
      }),
    );
    const register = (Id: string, AvailabilityZone?: string) =>
      ctx.client.send(
        new RegisterTargetsCommand({
          TargetGroupArn: tg.TargetGroupArn,
          Targets: [{ Id, AvailabilityZone }],
        }),
      );
    await register('10.0.0.1'); // us-east-1a
    await register('172.20.0.1', 'all'); // both zones
    await register('10.0.16.1'); // us-east-1b
    const full = await sdkError(register('10.0.0.2'));
    expect(full.message).toBe(
      "The maximum number of targets per Availability Zone per load balancer '2' has been reached",
    );
    await ctx.client.send(
      new ModifyLoadBalancerAttributesCommand({
        LoadBalancerArn: nlb.LoadBalancerArn,
        Attributes: [{ Key: 'load_balancing.cross_zone.enabled', Value: 'true' }],
      }),
    );
    const crossZone = await sdkError(register('10.0.32.1'));
    expect(crossZone.message).toContain('with cross-zone load balancing');
  });

  it('TooManyListeners, TooManyLoadBalancers and TooManyTargetGroups say which quota was hit', async () => {
    ctx.sim.state.store.limits.listenersPerLoadBalancer = 1;
    ctx.sim.state.store.limits.loadBalancersPerType = 1;
    ctx.sim.state.store.limits.targetGroups = 1;
    const lb = await createAlb(ctx.client);
    await createHttpListener(ctx.client, lb, 80);
    const listener = await sdkError(createHttpListener(ctx.client, lb, 81));
    expect([listener.name, listener.message]).toEqual([
      'TooManyListenersException',
      "The maximum number of listeners per load balancer '1' has been reached",
    ]);
    const lb2 = await sdkError(
      ctx.client.send(new CreateLoadBalancerCommand({ Name: 'second', Subnets: [SUBNET_A, SUBNET_B] })),
    );
    expect([lb2.name, lb2.message]).toEqual([
      'TooManyLoadBalancersException',
      "The maximum number of load balancers '1' has been reached",
    ]);
    await createTg(ctx.client, 'a');
    const tg = await sdkError(createTg(ctx.client, 'b'));
    expect([tg.name, tg.message]).toEqual([
      'TooManyTargetGroupsException',
      "The maximum number of target groups '1' has been reached",
    ]);
  });
});
