/**
 * The scheduled full resync: a `resync` notification for every object whose controllers must run
 * even if no change was ever delivered (a dropped notification, a forwarder that was down, drift
 * made by hand in the cloud console). Notifications go to the queue, not to an in-process loop, so
 * the work is spread over the queue's consumers, one object at a time per message group.
 */
import type { KubeClient } from '../kube/client.js';
import { Resources } from '../kube/resources.js';
import type { KubeObject, ResourceType } from '../kube/types.js';
import type { Logger } from '../log/logger.js';
import {
  NOTIFICATION_API_VERSION,
  NOTIFICATION_KIND,
  type ChangeNotification,
} from '../notification/types.js';

/** What a resync covers: MCI/MCS drive every controller keyed by them; Clusters drive crd-installation. */
export const RESYNC_TYPES: readonly ResourceType[] = [
  Resources.MultiClusterIngress,
  Resources.MultiClusterService,
  Resources.Cluster,
];

export interface NotificationSender {
  /** Delivers the notifications; returns those that could not be delivered. */
  send(batch: readonly ChangeNotification[]): Promise<{ failed: ChangeNotification[] }>;
}

export function resyncNotification(type: ResourceType, obj: KubeObject, now: Date): ChangeNotification {
  const { namespace, name, uid, resourceVersion } = obj.metadata;
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change: 'resync',
    // A reference only: the consumer reads the object anyway, and messages stay small.
    ref: {
      apiVersion: type.apiVersion,
      kind: type.kind,
      ...(namespace ? { namespace } : {}),
      name: name ?? '',
      ...(uid ? { uid } : {}),
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    observedAt: now.toISOString(),
  };
}

export interface ResyncResult {
  listed: Record<string, number>;
  sent: number;
  failed: number;
}

export async function enqueueResync(
  kube: KubeClient,
  sender: NotificationSender,
  logger: Logger,
  options: { attempts?: number; namespaces?: string[] } = {},
): Promise<ResyncResult> {
  const now = new Date();
  const notifications: ChangeNotification[] = [];
  const listed: Record<string, number> = {};
  for (const type of RESYNC_TYPES) {
    const namespaces = type.namespaced && options.namespaces?.length ? options.namespaces : [undefined];
    let count = 0;
    for (const namespace of namespaces) {
      const list = await kube.list(type, namespace ? { namespace } : {});
      for (const obj of list.items) notifications.push(resyncNotification(type, obj, now));
      count += list.items.length;
    }
    listed[type.kind] = count;
  }
  let pending = notifications;
  for (let attempt = 1; attempt <= (options.attempts ?? 3) && pending.length; attempt++) {
    pending = (await sender.send(pending)).failed;
    if (pending.length)
      logger.warn('some resync notifications were not delivered; retrying', { failed: pending.length });
  }
  const result = { listed, sent: notifications.length - pending.length, failed: pending.length };
  logger.info('resync enqueued', { ...result });
  return result;
}
