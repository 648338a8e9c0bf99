/**
 * The bundled forwarder as it ships: one .mjs run by plain `node` from a directory without
 * node_modules, against the API stand-in with 10,000 objects; measures initial sync and peak RSS.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { Resources } from '../../lib/kube/resources.js';
import { startRecordingSink, type RecordingSink } from './forwarder-fakes.js';
import { sampleObjects, startEnv, type Env } from './forwarder-setup.js';

const SECRET = 'YnVuZGxlLXNlY3JldC1rZXk=';
const OBJECTS = 10_000;
const root = join(import.meta.dirname, '../..');

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? '0');
  return kb / 1024;
}

describe('Integration: the bundled forwarder (dist/forwarder/forwarder.mjs)', () => {
  let env: Env;
  let sink: RecordingSink;
  let dir: string;
  let child: ChildProcess | undefined;
  let stdout = '';

  beforeAll(async () => {
    execFileSync('npx', ['tsx', 'scripts/bundle-forwarder.ts'], { cwd: root, stdio: 'pipe' });
    dir = mkdtempSync(join(tmpdir(), 'forwarder-bundle-'));
    copyFileSync(join(root, 'dist/forwarder/forwarder.mjs'), join(dir, 'forwarder.mjs'));
    env = await startEnv();
    for (const { type, obj } of sampleObjects(SECRET)) await env.api.create(type, obj);
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < OBJECTS) {
          const i = next++;
          await env.api.create(Resources.Service, {
            metadata: { name: `svc-${i}`, namespace: 'default' },
            spec: { ports: [{ port: 80 }] },
          });
        }
      }),
    );
    sink = await startRecordingSink();
    // The stand-in serves plain HTTP, which client-node accepts only with insecure-skip-tls-verify.
    writeFileSync(
      join(dir, 'karmada.config'),
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'karmada', cluster: { server: env.kube.url, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'admin', user: { token: 'dev-token' } }],
        contexts: [{ name: 'karmada', context: { cluster: 'karmada', user: 'admin' } }],
        'current-context': 'karmada',
      }),
    );
  }, 180_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await sink?.close();
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--help works with no node_modules around', () => {
    const out = execFileSync(process.execPath, ['forwarder.mjs', '--help'], { cwd: dir, encoding: 'utf8' });
    expect(out).toContain('--sink-target');
    expect(out).toContain('$FORWARDER_SINK_TARGET');
  });

  it('syncs 10,008 objects, serves /readyz, and flushes + exits 0 on SIGTERM', async () => {
    // Act
    const t0 = Date.now();
    child = spawn(
      process.execPath,
      [
        'forwarder.mjs',
        '--kubeconfig',
        'karmada.config',
        '--sink',
        'http',
        '--sink-target',
        sink.url,
        '--port',
        '0',
        '--log-level',
        'debug',
        // The sample Secret is watched only because its namespace is listed (opt-in).
        '--watch-secrets-in',
        'default',
      ],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, FORWARDER_LEASE_NAMESPACE: 'karmada-system', POD_NAME: 'bundle-0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stdout += c.toString()));
    const total = OBJECTS + 8;
    await vi.waitFor(() => expect(sink.received.length, 'initial sync').toBeGreaterThanOrEqual(total), {
      timeout: 60_000,
      interval: 20,
    });
    const syncMs = Date.now() - t0;
    const rss = peakRssMb(child.pid ?? 0);
    console.log(
      `bundle: initial sync of ${total} objects in ${syncMs} ms (process start included), peak RSS ${rss.toFixed(0)} MiB, ${sink.calls} sink calls (${(sink.received.length / sink.calls).toFixed(1)} per call)`,
    );
    expect(new Set(sink.received.map((n) => `${n.ref.kind}/${n.ref.namespace}/${n.ref.name}`)).size).toBe(
      total,
    );
    // The health port is in the startup log line.
    const port = Number(/"port":(\d+)/.exec(stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    await vi.waitFor(() => expect(/initial sync done/.test(stdout), 'initial sync log').toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
      'process_resident_memory_bytes',
    );
    // A change the shutdown must flush.
    await env.api.patch(Resources.Service, 'default', 'svc-0', { metadata: { labels: { last: 'yes' } } });
    await new Promise((r) => setTimeout(r, 30));
    const exit = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    child = undefined;
    expect(
      sink.received.some((n) => n.ref.name === 'svc-0' && n.object?.metadata.labels?.last === 'yes'),
    ).toBe(true);
    // Assess: structured JSON logs, nothing secret, lease released.
    const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) expect(JSON.parse(l)).toHaveProperty('level');
    expect(stdout).not.toContain(SECRET);
    expect(sink.bodies.join('')).not.toContain(SECRET);
    const lease = env.kube.store.get(
      'coordination.k8s.io/v1',
      'Lease',
      'karmada-system',
      'multicluster-forwarder',
    ) as { spec?: { holderIdentity?: string } };
    expect(lease.spec?.holderIdentity ?? '').toBe('');
  }, 120_000);
});
