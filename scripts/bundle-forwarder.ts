/**
 * Bundles the forwarder into one ESM file that runs with plain `node`, no node_modules:
 * `npx tsx scripts/bundle-forwarder.ts [--minify] [--sourcemap]` → dist/forwarder/forwarder.mjs.
 * The banner gives client-node's CommonJS dependencies (node-fetch, ws...) a `require`; whatwg-url
 * (and tr46's Unicode tables) is left out as in the function bundles (scripts/shims/whatwg-url.cjs).
 */
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/forwarder/forwarder.mjs');

await build({
  entryPoints: [join(root, 'infra/forwarder/main.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile,
  minify: process.argv.includes('--minify'),
  // Opt-in so the default output is exactly one file.
  sourcemap: process.argv.includes('--sourcemap') ? 'linked' : false,
  legalComments: 'none',
  alias: { 'whatwg-url': join(root, 'scripts/shims/whatwg-url.cjs') },
  banner: {
    js: "import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`${outfile} ${(statSync(outfile).size / 1024).toFixed(0)} KiB`);
