/**
 * What a function loads at a cold start, read from esbuild's metafile: its entry file, the chunks
 * it imports, and the chunks its start path imports dynamically (`lazy`: the modules those hold),
 * each with the chunks they import statically. bench/bundles.ts measures it; the bundle test
 * (test/infra/bundle-start-set.test.ts) checks what it must not hold.
 */
import { resolve } from 'node:path';
import type { Metafile } from 'esbuild';

/** The output chunk whose entry point is `entryPoint` (relative to the build's working directory). */
export function outputOf(meta: Metafile, entryPoint: string): string {
  const found = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (!found) throw new Error(`no chunk for ${entryPoint} in the bundle: is it still imported dynamically?`);
  return found[0];
}

function staticClosure(meta: Metafile, file: string, into: Set<string>): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const i of meta.outputs[file]!.imports) {
    if (i.kind === 'import-statement' && !i.external) staticClosure(meta, i.path, into);
  }
  return into;
}

export interface StartSet {
  /** The files imported in order (their static imports follow by themselves), absolute. */
  roots: string[];
  /** The output files loaded, as the metafile names them. */
  files: Set<string>;
  bytes: number;
  /** The source modules those files hold. */
  inputs: Set<string>;
}

export function startSet(meta: Metafile, root: string, entry: string, lazy: readonly string[]): StartSet {
  const roots = [outputOf(meta, entry), ...lazy.map((l) => outputOf(meta, l))];
  const files = new Set<string>();
  for (const r of roots) staticClosure(meta, r, files);
  const bytes = [...files].reduce((sum, f) => sum + meta.outputs[f]!.bytes, 0);
  const inputs = new Set([...files].flatMap((f) => Object.keys(meta.outputs[f]!.inputs)));
  return { roots: roots.map((r) => resolve(root, r)), files, bytes, inputs };
}
