/** Limits are refused before the first ELBv2 call: nothing is left half-applied. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    ).rejects.toMatchObject({ reason: 'LimitExceeded', field: 'spec.rules' });
    expect(env.sim.calls.total()).toBe(0);
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
    expect(env.sim.calls.total()).toBe(0);
  });
});
