/**
 * The deployment manifests as kubectl sees them: `kubectl kustomize` renders each kustomization,
 * and `kubectl apply --dry-run=client` accepts every rendered object against the Kubernetes API
 * stand-in (with the RBAC, policy and core kinds the manifests use registered).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

const EXTRA_KINDS = [
  { group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true },
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    namespaced: true,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
  },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    namespaced: true,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    namespaced: false,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
  },
  {
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
  },
];

let api: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  api = await startKubeApiServer();
  for (const k of EXTRA_KINDS) api.register(k);
  dir = mkdtempSync(join(tmpdir(), 'manifests-'));
  kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
});
afterAll(async () => api?.close());

describe.skipIf(!hasKubectl)('deployment manifests', () => {
  it.each([
    'infra/forwarder/k8s/karmada-rbac',
    'infra/forwarder/k8s/host',
    'infra/forwarder/k8s/watch-secrets',
    'infra/functions-rbac',
    'infra/functions-rbac/per-namespace',
    'infra/functions-rbac/admission',
  ])(
    '%s renders with kubectl kustomize and passes kubectl apply --dry-run=client',
    async (path) => {
      const rendered = (await run('kubectl', ['kustomize', join(ROOT, path)])).stdout;
      const docs = parseAllDocuments(rendered).map(
        (d) => d.toJS() as { kind: string; metadata: { name: string } },
      );
      expect(docs.length).toBeGreaterThan(0);
      for (const d of docs) expect(d.metadata.name).toBeTruthy();
      const file = join(dir, `${path.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(file, rendered);
      const { stdout } = await run('kubectl', [
        '--kubeconfig',
        kubeconfig,
        '--cache-dir',
        join(dir, 'cache'),
        'apply',
        '--dry-run=client',
        '--validate=false',
        '-f',
        file,
      ]);
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(docs.length);
      for (const line of lines) expect(line).toMatch(/(created|configured|unchanged) \(dry run\)$/);
    },
    60_000,
  );

  it("the README's deploy step 1 names the namespaces kustomize puts the functions' identity in", async () => {
    const rendered = (await run('kubectl', ['kustomize', join(ROOT, 'infra/functions-rbac')])).stdout;
    const docs = parseAllDocuments(rendered).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } },
    );
    // The functions' own identity (the token rotator's ServiceAccount and Role sit beside it).
    const FUNCTIONS = 'multicluster-cloud-provider-functions';
    const where = (kind: string) => [
      ...new Set(
        docs
          .filter((d) => d.kind === kind && d.metadata.name.startsWith(FUNCTIONS))
          .map((d) => d.metadata.namespace),
      ),
    ];
    const step = /\*\*1\. The functions' identity on the Karmada API server\.\*\*([\s\S]*?)```/
      .exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1]
      ?.replace(/\s+/g, ' ');
    expect(step).toBeDefined();
    const [account] = where('ServiceAccount');
    const [locks] = where('Role');
    expect(where('Role')).toHaveLength(1);
    expect(where('ServiceAccount')).toHaveLength(1);
    expect(step).toContain(`ServiceAccount in \`${account}\``);
    expect(step).toContain(`in their own namespace, \`${locks}\``);
    expect(locks).not.toBe(account);
    // and it is where serverless.yml has the functions keep their locks
    expect(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')).toMatch(
      new RegExp(`lockNamespace: ${locks}\\n`),
    );
  });
});
