/**
 * `npm start` as a newcomer runs it: a fresh state directory, no AWS account, no network. The test
 * waits for the narrated status, applies a change with real kubectl, sees the new status, and
 * stops the process with Ctrl-C (SIGINT).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

/** Waits until the output matches `pattern`; the failure shows the output so far. */
function waitFor(output: () => string, pattern: RegExp, timeout: number): Promise<RegExpMatchArray> {
  return vi.waitFor(
    () => {
      const m = output().match(pattern);
      expect(m, `waiting for ${pattern}; output so far:\n${output()}`).not.toBeNull();
      return m!;
    },
    { timeout, interval: 50 },
  );
}

describe.skipIf(!hasKubectl)('npm start', () => {
  it('runs the upstream scenario, reacts to kubectl, and stops on Ctrl-C', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const child = spawn('npm', ['start', '--', '--state', state, '--fresh'], {
      cwd: ROOT,
      env: { ...process.env, KUBECONFIG: '' },
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      await waitFor(() => out, /mci default\/minimal-ingress: status\.loadBalancer = 1\.2\.3\.[45]/, 60_000);
      await waitFor(() => out, /mcs default\/serve: status\.loadBalancer = 1\.2\.3\.[45]/, 30_000);
      expect(out).toMatch(/finalizer karmada\.io\/multi-cluster-ingress-controller added/);
      expect(out).toMatch(/EnsuredLoadBalancer: Created load balancer: 1\.2\.3\.4/);
      const kubeconfig = (await waitFor(() => out, /kubeconfig:\s+(\S+)/, 5_000))[1]!;
      const kubectl = (...args: string[]) =>
        run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(state, 'kube-cache'), ...args]);

      // a change applied with kubectl: a new MultiClusterIngress gets a load balancer
      const file = join(state, 'second.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: networking.karmada.io/v1alpha1',
          'kind: MultiClusterIngress',
          'metadata:',
          '  name: second-ingress',
          'spec:',
          '  rules:',
          '  - http:',
          '      paths:',
          '      - path: /second',
          '        pathType: Prefix',
          '        backend:',
          '          service:',
          '            name: serve',
          '            port:',
          '              number: 80',
          '',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      await waitFor(() => out, /mci default\/second-ingress: status\.loadBalancer = 1\.2\.3\.4/, 30_000);
      const { stdout } = await kubectl(
        'get',
        'mci',
        'second-ingress',
        '-o',
        'jsonpath={.status.loadBalancer.ingress[0].ip}',
      );
      expect(stdout).toMatch(/^1\.2\.3\.[45]$/);

      // and deleting it removes the load balancer, then the finalizer, then the object
      await kubectl('delete', 'mci', 'second-ingress', '--wait=false');
      await waitFor(() => out, /mci default\/second-ingress: deleted from the API server/, 30_000);
    } finally {
      // Ctrl-C reaches the whole process group, npm and the pipeline alike.
      process.kill(-child.pid!, 'SIGINT');
      await new Promise<void>((r) => child.on('close', () => r()));
    }
    expect(out).toMatch(/stopping\.\.\./);
    // the API server is gone: nothing is left running
    const url = out.match(/API server:\s+(\S+)/)![1]!;
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  }, 120_000);
});
