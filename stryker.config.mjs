// @ts-check
/**
 * Mutation testing (`npm run mutation`; not part of `npm test`): Stryker changes the code of one
 * folder at a time, one mutant at a time, and runs the tests that cover each change
 * (vitest.mutation.config.ts). A mutant no test notices is a behaviour the tests do not pin down.
 *
 *   MUTATION_FOLDER=reconcile|model|deploy npx stryker run   (npm run mutation runs all three)
 *
 * Each folder's report is committed as test/mutation/<folder>.json (Stryker's incremental file),
 * so a later run only tests the mutants in code or tests changed since; `-- --force` tests them
 * all. bench/mutation.ts reads the same files for the scores in bench/results/latest.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const FOLDERS = {
  reconcile: 'lib/reconcile',
  model: 'lib/providers/aws/model',
  deploy: 'lib/providers/aws/deploy',
};
const folder = process.env.MUTATION_FOLDER ?? 'reconcile';
const dir = FOLDERS[/** @type {keyof typeof FOLDERS} */ (folder)];
if (!dir)
  throw new Error(`MUTATION_FOLDER must be one of ${Object.keys(FOLDERS).join(', ')}, not "${folder}"`);

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner', './test/mutation/ignore-log-calls.mjs'],
  ignorers: ['log-calls'],
  // Types only: nothing to mutate.
  mutate: [`${dir}/**/*.ts`, '!lib/**/types.ts'],
  coverageAnalysis: 'perTest',
  // Two cores, shared with everything else on the machine.
  concurrency: 2,
  incremental: true,
  incrementalFile: `test/mutation/${folder}.json`,
  // The type checker would reject some mutants before a test runs, but costs a tsc per mutant.
  checkers: [],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${folder}.json` },
  thresholds: { high: 90, low: 80, break: null },
  // Generous: after a timeout Stryker restarts the worker, whose first run re-imports
  // client-node and the SDK; on a loaded machine a short timeout makes that restart time out too.
  timeoutMS: 60_000,
  // Another folder's sandbox is not part of the project to copy.
  ignorePatterns: ['.stryker-tmp*', 'reports', 'dist', '.local-state'],
  // One sandbox directory per folder, so two folders' runs never clean each other's.
  tempDirName: `.stryker-tmp-${folder}`,
  cleanTempDir: 'always',
};
