import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { WATCHED_TYPES } from '../../lib/forwarder/watched.js';

const dir = join(import.meta.dirname, '../../infra/forwarder/k8s');
type Doc = { kind: string; metadata: { name: string }; [k: string]: unknown };
const load = (path: string): Doc[] =>
  parseAllDocuments(readFileSync(join(dir, path), 'utf8')).map((d) => d.toJS() as Doc);
const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';

describe('Manifests: infra/forwarder/k8s', () => {
  it('the ClusterRole grants get/list/watch on exactly the watched resources, nothing else', () => {
    const [role] = load('karmada-rbac/clusterrole.yaml') as Array<
      Doc & { rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> }
    >;
    const granted = new Set<string>();
    for (const rule of role?.rules ?? []) {
      expect(rule.verbs.sort()).toEqual(['get', 'list', 'watch']);
      for (const g of rule.apiGroups) for (const r of rule.resources) granted.add(`${g}/${r}`);
    }
    expect(granted).toEqual(new Set(WATCHED_TYPES.map((t) => `${groupOf(t.apiVersion)}/${t.plural}`)));
  });

  it('the Lease role allows only get/create/update on leases', () => {
    const [role] = load('karmada-rbac/lease-role.yaml') as Array<
      Doc & { rules: Array<{ resources: string[]; verbs: string[] }> }
    >;
    const verbs = new Set(role?.rules.flatMap((r) => r.verbs));
    expect(verbs).toEqual(new Set(['get', 'create', 'update']));
    for (const r of role?.rules ?? []) expect(r.resources).toEqual(['leases']);
  });

  it('every file a kustomization lists exists', () => {
    for (const k of ['karmada-rbac', 'host']) {
      const [kust] = load(`${k}/kustomization.yaml`) as Array<{ resources: string[] } & Doc>;
      for (const r of kust?.resources ?? []) expect(() => readFileSync(join(dir, k, r))).not.toThrow();
    }
  });

  it('the Deployment runs 2 non-root replicas with a read-only root fs, probes, limits and the kubeconfig Secret', () => {
    const [d] = load('host/deployment.yaml') as Array<Doc & { spec: any }>;
    const pod = d?.spec.template.spec;
    const c = pod.containers[0];
    expect(d?.spec.replicas).toBe(2);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.resources.requests).toBeDefined();
    expect(c.resources.limits.memory).toBeDefined();
    expect(c.args).toContain('--kubeconfig=/etc/kubeconfig/karmada.config');
    expect(pod.volumes.find((v: any) => v.name === 'karmada-kubeconfig').secret.secretName).toBe(
      'multicluster-forwarder-kubeconfig',
    );
  });
});
