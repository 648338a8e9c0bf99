/**
 * Mutation scores per folder, read from the reports Stryker wrote on its last run of each folder
 * (`npm run mutation`: test/mutation/<folder>.json, its incremental files, in the
 * mutation-testing-report schema, committed with the code they measured). Nothing is mutated
 * here: these figures are only as fresh as those runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Figure } from './report.js';

const ROOT = resolve(import.meta.dirname, '..');
/** MUTATION_FOLDER (stryker.config.mjs) → the folder it mutates. */
export const MUTATED_FOLDERS: Record<string, string> = {
  reconcile: 'lib/reconcile',
  model: 'lib/providers/aws/model',
  deploy: 'lib/providers/aws/deploy',
};
const TARGET = 80;
const GROUP = 'mutation testing (Stryker)';

type MutantStatus =
  'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface MutationReport {
  files: Record<string, { mutants: Array<{ status: MutantStatus }> }>;
}

export interface FolderScore {
  folder: string;
  killed: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** How many of the folder's files the report covers (a run may mutate only some: --mutate). */
  files: number;
  /** Stryker's mutation score: detected (killed or timed out) over valid mutants, in percent. */
  score: number;
}

/** Stryker's definition: (killed + timeout) / (killed + timeout + survived + no coverage). */
export function folderScore(report: MutationReport, folder: string): FolderScore {
  const counts: Record<string, number> = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
  let files = 0;
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!file.replace(/\\/g, '/').startsWith(`${folder}/`)) continue;
    files++;
    for (const m of mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  }
  const detected = counts.Killed! + counts.Timeout!;
  const valid = detected + counts.Survived! + counts.NoCoverage!;
  return {
    folder,
    killed: detected,
    survived: counts.Survived!,
    noCoverage: counts.NoCoverage!,
    ignored: counts.Ignored!,
    files,
    score: valid ? (100 * detected) / valid : NaN,
  };
}

export async function benchMutation(): Promise<Figure[]> {
  return Object.entries(MUTATED_FOLDERS).map(([name, folder]) => {
    const file = resolve(ROOT, `test/mutation/${name}.json`);
    if (!existsSync(file)) {
      return {
        group: GROUP,
        name: `${folder}: no report (MUTATION_FOLDER=${name} npx stryker run)`,
        value: 'n/a',
        unit: '',
        target: `≥ ${TARGET} %`,
        met: false,
      };
    }
    const s = folderScore(JSON.parse(readFileSync(file, 'utf8')) as MutationReport, folder);
    const all = mutableFiles(resolve(ROOT, folder)).length;
    const scope = s.files === all ? `all ${all} files` : `${s.files} of ${all} files`;
    return {
      group: GROUP,
      name: `${folder} mutation score, ${scope} (${s.killed} killed, ${s.survived} survived, ${s.noCoverage} not covered; ${s.ignored} ignored, each with its reason)`,
      value: Number(s.score.toFixed(1)),
      unit: '%',
      target: `≥ ${TARGET} %`,
      // A score over part of a folder is not the folder's score.
      met: s.files === all && s.score >= TARGET,
    };
  });
}

/**
 * The files Stryker mutates in a folder (stryker.config.mjs: every .ts but types.ts), less those
 * with nothing to mutate (only imports and re-exports, e.g. a lazily loaded chunk's entry), which
 * Stryker leaves out of its report.
 */
function mutableFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !/(^|\/)types\.ts$/.test(f) && hasCode(readFileSync(resolve(dir, f), 'utf8')),
  );
}

/** Whether a module holds more than comments, imports and `export … from` re-exports. */
export function hasCode(source: string): boolean {
  const rest = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/\bimport\s+(type\s+)?(\{[^}]*\}|[\w*\s,]+)\s+from\s+['"][^'"]+['"];?/g, '')
    .replace(/\bimport\s+['"][^'"]+['"];?/g, '')
    .replace(/\bexport\s+(type\s+)?(\{[^}]*\}|\*(\s+as\s+\w+)?)\s+from\s+['"][^'"]+['"];?/g, '');
  return rest.trim().length > 0;
}
