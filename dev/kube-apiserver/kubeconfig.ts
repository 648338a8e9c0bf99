import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  token: string;
  namespace?: string;
  contextName?: string;
  /** The server's certificate (PEM) when it serves HTTPS: embedded as the CA. */
  caCert?: string;
}

/** A kubeconfig for kubectl and client-node: the server (HTTP, or HTTPS with its CA), bearer-token user. */
export function kubeconfigYaml(o: KubeconfigOptions): string {
  const name = o.contextName ?? 'kube-apiserver-standin';
  const cluster = o.caCert
    ? { server: o.server, 'certificate-authority-data': Buffer.from(o.caCert).toString('base64') }
    : // client-node refuses plain HTTP unless TLS verification is explicitly off; kubectl accepts both.
      { server: o.server, 'insecure-skip-tls-verify': true };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user: { token: o.token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: o.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
