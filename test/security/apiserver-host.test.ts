/**
 * DNS rebinding: a web page on any site can make the browser send requests to 127.0.0.1 by
 * pointing its own name at that address. The page's requests then carry its own name in `Host`.
 * The local Kubernetes API stand-in (no authentication, full write access) must answer only
 * requests addressed to the loopback names it listens on, so such a page gets nothing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { Resources } from '../../lib/kube/resources.js';

let api: KubeApiServer;
let dir: string;

beforeAll(async () => {
  api = await startKubeApiServer();
  dir = mkdtempSync(join(tmpdir(), 'apiserver-host-'));
});
afterAll(async () => {
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One GET to the stand-in's socket with the given Host header: status and body. */
function get(path: string, host: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: api.port,
        path,
        method: 'GET',
        setHost: host === undefined,
        ...(host !== undefined ? { headers: { Host: host } } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the API stand-in answers only requests addressed to its loopback names', () => {
  it.each([
    'evil.example',
    'evil.example:PORT',
    '127.0.0.1.evil.example:PORT',
    'localhost.evil.example:PORT',
    '[::1].evil.example:PORT',
    '10.0.0.1:PORT',
    '',
  ])('refuses Host %j with 403 and reads nothing', async (template) => {
    const host = template.replace('PORT', String(api.port));
    for (const path of ['/api/v1/namespaces', '/apis', '/healthz']) {
      const res = await get(path, host);
      expect(res.status, `${path} with Host ${host}`).toBe(403);
      expect(res.body).not.toContain('karmada-system');
    }
  });

  it.each([
    '127.0.0.1:PORT',
    'localhost:PORT',
    'LOCALHOST:PORT',
    '[::1]:PORT',
    '127.0.0.1',
    // A proxy in front of the stand-in passes its own port; a browser always sends the one it
    // connected to, so the port tells a rebinding page from nothing and is not compared.
    'localhost:1',
  ])('answers Host %j', async (template) => {
    const res = await get('/api/v1/namespaces', template.replace('PORT', String(api.port)));
    expect(res.status).toBe(200);
    expect(res.body).toContain('karmada-system');
  });

  it('the Status it refuses with says why', async () => {
    const res = await get('/api/v1/namespaces', 'evil.example');
    const status = JSON.parse(res.body) as { kind: string; reason: string; message: string };
    expect(status.kind).toBe('Status');
    expect(status.reason).toBe('Forbidden');
    expect(status.message).toContain('evil.example');
  });

  it('client-node (Host: 127.0.0.1:<port>) still reads and writes', async () => {
    const kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'client-node')) }));
    await kube.create(Resources.Namespace, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'hosted' },
    });
    expect((await kube.get(Resources.Namespace, undefined, 'hosted'))?.metadata.name).toBe('hosted');
  });

  const hasKubectl = (() => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!hasKubectl)('kubectl (Host: 127.0.0.1:<port>) still works', async () => {
    const kubeconfig = api.writeKubeconfig(join(dir, 'kubectl'));
    const { stdout } = await promisify(execFile)('kubectl', [
      '--kubeconfig',
      kubeconfig,
      '--cache-dir',
      join(dir, 'cache'),
      'get',
      'namespaces',
      '-o',
      'name',
    ]);
    expect(stdout).toContain('namespace/karmada-system');
  });
});
