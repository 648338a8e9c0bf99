/**
 * `npm run plan` on manifests as users write them: no namespaces, several files, a directory;
 * a text plan that shows what the load balancer will serve; one-line errors for bad paths.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadManifests, parseManifestFile, UsageError } from '../../dev/plan/manifests.js';

const ROOT = resolve(import.meta.dirname, '../..');
const UPSTREAM = join(ROOT, 'test/fixtures/upstream');
const run = promisify(execFile);

async function plan(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/plan.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

const HTTPS_MCI = `
apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterIngress
metadata:
  name: shop
  annotations:
    alb.ingress.kubernetes.io/listen-ports: '[{"HTTP":80},{"HTTPS":443}]'
    alb.ingress.kubernetes.io/certificate-arn: arn:aws:acm:us-east-1:123456789012:certificate/a,arn:aws:acm:us-east-1:123456789012:certificate/b
    alb.ingress.kubernetes.io/ssl-redirect: '443'
    alb.ingress.kubernetes.io/ssl-policy: ELBSecurityPolicy-TLS13-1-2-2021-06
    alb.ingress.kubernetes.io/healthcheck-path: /healthz
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /cart
            pathType: Prefix
            backend: { service: { name: serve, port: { number: 80 } } }
`;

const SLICE = `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: imported-member1-serve-abcde
  labels: { kubernetes.io/service-name: derived-serve }
  annotations: { work.karmada.io/namespace: karmada-es-member1 }
addressType: IPv4
ports: [{ port: 8080, protocol: TCP }]
endpoints:
  - addresses: [10.0.1.10]
`;

describe('plan manifests', () => {
  it('defaults the namespace of namespaced objects only, and unpacks Lists', () => {
    const objects = parseManifestFile(
      'x.yaml',
      [
        'apiVersion: v1\nkind: List\nitems:\n- { apiVersion: v1, kind: Service, metadata: { name: a } }',
        'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: { name: fake }',
        'apiVersion: v1\nkind: Service\nmetadata: { name: b, namespace: shop }',
      ].join('\n---\n'),
    );
    expect(objects.map((o) => o.metadata.name)).toStrictEqual(['a', 'fake', 'b']);
    const dir = mkdtempSync(join(tmpdir(), 'plan-ns-'));
    writeFileSync(join(dir, 'all.yaml'), objects.map((o) => JSON.stringify(o)).join('\n---\n'));
    const loaded = loadManifests([dir], 'team-a');
    expect(loaded.map((o) => `${o.kind}/${o.metadata.namespace ?? '-'}`)).toStrictEqual([
      'Service/team-a',
      'IngressClass/-',
      'Service/shop',
    ]);
  });

  it('names the file and line of a YAML error, and the path that is missing', () => {
    expect(() => parseManifestFile('bad.yaml', 'kind: [unclosed\n')).toThrow(
      /^bad\.yaml:2: Flow sequence .*end with a \]$/,
    );
    expect(() => loadManifests(['/no/such/dir'])).toThrow(UsageError);
    expect(() => loadManifests(['/no/such/dir'])).toThrow('/no/such/dir: no such file or directory');
  });
});

describe('npm run plan', () => {
  it('plans the upstream manifests as written (no namespaces), given as a directory', async () => {
    const { code, stdout, stderr } = await plan(UPSTREAM, '--simulator');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(
      '# MultiClusterIngress default/minimal-ingress against an empty ELBv2 simulator',
    );
    expect(stdout).not.toContain('does not exist');
    expect(stdout).toMatch(
      /priority 1: if path \/testpath \| \/testpath\/\* then forward to default\/minimal-ingress-serve:80/,
    );
  }, 60_000);

  it('reads several files and shows certificates, SSL policy, redirect and health check in text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plan-cli-'));
    writeFileSync(join(dir, 'mci.yaml'), HTTPS_MCI);
    writeFileSync(join(dir, 'slice.yaml'), SLICE);
    const { code, stdout } = await plan(
      join(dir, 'mci.yaml'),
      join(UPSTREAM, 'application.yaml'),
      join(dir, 'slice.yaml'),
      '--simulator',
    );
    expect(code).toBe(0);
    expect(stdout).toContain('default certificate arn:aws:acm:us-east-1:123456789012:certificate/a');
    expect(stdout).toContain('+ certificate arn:aws:acm:us-east-1:123456789012:certificate/b');
    expect(stdout).toContain('SSL policy ELBSecurityPolicy-TLS13-1-2-2021-06');
    expect(stdout).toContain('default action: redirect 301 to HTTPS:443');
    expect(stdout).toMatch(/health check HTTP, \/healthz, port traffic-port, every 15s, timeout 5s/);
    expect(stdout).toContain(
      'if host shop.example.com and path /cart | /cart/* then forward to default/shop-serve:80',
    );
    expect(stdout).toContain('targets + 10.0.1.10:8080');
  }, 60_000);

  it('shows weights from Karmada placement with their source, and the rule forwarding by them', async () => {
    const { code, stdout } = await plan(join(ROOT, 'test/fixtures/placement-weights.yaml'), '--simulator');
    expect(code).toBe(0);
    expect(stdout).toContain(
      'cluster weights: web:80 member1=75 member2=25 (Karmada placement of Deployment web)',
    );
    expect(stdout).toContain(
      'forward default/shop-web:80@cluster:member1 75%, default/shop-web:80@cluster:member2 25%',
    );
  }, 60_000);

  it("shows each member of an IngressGroup the group's ALB, with every member's rules in group order", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plan-group-'));
    const member = (name: string, order: string, path: string) => `
apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterIngress
metadata:
  name: ${name}
  annotations:
    alb.ingress.kubernetes.io/group.name: shop
    alb.ingress.kubernetes.io/group.order: '${order}'
spec:
  rules:
    - http:
        paths:
          - { path: ${path}, pathType: Prefix, backend: { service: { name: serve, port: { number: 80 } } } }
`;
    writeFileSync(join(dir, 'a.yaml'), member('shop-a', '5', '/a'));
    writeFileSync(join(dir, 'b.yaml'), member('shop-b', '-5', '/b'));
    const { code, stdout } = await plan(
      join(dir, 'a.yaml'),
      join(dir, 'b.yaml'),
      join(UPSTREAM, 'application.yaml'),
      '--simulator',
    );
    expect(code).toBe(0);
    const plans = stdout.split(/^# /m).filter(Boolean);
    expect(plans).toHaveLength(2);
    for (const p of plans) {
      expect(p).toContain("(IngressGroup shop: the group's load balancer)");
      expect(p.match(/\+ create LoadBalancer/g)).toHaveLength(1);
      expect(p).toContain('priority 1: if path /b | /b/* then forward to default/shop-b-serve:80');
      expect(p).toContain('priority 2: if path /a | /a/* then forward to default/shop-a-serve:80');
    }
  }, 60_000);

  it('--graph writes the topology as Mermaid: one diagram, or a Markdown block per object', async () => {
    const one = await plan(
      join(UPSTREAM, 'mci.yaml'),
      join(UPSTREAM, 'application.yaml'),
      '--simulator',
      '--graph',
    );
    expect(one.code).toBe(0);
    expect(
      one.stdout.startsWith('flowchart LR\n  n1["MultiClusterIngress<br/>default/minimal-ingress"]\n'),
    ).toBe(true);
    expect(one.stdout).toContain('subgraph n2["Region us-east-1"]');
    expect(one.stdout).toContain(
      '["priority 1<br/>path /testpath | /testpath/*<br/>(create pending)"]:::pending',
    );
    const dir = mkdtempSync(join(tmpdir(), 'plan-graph-'));
    writeFileSync(join(dir, 'mci.yaml'), HTTPS_MCI);
    const two = await plan(UPSTREAM, join(dir, 'mci.yaml'), '--simulator', '--graph');
    expect(two.stdout.match(/^```mermaid$/gm)).toHaveLength(2);
    expect(two.stdout).toContain('## MultiClusterIngress default/shop\n\n```mermaid\nflowchart LR\n');
  }, 60_000);

  it.each([
    [['/no/such/file.yaml', '--simulator'], '/no/such/file.yaml: no such file or directory'],
    [[UPSTREAM, '--config', '/no/such/cloud.yaml'], '--config /no/such/cloud.yaml: no such file'],
    [[UPSTREAM], 'give the provider configuration with --config cloud.yaml, or use --simulator'],
  ])(
    '%j fails with one line',
    async (args, message) => {
      const { code, stdout, stderr } = await plan(...args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`${message}\n`);
    },
    60_000,
  );
});
