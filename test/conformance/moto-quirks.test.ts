/**
 * The moto wrapper's three fixes (support/moto-quirks.ts), each shown twice on one moto_server:
 * what moto 5.2.1 does as it is (so a moto that stops doing it fails here, and the fix can go),
 * and what it does behind the wrapper, which is what the AWS API reference says.
 */
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateRuleCommand,
  CreateTargetGroupCommand,
  DeregisterTargetsCommand,
  DescribeRulesCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
  ModifyTargetGroupCommand,
  RegisterTargetsCommand,
  SetRulePrioritiesCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientsFor, CREDENTIALS } from './support/clients.js';
import { startGateway, type Gateway } from './support/gateway.js';
import { motoQuirkFixes } from './support/moto-quirks.js';
import { startMoto, type MotoServer } from './support/moto.js';
import { seedNetwork, type Network } from './support/network.js';

let moto: MotoServer;
let wrapped: Gateway;
let quirks: ReturnType<typeof motoQuirkFixes>;
let network: Network;

beforeAll(async () => {
  moto = await startMoto();
  quirks = motoQuirkFixes();
  wrapped = await startGateway({ upstream: () => moto.url, hooks: quirks.hooks });
}, 60_000);
afterAll(async () => {
  await wrapped?.close();
  await moto?.close();
});
beforeEach(async () => {
  await moto.reset();
  quirks.reset();
  network = await seedNetwork(clientsFor(wrapped, 'us-east-1').ec2, 'us-east-1');
});

const asIs = () =>
  new ElasticLoadBalancingV2Client({ endpoint: moto.url, region: 'us-east-1', credentials: CREDENTIALS });
const behindWrapper = () => clientsFor(wrapped, 'us-east-1').elbv2;

async function twoRules(client: ElasticLoadBalancingV2Client) {
  const lb = await client.send(
    new CreateLoadBalancerCommand({ Name: 'quirks', Subnets: network.ids('private'), Scheme: 'internal' }),
  );
  const tg = await client.send(
    new CreateTargetGroupCommand({
      Name: 'quirks',
      Protocol: 'HTTP',
      Port: 80,
      VpcId: network.vpcId,
      TargetType: 'ip',
    }),
  );
  const forward = [{ Type: 'forward' as const, TargetGroupArn: tg.TargetGroups?.[0]?.TargetGroupArn }];
  const listener = await client.send(
    new CreateListenerCommand({
      LoadBalancerArn: lb.LoadBalancers?.[0]?.LoadBalancerArn,
      Protocol: 'HTTP',
      Port: 80,
      DefaultActions: forward,
    }),
  );
  const ListenerArn = listener.Listeners?.[0]?.ListenerArn;
  const rule = async (path: string, Priority: number) =>
    (
      await client.send(
        new CreateRuleCommand({
          ListenerArn,
          Priority,
          Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: [path] } }],
          Actions: forward,
        }),
      )
    ).Rules?.[0]?.RuleArn;
  return { ListenerArn, a: (await rule('/a', 1))!, b: (await rule('/b', 2))! };
}

const priorities = async (client: ElasticLoadBalancingV2Client, ListenerArn: string | undefined) =>
  ((await client.send(new DescribeRulesCommand({ ListenerArn }))).Rules ?? [])
    .filter((r) => !r.IsDefault)
    .map(
      (r) =>
        `${r.Conditions?.[0]?.PathPatternConfig?.Values?.[0] ?? r.Conditions?.[0]?.Values?.[0]}=${r.Priority}`,
    )
    .sort();

describe('SetRulePriorities: AWS checks the outcome, moto each new priority against the current ones', () => {
  it('as it is, moto refuses a swap of two priorities', async () => {
    const client = asIs();
    const { ListenerArn, a, b } = await twoRules(client);
    const swap = new SetRulePrioritiesCommand({
      RulePriorities: [
        { RuleArn: a, Priority: 2 },
        { RuleArn: b, Priority: 1 },
      ],
    });
    await expect(client.send(swap)).rejects.toMatchObject({ name: 'PriorityInUseException' });
    expect(await priorities(client, ListenerArn)).toEqual(['/a=1', '/b=2']);
  });

  it('behind the wrapper, the swap is made; a conflict in the outcome is still refused, nothing changed', async () => {
    const client = behindWrapper();
    const { ListenerArn, a, b } = await twoRules(client);
    const out = await client.send(
      new SetRulePrioritiesCommand({
        RulePriorities: [
          { RuleArn: a, Priority: 2 },
          { RuleArn: b, Priority: 1 },
        ],
      }),
    );
    expect(out.Rules?.map((r) => r.Priority).sort()).toEqual(['1', '2']);
    expect(await priorities(client, ListenerArn)).toEqual(['/a=2', '/b=1']);
    // /a to 1, where /b stays: a conflict after the call, which AWS refuses.
    await expect(
      client.send(new SetRulePrioritiesCommand({ RulePriorities: [{ RuleArn: a, Priority: 1 }] })),
    ).rejects.toMatchObject({ name: 'PriorityInUseException' });
    expect(await priorities(client, ListenerArn)).toEqual(['/a=2', '/b=1']);
  });
});

async function ipGroup(client: ElasticLoadBalancingV2Client, Protocol: 'HTTP' | 'TCP') {
  const tg = await client.send(
    new CreateTargetGroupCommand({
      Name: `zones-${Protocol.toLowerCase()}`,
      Protocol,
      Port: 80,
      VpcId: network.vpcId,
      TargetType: 'ip',
      HealthCheckProtocol: 'HTTP',
      HealthCheckPath: '/healthz',
      Matcher: { HttpCode: '200-399' },
    }),
  );
  return tg.TargetGroups![0]!.TargetGroupArn!;
}

const described = async (client: ElasticLoadBalancingV2Client, TargetGroupArn: string) =>
  ((await client.send(new DescribeTargetHealthCommand({ TargetGroupArn }))).TargetHealthDescriptions ?? [])
    .map((d) => `${d.Target?.Id}:${d.Target?.Port}@${d.Target?.AvailabilityZone ?? '-'}`)
    .sort();

describe('RegisterTargets: AWS keys a target by Id and Port and keeps its AvailabilityZone', () => {
  const register = (TargetGroupArn: string) =>
    new RegisterTargetsCommand({
      TargetGroupArn,
      Targets: [
        { Id: '10.1.0.11', Port: 8080, AvailabilityZone: 'all' },
        { Id: '10.1.0.11', Port: 9090, AvailabilityZone: 'all' },
        { Id: '100.64.0.10', Port: 8080, AvailabilityZone: 'us-east-1a' },
      ],
    });

  it('as it is, moto keeps one target per Id and no zone', async () => {
    const client = asIs();
    const arn = await ipGroup(client, 'HTTP');
    await client.send(register(arn));
    expect(await described(client, arn)).toEqual(['10.1.0.11:9090@-', '100.64.0.10:8080@-']);
  });

  it('behind the wrapper, each Id and Port is a target with its zone, and leaves alone', async () => {
    const client = behindWrapper();
    const arn = await ipGroup(client, 'HTTP');
    await client.send(register(arn));
    expect(await described(client, arn)).toEqual([
      '10.1.0.11:8080@all',
      '10.1.0.11:9090@all',
      '100.64.0.10:8080@us-east-1a',
    ]);
    await client.send(
      new DeregisterTargetsCommand({ TargetGroupArn: arn, Targets: [{ Id: '10.1.0.11', Port: 8080 }] }),
    );
    expect(await described(client, arn)).toEqual(['10.1.0.11:9090@all', '100.64.0.10:8080@us-east-1a']);
    const asked = await client.send(
      new DescribeTargetHealthCommand({ TargetGroupArn: arn, Targets: [{ Id: '100.64.0.10', Port: 8080 }] }),
    );
    expect(asked.TargetHealthDescriptions?.map((d) => d.Target)).toEqual([
      { Id: '100.64.0.10', Port: 8080, AvailabilityZone: 'us-east-1a' },
    ]);
  });
});

describe('ModifyTargetGroup: AWS changes the Matcher of a TCP group with an HTTP health check', () => {
  const matcher = async (client: ElasticLoadBalancingV2Client, arn: string) =>
    (await client.send(new DescribeTargetGroupsCommand({ TargetGroupArns: [arn] }))).TargetGroups?.[0]
      ?.Matcher;

  it('as it is, moto keeps the matcher it was created with', async () => {
    const client = asIs();
    const arn = await ipGroup(client, 'TCP');
    await client.send(
      new ModifyTargetGroupCommand({ TargetGroupArn: arn, Matcher: { HttpCode: '200-299' } }),
    );
    expect(await matcher(client, arn)).toEqual({ HttpCode: '200-399' });
  });

  it('behind the wrapper, the new matcher is what the group says it has', async () => {
    const client = behindWrapper();
    const arn = await ipGroup(client, 'TCP');
    const out = await client.send(
      new ModifyTargetGroupCommand({ TargetGroupArn: arn, Matcher: { HttpCode: '200-299' } }),
    );
    expect(out.TargetGroups?.[0]?.Matcher).toEqual({ HttpCode: '200-299' });
    expect(await matcher(client, arn)).toEqual({ HttpCode: '200-299' });
  });
});
