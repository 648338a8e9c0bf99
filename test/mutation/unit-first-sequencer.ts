import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the covering unit tests before the integration tests. Stryker stops a mutant's run at the
 * first failing test, and vitest's own order (slowest files first) would start every mutant with
 * the API stand-in even when a table test kills it in milliseconds.
 */
export default class UnitFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (f.moduleId.includes('/test/unit/') ? 0 : 1);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}
