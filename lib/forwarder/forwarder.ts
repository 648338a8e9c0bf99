/**
 * The forwarder process minus its entry point: leader election, a pipeline per leadership term,
 * the health/metrics server and an orderly shutdown. A standby replica watches and sends nothing.
 */
import type { Logger } from '../log/logger.js';
import type { KubeObject, ResourceType } from '../kube/types.js';
import type { BackoffOptions } from './backoff.js';
import type { KubeApi } from './kube-api.js';
import { LeaderElector } from './leader.js';
import type { LeaseStore } from './lease-store.js';
import { createMetrics, type ForwarderMetrics } from './metrics.js';
import { Pipeline } from './pipeline.js';
import { startHealthServer, type HealthServer } from './server.js';
import type { Sink } from './sinks/types.js';
import { OPT_IN_SECRET_TYPE, WATCHED_TYPES } from './watched.js';

export interface ForwarderOptions {
  api: KubeApi;
  sink: Sink;
  /** Without one, this replica leads unconditionally (local runs). */
  leaseStore?: LeaseStore;
  identity: string;
  types?: readonly ResourceType[];
  namespaces?: readonly string[];
  /** Watch Secrets' metadata in exactly these namespaces (opt-in; never cluster-wide). */
  secretNamespaces?: readonly string[];
  coalesceWindowMs: number;
  /** Windows by kind that differ from `coalesceWindowMs` (EndpointSlices'). */
  kindWindowsMs?: Readonly<Record<string, number>>;
  /** Dispatch ticks (see Dispatcher); 0 sends as soon as something is ready. */
  batchIntervalMs?: number;
  resyncPeriodMs: number;
  concurrency?: number;
  backoff?: BackoffOptions;
  watchTimeoutSeconds?: number;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Health/metrics port; no server when undefined (0 picks a free port). */
  port?: number;
  shutdownTimeoutMs?: number;
  logger: Logger;
  metrics?: ForwarderMetrics;
}

export class Forwarder {
  readonly metrics: ForwarderMetrics;
  private pipeline: Pipeline | undefined;
  private elector: LeaderElector | undefined;
  private server: HealthServer | undefined;
  private leading = false;
  private shuttingDown = false;
  private shutdownPromise: Promise<boolean> | undefined;
  private readonly caches = new Map<string, Map<string, KubeObject>>();

  constructor(private readonly options: ForwarderOptions) {
    this.metrics = options.metrics ?? createMetrics();
  }

  get port(): number | undefined {
    return this.server?.port;
  }

  /** The current term's pipeline (tests inspect its queue). */
  get currentPipeline(): Pipeline | undefined {
    return this.pipeline;
  }

  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : this.leading;
  }

  /** Ready = leading with the initial list done, or standing by. */
  isReady(): boolean {
    if (this.shuttingDown) return false;
    if (!this.leading) return true;
    return this.pipeline?.hasSynced ?? false;
  }

  async start(): Promise<void> {
    const { options } = this;
    if (options.port !== undefined) {
      this.server = await startHealthServer({
        port: options.port,
        registry: this.metrics.registry,
        healthy: () => true,
        ready: () => this.isReady(),
      });
    }
    options.logger.info('forwarder starting', {
      identity: options.identity,
      sink: options.sink.name,
      leaderElection: options.leaseStore !== undefined,
      namespaces: options.namespaces ?? 'all',
      secretNamespaces: options.secretNamespaces ?? 'none',
      port: this.server?.port,
    });
    if (!options.leaseStore) return this.startLeading();
    this.elector = new LeaderElector({
      store: options.leaseStore,
      identity: options.identity,
      logger: options.logger,
      ...(options.leaseDurationMs ? { leaseDurationMs: options.leaseDurationMs } : {}),
      ...(options.renewDeadlineMs ? { renewDeadlineMs: options.renewDeadlineMs } : {}),
      ...(options.retryPeriodMs ? { retryPeriodMs: options.retryPeriodMs } : {}),
      onStartedLeading: () => this.startLeading(),
      onStoppedLeading: () => this.stopLeading(),
    });
    this.elector.start();
  }

  private startLeading(): void {
    if (this.shuttingDown) return;
    const o = this.options;
    this.leading = true;
    this.metrics.isLeader.set(1);
    this.pipeline = new Pipeline({
      api: o.api,
      sink: o.sink,
      types: [...(o.types ?? WATCHED_TYPES), ...(o.secretNamespaces?.length ? [OPT_IN_SECRET_TYPE] : [])],
      ...(o.namespaces ? { namespaces: o.namespaces } : {}),
      ...(o.secretNamespaces?.length
        ? { namespacesByKind: new Map([[OPT_IN_SECRET_TYPE.kind, o.secretNamespaces]]) }
        : {}),
      coalesceWindowMs: o.coalesceWindowMs,
      ...(o.kindWindowsMs ? { kindWindowsMs: o.kindWindowsMs } : {}),
      ...(o.batchIntervalMs !== undefined ? { batchIntervalMs: o.batchIntervalMs } : {}),
      resyncPeriodMs: o.resyncPeriodMs,
      ...(o.concurrency ? { concurrency: o.concurrency } : {}),
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.watchTimeoutSeconds ? { watchTimeoutSeconds: o.watchTimeoutSeconds } : {}),
      canSend: () => this.isLeader(),
      caches: this.caches,
      logger: o.logger,
      metrics: this.metrics,
    });
    this.pipeline.start();
  }

  private stopLeading(): void {
    this.leading = false;
    this.metrics.isLeader.set(0);
    const pipeline = this.pipeline;
    this.pipeline = undefined;
    if (!pipeline) return;
    // The next leader re-lists and sends everything, so what we held is not lost, only handed over.
    const dropped = pipeline.abort();
    this.options.logger.warn('lost leadership: stopped watching and sending', {
      droppedPendingObjects: dropped,
    });
  }

  /**
   * Stops watching, sends what is queued (within the shutdown timeout), releases the lease.
   * Resolves true when everything queued was delivered. Safe to call more than once.
   */
  shutdown(): Promise<boolean> {
    this.shutdownPromise ??= this.doShutdown();
    return this.shutdownPromise;
  }

  private async doShutdown(): Promise<boolean> {
    const { logger, shutdownTimeoutMs = 20_000 } = this.options;
    this.shuttingDown = true;
    logger.info('shutting down', { leader: this.isLeader() });
    let flushed = true;
    const pipeline = this.pipeline;
    if (pipeline) {
      pipeline.stopWatching();
      flushed = await pipeline.drain(shutdownTimeoutMs);
      const left = pipeline.queue.size;
      if (!flushed)
        logger.warn('shutdown deadline reached with notifications undelivered', { pendingObjects: left });
      this.pipeline = undefined;
      pipeline.abort();
    }
    await this.elector?.stop(true);
    this.leading = false;
    this.metrics.isLeader.set(0);
    await this.server?.close();
    this.options.sink.close?.();
    logger.info('shut down', { flushed });
    return flushed;
  }
}
