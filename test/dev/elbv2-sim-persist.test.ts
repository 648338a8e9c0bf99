/**
 * The ELBv2 simulator keeps its resources in a file across restarts (as `npm start` uses it), and
 * a restarted simulator never hands out an ARN it handed out before.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  DescribeListenerAttributesCommand,
  ModifyListenerAttributesCommand,
  CreateTargetGroupCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetHealthCommand,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { elbv2ClientFor, SIM_NETWORK, startElbv2Simulator } from '../../dev/elbv2-sim/index.js';

const subnets = SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId);

describe('ELBv2 simulator persistence', () => {
  it('keeps load balancers, target groups, targets and tags across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'elbv2-persist-')), 'elbv2-state.json');
    const first = await startElbv2Simulator({ persistFile: file });
    const c1 = elbv2ClientFor(first);
    const lb = await c1.send(
      new CreateLoadBalancerCommand({
        Name: 'kept',
        Subnets: subnets,
        Tags: [{ Key: 'owner', Value: 'me' }],
      }),
    );
    const tg = await c1.send(
      new CreateTargetGroupCommand({
        Name: 'kept-tg',
        Protocol: 'HTTP',
        Port: 80,
        VpcId: SIM_NETWORK.vpcId,
        TargetType: 'ip',
      }),
    );
    const tgArn = tg.TargetGroups?.[0]?.TargetGroupArn ?? '';
    await c1.send(
      new RegisterTargetsCommand({ TargetGroupArn: tgArn, Targets: [{ Id: '10.0.1.5', Port: 8080 }] }),
    );
    // Records that hold Maps of their own (listener attributes) come back whole too.
    const listener = await c1.send(
      new CreateListenerCommand({
        LoadBalancerArn: lb.LoadBalancers?.[0]?.LoadBalancerArn,
        Protocol: 'HTTP',
        Port: 80,
        DefaultActions: [{ Type: 'forward', TargetGroupArn: tgArn }],
      }),
    );
    const listenerArn = listener.Listeners?.[0]?.ListenerArn ?? '';
    await c1.send(
      new ModifyListenerAttributesCommand({
        ListenerArn: listenerArn,
        Attributes: [{ Key: 'routing.http.response.server.enabled', Value: 'false' }],
      }),
    );
    const attributesBefore = await c1.send(
      new DescribeListenerAttributesCommand({ ListenerArn: listenerArn }),
    );
    const before = first.snapshot();
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('elbv2-sim/v1');

    const second = await startElbv2Simulator({ persistFile: file });
    try {
      expect(second.snapshot()).toStrictEqual(before);
      const c2 = elbv2ClientFor(second);
      const arn = lb.LoadBalancers?.[0]?.LoadBalancerArn ?? '';
      const described = await c2.send(new DescribeLoadBalancersCommand({ Names: ['kept'] }));
      expect(described.LoadBalancers?.[0]?.LoadBalancerArn).toBe(arn);
      expect(described.LoadBalancers?.[0]?.DNSName).toBe(lb.LoadBalancers?.[0]?.DNSName);
      const tags = await c2.send(new DescribeTagsCommand({ ResourceArns: [arn] }));
      expect(tags.TagDescriptions?.[0]?.Tags).toStrictEqual([{ Key: 'owner', Value: 'me' }]);
      const attributesAfter = await c2.send(
        new DescribeListenerAttributesCommand({ ListenerArn: listenerArn }),
      );
      expect(attributesAfter.Attributes).toStrictEqual(attributesBefore.Attributes);
      expect(attributesAfter.Attributes).toContainEqual({
        Key: 'routing.http.response.server.enabled',
        Value: 'false',
      });
      const health = await c2.send(new DescribeTargetHealthCommand({ TargetGroupArn: tgArn }));
      expect(health.TargetHealthDescriptions?.map((t) => t.Target?.Id)).toStrictEqual(['10.0.1.5']);
      // New resources get new IDs, listed after the restored ones.
      const next = await c2.send(new CreateLoadBalancerCommand({ Name: 'new', Subnets: subnets }));
      expect(next.LoadBalancers?.[0]?.LoadBalancerArn).not.toBe(arn);
      const all = await c2.send(new DescribeLoadBalancersCommand({}));
      expect(all.LoadBalancers?.map((l) => l.LoadBalancerName)).toStrictEqual(['kept', 'new']);
    } finally {
      await second.close();
    }
  });

  it('refuses a file that is not its own, naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'elbv2-persist-')), 'elbv2-state.json');
    writeFileSync(file, '{"objects": []}');
    await expect(startElbv2Simulator({ persistFile: file })).rejects.toThrow(
      `${file}: not an ELBv2 simulator state file`,
    );
  });
});
