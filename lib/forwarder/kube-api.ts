/**
 * List and watch over any resource type, authenticated by client-node's KubeConfig. Lists are
 * plain JSON GETs (client-node's typed clients would turn timestamps into Date objects and know
 * nothing of our custom resources); watches use client-node's `Watch`. Both can ask for metadata
 * only (`PartialObjectMetadata`), which the forwarder does for Secrets.
 */
import http from 'node:http';
import https from 'node:https';
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { KubeApiError } from '../kube/client.js';
import type { KubeList, KubeObject, ResourceType } from '../kube/types.js';

const METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json;q=0.9';
const METADATA_WATCH = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json;q=0.9';

export interface ListPageOptions {
  limit?: number;
  continue?: string;
  metadataOnly?: boolean;
}

export interface WatchParams {
  resourceVersion: string;
  timeoutSeconds: number;
  metadataOnly?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface KubeApi {
  listPage(path: string, options: ListPageOptions): Promise<KubeList<KubeObject>>;
  /** Resolves once the stream is open; `done` is called exactly once when it ends. */
  watch(
    path: string,
    params: WatchParams,
    onEvent: (type: WatchEventType, object: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController>;
}

/** `/api/v1[/namespaces/ns]/plural` or `/apis/group/version[/namespaces/ns]/plural`. */
export function collectionPath(type: ResourceType, namespace?: string): string {
  const base = type.apiVersion.includes('/') ? `/apis/${type.apiVersion}` : `/api/${type.apiVersion}`;
  return type.namespaced && namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${type.plural}`
    : `${base}/${type.plural}`;
}

/** A KubeConfig whose fetch options carry our Accept header, for client-node's Watch. */
function withAccept(kc: KubeConfig, accept: string): KubeConfig {
  const wrapped = Object.create(kc) as KubeConfig;
  wrapped.applyToFetchOptions = async (opts) => {
    const init = await kc.applyToFetchOptions(opts);
    // client-node builds a WHATWG Headers here (typed as node-fetch's init): set ours on it.
    (init.headers as unknown as Headers).set('Accept', accept);
    return init;
  };
  return wrapped;
}

export function createKubeApi(kc: KubeConfig): KubeApi {
  const plainWatch = new Watch(kc);
  const metadataWatch = new Watch(withAccept(kc, METADATA_WATCH));

  async function getJson(path: string, query: URLSearchParams, accept: string): Promise<unknown> {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    const url = new URL(cluster.server.replace(/\/$/, '') + path);
    url.search = query.toString();
    const opts: https.RequestOptions = { method: 'GET', headers: { Accept: accept } };
    await kc.applyToHTTPSOptions(opts);
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(url, opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300 && body !== undefined) return resolve(body);
          const s = (body ?? {}) as { message?: string; reason?: string; code?: number };
          reject(
            new KubeApiError(s.message ?? `GET ${path}: HTTP ${status}`, s.code ?? status, s.reason ?? ''),
          );
        });
      });
      req.setTimeout(60_000, () => req.destroy(new Error(`GET ${path}: timed out`)));
      req.on('error', reject);
      req.end();
    });
  }

  return {
    async listPage(path, options) {
      const query = new URLSearchParams();
      if (options.limit) query.set('limit', String(options.limit));
      if (options.continue) query.set('continue', options.continue);
      const body = await getJson(path, query, options.metadataOnly ? METADATA_LIST : 'application/json');
      return body as KubeList<KubeObject>;
    },
    watch(path, params, onEvent, done) {
      const w = params.metadataOnly ? metadataWatch : plainWatch;
      return w.watch(
        path,
        {
          resourceVersion: params.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: params.timeoutSeconds,
        },
        (type: string, object: unknown) => onEvent(type as WatchEventType, object),
        done,
      );
    },
  };
}
