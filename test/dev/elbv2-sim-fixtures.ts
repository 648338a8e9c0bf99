import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateRuleCommand,
  CreateTargetGroupCommand,
  DescribeRulesCommand,
  DescribeTargetHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type {
  Action,
  ElasticLoadBalancingV2Client,
  Listener,
  LoadBalancer,
  Rule,
  RuleCondition,
  RuleTransform,
  TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, expect } from 'vitest';
import { elbv2ClientFor, SIM_NETWORK, startElbv2Simulator } from '../../dev/elbv2-sim/index.js';
import type { Elbv2Simulator, Elbv2SimulatorOptions, SimClientOptions } from '../../dev/elbv2-sim/index.js';

export const [SUBNET_A, SUBNET_B, SUBNET_C] = SIM_NETWORK.subnets.map((s) => s.subnetId) as [
  string,
  string,
  string,
];
export const VPC = SIM_NETWORK.vpcId;

export interface SimContext {
  sim: Elbv2Simulator;
  client: ElasticLoadBalancingV2Client;
}

/** Starts a fresh simulator and a real SDK client (maxAttempts 1 unless overridden) per test. */
export function useSim(
  options: Elbv2SimulatorOptions = {},
  clientOptions: SimClientOptions = { maxAttempts: 1 },
): SimContext {
  const ctx = {} as SimContext;
  beforeEach(async () => {
    ctx.sim = await startElbv2Simulator(options);
    ctx.client = elbv2ClientFor(ctx.sim, clientOptions);
  });
  afterEach(async () => {
    ctx.client.destroy();
    await ctx.sim.close();
  });
  return ctx;
}

/** Awaits a call expected to fail and returns the SDK error for inspection. */
export async function sdkError(promise: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await promise;
  } catch (err) {
    return err as Error & Record<string, any>;
  }
  expect.fail('expected the call to fail');
}

export async function createAlb(client: ElasticLoadBalancingV2Client, name = 'alb-1'): Promise<LoadBalancer> {
  const out = await client.send(new CreateLoadBalancerCommand({ Name: name, Subnets: [SUBNET_A, SUBNET_B] }));
  return out.LoadBalancers![0]!;
}

export async function createTg(
  client: ElasticLoadBalancingV2Client,
  name = 'tg-1',
  extra: { Protocol?: 'HTTP' | 'TCP' | 'TLS'; Port?: number } = {},
): Promise<TargetGroup> {
  const out = await client.send(
    new CreateTargetGroupCommand({
      Name: name,
      Protocol: 'HTTP',
      Port: 8080,
      VpcId: VPC,
      TargetType: 'ip',
      ...extra,
    }),
  );
  return out.TargetGroups![0]!;
}

export const notFound404: Action = { Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404' } };

export async function createHttpListener(
  client: ElasticLoadBalancingV2Client,
  lb: LoadBalancer,
  port = 80,
  defaultActions: Action[] = [notFound404],
): Promise<Listener> {
  const out = await client.send(
    new CreateListenerCommand({
      LoadBalancerArn: lb.LoadBalancerArn,
      Protocol: 'HTTP',
      Port: port,
      DefaultActions: defaultActions,
    }),
  );
  return out.Listeners![0]!;
}

export const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
export const CERT2 = 'arn:aws:acm:us-east-1:123456789012:certificate/66666666-7777-8888-9999-000000000000';
export const path = (p: string): RuleCondition[] => [{ Field: 'path-pattern', Values: [p] }];

export async function addRule(
  client: ElasticLoadBalancingV2Client,
  listener: Listener,
  priority: number,
  actions: Action[] = [notFound404],
): Promise<Rule> {
  const out = await client.send(
    new CreateRuleCommand({
      ListenerArn: listener.ListenerArn,
      Priority: priority,
      Conditions: path(`/p${priority}`),
      Actions: actions,
    }),
  );
  return out.Rules![0]!;
}

export const priorities = async (client: ElasticLoadBalancingV2Client, listener: Listener) =>
  (await client.send(new DescribeRulesCommand({ ListenerArn: listener.ListenerArn }))).Rules!.map(
    (r) => r.Priority,
  );

/** Puts a TG behind an ALB listener so its targets leave the `unused` state. */
export async function attach(client: ElasticLoadBalancingV2Client, tg: TargetGroup): Promise<void> {
  const lb = await createAlb(client, 'attach-lb');
  await createHttpListener(client, lb, 80, [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }]);
}

/** Target health as `id:port=state` strings, in registration order. */
export const health = async (client: ElasticLoadBalancingV2Client, tg: TargetGroup) =>
  (
    await client.send(new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }))
  ).TargetHealthDescriptions!.map((d) => `${d.Target!.Id}:${d.Target!.Port}=${d.TargetHealth!.State}`);

export async function createHttpsListener(
  client: ElasticLoadBalancingV2Client,
  lb: LoadBalancer,
  port = 443,
  defaultActions: Action[] = [notFound404],
): Promise<Listener> {
  const out = await client.send(
    new CreateListenerCommand({
      LoadBalancerArn: lb.LoadBalancerArn,
      Protocol: 'HTTPS',
      Port: port,
      Certificates: [{ CertificateArn: CERT }],
      DefaultActions: defaultActions,
    }),
  );
  return out.Listeners![0]!;
}

/** CreateRule with the given conditions (and optional transforms) on a fixed 404 action. */
export async function ruleWith(
  client: ElasticLoadBalancingV2Client,
  listener: Listener,
  priority: number,
  conditions: RuleCondition[],
  extra: { Actions?: Action[]; Transforms?: RuleTransform[] } = {},
): Promise<Rule> {
  const out = await client.send(
    new CreateRuleCommand({
      ListenerArn: listener.ListenerArn,
      Priority: priority,
      Conditions: conditions,
      Actions: extra.Actions ?? [notFound404],
      Transforms: extra.Transforms,
    }),
  );
  return out.Rules![0]!;
}
