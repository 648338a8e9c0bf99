import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  token: string;
  namespace?: string;
  contextName?: string;
}

/** A kubeconfig for kubectl and client-node: plain HTTP server, bearer-token user. */
export function kubeconfigYaml(o: KubeconfigOptions): string {
  const name = o.contextName ?? 'kube-apiserver-standin';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    // client-node refuses plain HTTP unless TLS verification is explicitly off; kubectl accepts both.
    clusters: [{ name, cluster: { server: o.server, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: { token: o.token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: o.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
