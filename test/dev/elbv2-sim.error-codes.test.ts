import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeAccountLimitsCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { sdkError, useSim } from './elbv2-sim-fixtures.js';

const SIM_DIR = join(import.meta.dirname, '../../dev/elbv2-sim');
/** Codes the real service sends without a modelled exception (the SDK names the error after the code). */
const UNMODELLED = new Set(['ValidationError', 'InvalidAction', 'MissingAction', 'InternalFailure']);

/** Every error code the simulator's own code can raise (`new SimError('Code', ...)` or `quotaReached('Code', ...)`). */
function raisedCodes(): string[] {
  const files = readdirSync(SIM_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const codes = new Set<string>();
  for (const f of files) {
    for (const m of readFileSync(join(SIM_DIR, f), 'utf8').matchAll(
      /(?:new SimError|quotaReached)\(\s*'([A-Za-z]+)'/g,
    ))
      codes.add(m[1]!);
  }
  return [...codes].sort();
}

describe('ELBv2 simulator: error codes', () => {
  const ctx = useSim();

  it('raises only codes the SDK models as exceptions (or that AWS sends unmodelled)', async () => {
    const codes = raisedCodes();
    expect(codes.length).toBeGreaterThan(30);
    const unmapped: string[] = [];
    for (const code of codes) {
      ctx.sim.faults.failNext('DescribeAccountLimits', 1, { code });
      const err = await sdkError(ctx.client.send(new DescribeAccountLimitsCommand({})));
      // Modelled codes become their exception class (whose name may differ from the code, e.g.
      // CapacityDecreaseRequestLimitExceeded -> CapacityDecreaseRequestsLimitExceededException).
      const ok = UNMODELLED.has(code)
        ? err.name === code
        : err.name !== code && err.name.endsWith('Exception');
      if (!ok) unmapped.push(`${code} -> ${err.name}`);
    }
    expect(unmapped).toEqual([]);
  });
});
