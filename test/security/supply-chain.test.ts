/**
 * Installing runs no dependency's install script: `.npmrc` turns them off for every npm command in
 * the repository, CI installs with `--ignore-scripts` and then runs the one step the build uses
 * (esbuild's binary check) by name, and strict peer-dependency resolution is kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const settings = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('=').map((s) => s.trim()) as [string, string]),
  );

describe('Install with scripts disabled', () => {
  it('install runs with scripts disabled and strict peer dependencies', () => {
    const npmrc = settings(readFileSync(join(ROOT, '.npmrc'), 'utf8'));
    expect(npmrc['ignore-scripts']).toBe('true');
    expect(npmrc['legacy-peer-deps']).toBeUndefined();
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const installs = ci
      .split('\n')
      .filter((l) => /\bnpm (ci|install|i)\b/.test(l) && !l.trim().startsWith('#'));
    expect(installs.length).toBeGreaterThan(0);
    for (const line of installs) expect(line).toContain('--ignore-scripts');
    expect(ci).toMatch(/node node_modules\/esbuild\/install\.js/);
  });
});
