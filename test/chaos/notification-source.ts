/**
 * What turns API server changes into notifications for the function: the real cluster watch
 * forwarder (as `npm start` runs it), or the interim watch loop it replaced. Switching is the one
 * line `NOTIFICATION_SOURCE` below.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { startWatchLoop } from '../../dev/local/watch-loop.js';
import { Forwarder } from '../../lib/forwarder/forwarder.js';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import type { Sink } from '../../lib/forwarder/sinks/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { ChangeNotification } from '../../lib/notification/types.js';

export type SourceKind = 'forwarder' | 'watch-loop';

export const NOTIFICATION_SOURCE: SourceKind = 'forwarder';

export interface NotificationSource {
  kind: SourceKind;
  /** Notifications (objects) waiting or being sent. */
  pending(): number;
  /**
   * Takes notifications for delivery, as the deployment's queue takes the scheduled resync's
   * (functions/resync.ts sends them to SQS): accepted here, delivered and retried from here.
   */
  enqueue(notifications: readonly ChangeNotification[]): void;
  stop(): Promise<void>;
}

export function startNotificationSource(
  kubeConfig: KubeConfig,
  sink: Sink,
  kind: SourceKind = NOTIFICATION_SOURCE,
): NotificationSource {
  return kind === 'forwarder' ? startForwarder(kubeConfig, sink) : startLoop(kubeConfig, sink);
}

function startForwarder(kubeConfig: KubeConfig, sink: Sink): NotificationSource {
  const forwarder = new Forwarder({
    api: createKubeApi(kubeConfig),
    sink,
    identity: 'chaos',
    coalesceWindowMs: 20,
    // The suite runs its own final resync; a periodic one would hide dropped notifications.
    resyncPeriodMs: 0,
    backoff: { initialMs: 20, maxMs: 500 },
    watchTimeoutSeconds: 60,
    shutdownTimeoutMs: 2_000,
    logger: silentLogger,
  });
  void forwarder.start();
  return {
    kind: 'forwarder',
    pending: () => forwarder.currentPipeline?.queue.size ?? 0,
    enqueue: (notifications) => {
      const queue = forwarder.currentPipeline?.queue;
      if (!queue) throw new Error('the forwarder has no pipeline (not leading)');
      for (const n of notifications) queue.add(n);
    },
    stop: async () => {
      await forwarder.shutdown();
    },
  };
}

/** The watch loop sends one notification at a time and retries it until the sink takes it. */
function startLoop(kubeConfig: KubeConfig, sink: Sink): NotificationSource {
  let pending = 0;
  let stopped = false;
  const deliver = async (n: ChangeNotification) => {
    pending++;
    try {
      for (let attempt = 0; !stopped; attempt++) {
        const result = await sink.send([n]);
        const wait = result.later?.[0]?.afterMs;
        if (wait === undefined && !result.failed.length) return;
        await new Promise((r) => setTimeout(r, wait ?? Math.min(500, 20 * 2 ** attempt)));
      }
    } finally {
      pending--;
    }
  };
  const loop = startWatchLoop(kubeConfig, deliver);
  return {
    kind: 'watch-loop',
    pending: () => pending,
    enqueue: (notifications) => {
      for (const n of notifications) void deliver(n);
    },
    stop: async () => {
      stopped = true;
      loop.stop();
    },
  };
}
