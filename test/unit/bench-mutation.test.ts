import { describe, expect, it } from 'vitest';
import { folderScore, hasCode, type MutationReport } from '../../bench/mutation.js';

const mutants = (...statuses: string[]) => ({ mutants: statuses.map((status) => ({ status })) });

describe('Function: folderScore', () => {
  const report = {
    files: {
      'lib/reconcile/a.ts': mutants('Killed', 'Killed', 'Survived', 'Timeout'),
      'lib/reconcile/sub/b.ts': mutants('NoCoverage', 'Ignored', 'Killed'),
      'lib/reconciler/c.ts': mutants('Survived', 'Survived'),
      'lib/other/d.ts': mutants('Survived'),
    },
  } as MutationReport;

  it('scores as Stryker does: killed and timed out over every valid mutant, ignored ones left out', () => {
    expect(folderScore(report, 'lib/reconcile')).toEqual({
      folder: 'lib/reconcile',
      killed: 4,
      survived: 1,
      noCoverage: 1,
      ignored: 1,
      files: 2,
      score: (100 * 4) / 6,
    });
  });

  it('counts a folder by path prefix, not by name prefix', () => {
    expect(folderScore(report, 'lib/reconciler')).toMatchObject({ killed: 0, survived: 2, score: 0 });
  });

  it('is NaN for a folder without mutants', () => {
    expect(folderScore(report, 'lib/none').score).toBeNaN();
  });
});

describe('Function: hasCode', () => {
  it.each([
    [
      "/** A chunk. */\n// why\nimport '../factory.js';\nexport { a } from './a.js';\nexport {\n  b,\n  c,\n} from './b.js';\n",
      false,
    ],
    ["export * from './a.js';\nexport type { T } from './t.js';\nimport type { U } from './u.js';\n", false],
    ["import { a } from './a.js';\nexport const b = a + 1;\n", true],
    ["export { a } from './a.js';\nexport function f() {}\n", true],
  ])('%j: %s', (source, expected) => {
    expect(hasCode(source)).toBe(expected);
  });
});
