/**
 * The interim notification source for local runs: list + watch the watched kinds on the API
 * server and POST one ChangeNotification per object and event to the function URL.
 * (The cluster watch forwarder replaces this in the local pipeline when it is available.)
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import { WATCHED_TYPES } from '../../lib/forwarder/watched.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import {
  NOTIFICATION_API_VERSION,
  NOTIFICATION_KIND,
  type ChangeNotification,
  type ChangeType,
} from '../../lib/notification/types.js';

/** The forwarder's list: both sources watch the same kinds. */
export const WATCHED: readonly ResourceType[] = WATCHED_TYPES;

function basePath(t: ResourceType): string {
  return `${t.apiVersion.includes('/') ? '/apis' : '/api'}/${t.apiVersion}/${t.plural}`;
}

export function notificationFor(change: ChangeType, obj: KubeObject, old?: KubeObject): ChangeNotification {
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change,
    ref: {
      apiVersion: obj.apiVersion ?? '',
      kind: obj.kind ?? '',
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
      name: obj.metadata.name ?? '',
      ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
      ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
    },
    object: obj,
    ...(old ? { oldObject: old } : {}),
    observedAt: new Date().toISOString(),
  };
}

export interface WatchLoop {
  stop(): void;
}

export function startWatchLoop(kc: KubeConfig, send: (n: ChangeNotification) => Promise<void>): WatchLoop {
  const watch = new Watch(kc);
  const aborts: AbortController[] = [];
  let stopped = false;
  const known = new Map<string, KubeObject>();
  const run = async (t: ResourceType, resourceVersion?: string): Promise<void> => {
    if (stopped) return;
    const ac = await watch.watch(
      basePath(t),
      { allowWatchBookmarks: true, ...(resourceVersion ? { resourceVersion } : {}) },
      (phase: string, obj: KubeObject) => {
        if (phase === 'BOOKMARK' || phase === 'ERROR') return;
        const key = `${t.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
        const old = known.get(key);
        const change: ChangeType = phase === 'ADDED' ? 'added' : phase === 'DELETED' ? 'deleted' : 'modified';
        if (change === 'deleted') known.delete(key);
        else known.set(key, { ...obj, apiVersion: t.apiVersion, kind: t.kind });
        void send(notificationFor(change, { ...obj, apiVersion: t.apiVersion, kind: t.kind }, old));
      },
      () => {
        // The stream ended (or the server closed it): watch again from the start, as a re-list would.
        if (!stopped) setTimeout(() => void run(t), 200);
      },
    );
    aborts.push(ac);
  };
  for (const t of WATCHED) void run(t);
  return {
    stop() {
      stopped = true;
      for (const a of aborts) a.abort();
    },
  };
}
