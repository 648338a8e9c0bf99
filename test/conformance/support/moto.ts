/**
 * moto_server (the Python AWS mock, an implementation of AWS's APIs this project did not write) on
 * 127.0.0.1, one per test file: started on a free port, its whole state reset between scenarios
 * (`POST /moto-api/reset`), stopped by its process ID when the file is done.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** The moto this suite's difference table (test/conformance/README.md) was written against. */
export const MOTO_VERSION = '5.2.1';
export const MOTO_INSTALL = `pip install 'moto[server]'==${MOTO_VERSION}`;

export interface MotoServer {
  readonly url: string;
  /** Forgets every resource of every service, account and Region. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Why moto cannot be used here, or undefined when `moto_server` is there in the right version. */
export function motoMissing(): string | undefined {
  const found = spawnSync('python3', ['-c', 'import moto.server, moto; print(moto.__version__)'], {
    encoding: 'utf8',
  });
  const version = found.status === 0 ? found.stdout.trim() : undefined;
  if (version === undefined) return `moto is not installed: ${MOTO_INSTALL}`;
  if (version !== MOTO_VERSION)
    return `moto ${version} is installed, the conformance suite needs ${MOTO_VERSION}: ${MOTO_INSTALL}`;
  return undefined;
}

export async function startMoto(): Promise<MotoServer> {
  const missing = motoMissing();
  if (missing) throw new Error(missing);
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`moto_server did not start in 30 s: ${seen}`)), 30_000);
    const look = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`moto_server exited (${code}) before it listened: ${seen}`));
    });
    // Not on PATH (ENOENT): the same one line as for a missing moto.
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`moto_server could not be started (${err.message}): ${MOTO_INSTALL}`));
    });
  });
  // A worker that ends without afterAll (a crash, a timeout) takes its moto_server with it.
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  // Werkzeug logs each request; nobody reads it past the start.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url,
    async reset() {
      const res = await fetch(`${url}/moto-api/reset`, { method: 'POST' });
      if (!res.ok) throw new Error(`moto reset answered ${res.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        process.off('exit', stop);
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
