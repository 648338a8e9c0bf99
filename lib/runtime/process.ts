/**
 * Processes a batch of notifications (an SQS batch, a forwarder POST, a direct invoke): parse
 * each item, map it to reconcile requests, run each distinct request once (in parallel across
 * objects), and report per item. One bad item or one failing object never fails the others.
 */
import { errorMessage, findCause, isWaiting, RetryLaterError, WaitingError } from '../errors.js';
import { NotificationError } from '../notification/parse.js';
import type { NormalizedNotification } from '../notification/types.js';
import { metrics } from '../metrics/index.js';
import { dedupe, requestKey, type ControllerName, type ReconcileRequest } from '../reconcile/requests.js';
import { routeNotification } from '../reconcile/route.js';
import { runRequest, type RunOptions } from '../reconcile/run.js';
import type { ReconcileDeps, ReconcileResult } from '../reconcile/types.js';
import { changesSeenBy, RecentReconciles } from './recent-reconciles.js';
import type { Runtime } from './runtime.js';

/** Each container's record of finished reconciles (recent-reconciles.ts). */
const recentByRuntime = new WeakMap<Runtime, RecentReconciles>();

export interface BatchItem {
  /** The SQS messageId, or an index. */
  id: string;
  /** Parses the item; throws a NotificationError when it is malformed. */
  notifications: () => NormalizedNotification[];
}

export interface ItemResult {
  id: string;
  ok: boolean;
  error?: string;
  /** Set when the failure is transient and says when to try again. */
  retryAfterSeconds?: number;
  /** The item itself was refused (malformed, not allowed): the sender's fault, retrying cannot help. */
  rejected?: boolean;
  /**
   * Not a failure: every object it names either reconciled or only waits (on the cloud, or on
   * another invocation's lock) and must be delivered again after `retryAfterSeconds`.
   */
  waiting?: boolean;
  results: ReconcileResult[];
}

export interface ProcessOptions {
  signal: AbortSignal;
  /** Identity for locks and logs (the Lambda request id). */
  holder: string;
  /** Run only these controllers' requests (upstream's `--controllers`); every controller when omitted. */
  controllers?: readonly ControllerName[];
  mci?: RunOptions['mci'];
  /** How many objects are reconciled at once. */
  concurrency?: number;
  /**
   * Most distinct objects one invocation reconciles (a cluster-scoped change fans out to every
   * object that uses it). Items beyond it are deferred (retry soon); one item that alone exceeds it
   * is refused, naming the cap: such a change belongs on the queue.
   */
  maxRequests?: number;
  /**
   * The invocation's time left (Lambda's getRemainingTimeInMillis). An object not started while a
   * reconcile's worth of time is left waits for the next delivery instead of being cut off by the
   * timeout: one invocation takes what it finishes.
   */
  remainingMs?: () => number;
}

interface Planned {
  id: string;
  requests: ReconcileRequest[];
  error?: unknown;
  resync: boolean;
  /** When the forwarder had seen all of the item's changes (changesSeenBy); undefined: unknown. */
  seenBy?: number;
}

export async function processBatch(
  rt: Runtime,
  items: BatchItem[],
  options: ProcessOptions,
): Promise<ItemResult[]> {
  const base: ReconcileDeps = {
    kube: rt.kube,
    provider: rt.provider,
    providerIngressClass: rt.config.providerIngressClass,
    events: rt.events,
    logger: rt.logger,
    signal: options.signal,
    ...(rt.config.allowedNamespaces ? { namespaces: rt.config.allowedNamespaces } : {}),
  };

  const planned: Planned[] = await Promise.all(
    items.map(async (item): Promise<Planned> => {
      try {
        const notifications = item.notifications();
        const requests: ReconcileRequest[] = [];
        for (const n of notifications) {
          checkNamespace(rt, n);
          // A change to a cluster-scoped object (an IngressClass, a Cluster) fans out to objects in
          // every namespace; those outside the allowed ones are not ours to touch.
          const routed = await routeNotification(base, n);
          requests.push(
            ...routed.filter(
              (r) =>
                namespaceAllowed(rt, r.namespace) &&
                (!options.controllers || options.controllers.includes(r.controller)),
            ),
          );
        }
        const seenBy = changesSeenBy(notifications);
        return {
          id: item.id,
          requests: dedupe(requests),
          resync: notifications.some((n) => n.change === 'resync'),
          ...(seenBy !== undefined ? { seenBy } : {}),
        };
      } catch (error) {
        // A malformed or refused notification is the sender's fault and retrying cannot help; a
        // failed read while routing (API server down, credentials rejected) is ours and may pass.
        const rejected = findCause(error, NotificationError) !== undefined;
        rt.logger.error(rejected ? 'notification rejected' : 'notification could not be routed', {
          item: item.id,
          error,
        });
        return { id: item.id, requests: [], error, resync: false };
      }
    }),
  );

  if (options.maxRequests !== undefined) capFanOut(planned, options.maxRequests, rt);

  // Each object once, even when several items name it; a resync anywhere makes it a full check,
  // and it is covered by an earlier reconcile only if that one saw every item's changes.
  const unique = new Map<string, { request: ReconcileRequest; resync: boolean; seenBy?: number }>();
  for (const p of planned) {
    for (const r of p.requests) {
      const k = requestKey(r);
      const seen = unique.get(k);
      const seenBy =
        p.seenBy === undefined || (seen && seen.seenBy === undefined)
          ? undefined
          : Math.max(seen?.seenBy ?? -Infinity, p.seenBy);
      unique.set(k, {
        request: r,
        resync: (seen?.resync ?? false) || p.resync,
        ...(seenBy !== undefined ? { seenBy } : {}),
      });
    }
  }
  const recent = recentByRuntime.get(rt) ?? new RecentReconciles();
  recentByRuntime.set(rt, recent);
  const outcomes = new Map<string, { result?: ReconcileResult; error?: unknown }>();
  const runOptions: RunOptions = {
    holder: options.holder,
    lockSeconds: rt.config.timeoutSeconds,
    ...(rt.config.lockNamespace ? { lockNamespace: rt.config.lockNamespace } : {}),
    ...(options.mci ? { mci: options.mci } : {}),
  };
  await forEachLimited([...unique.entries()], options.concurrency ?? 8, async ([k, entry]) => {
    const { request, resync } = entry;
    const logger = rt.logger.child({
      key: `${request.namespace}/${request.name}`,
      controller: request.controller,
    });
    const kind = RECONCILED_KIND[request.controller];
    const started = performance.now();
    if (options.remainingMs && options.remainingMs() < reserveMs(rt)) {
      logger.info('reconcile left to the next delivery: this invocation is near its timeout');
      metrics.reconciled(kind, 'waiting', 0);
      outcomes.set(k, {
        error: new WaitingError(
          `deferred: this invocation is near its timeout; ${request.namespace}/${request.name} is reconciled by the next delivery`,
          { retryAfterSeconds: 0 },
        ),
      });
      return;
    }
    // A resync asks for a deep check, which only a deep check since replaces.
    if (recent.covers(k, entry.seenBy, resync)) {
      logger.info('already reconciled since this change was seen');
      metrics.reconciled(kind, 'unchanged', 0);
      outcomes.set(k, {
        result: {
          controller: request.controller,
          key: `${request.namespace}/${request.name}`,
          outcome: 'unchanged',
          detail: 'reconciled since this change was seen',
        },
      });
      return;
    }
    const startedAt = Date.now();
    try {
      const result = await runRequest({ ...base, logger, resync }, request, runOptions);
      recent.record(k, startedAt, resync);
      logger.info('reconciled', {
        outcome: result.outcome,
        ...(result.detail ? { detail: result.detail } : {}),
      });
      metrics.reconciled(kind, result.outcome, performance.now() - started, result.reason);
      outcomes.set(k, { result });
    } catch (error) {
      const later = findCause(error, RetryLaterError) !== undefined;
      const waiting = isWaiting(error);
      // Waiting on the cloud (an accelerator deploying) is how a deletion goes, not a warning.
      if (waiting) logger.info('reconcile waiting, will retry', { error });
      else if (later) logger.warn('reconcile deferred, will retry', { error });
      else logger.error('reconcile failed', { error });
      const outcome = waiting ? 'waiting' : later ? 'retry_later' : 'failed';
      metrics.reconciled(kind, outcome, performance.now() - started);
      outcomes.set(k, { error });
    }
  });

  return planned.map((p): ItemResult => {
    if (p.error !== undefined) {
      const retry = findCause(p.error, RetryLaterError);
      return {
        id: p.id,
        ok: false,
        error: errorMessage(p.error),
        results: [],
        ...(isWaiting(p.error) ? { waiting: true } : {}),
        ...(findCause(p.error, NotificationError) ? { rejected: true } : {}),
        ...(retry?.retryAfterSeconds !== undefined ? { retryAfterSeconds: retry.retryAfterSeconds } : {}),
      };
    }
    const results: ReconcileResult[] = [];
    const errors: unknown[] = [];
    for (const r of p.requests) {
      const o = outcomes.get(requestKey(r));
      if (o?.result) results.push(o.result);
      if (o?.error !== undefined) errors.push(o.error);
    }
    if (!errors.length) return { id: p.id, ok: true, results };
    const retry = errors.map((e) => findCause(e, RetryLaterError)).find((e) => e !== undefined);
    return {
      id: p.id,
      ok: false,
      error: errors.map(errorMessage).join('; '),
      results,
      ...(errors.every(isWaiting) ? { waiting: true } : {}),
      ...(retry?.retryAfterSeconds !== undefined ? { retryAfterSeconds: retry.retryAfterSeconds } : {}),
    };
  });
}

/** Keeps the invocation's distinct requests within `max`, in item order (see ProcessOptions.maxRequests). */
function capFanOut(planned: Planned[], max: number, rt: Runtime): void {
  const accepted = new Set<string>();
  for (const p of planned) {
    if (p.error !== undefined) continue;
    const added = p.requests.map(requestKey).filter((k) => !accepted.has(k));
    if (accepted.size + added.length <= max) {
      for (const k of added) accepted.add(k);
      continue;
    }
    p.error =
      added.length > max
        ? new NotificationError(
            `refused: this notification fans out to ${added.length} objects, more than the ${max} one invocation of this function reconciles; deliver it through the queue`,
          )
        : new WaitingError(`deferred: this invocation already reconciles ${accepted.size} objects`, {
            retryAfterSeconds: 1,
          });
    rt.logger.warn('fan-out cap reached', { item: p.id, objects: added.length, cap: max });
    p.requests = [];
  }
}

/**
 * Time an invocation keeps for a reconcile it starts: a quarter of the function's timeout, at
 * least 5 s (a reconcile over two Regions with retries takes seconds).
 */
function reserveMs(rt: Runtime): number {
  return Math.max(5_000, (rt.config.timeoutSeconds * 1000) / 4);
}

/** The kind of object each controller reconciles: the `Kind` dimension of the metrics. */
const RECONCILED_KIND: Record<ControllerName, string> = {
  multiclusteringress: 'MultiClusterIngress',
  'mci-service-locations': 'MultiClusterIngress',
  multiclusterservice: 'MultiClusterService',
  'serviceexport-propagation': 'Service',
  'crd-installation': 'ClusterPropagationPolicy',
};

/** Cluster-scoped keys (namespace '') are always allowed. */
function namespaceAllowed(rt: Runtime, namespace: string | undefined): boolean {
  const allowed = rt.config.allowedNamespaces;
  return !allowed || !namespace || allowed.includes(namespace);
}

function checkNamespace(rt: Runtime, n: NormalizedNotification): void {
  const allowed = rt.config.allowedNamespaces;
  if (!allowed || !n.ref.namespace) return;
  if (!allowed.includes(n.ref.namespace)) {
    throw new NotificationError(
      `refused: ${n.ref.kind} ${n.ref.namespace}/${n.ref.name} is outside the allowed namespaces (${allowed.join(', ')})`,
    );
  }
}

async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(workers);
}
