/**
 * What the forwarder can read, and the credential it reads with:
 * - Secrets are not watched unless the operator lists namespaces, and then only there, with a
 *   namespaced Role; the ClusterRole grants no Secret access at all.
 * - No manifest ships a token that never expires; a `token-file` kubeconfig is re-read while the
 *   process runs, so a rotated (short-lived, TokenRequest-minted) token is used without a restart.
 * - A malformed kubeconfig is reported by one short, redacted line, never the token.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseAllDocuments, stringify } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import { loadForwarderKubeConfig } from '../../lib/forwarder/kubeconfig.js';
import { loadConfig } from '../../lib/forwarder/config.js';
import { Resources } from '../../lib/kube/resources.js';
import { makeForwarder, sampleObjects, startEnv } from '../integration/forwarder-setup.js';

const ROOT = join(import.meta.dirname, '..', '..');
const K8S = join(ROOT, 'infra/forwarder/k8s');
const docs = (path: string) =>
  parseAllDocuments(readFileSync(join(K8S, path), 'utf8')).map((d) => d.toJS() as Record<string, any>);

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  while (cleanups.length) await cleanups.pop()?.();
});

describe('forwarder Secrets: opt-in, namespaced', () => {
  it('the forwarder watches no Secret unless namespaces are listed, and then only in those', async () => {
    const env = await startEnv();
    cleanups.push(() => env.close());
    for (const { type, obj } of sampleObjects('c2VjcmV0')) await env.api.create(type, obj);
    await env.api.create(Resources.Secret, { metadata: { name: 'other', namespace: 'karmada-system' } });
    const secretRequests = () =>
      env.kube.requests.entries
        .filter((r) => r.method === 'GET' && r.path.endsWith('/secrets'))
        .map((r) => r.path);

    const off = makeForwarder({ server: env.kube.url, shutdownTimeoutMs: 100 });
    await off.start();
    await off.currentPipeline?.synced;
    await off.shutdown();
    expect(secretRequests()).toEqual([]);

    const on = makeForwarder({ server: env.kube.url, secretNamespaces: ['default'], shutdownTimeoutMs: 100 });
    await on.start();
    await on.currentPipeline?.synced;
    await vi.waitFor(() => expect(secretRequests().length).toBeGreaterThan(0), { timeout: 5_000 });
    await on.shutdown();
    expect(new Set(secretRequests())).toEqual(new Set(['/api/v1/namespaces/default/secrets']));
  }, 30_000);

  it('--watch-secrets-in is off by default and takes a namespace list', () => {
    const base = ['--sink-target', 'http://127.0.0.1:1/'];
    expect(loadConfig(base, {}).secretNamespaces).toBeUndefined();
    expect(loadConfig([...base, '--watch-secrets-in', 'shop, web'], {}).secretNamespaces).toEqual([
      'shop',
      'web',
    ]);
    expect(loadConfig(base, { FORWARDER_WATCH_SECRETS_IN: 'shop' }).secretNamespaces).toEqual(['shop']);
  });

  it('the ClusterRole grants nothing on Secrets; the opt-in Role is namespaced list/watch only', () => {
    const [clusterRole] = docs('karmada-rbac/clusterrole.yaml');
    expect(JSON.stringify(clusterRole?.rules)).not.toContain('secrets');
    const [role, binding] = [...docs('watch-secrets/role.yaml'), ...docs('watch-secrets/rolebinding.yaml')];
    expect(role?.kind).toBe('Role');
    expect(role?.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] }]);
    expect(binding?.kind).toBe('RoleBinding');
    expect(binding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'multicluster-forwarder', namespace: 'karmada-system' },
    ]);
    // The opt-in is not part of the default install.
    const [kustomization] = docs('karmada-rbac/kustomization.yaml');
    expect(kustomization?.resources).not.toContain('../watch-secrets');
  });
});

describe('forwarder credential: expiring and renewed', () => {
  it('no manifest ships a non-expiring service-account token', () => {
    for (const dir of ['karmada-rbac', 'host', 'watch-secrets']) {
      const [k] = docs(`${dir}/kustomization.yaml`);
      for (const file of k?.resources ?? []) {
        for (const d of docs(`${dir}/${file}`)) {
          expect(d.type, `${dir}/${file}`).not.toBe('kubernetes.io/service-account-token');
        }
      }
    }
    expect(() => execFileSync('bash', ['-n', join(ROOT, 'infra/forwarder/rotate-token.sh')])).not.toThrow();
    const script = readFileSync(join(ROOT, 'infra/forwarder/rotate-token.sh'), 'utf8');
    expect(script).toMatch(/create token multicluster-forwarder\s+\\?\s*--duration/);
  });

  it('a rotated token file is used without a restart', async () => {
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceList', metadata: {}, items: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const dir = mkdtempSync(join(tmpdir(), 'fwd-token-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'first-token');
    writeFileSync(
      join(dir, 'karmada.config'),
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'k',
            cluster: {
              server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
              'insecure-skip-tls-verify': true,
            },
          },
        ],
        users: [{ name: 'fwd', user: { 'token-file': tokenFile } }],
        contexts: [{ name: 'k', context: { cluster: 'k', user: 'fwd' } }],
        'current-context': 'k',
      }),
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    const api = createKubeApi(loadForwarderKubeConfig(join(dir, 'karmada.config')));
    await api.listPage('/api/v1/services', {});
    writeFileSync(tokenFile, 'second-token');
    vi.setSystemTime(Date.now() + 61_000);
    await api.listPage('/api/v1/services', {});
    expect(seen).toEqual(['Bearer first-token', 'Bearer second-token']);
  });
});

describe('forwarder kubeconfig errors', () => {
  it('a malformed kubeconfig is reported by one short line without the token in it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fwd-bad-'));
    const token = 'eyJhbGciOiJSUzI1NiJ9.forwarderTokenNeverLogged.sig';
    const path = join(dir, 'bad.config');
    // A YAML error whose snippet quotes the line with the token.
    writeFileSync(path, `users:\n- name: x\n  user:\n    token: ${token}\n   bad: [\n`);
    let message = '';
    try {
      loadForwarderKubeConfig(path);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^cannot load kubeconfig from /);
    expect(message).not.toContain(token);
    expect(message).not.toContain('forwarderTokenNeverLogged');
    expect(message.split('\n')).toHaveLength(1);
    expect(message.length).toBeLessThan(400);
  });
});

describe('forwarder pod', () => {
  it('a NetworkPolicy fences /metrics, /healthz and /readyz and the pod’s egress', () => {
    const [k] = docs('host/kustomization.yaml');
    expect(k?.resources).toContain('networkpolicy.yaml');
    const [policy] = docs('host/networkpolicy.yaml');
    expect(policy?.kind).toBe('NetworkPolicy');
    expect(policy?.spec.podSelector.matchLabels).toEqual({ app: 'multicluster-forwarder' });
    expect(policy?.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    // Every ingress rule names its sources (an empty `from` would admit everyone) and the port.
    for (const rule of policy?.spec.ingress ?? []) {
      expect(rule.from?.length).toBeGreaterThan(0);
      expect(rule.ports).toEqual([{ port: 'http-metrics', protocol: 'TCP' }]);
    }
  });

  it('the image runs a supported Node LTS, pinned by digest', () => {
    const dockerfile = readFileSync(join(ROOT, 'infra/forwarder/Dockerfile'), 'utf8');
    const from = /^FROM\s+(\S+)/m.exec(dockerfile)?.[1] ?? '';
    expect(from).toMatch(/@sha256:[0-9a-f]{64}$/);
    const major = Number(/nodejs(\d+)/.exec(from)?.[1]);
    // Node 20 reached its end of life in April 2026; 22 and 24 are LTS lines still supported.
    expect(major).toBeGreaterThanOrEqual(22);
    expect(major % 2).toBe(0);
  });
});
