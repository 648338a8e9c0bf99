/**
 * Limits are refused before the first change: nothing is left half-applied. A stack over AWS's
 * default quotas costs one read of the account's (DescribeAccountLimits, once per container), so
 * an account whose quotas were raised gets what it asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS } from '../../lib/providers/aws/model/limits.js';
import { minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve'),
    service(
      'wide',
      Array.from({ length: 51 }, (_, i) => ({
        name: `p${i}`,
        port: 1000 + i,
        targetPort: 2000 + i,
        protocol: 'TCP' as const,
      })),
    ),
  ]);
});
afterEach(async () => {
  await env.close();
});

describe('limits before calls', () => {
  it('an existing ALB whose update would exceed 100 rules is not touched at all', async () => {
    const small = minimalIngress();
    await env.provider.loadBalancer().ensure(env.ctx, small);
    const before = env.sim.snapshot();
    env.sim.calls.reset();
    const paths = Array.from({ length: 101 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 80));
    await expect(
      env.provider.loadBalancer().update(env.ctx, minimalIngress({ spec: { rules: [{ http: { paths } }] } })),
    ).rejects.toMatchObject({
      reason: 'LimitExceeded',
      field: 'spec.rules',
      message: "spec.rules: 101 listener rules exceed the account's quota of 100 rules per load balancer",
    });
    expect(env.sim.calls.history().map((c) => c.action)).toStrictEqual(['DescribeAccountLimits']);
    expect(env.sim.snapshot()).toStrictEqual(before);
  });

  it('an NLB with more than 50 listeners, or a name over 32 characters: zero calls', async () => {
    env.sim.calls.reset();
    await expect(env.provider.mcsLoadBalancer().ensure(env.ctx, mcs('wide'))).rejects.toMatchObject({
      reason: 'LimitExceeded',
    });
    const key = 'service.beta.kubernetes.io/aws-load-balancer-name';
    await expect(
      env.provider.mcsLoadBalancer().ensure(env.ctx, mcs('serve', {}, { [key]: 'n'.repeat(40) })),
    ).rejects.toMatchObject({ reason: 'LimitExceeded', field: key });
    // The account's quotas were read for the first refusal only; a name has no account quota.
    expect(env.sim.calls.history().map((c) => c.action)).toStrictEqual(['DescribeAccountLimits']);
  });
});

describe("the account's quotas", () => {
  const paths = Array.from({ length: 120 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 80));
  const big = () => minimalIngress({ spec: { rules: [{ http: { paths } }] } });
  const raised = { ...DEFAULT_QUOTAS, rulesPerLoadBalancer: 150 };

  it('an account whose rule quota was raised gets a 120-rule ALB; the quotas are read once per container', async () => {
    env.sim.state.store.limits.rulesPerLoadBalancer = 150;
    env.sim.calls.reset();
    await env.provider.loadBalancer().ensure(env.ctx, big());
    expect(env.sim.calls.history().filter((c) => c.action === 'DescribeAccountLimits')).toHaveLength(1);
    expect(env.state()).toStrictEqual(await env.expectedForMci(big(), raised));
    expect(env.sim.snapshot().rules.filter((r) => !r.IsDefault)).toHaveLength(120);
    env.sim.calls.reset();
    await env.provider.loadBalancer().update(env.ctx, big());
    expect(env.sim.calls.history().filter((c) => c.action === 'DescribeAccountLimits')).toHaveLength(0);
  });

  it('quotas that cannot be read leave the defaults, with a warning; a throttled read is retried later', async () => {
    env.sim.faults.failNext('DescribeAccountLimits', 1, { code: 'AccessDenied', message: 'not allowed' });
    await expect(env.provider.loadBalancer().ensure(env.ctx, big())).rejects.toThrow(
      'spec.rules: 120 listener rules exceed the quota of 100 rules per load balancer',
    );
    expect(
      env.logger.lines.find((l) => l.message.startsWith("could not read the account's ELBv2 quotas"))?.fields,
    ).toMatchObject({
      error: 'not allowed',
    });
    env.sim.faults.setForAction('DescribeAccountLimits', { throttle: 1 });
    await expect(env.provider.loadBalancer().ensure(env.ctx, big())).rejects.toMatchObject({
      name: 'RetryLaterError',
      reason: 'Throttled',
    });
    env.sim.faults.clear();
    env.sim.state.store.limits.rulesPerLoadBalancer = 150;
    await env.provider.loadBalancer().ensure(env.ctx, big());
    expect(env.state()).toStrictEqual(await env.expectedForMci(big(), raised));
  });
});
