import {
  AddTagsCommand,
  CreateLoadBalancerCommand,
  CreateRuleCommand,
  DeleteLoadBalancerCommand,
  DeleteRuleCommand,
  DescribeListenersCommand,
  DescribeRulesCommand,
  DescribeTagsCommand,
  ModifyRuleCommand,
  RemoveTagsCommand,
  SetRulePrioritiesCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { RuleCondition } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  addRule,
  createAlb,
  createHttpListener,
  createTg,
  notFound404,
  path,
  priorities,
  sdkError,
  SUBNET_A,
  useSim,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: rules', () => {
  const ctx = useSim();

  it('creates rules, lists them by priority with the default rule last', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const tg = await createTg(ctx.client);
    const rule = await addRule(ctx.client, listener, 10, [
      { Type: 'forward', TargetGroupArn: tg.TargetGroupArn },
    ]);
    expect(rule.RuleArn).toMatch(/:listener-rule\/app\/alb-1\/[0-9a-f]{16}\/[0-9a-f]{16}\/[0-9a-f]{16}$/);
    expect(rule.Conditions).toEqual([
      { Field: 'path-pattern', Values: ['/p10'], PathPatternConfig: { Values: ['/p10'] } },
    ]);
    await addRule(ctx.client, listener, 2);
    const rules = (await ctx.client.send(new DescribeRulesCommand({ ListenerArn: listener.ListenerArn })))
      .Rules!;
    expect(rules.map((r) => [r.Priority, r.IsDefault])).toEqual([
      ['2', false],
      ['10', false],
      ['default', true],
    ]);
    const byArn = await ctx.client.send(new DescribeRulesCommand({ RuleArns: [rule.RuleArn!] }));
    expect(byArn.Rules![0]!.Priority).toBe('10');
  });

  it('rejects a taken priority with PriorityInUse and out-of-range ones with ValidationError', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    await addRule(ctx.client, listener, 5);
    expect((await sdkError(addRule(ctx.client, listener, 5))).name).toBe('PriorityInUseException');
    expect((await sdkError(addRule(ctx.client, listener, 50001))).name).toBe('ValidationError');
  });

  it('allows 5 condition values per rule and rejects 6', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const conditions = (n: number): RuleCondition[] => [
      { Field: 'host-header', HostHeaderConfig: { Values: ['a.example.com', 'b.example.com'] } },
      {
        Field: 'path-pattern',
        PathPatternConfig: { Values: Array.from({ length: n - 2 }, (_, i) => `/v${i}`) },
      },
    ];
    const ok = await ctx.client.send(
      new CreateRuleCommand({
        ListenerArn: listener.ListenerArn,
        Priority: 1,
        Conditions: conditions(5),
        Actions: [notFound404],
      }),
    );
    expect(ok.Rules![0]!.Conditions![0]).toEqual({
      Field: 'host-header',
      Values: ['a.example.com', 'b.example.com'],
      HostHeaderConfig: { Values: ['a.example.com', 'b.example.com'] },
    });
    const err = await sdkError(
      ctx.client.send(
        new CreateRuleCommand({
          ListenerArn: listener.ListenerArn,
          Priority: 2,
          Conditions: conditions(6),
          Actions: [notFound404],
        }),
      ),
    );
    expect(err.name).toBe('ValidationError');
    expect(err.message).toContain("'5' condition values");
  });

  it('allows 100 non-default rules per load balancer and fails the 101st with TooManyRules', async () => {
    const lb = await createAlb(ctx.client);
    const l80 = await createHttpListener(ctx.client, lb, 80);
    const l81 = await createHttpListener(ctx.client, lb, 81);
    for (let p = 1; p <= 50; p++) await addRule(ctx.client, l80, p);
    for (let p = 1; p <= 50; p++) await addRule(ctx.client, l81, p);
    const err = await sdkError(addRule(ctx.client, l80, 51));
    expect(err.name).toBe('TooManyRulesException');
    expect(ctx.sim.state.rules().filter((r) => !r.IsDefault)).toHaveLength(100);
  });

  it('SetRulePriorities swaps priorities atomically', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const r1 = await addRule(ctx.client, listener, 1);
    const r2 = await addRule(ctx.client, listener, 2);
    const out = await ctx.client.send(
      new SetRulePrioritiesCommand({
        RulePriorities: [
          { RuleArn: r1.RuleArn, Priority: 2 },
          { RuleArn: r2.RuleArn, Priority: 1 },
        ],
      }),
    );
    expect(out.Rules!.map((r) => r.Priority)).toEqual(['2', '1']);
    const rules = (await ctx.client.send(new DescribeRulesCommand({ ListenerArn: listener.ListenerArn })))
      .Rules!;
    expect(rules.map((r) => r.RuleArn)).toEqual([r2.RuleArn, r1.RuleArn, expect.any(String)]);
  });

  it('SetRulePriorities changes nothing when any pair is invalid', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const r1 = await addRule(ctx.client, listener, 1);
    const r2 = await addRule(ctx.client, listener, 2);
    const r3 = await addRule(ctx.client, listener, 3);
    const clash = await sdkError(
      ctx.client.send(
        new SetRulePrioritiesCommand({
          RulePriorities: [
            { RuleArn: r1.RuleArn, Priority: 10 },
            { RuleArn: r2.RuleArn, Priority: 3 },
          ],
        }),
      ),
    );
    expect(clash.name).toBe('PriorityInUseException');
    const missing = await sdkError(
      ctx.client.send(
        new SetRulePrioritiesCommand({
          RulePriorities: [
            { RuleArn: r3.RuleArn, Priority: 30 },
            { RuleArn: `${r3.RuleArn!.slice(0, -4)}ffff`, Priority: 31 },
          ],
        }),
      ),
    );
    expect(missing.name).toBe('RuleNotFoundException');
    expect(await priorities(ctx.client, listener)).toEqual(['1', '2', '3', 'default']);
  });

  it('modifies rules, refuses to delete or re-prioritise the default rule', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await addRule(ctx.client, listener, 1);
    const modified = await ctx.client.send(
      new ModifyRuleCommand({ RuleArn: rule.RuleArn, Conditions: path('/new') }),
    );
    expect(modified.Rules![0]!.Conditions![0]!.Values).toEqual(['/new']);

    const rules = (await ctx.client.send(new DescribeRulesCommand({ ListenerArn: listener.ListenerArn })))
      .Rules!;
    const defaultRule = rules.find((r) => r.IsDefault)!;
    expect(
      (await sdkError(ctx.client.send(new DeleteRuleCommand({ RuleArn: defaultRule.RuleArn })))).name,
    ).toBe('OperationNotPermittedException');
    const reprioritise = await sdkError(
      ctx.client.send(
        new SetRulePrioritiesCommand({ RulePriorities: [{ RuleArn: defaultRule.RuleArn, Priority: 7 }] }),
      ),
    );
    expect(reprioritise.name).toBe('OperationNotPermittedException');

    // Modifying the default rule's actions is how the listener's default action changes too.
    await ctx.client.send(
      new ModifyRuleCommand({
        RuleArn: defaultRule.RuleArn,
        Actions: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '503' } }],
      }),
    );
    const l = (await ctx.client.send(new DescribeListenersCommand({ ListenerArns: [listener.ListenerArn!] })))
      .Listeners![0]!;
    expect(l.DefaultActions![0]!.FixedResponseConfig!.StatusCode).toBe('503');

    await ctx.client.send(new DeleteRuleCommand({ RuleArn: rule.RuleArn }));
    expect((await sdkError(ctx.client.send(new DeleteRuleCommand({ RuleArn: rule.RuleArn })))).name).toBe(
      'RuleNotFoundException',
    );
  });

  it('normalises weighted forwards and redirects the way AWS reports them', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const a = await createTg(ctx.client, 'a');
    const b = await createTg(ctx.client, 'b');
    const weighted = await addRule(ctx.client, listener, 1, [
      {
        Type: 'forward',
        ForwardConfig: {
          TargetGroups: [
            { TargetGroupArn: a.TargetGroupArn, Weight: 80 },
            { TargetGroupArn: b.TargetGroupArn, Weight: 20 },
          ],
        },
      },
    ]);
    expect(weighted.Actions![0]!.TargetGroupArn).toBeUndefined();
    expect(weighted.Actions![0]!.ForwardConfig!.TargetGroups).toHaveLength(2);
    const redirect = await addRule(ctx.client, listener, 2, [
      { Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } },
    ]);
    expect(redirect.Actions![0]!.RedirectConfig).toEqual({
      Protocol: 'HTTPS',
      Port: '443',
      Host: '#{host}',
      Path: '/#{path}',
      Query: '#{query}',
      StatusCode: 'HTTP_301',
    });
  });

  it('pages rules in priority order', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    for (const p of [5, 3, 9, 1]) await addRule(ctx.client, listener, p);
    const seen: string[] = [];
    let marker: string | undefined;
    do {
      const page = await ctx.client.send(
        new DescribeRulesCommand({ ListenerArn: listener.ListenerArn, PageSize: 2, Marker: marker }),
      );
      seen.push(...page.Rules!.map((r) => r.Priority!));
      marker = page.NextMarker;
    } while (marker);
    expect(seen).toEqual(['1', '3', '5', '9', 'default']);
  });
});

describe('ELBv2 simulator: tags', () => {
  const ctx = useSim();

  it('adds, describes (up to 20 ARNs) and removes tags on every resource type', async () => {
    const lb = await createAlb(ctx.client);
    const tg = await createTg(ctx.client);
    const listener = await createHttpListener(ctx.client, lb);
    const rule = await addRule(ctx.client, listener, 1);
    const arns = [lb.LoadBalancerArn!, tg.TargetGroupArn!, listener.ListenerArn!, rule.RuleArn!];
    await ctx.client.send(
      new AddTagsCommand({ ResourceArns: arns, Tags: [{ Key: 'mci.karmada.io/stack', Value: 'ns/web' }] }),
    );
    await ctx.client.send(
      new RemoveTagsCommand({ ResourceArns: [tg.TargetGroupArn!], TagKeys: ['mci.karmada.io/stack'] }),
    );
    const out = await ctx.client.send(new DescribeTagsCommand({ ResourceArns: arns }));
    expect(out.TagDescriptions!.map((d) => [d.ResourceArn, d.Tags!.length])).toEqual([
      [lb.LoadBalancerArn, 1],
      [tg.TargetGroupArn, 0],
      [listener.ListenerArn, 1],
      [rule.RuleArn, 1],
    ]);

    const tooMany = await sdkError(
      ctx.client.send(new DescribeTagsCommand({ ResourceArns: Array(21).fill(lb.LoadBalancerArn) })),
    );
    expect(tooMany.name).toBe('ValidationError');
    const dup = await sdkError(
      ctx.client.send(
        new AddTagsCommand({
          ResourceArns: [lb.LoadBalancerArn!],
          Tags: [
            { Key: 'k', Value: '1' },
            { Key: 'k', Value: '2' },
          ],
        }),
      ),
    );
    expect(dup.name).toBe('DuplicateTagKeysException');
    const gone = await sdkError(
      ctx.client.send(new DescribeTagsCommand({ ResourceArns: [`${tg.TargetGroupArn!.slice(0, -4)}ffff`] })),
    );
    expect(gone.name).toBe('TargetGroupNotFoundException');
  });

  it('takes tags at create time and drops them when the resource is deleted', async () => {
    const out = await ctx.client.send(
      new CreateLoadBalancerCommand({
        Name: 'tagged',
        Subnets: [SUBNET_A, 'subnet-0e1b5000000000b01'],
        Tags: [{ Key: 'owner', Value: 'me' }],
      }),
    );
    const arn = out.LoadBalancers![0]!.LoadBalancerArn!;
    expect(ctx.sim.state.tagsOf(arn)).toEqual({ owner: 'me' });
    ctx.sim.state.addTags({ ResourceArns: [arn], Tags: [{ Key: 'owner', Value: 'console-user' }] });
    expect(ctx.sim.snapshot().tags).toEqual([{ ResourceArn: arn, Tags: { owner: 'console-user' } }]);
    await ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn }));
    expect(ctx.sim.snapshot().tags).toEqual([]);
  });
});
