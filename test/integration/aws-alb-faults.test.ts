/**
 * Convergence under an unreliable ELBv2 API: 10% of every action's calls fail with throttling or
 * a 5xx. Whatever survives the SDK's bounded retries surfaces as RetryLaterError, and calling the
 * provider again (what the queue does) must converge to exactly the desired state.
 */
import { withKarmadaCollection } from '../../dev/local/karmada-collection.js';
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { RetryLaterError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider, buildIngressStack, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { readIngressInputs } from '../../lib/providers/aws/inputs.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { MemoryKube } from '../support/memory-kube.js';
import { expectedSummary, summarize } from './aws-alb-support.js';
import { simConfig } from './aws-env.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

// The simulator's account, without default tags so that resources carry only ours.
const config: AwsProviderConfig = { ...simConfig, defaultTags: {} };

const MAX_RECONCILES = 25;

let sim: Elbv2Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const withPaths = (paths: ReturnType<typeof path>[], status?: MultiClusterIngress['status']) =>
  minimalIngress({ spec: { rules: [{ http: { paths } }] }, ...(status ? { status } : {}) });

describe('AWS provider under throttling and 5xx (simulator)', () => {
  it.each([
    { name: 'SDK retries (3 attempts)', maxAttempts: 3, seed: 7 },
    { name: 'no SDK retries: every fault reaches the provider', maxAttempts: 1, seed: 11 },
    // A committed write whose response is lost: the SDK's retry of a CreateRule meets PriorityInUse.
    { name: 'lost responses after commit', maxAttempts: 3, seed: 5, dropAfterCommit: 0.05 },
  ])('converges every scenario step: $name', async ({ maxAttempts, seed, dropAfterCommit }) => {
    // Prepare
    sim = await startElbv2Simulator({
      inProcess: true,
      seed,
      faults: {
        throttle: 0.05,
        internal: 0.03,
        unavailable: 0.02,
        ...(dropAfterCommit ? { dropAfterCommit } : {}),
      },
    });
    const kube = new MemoryKube(
      withKarmadaCollection([
        service('serve', [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'admin', port: 8081, targetPort: 9090 },
        ]),
        collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
        collectedSlice('member2', 'serve', { addresses: ['172.20.0.20', '!172.20.0.21'] }),
      ]),
    );
    const provider = new AwsProvider(
      config,
      { kube, logger: silentLogger },
      {
        client: elbv2ClientFor(sim, { maxAttempts, retryDelayMs: 1 }),
        deploy: { resourceInUseAttempts: 3, resourceInUseDelayMs: 2 },
      },
    );
    const lb = provider.loadBalancer();
    const ctx: ProviderContext = { signal: new AbortController().signal, logger: silentLogger };
    const attempts: Record<string, number> = {};
    let retryLater = 0;

    /** Calls `fn` until it succeeds, like the queue redelivering a message after RetryLaterError. */
    const untilSuccess = async (step: string, fn: () => Promise<unknown>) => {
      for (let i = 1; i <= MAX_RECONCILES; i++) {
        attempts[step] = i;
        try {
          await fn();
          return;
        } catch (err) {
          if (!(err instanceof RetryLaterError)) throw err;
          expect(err.cause).toBeDefined();
          retryLater++;
        }
      }
      throw new Error(`${step} did not converge in ${MAX_RECONCILES} reconciles`);
    };
    const converged = async (mci: MultiClusterIngress) => {
      const stack = buildIngressStack({ mci, ...(await readIngressInputs(kube, mci)), config });
      expect(summarize(sim!.snapshot())).toStrictEqual(expectedSummary(stack));
    };

    const testpath = path('/testpath', 'Prefix', 'serve', 80);
    const a = path('/a', 'ImplementationSpecific', 'serve', 80);
    const b = path('/b', 'ImplementationSpecific', 'serve', 'admin');
    const steps: Array<{ step: string; mci: MultiClusterIngress; before?: () => void }> = [
      { step: 'create', mci: withPaths([testpath]) },
      { step: 'add paths', mci: withPaths([testpath, a, b]) },
      { step: 'reorder', mci: withPaths([testpath, b, a]) },
      { step: 'remove path', mci: withPaths([b, a]) },
      { step: 'backend port', mci: withPaths([path('/b', 'ImplementationSpecific', 'serve', 80), a]) },
      {
        step: 'not ready',
        mci: withPaths([path('/b', 'ImplementationSpecific', 'serve', 80), a]),
        before: () =>
          kube.put(collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '!10.0.1.11'] })),
      },
      {
        step: 'block member2',
        mci: withPaths([path('/b', 'ImplementationSpecific', 'serve', 80), a], {
          trafficBlockClusters: ['member2'],
        }),
      },
    ];

    // Act + Assess
    for (const { step, mci, before } of steps) {
      before?.();
      await untilSuccess(step, () => lb.update(ctx, mci));
      await converged(mci);
    }
    const last = steps.at(-1)!.mci;
    await untilSuccess('delete', () => lb.ensureDeleted(ctx, last));
    expect(sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);

    const faults = Object.values(sim.calls.all()).reduce((n, c) => n + c.faulted, 0);
    console.log(
      `faults injected: ${faults}, RetryLaterError: ${retryLater}, reconciles per step: ${JSON.stringify(attempts)}`,
    );
    expect(faults).toBeGreaterThan(0);
  });
});
