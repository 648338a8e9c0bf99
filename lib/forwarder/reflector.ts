/**
 * One list+watch loop for one resource type (and namespace). Unlike Knative's ApiServerSource, it
 * reports every object on every list (the first one and each re-list after a `410 Gone` or a
 * broken watch), and reports objects that vanished while it was not watching as deleted: it keeps
 * the last version of every object it has seen for exactly that, and for `oldObject`.
 */
import type { Logger } from '../log/logger.js';
import type { KubeObject, ResourceType } from '../kube/types.js';
import { objectKey } from '../kube/types.js';
import type { ChangeNotification } from '../notification/types.js';
import { backoffDelay, sleep, type BackoffOptions } from './backoff.js';
import { collectionPath, type KubeApi, type WatchEventType } from './kube-api.js';
import type { ForwarderMetrics } from './metrics.js';
import { isSecretType, makeNotification, sanitize } from './notify.js';

export interface ReflectorOptions {
  type: ResourceType;
  /** Only this namespace; all namespaces when absent (always so for cluster-scoped types). */
  namespace?: string;
  api: KubeApi;
  emit: (n: ChangeNotification) => void;
  logger: Logger;
  metrics: ForwarderMetrics;
  pageSize?: number;
  /** Server-side watch timeout; a random value between this and twice this is used per watch. */
  watchTimeoutSeconds?: number;
  backoff?: BackoffOptions;
  /**
   * Last known objects, kept by the caller across leadership terms: a replica that leads again
   * then reports what was deleted while it did not lead.
   */
  cache?: Map<string, KubeObject>;
}

type WatchEnd = 'closed' | 'gone' | 'stopped';

const RELIST_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

export class Reflector {
  private readonly cache: Map<string, KubeObject>;
  private resourceVersion = '';
  private readonly abort = new AbortController();
  private readonly path: string;
  private readonly metadataOnly: boolean;
  private readonly log: Logger;
  private syncedResolve!: () => void;
  /** Resolves after the first complete list has been emitted. */
  readonly synced = new Promise<void>((resolve) => (this.syncedResolve = resolve));
  hasSynced = false;

  constructor(private readonly options: ReflectorOptions) {
    this.path = collectionPath(options.type, options.namespace);
    this.cache = options.cache ?? new Map();
    // Secrets: ask for metadata only, so their data never even reaches this process when the API
    // server supports it (sanitize strips it anyway when it does not).
    this.metadataOnly = isSecretType(options.type);
    this.log = options.logger.child({ kind: options.type.kind, path: this.path });
  }

  get objectCount(): number {
    return this.cache.size;
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  /** Emits `resync` for every object it knows; returns how many. */
  resync(): number {
    for (const obj of this.cache.values())
      this.options.emit(makeNotification('resync', this.options.type, obj));
    return this.cache.size;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    let attempt = 0;
    let reason = 'initial';
    while (!this.stopped) {
      try {
        await this.relist(reason);
        attempt = 0;
        for (;;) {
          const started = Date.now();
          const end = await this.watchOnce();
          if (end === 'stopped' || this.stopped) return;
          if (end === 'gone') {
            reason = 'gone';
            this.log.info('watch expired (410 Gone); re-listing', { resourceVersion: this.resourceVersion });
            break;
          }
          // A server that closes watches at once would make this loop spin: treat it as broken.
          if (Date.now() - started < 1000) throw new Error('watch closed immediately');
        }
      } catch (err) {
        if (this.stopped) return;
        reason = 'error';
        const delay = backoffDelay(attempt++, this.options.backoff ?? RELIST_BACKOFF);
        this.log.warn('list/watch failed; re-listing', { error: err, retryInMs: Math.round(delay) });
        await sleep(delay, this.abort.signal);
      }
    }
  }

  private async relist(reason: string): Promise<void> {
    const { api, type, metrics } = this.options;
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await api.listPage(this.path, {
        limit: this.options.pageSize ?? 500,
        ...(cont ? { continue: cont } : {}),
        metadataOnly: this.metadataOnly,
      });
      if (this.stopped) return;
      for (const raw of page.items ?? []) items.push(sanitize(type, raw));
      cont = page.metadata?.continue || undefined;
      rv = page.metadata?.resourceVersion ?? rv;
    } while (cont);
    metrics.relists.inc({ kind: type.kind, reason });
    metrics.eventsReceived.inc({ kind: type.kind, type: 'LISTED' }, items.length);
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj.metadata);
      seen.add(key);
      const old = this.cache.get(key);
      this.cache.set(key, obj);
      this.options.emit(makeNotification('added', type, obj, old));
    }
    let vanished = 0;
    for (const [key, old] of this.cache) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      vanished++;
      this.options.emit(makeNotification('deleted', type, old));
    }
    if (vanished > 0) metrics.eventsReceived.inc({ kind: type.kind, type: 'VANISHED' }, vanished);
    this.resourceVersion = rv;
    this.log.info('listed', { reason, objects: items.length, vanished, resourceVersion: rv });
    if (!this.hasSynced) {
      this.hasSynced = true;
      this.syncedResolve();
    }
  }

  private apply(eventType: 'ADDED' | 'MODIFIED' | 'DELETED', raw: KubeObject): void {
    const { type, metrics, emit } = this.options;
    if (!raw || typeof raw !== 'object' || !raw.metadata?.name) return;
    const obj = sanitize(type, raw);
    const key = objectKey(obj.metadata);
    if (obj.metadata.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
    metrics.eventsReceived.inc({ kind: type.kind, type: eventType });
    const old = this.cache.get(key);
    if (eventType === 'DELETED') {
      this.cache.delete(key);
      emit(makeNotification('deleted', type, obj, old));
    } else {
      this.cache.set(key, obj);
      emit(makeNotification(eventType === 'ADDED' ? 'added' : 'modified', type, obj, old));
    }
  }

  private watchOnce(): Promise<WatchEnd> {
    const base = this.options.watchTimeoutSeconds ?? 300;
    const timeoutSeconds = Math.round(base * (1 + Math.random()));
    return new Promise<WatchEnd>((resolve, reject) => {
      let controller: AbortController | undefined;
      let finished = false;
      let lastActivity = Date.now();
      // A half-open connection delivers nothing, not even the server's timeout: notice it.
      const watchdog = setInterval(
        () => {
          if (Date.now() - lastActivity > (timeoutSeconds + 30) * 1000) finish(new Error('watch stalled'));
        },
        Math.min(5000, timeoutSeconds * 1000),
      );
      const onStop = (): void => finish(undefined, 'stopped');
      this.abort.signal.addEventListener('abort', onStop, { once: true });
      const finish = (err: unknown, end: WatchEnd = 'closed'): void => {
        if (finished) return;
        finished = true;
        clearInterval(watchdog);
        this.abort.signal.removeEventListener('abort', onStop);
        controller?.abort();
        if (err) reject(err);
        else resolve(end);
      };
      const onEvent = (type: WatchEventType, object: unknown): void => {
        if (finished || this.stopped) return;
        lastActivity = Date.now();
        const obj = object as KubeObject;
        switch (type) {
          case 'ADDED':
          case 'MODIFIED':
          case 'DELETED':
            return this.apply(type, obj);
          case 'BOOKMARK':
            if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
            return;
          case 'ERROR': {
            const status = object as { code?: number; message?: string };
            if (status?.code === 410) return finish(undefined, 'gone');
            return finish(new Error(`watch error ${status?.code}: ${status?.message}`));
          }
        }
      };
      const done = (err: unknown): void => {
        const code = (err as { statusCode?: number } | null)?.statusCode;
        if (code === 410) finish(undefined, 'gone');
        else finish(err ?? undefined, 'closed');
      };
      this.options.api
        .watch(
          this.path,
          { resourceVersion: this.resourceVersion, timeoutSeconds, metadataOnly: this.metadataOnly },
          onEvent,
          done,
        )
        .then(
          (c) => {
            controller = c;
            if (finished) c.abort();
          },
          (err: unknown) => finish(err),
        );
    });
  }
}
