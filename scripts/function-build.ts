/**
 * The one esbuild configuration of the Lambda functions, used by `osls package` / `osls invoke
 * local` (serverless-esbuild loads it through scripts/serverless-esbuild.cjs) and by the bundle
 * benchmark, so what is measured is what ships.
 *
 * - ESM with code splitting: every `import()` in lib/ (an optional SDK client, a provider, the
 *   kubeconfig fetcher for Secrets Manager or SSM) becomes a chunk of its own that only a container
 *   needing it reads. Output is `.js` beside functions/package.json (`"type": "module"`): Lambda's
 *   runtime and `osls invoke local` both import it as ESM (invoke local never tries `.mjs`).
 * - Each function's chunks live in `<function>.chunks/`, so serverless-esbuild, which zips every
 *   file of its build folder except other functions' `<name>.*` files, gives a function only its own.
 * - `module` before `main`: the AWS SDK's ES modules, so unused commands are shaken out.
 * - Readable errors: class and function names kept, source maps beside the code, read by
 *   `--enable-source-maps`. The maps cover our own code (lib/, functions/) only, without the
 *   sources themselves: a stack trace needs only the mappings, and Node reads every map of every
 *   module it loads at load time, so the libraries' mappings (nine tenths of the bytes) would cost
 *   each cold start tens of milliseconds. Library frames keep their function names (keepNames).
 */
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import type { BuildOptions, Plugin } from 'esbuild';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

const SHIMS = join(import.meta.dirname, 'shims');

/** client-node's dependencies call require(): an ES module bundle must give them one. */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** Puts a build's chunks in `<entry>.chunks/` (esbuild lets a plugin set the build's options). */
const chunksBesideEntry: Plugin = {
  name: 'chunks-beside-entry',
  setup(build) {
    const entries = build.initialOptions.entryPoints;
    const first = Array.isArray(entries) ? entries[0] : undefined;
    const entry = typeof first === 'string' ? first : first?.in;
    if (!entry || (Array.isArray(entries) && entries.length > 1)) {
      throw new Error('function bundles are built one entry point at a time');
    }
    build.initialOptions.chunkNames = `${basename(entry, extname(entry))}.chunks/[name]-[hash]`;
  },
};

interface SourceMapFile {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
}

/** A source map reduced to the segments that point into our own sources. */
export function ownCodeOnly(map: SourceMapFile): SourceMapFile {
  const keep = map.sources.map((s) => !/(^|\/)node_modules\//.test(s));
  const sources: string[] = [];
  const names: string[] = [];
  const sourceIndex = new Map<number, number>();
  const nameIndex = new Map<number, number>();
  const renumber = (index: Map<number, number>, list: string[], from: string[], i: number) => {
    let n = index.get(i);
    if (n === undefined) {
      n = list.length;
      index.set(i, n);
      list.push(from[i]!);
    }
    return n;
  };
  const lines = decode(map.mappings).map((line) => {
    const out: SourceMapSegment[] = [];
    for (const seg of line) {
      if (seg.length === 1 || !keep[seg[1]]) {
        // Library code stays marked as unmapped, or a lookup would land on the last mapped
        // segment before it and name a line of ours that has nothing to do with the frame.
        if (out.length && out[out.length - 1]!.length !== 1) out.push([seg[0]]);
        continue;
      }
      const source = renumber(sourceIndex, sources, map.sources, seg[1]);
      out.push(
        seg.length === 5
          ? [seg[0], source, seg[2], seg[3], renumber(nameIndex, names, map.names, seg[4])]
          : [seg[0], source, seg[2], seg[3]],
      );
    }
    return out;
  });
  return { ...map, sources, names, mappings: encode(lines) };
}

function mapsOf(dir: string, entryName: string): string[] {
  const chunks = join(dir, `${entryName}.chunks`);
  const inChunks = statSync(chunks, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(chunks).map((f) => join(chunks, f))
    : [];
  return [join(dir, `${entryName}.js.map`), ...inChunks].filter((f) => f.endsWith('.map'));
}

/** Rewrites the build's source maps to cover our own code only (see the header). */
const ownSourceMaps: Plugin = {
  name: 'own-source-maps',
  setup(build) {
    const { outdir, entryPoints } = build.initialOptions;
    if (!build.initialOptions.sourcemap || !outdir || !Array.isArray(entryPoints)) return;
    const first = entryPoints[0];
    const entry = typeof first === 'string' ? first : first?.in;
    if (!entry) return;
    build.onEnd((result) => {
      if (result.errors.length) return;
      for (const file of mapsOf(outdir, basename(entry, extname(entry)))) {
        const map = JSON.parse(readFileSync(file, 'utf8')) as SourceMapFile;
        writeFileSync(file, JSON.stringify(ownCodeOnly(map)));
      }
    });
  },
};

export interface FunctionBuildChoices {
  /** keepNames and source maps (default true: what ships). */
  readable?: boolean;
}

export function functionBuildOptions({ readable = true }: FunctionBuildChoices = {}): BuildOptions {
  return {
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    splitting: true,
    mainFields: ['module', 'main'],
    alias: { 'whatwg-url': join(SHIMS, 'whatwg-url.cjs') },
    banner: { js: REQUIRE_BANNER },
    legalComments: 'none',
    keepNames: readable,
    sourcemap: readable ? 'linked' : false,
    sourcesContent: false,
    plugins: [chunksBesideEntry, ownSourceMaps],
  };
}

/** The options serverless-esbuild takes: esbuild's, plus its own packaging keys. */
export function serverlessEsbuildOptions(): Record<string, unknown> {
  return {
    ...functionBuildOptions(),
    outputFileExtension: '.js',
    // Everything is bundled: no node_modules in the zip.
    exclude: [],
    packager: 'npm',
  };
}
