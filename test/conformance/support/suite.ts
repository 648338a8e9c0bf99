/**
 * Runs a file's scenarios on both targets, moto and our simulators, each against a server of its
 * own for the file (state reset before every scenario), then compares what each scenario observed
 * on the two: any place where the two implementations of AWS disagree is a failing test with the
 * diff, to settle against the AWS API reference (test/conformance/README.md).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useConformanceCredentials } from './clients.js';
import { startTarget, TARGET_KINDS, type Target, type TargetKind } from './targets.js';
import { makeWorld, type World } from './world.js';

export interface Scenario {
  name: string;
  /**
   * Drives the world and asserts what AWS must hold after each step; returns what it observed, by
   * step, for the comparison of the two targets.
   */
  run(world: World): Promise<Record<string, unknown>>;
  timeoutMs?: number;
}

export function conformance(scenarios: readonly Scenario[]): void {
  const observed: Record<TargetKind, Map<string, Record<string, unknown>>> = {
    moto: new Map(),
    simulators: new Map(),
  };
  for (const kind of TARGET_KINDS) {
    describe(`on ${kind}`, () => {
      let target: Target | undefined;
      let world: World | undefined;
      beforeAll(async () => {
        useConformanceCredentials();
        target = await startTarget(kind);
      }, 60_000);
      afterAll(async () => {
        await target?.close();
      });
      afterEach(async () => {
        await world?.close();
        world = undefined;
      });
      for (const s of scenarios) {
        it(
          s.name,
          async () => {
            world = await makeWorld(target!);
            observed[kind].set(s.name, await s.run(world));
          },
          s.timeoutMs ?? 60_000,
        );
      }
    });
  }
  describe('moto and our simulators agree', () => {
    for (const s of scenarios) {
      it(s.name, ({ skip }) => {
        const moto = observed.moto.get(s.name);
        const ours = observed.simulators.get(s.name);
        // A scenario that failed on a target has its own failing test already.
        if (!moto || !ours) skip();
        expect(moto).toEqual(ours);
      });
    }
  });
}
