/**
 * Throttling and 5xx that outlast the SDK's bounded (adaptive) retries end a reconcile as
 * RetryLaterError with a backoff hint; the calls-per-second cap spaces out a container's calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor } from '../../dev/elbv2-sim/index.js';
import { RetryLaterError } from '../../lib/errors.js';
import { AwsProvider } from '../../lib/providers/aws/index.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const objects = () => [service('serve'), collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })];

describe('throttling', () => {
  it('a reconcile still throttled after the SDK adaptive retries ends as RetryLaterError with retryAfterSeconds', async () => {
    const e = (env = await startAwsEnv(objects(), { sim: { faults: { throttle: 1 } } }));
    // The SDK's own adaptive retry strategy (real backoff), bounded to 2 attempts.
    const provider = new AwsProvider(
      { ...e.config, maxAttempts: 2 },
      { kube: e.kube, logger: e.logger },
      { client: elbv2ClientFor(e.sim, { maxAttempts: 2, config: { retryMode: 'adaptive' } }) },
    );
    const err = await provider
      .loadBalancer()
      .ensure(e.ctx, minimalIngress())
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RetryLaterError);
    const retry = err as RetryLaterError;
    expect(retry.message).toMatch(/DescribeLoadBalancers failed after retries/);
    expect(retry.retryAfterSeconds).toBeGreaterThanOrEqual(20);
    expect(retry.retryAfterSeconds).toBeLessThan(40);
    // Bounded: exactly maxAttempts requests, then the reconcile gave up (nothing else was tried).
    expect(e.sim.calls.total()).toBe(2);
  });

  it('5xx past the retries: RetryLaterError with a shorter hint; the next reconcile converges', async () => {
    const e = (env = await startAwsEnv(objects()));
    e.sim.faults.setForAction('CreateListener', { internal: 1 });
    const err = await e.provider
      .mcsLoadBalancer()
      .ensure(e.ctx, mcs('serve'))
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect((err as RetryLaterError).retryAfterSeconds).toBeGreaterThanOrEqual(10);
    expect((err as RetryLaterError).retryAfterSeconds).toBeLessThan(20);
    e.sim.faults.clear();
    await e.provider.mcsLoadBalancer().update(e.ctx, mcs('serve'));
    expect(e.state()).toStrictEqual(await e.expectedForMcs(mcs('serve')));
  });
});

describe('calls-per-second cap (maxCallsPerSecond)', () => {
  it('spaces calls out to the configured rate, shared by every call of the provider', async () => {
    const e = (env = await startAwsEnv(objects(), { config: { maxCallsPerSecond: 10 } }));
    const started = Date.now();
    await e.provider.loadBalancer().ensure(e.ctx, minimalIngress());
    await e.provider.mcsLoadBalancer().ensure(e.ctx, mcs('serve'));
    await e.provider.loadBalancer().update({ ...e.ctx, resync: true }, minimalIngress());
    const elapsed = Date.now() - started;
    const calls = e.sim.calls.total();
    // A burst of 10, then 10 per second.
    expect(calls).toBeGreaterThan(20);
    expect(elapsed).toBeGreaterThanOrEqual(((calls - 10) / 10) * 1000 - 150);
  });

  it('no cap: the same work is not slowed down', async () => {
    const e = (env = await startAwsEnv(objects()));
    const started = Date.now();
    await e.provider.loadBalancer().ensure(e.ctx, minimalIngress());
    await e.provider.mcsLoadBalancer().ensure(e.ctx, mcs('serve'));
    await e.provider.loadBalancer().update({ ...e.ctx, resync: true }, minimalIngress());
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
