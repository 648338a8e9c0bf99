/** `npm start` as a child process for end-to-end tests: its output, waits on it, kubectl, Ctrl-C. */
import { execFile, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export interface NpmStart {
  output(): string;
  /** Waits until the output matches `pattern`; the failure shows the output so far. */
  wait(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Real kubectl against the printed kubeconfig, with a discovery cache of its own in `state`. */
  kubectl(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Ctrl-C to the whole process group (npm and the pipeline alike); resolves with all output. */
  stop(): Promise<string>;
}

export function npmStart(state: string, args: string[]): NpmStart {
  const child = spawn('npm', ['start', '--', '--state', state, ...args], {
    cwd: ROOT,
    env: { ...process.env, KUBECONFIG: '' },
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  const wait = (pattern: RegExp, timeout = 60_000) =>
    vi.waitFor(
      () => {
        const m = out.match(pattern);
        expect(m, `waiting for ${pattern}; output so far:\n${out}`).not.toBeNull();
        return m!;
      },
      { timeout, interval: 50 },
    );
  return {
    output: () => out,
    wait,
    async kubectl(...args) {
      const kubeconfig = (await wait(/kubeconfig:\s+(\S+)/))[1]!;
      return run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(state, 'kube-cache'), ...args]);
    },
    async stop() {
      process.kill(-child.pid!, 'SIGINT');
      await closed;
      return out;
    },
  };
}

/** A port free right now, for a simulator asked to listen on it (`--elbv2-port`). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
