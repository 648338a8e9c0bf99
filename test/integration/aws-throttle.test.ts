/**
 * Throttling and 5xx that outlast the SDK's bounded (adaptive) retries end a reconcile as
 * RetryLaterError with a backoff hint; the calls-per-second cap spaces out a container's calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, startElbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  ingressClass,
  minimalIngress as scenarioIngress,
  serveService as scenarioService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { notify, startHarness } from '../support/harness.js';
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
    expect(retry.message).toMatch(/ELBv2 throttled DescribeLoadBalancers/);
    expect(retry.reason).toBe('Throttled');
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
    expect((err as RetryLaterError).reason).toBeUndefined();
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

describe('a throttled reconcile, end to end', () => {
  it('backs off with jitter and shows Throttled in the LoadBalancerReady condition', async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'throttle';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'throttle';
    const sim = await startElbv2Simulator({ inProcess: true, faults: { throttle: 1 } });
    const h = await startHarness({
      inProcess: true,
      provider: 'aws',
      providerConfig: awsConfigFor(sim, { maxAttempts: 1 }),
    });
    try {
      await h.seed([ingressClass(), scenarioService(), scenarioIngress()]);
      const hints: number[] = [];
      for (let i = 0; i < 4; i++) {
        const [r] = await h.deliver(notify(scenarioIngress(), 'added'));
        expect(r?.ok).toBe(false);
        hints.push(r!.retryAfterSeconds!);
      }
      // Jittered, within 20 to 40 s: long enough for the shared bucket to refill.
      expect(hints.every((s) => s >= 20 && s < 40)).toBe(true);
      const stored = await h.kube.get<MultiClusterIngress>(
        Resources.MultiClusterIngress,
        'default',
        'minimal-ingress',
      );
      const condition = JSON.parse(stored!.metadata.annotations![CONDITION_ANNOTATION]!);
      expect(condition).toMatchObject({ type: 'LoadBalancerReady', status: 'False', reason: 'Throttled' });
      expect(condition.message).toMatch(/throttled .*retrying in about \d+ s/);
    } finally {
      await h.close();
      await sim.close();
    }
  });
});
