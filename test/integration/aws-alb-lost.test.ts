/**
 * Lost responses: the simulator commits a write, then drops the connection, so neither the SDK
 * nor the provider can know it worked. The next reconcile must adopt what was created (by name
 * and tags, or by rule content) instead of failing forever or duplicating.
 */
import { withKarmadaCollection } from '../../dev/local/karmada-collection.js';
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { RetryLaterError } from '../../lib/errors.js';
import { silentLogger } from '../../lib/log/logger.js';
import { AwsProvider, buildIngressStack, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { readIngressInputs } from '../../lib/providers/aws/inputs.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { MemoryKube } from '../support/memory-kube.js';
import { expectedSummary, summarize } from './aws-alb-support.js';
import { simConfig } from './aws-env.js';

// The simulator's account, without default tags so that resources carry only ours.
const config: AwsProviderConfig = { ...simConfig, defaultTags: {} };

let sim: Elbv2Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('AWS provider: lost responses after commit (simulator)', () => {
  it.each([
    'CreateTargetGroup',
    'CreateLoadBalancer',
    'CreateListener',
    'CreateRule',
    'RegisterTargets',
    'SetRulePriorities',
    'DeleteRule',
    'DeleteTargetGroup',
  ])('%s: the next reconcile converges', async (action) => {
    // Prepare
    sim = await startElbv2Simulator({ inProcess: true });
    const kube = new MemoryKube(
      withKarmadaCollection([
        service('serve', [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'admin', port: 8081, targetPort: 9090 },
        ]),
        collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
      ]),
    );
    const lb = new AwsProvider(
      config,
      { kube, logger: silentLogger },
      {
        client: elbv2ClientFor(sim, { maxAttempts: 3, retryDelayMs: 1 }),
        deploy: { resourceInUseAttempts: 3, resourceInUseDelayMs: 2 },
      },
    ).loadBalancer();
    const ctx = { signal: new AbortController().signal, logger: silentLogger };
    const first = minimalIngress({
      spec: {
        rules: [
          {
            http: {
              paths: [
                path('/a', 'ImplementationSpecific', 'serve', 80),
                path('/b', 'ImplementationSpecific', 'serve', 'admin'),
              ],
            },
          },
        ],
      },
    });
    // Re-ordered, one path gone, so the second step moves, deletes and drops a target group.
    const second = minimalIngress({
      spec: {
        rules: [
          {
            http: {
              paths: [
                path('/c', 'ImplementationSpecific', 'serve', 80),
                path('/a', 'ImplementationSpecific', 'serve', 80),
              ],
            },
          },
        ],
      },
    });
    const reconcile = async (mci: typeof first) => {
      for (let i = 0; i < 5; i++) {
        try {
          return await lb.update(ctx, mci);
        } catch (err) {
          if (!(err instanceof RetryLaterError)) throw err;
        }
      }
      throw new Error('did not converge');
    };
    // Act
    sim.faults.failNext(action, 1, { dropAfterCommit: true });
    await reconcile(first);
    await reconcile(first);
    sim.faults.failNext(action, 1, { dropAfterCommit: true });
    await reconcile(second);
    await reconcile(second);
    // Assess
    const stack = buildIngressStack({ mci: second, ...(await readIngressInputs(kube, second)), config });
    expect(summarize(sim.snapshot())).toStrictEqual(expectedSummary(stack));
  });
});
