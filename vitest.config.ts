import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/pass-fail-reporter.ts'],
    // Enforced by `npm test` (`vitest run --coverage`), not by a run of a few files.
    coverage: {
      provider: 'v8',
      include: ['lib/**/*.ts'],
      exclude: ['lib/generated/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // A few points under what the full suite measured on 2026-12-01 (lib/: statements 93.98,
      // branches 82.19, functions 96.23, lines 95.9 %), leaving room for timing-dependent paths.
      // Raise them as tests are added, never lower them to pass.
      thresholds: { statements: 91, branches: 79, functions: 93, lines: 93 },
    },
  },
});
