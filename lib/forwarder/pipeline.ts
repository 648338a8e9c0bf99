/**
 * Everything a leader runs, created fresh for each term so nothing leaks from one term to the next:
 * one reflector per watched type (per namespace when filtered), the pending queue, the dispatcher
 * and the resync timer.
 */
import type { Logger } from '../log/logger.js';
import type { KubeObject, ResourceType } from '../kube/types.js';
import type { BackoffOptions } from './backoff.js';
import { Dispatcher } from './dispatcher.js';
import type { KubeApi } from './kube-api.js';
import type { ForwarderMetrics } from './metrics.js';
import { PendingQueue } from './pending.js';
import { Reflector } from './reflector.js';
import { collectionPath } from './kube-api.js';
import type { Sink } from './sinks/types.js';

export interface PipelineOptions {
  api: KubeApi;
  sink: Sink;
  types: readonly ResourceType[];
  namespaces?: readonly string[];
  /** Kinds watched in these namespaces only, whatever `namespaces` says (opt-in Secrets). */
  namespacesByKind?: ReadonlyMap<string, readonly string[]>;
  coalesceWindowMs: number;
  /** Windows by kind that differ from `coalesceWindowMs` (EndpointSlices'). */
  kindWindowsMs?: Readonly<Record<string, number>>;
  batchIntervalMs?: number;
  resyncPeriodMs: number;
  concurrency?: number;
  backoff?: BackoffOptions;
  watchTimeoutSeconds?: number;
  canSend: () => boolean;
  /** Reflector caches by collection path, owned by the caller so they outlive this term. */
  caches?: Map<string, Map<string, KubeObject>>;
  logger: Logger;
  metrics: ForwarderMetrics;
}

function cacheFor(
  caches: Map<string, Map<string, KubeObject>> | undefined,
  path: string,
): Map<string, KubeObject> {
  let cache = caches?.get(path);
  if (!cache) {
    cache = new Map();
    caches?.set(path, cache);
  }
  return cache;
}

export class Pipeline {
  readonly queue: PendingQueue;
  private readonly dispatcher: Dispatcher;
  private readonly reflectors: Reflector[] = [];
  private resyncTimer: NodeJS.Timeout | undefined;
  private syncedFlag = false;
  readonly synced: Promise<void>;

  constructor(private readonly options: PipelineOptions) {
    const { metrics } = options;
    this.queue = new PendingQueue({
      windowMs: options.coalesceWindowMs,
      ...(options.kindWindowsMs ? { kindWindowsMs: options.kindWindowsMs } : {}),
      onAdd: () => this.dispatcher.wake(),
    });
    this.dispatcher = new Dispatcher({
      queue: this.queue,
      sink: options.sink,
      logger: options.logger,
      metrics,
      canSend: options.canSend,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.batchIntervalMs !== undefined ? { batchIntervalMs: options.batchIntervalMs } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
    });
    const emit = this.queue.add.bind(this.queue);
    for (const type of options.types) {
      const only = options.namespacesByKind?.get(type.kind);
      const namespaces: ReadonlyArray<string | undefined> = only?.length
        ? only
        : type.namespaced && options.namespaces?.length
          ? options.namespaces
          : [undefined];
      for (const namespace of namespaces) {
        this.reflectors.push(
          new Reflector({
            type,
            ...(namespace ? { namespace } : {}),
            api: options.api,
            emit: (n) => {
              emit(n);
              metrics.pendingObjects.set(this.queue.size);
            },
            logger: options.logger,
            metrics,
            ...(options.watchTimeoutSeconds ? { watchTimeoutSeconds: options.watchTimeoutSeconds } : {}),
            cache: cacheFor(options.caches, collectionPath(type, namespace)),
          }),
        );
      }
    }
    this.synced = Promise.all(this.reflectors.map((r) => r.synced)).then(() => {
      this.syncedFlag = true;
    });
  }

  get hasSynced(): boolean {
    return this.syncedFlag;
  }

  get objectCount(): number {
    return this.reflectors.reduce((n, r) => n + r.objectCount, 0);
  }

  start(): void {
    for (const r of this.reflectors) r.start();
    if (this.options.resyncPeriodMs > 0) {
      this.resyncTimer = setInterval(() => this.resync(), this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
    void this.synced.then(() => this.options.logger.info('initial sync done', { objects: this.objectCount }));
  }

  /** Queues a `resync` for every known object. */
  resync(): number {
    const n = this.reflectors.reduce((sum, r) => sum + r.resync(), 0);
    this.options.logger.info('resync', { objects: n });
    return n;
  }

  /** Stops watching; what is already queued stays for `drain`. */
  stopWatching(): void {
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    for (const r of this.reflectors) r.stop();
  }

  /** Sends everything queued, ignoring the coalescing window; true when nothing is left. */
  drain(timeoutMs: number): Promise<boolean> {
    return this.dispatcher.flush(timeoutMs);
  }

  /** Stops everything at once and forgets what is queued; returns how many objects were dropped. */
  abort(): number {
    this.stopWatching();
    this.dispatcher.stop();
    const dropped = this.queue.clear();
    this.options.metrics.pendingObjects.set(0);
    return dropped;
  }
}
