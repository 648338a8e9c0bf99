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
    'test/integration/next-steps.test.ts',
  ],
  // The model is pure: its unit tests and golden stacks pin it down first; the provider's
  // integration tests (in-process, against the ELBv2 simulator) then check what reaches AWS.
  model: [
    'test/unit/aws-model*.test.ts',
    'test/unit/aws-annotations.test.ts',
    'test/unit/aws-limits.test.ts',
    'test/unit/aws-rule-plan.test.ts',
    'test/unit/topology.test.ts',
    'test/integration/aws-annotations.test.ts',
    'test/integration/aws-alb.test.ts',
    'test/integration/aws-nlb.test.ts',
    'test/integration/aws-limits.test.ts',
    'test/integration/aws-tags.test.ts',
    'test/integration/aws-lifecycle.test.ts',
  ],
  // The planners are pure (their table tests first); discovery, apply and the describe calls run
  // against the ELBv2 simulator in the provider's integration tests. Left out: aws-throttle (its
  // back-off waits seconds, and every mutant of the call path would wait with it: the error
  // mapping is tabled in aws-deploy-calls), aws-alb-faults (fault scenarios through the same
  // path) and aws-lifecycle (the Kubernetes stand-in), which a survivor would run for nothing.
  deploy: [
    'test/unit/aws-deploy-*.test.ts',
    'test/unit/aws-rule-plan.test.ts',
    'test/integration/aws-*.test.ts',
  ],
};

/** Left out per folder (see above); aws-plan everywhere: it spawns the CLI. */
const EXCLUDED: Record<string, string[]> = {
  deploy: [
    'test/integration/aws-throttle.test.ts',
    'test/integration/aws-alb-faults.test.ts',
    'test/integration/aws-lifecycle.test.ts',
  ],
};

const folder = process.env.MUTATION_FOLDER ?? 'reconcile';
const tests = TESTS[folder] ?? [];
const shared = {
  exclude: ['test/integration/aws-plan.test.ts', ...(EXCLUDED[folder] ?? [])],
  testTimeout: 30_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    sequence: { sequencer: UnitFirstSequencer },
    projects: [
      // Each unit test file imports lib/ afresh, so a mutant in module-level code (a table of
      // constants, a module-level array) is active when that code runs: with modules kept loaded
      // it would be evaluated once, unmutated, and survive whatever the tests assert.
      {
        test: {
          ...shared,
          name: 'unit',
          include: tests.filter((t) => t.startsWith('test/unit/')),
          isolate: true,
        },
      },
      // Each mutant is a new run of the covering tests; a worker that keeps its modules loaded
      // (client-node, the SDK, the API stand-in) saves seconds of imports per mutant. Stryker
      // switches these mutants at run time, so no test sees code left from the previous mutant.
      {
        test: {
          ...shared,
          name: 'integration',
          include: tests.filter((t) => !t.startsWith('test/unit/')),
          isolate: false,
        },
      },
    ],
  },
});
