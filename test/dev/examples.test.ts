/**
 * examples/ as a user meets it: `npm run plan` alone lists every file; each file's header
 * commands (`npm run plan -- examples/<file> …`) run as written and plan every MultiClusterIngress
 * and MultiClusterService in it; every file applies with kubectl to the Kubernetes API stand-in
 * (which validates against Karmada's CRD schemas); and the READMEs point at each one.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const files = readdirSync(join(ROOT, 'examples'))
  .filter((f) => f.endsWith('.yaml'))
  .sort();

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
}
const docsOf = (file: string) =>
  parseAllDocuments(readFileSync(join(ROOT, 'examples', file), 'utf8')).map((d) => d.toJS() as Doc);

/** The `npm run plan -- …` commands of a file's header comment, as argument lists. */
function planCommands(file: string): string[][] {
  const header = readFileSync(join(ROOT, 'examples', file), 'utf8').split(/\n(?!#)/)[0] ?? '';
  return [...header.matchAll(/^#\s+npm run plan -- (.+?)(?:\s+#.*)?$/gm)].map((m) =>
    m[1]!.trim().split(/\s+/),
  );
}

/** `npm run plan -- <args>` in the repository, as a user types it: exit code and output. */
async function plan(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', 'plan', '--', ...args], {
      cwd: ROOT,
      timeout: 120_000,
      env: { ...process.env, KUBECONFIG: '' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? 1, out: (err.stdout ?? '') + (err.stderr ?? '') };
  }
}

describe('examples/', () => {
  it('has the manifests the README walks through, each with its plan command', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'upstream-scenario.yaml',
        'ingress-group.yaml',
        'weights-and-drain.yaml',
        'two-regions.yaml',
      ]),
    );
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const own = readFileSync(join(ROOT, 'examples/README.md'), 'utf8');
    for (const f of files) {
      expect(planCommands(f).length, f).toBeGreaterThan(0);
      expect(own, f).toContain(`(${f})`);
      expect(readme, f).toContain(`examples/${f}`);
    }
  });

  it('npm run plan with no argument says where the examples are', async () => {
    const { code, out } = await plan([]);
    expect(code).toBe(2);
    expect(out).toMatch(/^usage: npm run plan -- /m);
    for (const f of files) expect(out).toContain(`npm run plan -- examples/${f} --simulator`);
  }, 130_000);

  it.each(files)(
    '%s: each command of its header plans every object in it',
    async (file) => {
      const objects = docsOf(file).filter(
        (d) => d.kind === 'MultiClusterIngress' || d.kind === 'MultiClusterService',
      );
      expect(objects.length).toBeGreaterThan(0);
      for (const args of planCommands(file)) {
        const { code, out } = await plan(args);
        expect(code, `${args.join(' ')}\n${out}`).toBe(0);
        expect(out).not.toMatch(/plan failed/);
        for (const o of objects) {
          const planned = args.includes('--graph')
            ? out.includes(o.metadata.name)
            : new RegExp(`^# ${o.kind} default/${o.metadata.name}\\b`, 'm').test(out);
          expect(planned, `${o.kind} ${o.metadata.name} in ${args.join(' ')}`).toBe(true);
        }
      }
    },
    240_000,
  );

  describe.skipIf(!hasKubectl)('applied with kubectl', () => {
    let api: KubeApiServer;
    let kubeconfig: string;
    let cache: string;
    beforeAll(async () => {
      api = await startKubeApiServer();
      const dir = mkdtempSync(join(tmpdir(), 'examples-'));
      kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
      cache = join(dir, 'cache');
    });
    afterAll(async () => api?.close());

    it.each(files)(
      '%s applies, every object of it created as written',
      async (file) => {
        const { stdout } = await run('kubectl', [
          '--kubeconfig',
          kubeconfig,
          '--cache-dir',
          cache,
          'apply',
          '-f',
          join(ROOT, 'examples', file),
        ]);
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(docsOf(file).length);
        for (const line of lines) expect(line).toMatch(/ (created|configured|unchanged)$/);
      },
      60_000,
    );
  });
});
