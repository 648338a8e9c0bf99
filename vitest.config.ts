import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { filesOf } from './test/tiers.js';

const ROOT = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/pass-fail-reporter.ts'],
    // Three tiers, a project each (test/tiers.ts says which file is in which; the system tier is
    // two projects): `npm run test:unit`, `npm run test:fast` (unit + component),
    // `npm run test:system`; `npm test` runs them all. A worker keeps its modules loaded from one
    // file to the next (`isolate: false`) but in `system-isolated`: most of a file's time was
    // its imports.
    projects: (['unit', 'component', 'system', 'system-isolated'] as const).map((name) => ({
      extends: true,
      test: { name, include: filesOf(name, ROOT), isolate: name === 'system-isolated' },
    })),
    // Enforced by `npm test` (`vitest run --coverage`, every tier), not by a run of a few files.
    // The unit and component tiers alone cover less (2026-12-04, with the reconcilers, the
    // runtime's processBatch, Regions and the accelerator over the API stand-in and the
    // simulators in process: statements 87.96, branches 82.01, functions 89.48, lines 89.15 %;
    // 2026-12-02: 70.68 and 66.21 %): the forwarder (its watches), the Lambda runtime
    // (lambda.ts, the kubeconfig cache, the token rotation, SQS retries) are still reached only
    // from the system tier, so the thresholds stay on the whole suite.
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
