/**
 * The tests Stryker runs against each mutant (`npm run mutation`, see stryker.config.mjs), per
 * folder (MUTATION_FOLDER). Left out: tests that spawn processes (a child never sees the active
 * mutant: aws-plan); the corpus and test/security, which reconcile in beforeAll, so every mutant
 * they reach there would be "static" and run every test; and the chaos and forwarder suites,
 * which take minutes and reach these folders only through the paths tested here.
 */
import { defineConfig } from 'vitest/config';
import UnitFirstSequencer from './test/mutation/unit-first-sequencer.js';

/** The tests that cover each folder: pure table tests first, then what runs them in context. */
const TESTS: Record<string, string[]> = {
  reconcile: [
    'test/unit/reconcile-*.test.ts',
    'test/unit/conditions.test.ts',
    'test/integration/lifecycle.test.ts',
    'test/integration/reconcile-*.test.ts',
    'test/integration/aws-lifecycle.test.ts',
    'test/integration/maintenance.test.ts',
  ],
  // The model is pure: its unit tests and golden stacks are what pin it down.
  model: [
    'test/unit/aws-model*.test.ts',
    'test/unit/aws-annotations.test.ts',
    'test/unit/aws-limits.test.ts',
    'test/unit/aws-rule-plan.test.ts',
  ],
  deploy: ['test/unit/aws-rule-plan.test.ts', 'test/integration/aws-*.test.ts'],
};

export default defineConfig({
  test: {
    include: TESTS[process.env.MUTATION_FOLDER ?? 'reconcile'],
    exclude: ['test/integration/aws-plan.test.ts'],
    // Each mutant is a new run of the covering tests; a worker that keeps its modules loaded
    // (client-node, the SDK, the API stand-in) saves seconds of imports per mutant. Stryker
    // switches mutants at run time, so no test sees code left from the previous mutant.
    isolate: false,
    sequence: { sequencer: UnitFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
