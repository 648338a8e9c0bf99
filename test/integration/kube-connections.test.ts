/**
 * The Kubernetes client keeps its connections: client-node makes a new agent per request, which
 * opened a TCP (and, against a real API server, TLS) connection for every call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext, HttpMethod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeClient, loadKubeConfig, PooledAuthentication } from '../../lib/kube/client-node.js';
import { Resources } from '../../lib/kube/resources.js';

let server: http.Server;
let connections = 0;
const authorizations: Array<string | undefined> = [];
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const name = req.url?.split('?')[0]?.split('/').pop() ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } }),
    );
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const kubeconfig = () =>
  loadKubeConfig({
    text: [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: c, cluster: { server: "${url}", insecure-skip-tls-verify: true } }]`,
      'users: [{ name: u, user: { token: t } }]',
      'contexts: [{ name: x, context: { cluster: c, user: u } }]',
      'current-context: x',
    ].join('\n'),
  });

describe('Kubernetes client connections', () => {
  it('sequential calls share one kept-alive connection, and each still carries the credentials', async () => {
    connections = 0;
    authorizations.length = 0;
    const kube = createKubeClient(kubeconfig());
    for (let i = 0; i < 20; i++) {
      const cm = await kube.get(Resources.ConfigMap, 'default', `cm-${i}`);
      expect(cm?.metadata.name).toBe(`cm-${i}`);
    }
    expect(connections).toBe(1);
    expect(authorizations).toHaveLength(20);
    expect(new Set(authorizations)).toEqual(new Set(['Bearer t']));
  });

  it('a pooled connection idle for over 30 s is not used again: a new agent is made', async () => {
    let now = 0;
    const auth = new PooledAuthentication(kubeconfig(), () => now);
    const agentOf = async () => {
      const ctx = new RequestContext(`${url}/api/v1/namespaces/default/configmaps/a`, HttpMethod.GET);
      await auth.applySecurityAuthentication(ctx);
      return ctx.getAgent();
    };
    const first = await agentOf();
    now += 29_000;
    expect(await agentOf()).toBe(first);
    now += 31_000;
    const third = await agentOf();
    expect(third).not.toBe(first);
    expect(third).toBeInstanceOf(http.Agent);
  });
});
