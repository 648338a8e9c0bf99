import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPath, createKubeApi } from '../../lib/forwarder/kube-api.js';
import { Resources } from '../../lib/kube/resources.js';
import { kubeConfigFor } from '../integration/forwarder-fakes.js';

describe('Function: createKubeApi (client-node auth, metadata-only Accept)', () => {
  const seen: Array<{ url: string; accept: string | undefined; auth: string | undefined }> = [];
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', accept: req.headers.accept, auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.includes('watch=true')) {
        res.end(
          `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'w', resourceVersion: '6' } } })}\n`,
        );
        return;
      }
      res.end(
        JSON.stringify({
          kind: 'PartialObjectMetadataList',
          metadata: { resourceVersion: '5' },
          items: [{ metadata: { name: 's' } }],
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('builds core and group collection paths', () => {
    expect(collectionPath(Resources.Secret)).toBe('/api/v1/secrets');
    expect(collectionPath(Resources.Secret, 'shop')).toBe('/api/v1/namespaces/shop/secrets');
    expect(collectionPath(Resources.Cluster, 'ignored')).toBe('/apis/cluster.karmada.io/v1alpha1/clusters');
  });

  it('asks for PartialObjectMetadata on list and watch when metadataOnly, with the kubeconfig token', async () => {
    const api = createKubeApi(kubeConfigFor(url, 'sekret-token'));
    const page = await api.listPage('/api/v1/secrets', { limit: 10, metadataOnly: true });
    expect(page.items).toHaveLength(1);
    const events: string[] = [];
    await new Promise<void>((resolve) => {
      void api.watch(
        '/api/v1/secrets',
        { resourceVersion: '5', timeoutSeconds: 5, metadataOnly: true },
        (t) => events.push(t),
        () => resolve(),
      );
    });
    expect(events).toEqual(['ADDED']);
    const [list, watch] = seen;
    expect(list?.url).toBe('/api/v1/secrets?limit=10');
    expect(list?.accept).toContain('as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
    expect(list?.auth).toBe('Bearer sekret-token');
    expect(watch?.url).toContain('watch=true');
    expect(watch?.url).toContain('allowWatchBookmarks=true');
    expect(watch?.url).toContain('resourceVersion=5');
    expect(watch?.accept).toContain('as=PartialObjectMetadata;v=v1;g=meta.k8s.io');
    expect(watch?.auth).toBe('Bearer sekret-token');
  });

  it('asks for plain JSON otherwise', async () => {
    seen.length = 0;
    const api = createKubeApi(kubeConfigFor(url));
    await api.listPage('/api/v1/services', {});
    expect(seen[0]?.accept).toBe('application/json');
  });
});
