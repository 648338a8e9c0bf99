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
 * - Readable errors: class and function names kept, source maps beside the code (without the
 *   sources themselves: a stack trace needs only the mappings), read by `--enable-source-maps`.
 */
import type { BuildOptions, Plugin } from 'esbuild';
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
    plugins: [chunksBesideEntry],
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
