/**
 * Drift made by hand (in the console): a rule deleted, a target deregistered, a tag changed. A
 * non-resync reconcile of an unchanged stack trusts the fingerprint (≤ 2 calls, drift untouched);
 * a resync does the full check and repairs all of it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv;

beforeEach(async () => {
  env = await startAwsEnv([
    service('serve', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
    collectedSlice('member2', 'serve', { addresses: ['172.20.0.20'] }),
  ]);
});
afterEach(async () => {
  await env.close();
});

const mci = minimalIngress({
  spec: {
    rules: [
      { http: { paths: [path('/testpath', 'Prefix', 'serve', 80), path('/other', 'Prefix', 'serve', 80)] } },
    ],
  },
});

describe('AWS provider: drift made by hand', () => {
  it('ALB: a deleted rule, a deregistered target and a changed tag survive a no-op and are repaired by a resync', async () => {
    // Prepare
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, mci);
    const expected = await env.expectedForMci(mci);
    expect(env.state()).toStrictEqual(expected);
    const snap = env.sim.snapshot();
    const rule = snap.rules.find((r) => !r.IsDefault && r.Priority === '2');
    const tg = snap.targetGroups[0];
    env.sim.state.deleteRule({ RuleArn: rule?.RuleArn });
    env.sim.state.deregisterTargets({
      TargetGroupArn: tg?.TargetGroupArn,
      Targets: [{ Id: '10.0.1.11', Port: 8080 }],
    });
    env.sim.state.addTags({
      ResourceArns: [tg?.TargetGroupArn ?? ''],
      Tags: [{ Key: 'team', Value: 'someone-else' }],
    });
    const drifted = env.sim.snapshot();

    // Act: an ordinary notification (not a resync).
    const noop = await env.measured(() => lb.update(env.ctx, mci));
    // Assess: the fingerprint matched, so nothing was looked at beyond it, nothing changed.
    expect(noop).toStrictEqual({ DescribeLoadBalancers: 1, DescribeTags: 1 });
    expect(env.sim.snapshot()).toStrictEqual(drifted);

    // Act: a resync.
    const resync = await env.measured(() => lb.update({ ...env.ctx, resync: true }, mci));
    // Assess: exactly the desired state again.
    expect(env.state()).toStrictEqual(expected);
    expect(resync).toMatchObject({ CreateRule: 1, RegisterTargets: 1, AddTags: 3 });
    // The target registered again before the rule that forwards to it is recreated.
    expect(env.mutatingCalls()).toStrictEqual([
      'AddTags',
      'AddTags',
      'RegisterTargets',
      'CreateRule',
      'AddTags',
    ]);
  });

  it('NLB: a deregistered target and a changed listener tag are repaired by a resync only', async () => {
    const lb = env.provider.mcsLoadBalancer();
    const m = mcs('serve');
    await lb.ensure(env.ctx, m);
    const expected = await env.expectedForMcs(m);
    const snap = env.sim.snapshot();
    const tg = snap.targetGroups[0];
    env.sim.state.deregisterTargets({
      TargetGroupArn: tg?.TargetGroupArn,
      Targets: [{ Id: '172.20.0.20', Port: 8080, AvailabilityZone: 'all' }],
    });
    env.sim.state.addTags({
      ResourceArns: [snap.listeners[0]?.ListenerArn ?? ''],
      Tags: [{ Key: 'team', Value: 'x' }],
    });
    const drifted = env.sim.snapshot();
    expect(await env.measured(() => lb.update(env.ctx, m))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
    expect(env.sim.snapshot()).toStrictEqual(drifted);
    await lb.update({ ...env.ctx, resync: true }, m);
    expect(env.state()).toStrictEqual(expected);
  });

  it('a deploy that failed half-way is never mistaken for done, even when the spec goes back', async () => {
    const lb = env.provider.loadBalancer();
    const one = minimalIngress();
    await lb.ensure(env.ctx, one);
    // A change whose deploy fails after its first mutation (the rule cannot be created).
    env.sim.faults.failNext('CreateRule', 10, { code: 'ValidationError' });
    await expect(lb.update(env.ctx, mci)).rejects.toThrow();
    env.sim.faults.clear();
    // Back to the first spec: the fingerprint was invalidated, so this is a full reconcile.
    const calls = await env.measured(() => lb.update(env.ctx, one));
    expect(calls.DescribeListeners).toBe(1);
    expect(env.state()).toStrictEqual(await env.expectedForMci(one));
  });
});
