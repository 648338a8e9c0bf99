import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { withContainerRate } from '../../lib/providers/aws/index.js';

// serverless.yml resolves the budget with this module (osls loads it as CommonJS).
const budget = createRequire(import.meta.url)('../../infra/budget/elbv2.cjs') as {
  deploymentBudget(callsPerSecond: unknown): {
    callsPerSecond: number;
    reservedConcurrency: number;
    perContainerCallsPerSecond: number;
  };
  ratePeriodSeconds(expression: string): number;
};

const config = await parseAwsConfig(
  JSON.stringify({
    region: 'us-east-1',
    ownerId: 'o',
    vpc: { id: 'vpc-1', cidrs: ['10.0.0.0/16'] },
    subnets: ['s-1', 's-2'],
  }),
);

describe('Function: deploymentBudget', () => {
  it.each([
    [2, 2, 1],
    [0.5, 1, 0.5],
    [7.5, 7, 1.071],
    [25, 10, 2.5],
  ])('a share of %d calls/s: %d containers at %d calls/s each', (share, containers, each) => {
    const b = budget.deploymentBudget(share);
    expect(b).toEqual({
      callsPerSecond: share,
      reservedConcurrency: containers,
      perContainerCallsPerSecond: each,
    });
    // The deployment never exceeds its share.
    expect(b.reservedConcurrency * b.perContainerCallsPerSecond).toBeLessThanOrEqual(share);
  });

  it('rejects a share that is not a positive number', () => {
    expect(() => budget.deploymentBudget('lots')).toThrow(/elbv2CallsPerSecond/);
    expect(() => budget.deploymentBudget(0)).toThrow(/elbv2CallsPerSecond/);
  });

  it("reads the resync's period from its schedule", () => {
    expect(budget.ratePeriodSeconds('rate(10 minutes)')).toBe(600);
    expect(budget.ratePeriodSeconds('rate(1 hour)')).toBe(3600);
    expect(() => budget.ratePeriodSeconds('cron(0 * * * ? *)')).toThrow(/resyncSchedule/);
  });
});

describe('Function: withContainerRate', () => {
  it("caps the provider's calls per second with the container's share, the lower one winning", () => {
    expect(withContainerRate(config, { ELBV2_CALLS_PER_SECOND_PER_CONTAINER: '1.5' }).maxCallsPerSecond).toBe(
      1.5,
    );
    expect(
      withContainerRate({ ...config, maxCallsPerSecond: 1 }, { ELBV2_CALLS_PER_SECOND_PER_CONTAINER: '3' })
        .maxCallsPerSecond,
    ).toBe(1);
    expect(withContainerRate(config, {}).maxCallsPerSecond).toBeUndefined();
    expect(() => withContainerRate(config, { ELBV2_CALLS_PER_SECOND_PER_CONTAINER: 'fast' })).toThrow(
      /ELBV2_CALLS_PER_SECOND_PER_CONTAINER/,
    );
  });
});
