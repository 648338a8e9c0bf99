import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';

const run = promisify(execFile);
const FIXTURES = new URL('../fixtures/upstream/', import.meta.url);
const fixture = (name: string): string => new URL(name, FIXTURES).pathname;

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const hasKubectl = kubectlAvailable();
if (!hasKubectl) console.warn('kube-apiserver kubectl tests SKIPPED: kubectl is not on PATH');

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

/** Every call gets its own cache dir: kubectl caches discovery per host:port for hours. */
const args = (...rest: string[]): string[] => [
  '--kubeconfig',
  kubeconfig,
  '--cache-dir',
  join(dir, 'cache'),
  ...rest,
];

async function kubectl(...rest: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args(...rest), { env: { ...process.env, KUBECONFIG: kubeconfig } });
  return stdout;
}

async function kubectlFails(...rest: string[]): Promise<string> {
  try {
    await kubectl(...rest);
  } catch (e) {
    return String((e as { stderr?: string }).stderr);
  }
  throw new Error(`kubectl ${rest.join(' ')} unexpectedly succeeded`);
}

describe.skipIf(!hasKubectl)('kube-apiserver stand-in: real kubectl', () => {
  beforeAll(async () => {
    server = await startKubeApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-apiserver-kubectl-'));
    kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the upstream README manifests with strict validation and reads them back', async () => {
    expect(await kubectl('apply', '-f', fixture('mci.yaml'))).toBe(
      'multiclusteringress.networking.karmada.io/minimal-ingress created\n',
    );
    expect(await kubectl('apply', '-f', fixture('application.yaml'))).toBe(
      'deployment.apps/serve created\nservice/serve created\npropagationpolicy.policy.karmada.io/mcs-workload created\n',
    );
    const post = server.requests.entries.find(
      (e) => e.method === 'POST' && e.path.endsWith('/multiclusteringresses'),
    );
    expect(post?.query).toContain('fieldValidation=Strict');

    const mci = parse(await kubectl('get', 'mci', 'minimal-ingress', '-o', 'yaml'));
    expect(mci.metadata.annotations['nginx.ingress.kubernetes.io/rewrite-target']).toBe('/');
    expect(mci.spec.rules[0].http.paths[0]).toEqual({
      path: '/testpath',
      pathType: 'Prefix',
      backend: { service: { name: 'serve', port: { number: 80 } } },
    });
    const deploy = parse(await kubectl('get', 'deployment', 'serve', '-o', 'yaml'));
    expect(deploy.spec.template.spec.containers[0].image).toBe('jeremyot/serve:0a40de8');
    const pp = parse(
      await kubectl('get', 'propagationpolicies.policy.karmada.io', 'mcs-workload', '-o', 'yaml'),
    );
    expect(pp.spec.placement.clusterAffinity.clusterNames).toEqual(['member1', 'member2']);
    const svc = parse(await kubectl('get', 'svc', 'serve', '-o', 'yaml'));
    expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
  });

  it('rejects unknown fields through kubectl apply (server-side strict validation)', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      readFileSync(fixture('mci.yaml'), 'utf8')
        .replace('spec:\n', 'spec:\n  bogus: true\n')
        .replace('minimal-ingress', 'bad-ingress'),
    );
    expect(await kubectlFails('apply', '-f', bad)).toContain(
      'strict decoding error: unknown field "spec.bogus"',
    );
  });

  it('sees a second apply (a PATCH) through kubectl get -w', async () => {
    const watcher = spawn(
      'kubectl',
      args('get', 'mci', 'minimal-ingress', '-w', '-o', 'json', '--request-timeout', '20s'),
    );
    let out = '';
    watcher.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const killTimer = setTimeout(() => watcher.kill(), 20_000);
    try {
      await vi.waitFor(() => expect(out).toContain('/testpath'), { timeout: 10_000, interval: 50 });

      const changedMci = join(dir, 'mci.yaml');
      writeFileSync(changedMci, readFileSync(fixture('mci.yaml'), 'utf8').replace('/testpath', '/changed'));
      const changedApp = join(dir, 'application.yaml');
      writeFileSync(
        changedApp,
        readFileSync(fixture('application.yaml'), 'utf8')
          .replace('replicas: 1', 'replicas: 3')
          .replace('targetPort: 8080', 'targetPort: 9090'),
      );
      server.requests.reset();
      expect(await kubectl('apply', '-f', changedMci)).toBe(
        'multiclusteringress.networking.karmada.io/minimal-ingress configured\n',
      );
      expect(await kubectl('apply', '-f', changedApp)).toBe(
        'deployment.apps/serve configured\nservice/serve configured\npropagationpolicy.policy.karmada.io/mcs-workload unchanged\n',
      );
      const patches = server.requests.entries
        .filter((e) => e.method === 'PATCH')
        .map((e) => `${e.path} ${e.contentType}`);
      expect(patches).toEqual([
        '/apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses/minimal-ingress application/merge-patch+json',
        '/apis/apps/v1/namespaces/default/deployments/serve application/strategic-merge-patch+json',
        '/api/v1/namespaces/default/services/serve application/strategic-merge-patch+json',
      ]);

      await vi.waitFor(() => expect(out).toContain('/changed'), { timeout: 15_000, interval: 50 });
    } finally {
      clearTimeout(killTimer);
      watcher.kill();
    }
    const mci = parse(await kubectl('get', 'mci', 'minimal-ingress', '-o', 'yaml'));
    expect(mci.metadata.generation).toBe(2);
    const deploy = parse(await kubectl('get', 'deploy', 'serve', '-o', 'yaml'));
    expect([deploy.spec.replicas, deploy.spec.template.spec.containers[0].env.length]).toEqual([3, 2]);
    const svc = parse(await kubectl('get', 'svc', 'serve', '-o', 'yaml'));
    expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 9090 }]);
  });

  it('edits an object with kubectl edit', async () => {
    const { stdout } = await run('kubectl', args('edit', 'mci', 'minimal-ingress'), {
      env: { ...process.env, KUBE_EDITOR: 'sed -i s#/changed#/edited#' },
    });
    expect(stdout).toBe('multiclusteringress.networking.karmada.io/minimal-ingress edited\n');
    const mci = parse(await kubectl('get', 'mci', 'minimal-ingress', '-o', 'yaml'));
    expect(mci.spec.rules[0].http.paths[0].path).toBe('/edited');
  });

  it('scales the Deployment with kubectl scale (the /scale subresource)', async () => {
    expect(await kubectl('scale', 'deployment', 'serve', '--replicas', '2')).toBe(
      'deployment.apps/serve scaled\n',
    );
    expect(await kubectl('get', 'deployment', 'serve', '-o', 'jsonpath={.spec.replicas}')).toBe('2');
  });

  it('deletes them with kubectl delete and reports NotFound afterwards', async () => {
    expect(await kubectl('delete', '-f', fixture('mci.yaml'))).toBe(
      'multiclusteringress.networking.karmada.io "minimal-ingress" deleted\n',
    );
    expect(await kubectl('delete', '-f', fixture('application.yaml'))).toContain(
      'deployment.apps "serve" deleted',
    );
    expect(await kubectlFails('get', 'mci', 'minimal-ingress')).toContain(
      'Error from server (NotFound): multiclusteringresses.networking.karmada.io "minimal-ingress" not found',
    );
    expect(await kubectl('get', 'deploy,svc,pp', '-o', 'name')).toBe('');
  });
});
