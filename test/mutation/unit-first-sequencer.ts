import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the covering unit tests before the integration tests, and among those the folder's own
 * (`MUTATION_FOLDER` in the file name, e.g. aws-deploy.test.ts for deploy) before the rest.
 * Stryker stops a mutant's run at the first failing test, and vitest's own order (slowest files
 * first) would start every mutant with the API stand-in even when a table test kills it in
 * milliseconds.
 */
export default class UnitFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const folder = process.env.MUTATION_FOLDER;
    const rank = (f: TestSpecification) =>
      f.moduleId.includes('/test/unit/')
        ? 0
        : folder !== undefined && basename(f.moduleId).includes(folder)
          ? 1
          : 2;
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}
