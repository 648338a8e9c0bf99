/**
 * Runs the Kubernetes API stand-in for local development:
 *   npx tsx dev/kube-apiserver/main.ts --port 6443 --persist .local-state/api.json [--kubeconfig path] [--host 127.0.0.1]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startKubeApiServer } from './index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    host: { type: 'string', default: '127.0.0.1' },
    persist: { type: 'string' },
    kubeconfig: { type: 'string' },
    'bookmark-interval-ms': { type: 'string' },
  },
});

const server = await startKubeApiServer({
  host: values.host,
  port: Number(values.port),
  ...(values.persist ? { persistFile: resolve(values.persist) } : {}),
  ...(values['bookmark-interval-ms'] ? { bookmarkIntervalMs: Number(values['bookmark-interval-ms']) } : {}),
});
const kubeconfig = server.writeKubeconfig(resolve(values.kubeconfig ?? '.local-state/kubeconfig.yaml'));
console.log(`kube-apiserver stand-in listening on ${server.url}`);
console.log(`kubeconfig: ${kubeconfig}`);
console.log(`try: kubectl --kubeconfig ${kubeconfig} get multiclusteringresses -A`);

const shutdown = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
