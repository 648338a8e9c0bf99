/**
 * The scheduled resync. `enqueueResync` is the full one: a `resync` notification for every object
 * whose controllers must run even if no change was ever delivered (a dropped notification, a
 * forwarder that was down, drift made by hand in the cloud console). `resyncPass` is what the
 * schedule runs: a fingerprint pass (one paged LIST per kind, the providers' recorded fingerprints
 * in bulk, a reconcile only for the objects whose stack differs) plus a deep drift check (a full
 * `resync`) for a slice of the objects, each object's turn coming once per deep interval, the slice
 * capped by its share of the ELBv2 budget. Notifications go to the queue, not to an in-process
 * loop, so the work is spread over the queue's consumers, one object at a time per message group.
 */
import { createHash } from 'node:crypto';
import type { MultiClusterIngress, MultiClusterService } from '../karmada/types.js';
import type { KubeClient } from '../kube/client.js';
import { ListedSnapshot } from '../kube/snapshot.js';
import type { MultiClusterProvider, ProviderContext } from '../provider/contract.js';
import { ingressClassMatches } from '../reconcile/ingress-class.js';
import { wantsLoadBalancer } from '../reconcile/filters.js';
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

/**
 * `observedAt` is when the notification is made, after `obj` was read, by the real clock (not the
 * pass's schedule): the function skips objects reconciled after that time (recent-reconciles.ts),
 * so it must never be earlier than the state the resync saw.
 */
export function resyncNotification(
  type: ResourceType,
  obj: KubeObject,
  change: 'resync' | 'modified' = 'resync',
): ChangeNotification {
  const { namespace, name, uid, resourceVersion } = obj.metadata;
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change,
    // A reference only: the consumer reads the object anyway, and messages stay small.
    ref: {
      apiVersion: type.apiVersion,
      kind: type.kind,
      ...(namespace ? { namespace } : {}),
      name: name ?? '',
      ...(uid ? { uid } : {}),
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    observedAt: new Date().toISOString(),
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
  const notifications: ChangeNotification[] = [];
  const listed: Record<string, number> = {};
  for (const type of RESYNC_TYPES) {
    const namespaces = type.namespaced && options.namespaces?.length ? options.namespaces : [undefined];
    let count = 0;
    for (const namespace of namespaces) {
      const list = await kube.list(type, namespace ? { namespace } : {});
      for (const obj of list.items) notifications.push(resyncNotification(type, obj));
      count += list.items.length;
    }
    listed[type.kind] = count;
  }
  const result = { listed, ...(await sendAll(sender, notifications, logger, options.attempts)) };
  logger.info('resync enqueued', { ...result });
  return result;
}

async function sendAll(
  sender: NotificationSender,
  notifications: ChangeNotification[],
  logger: Logger,
  attempts = 3,
): Promise<{ sent: number; failed: number }> {
  let pending = notifications;
  for (let attempt = 1; attempt <= attempts && pending.length; attempt++) {
    pending = (await sender.send(pending)).failed;
    if (pending.length)
      logger.warn('some resync notifications were not delivered; retrying', { failed: pending.length });
  }
  return { sent: notifications.length - pending.length, failed: pending.length };
}

/** When each object gets its deep drift check. */
export interface DeepCheckSchedule {
  /** Each object's deep check comes once per this interval (default 10 h, LBC's --sync-period). */
  intervalMs: number;
  /** How often the resync runs (its schedule): one slice of the objects per run. */
  periodMs: number;
  /**
   * At most this many deep checks per run: the budget share's worth. When the slices would be
   * larger, there are more of them, and the interval stretches (logged).
   */
  maxPerRun?: number;
}

/** `share` of `callsPerSecond` over one period, in deep checks of `callsPerCheck` calls each. */
export function deepChecksPerRun(
  callsPerSecond: number,
  share: number,
  periodMs: number,
  callsPerCheck: number,
): number {
  return Math.max(1, Math.floor((callsPerSecond * share * (periodMs / 1000)) / callsPerCheck));
}

/**
 * The objects whose deep drift check is due in run `turn` of `slots`: ordered by a stable hash of
 * their key and dealt out in turn, so each slice holds at most ⌈n / slots⌉ and every object has
 * its turn once per cycle (an object added or removed shifts some others by one turn).
 */
export function deepSlice<T>(items: readonly T[], keyOf: (t: T) => string, slots: number, turn: number): T[] {
  const hashed = items.map((item) => {
    const key = keyOf(item);
    return { item, key, h: createHash('sha256').update(key).digest().readUInt32BE(0) };
  });
  hashed.sort((a, b) => a.h - b.h || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return hashed.filter((_, i) => i % slots === turn).map((e) => e.item);
}

export interface ResyncPassResult extends ResyncResult {
  /** Objects reconciled because their stack's recorded fingerprint differs (or is missing). */
  differing: number;
  /** Objects whose stack matched: nothing enqueued for them. */
  unchanged: number;
  /** Objects given their deep drift check in this run. */
  deep: number;
  /** Runs per full deep cycle (≥ interval / period; more when the budget caps the slices). */
  slots: number;
  /** The Kubernetes LIST requests the pass made, by kind. */
  kubeLists: Record<string, number>;
}

export interface ResyncPassOptions {
  namespaces?: string[];
  /** The IngressClass controller we serve: other MultiClusterIngresses are not ours. */
  providerIngressClass: string;
  deep: DeepCheckSchedule;
  ctx: ProviderContext;
  attempts?: number;
  now?: Date;
}

type Served = MultiClusterIngress | MultiClusterService;

export async function resyncPass(
  kube: KubeClient,
  provider: MultiClusterProvider,
  sender: NotificationSender,
  logger: Logger,
  options: ResyncPassOptions,
): Promise<ResyncPassResult> {
  const now = options.now ?? new Date();
  const snapshot = new ListedSnapshot(kube, options.namespaces);
  const served: Array<{ type: ResourceType; obj: Served }> = [];
  const listed: Record<string, number> = {};
  for (const type of [Resources.MultiClusterIngress, Resources.MultiClusterService]) {
    const items = (await snapshot.list<Served>(type)).items;
    listed[type.kind] = items.length;
    served.push(...items.map((obj) => ({ type, obj })));
  }
  const clusters = (await snapshot.list(Resources.Cluster)).items;
  listed[Resources.Cluster.kind] = clusters.length;

  // The deep slice of this run: the objects whose turn it is, within the budget.
  const baseSlots = Math.max(1, Math.round(options.deep.intervalMs / options.deep.periodMs));
  const cap = options.deep.maxPerRun;
  const slots = cap ? Math.max(baseSlots, Math.ceil(served.length / cap)) : baseSlots;
  if (slots > baseSlots) {
    logger.warn('the deep drift check budget stretches its interval', {
      objects: served.length,
      perRun: cap,
      intervalHours: Math.round(((slots * options.deep.periodMs) / 3_600_000) * 10) / 10,
    });
  }
  const turn = Math.floor(now.getTime() / options.deep.periodMs) % slots;
  const keyOf = (o: Served) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  const deep = deepSlice(served, ({ obj }) => keyOf(obj), slots, turn);
  const notifications: ChangeNotification[] = [
    ...clusters.map((c) => resyncNotification(Resources.Cluster, c)),
    ...deep.map(({ type, obj }) => resyncNotification(type, obj)),
  ];
  const deepKeys = new Set(deep.map(({ obj }) => keyOf(obj)));
  const rest = served.filter(({ obj }) => !deepKeys.has(keyOf(obj)));

  let differing = 0;
  let unchanged = 0;
  const source = provider.fingerprints();
  if (!source) {
    // Without bulk fingerprints there is nothing cheaper than reconciling every object.
    notifications.push(...rest.map(({ type, obj }) => resyncNotification(type, obj, 'modified')));
    differing = rest.length;
  } else {
    const desired = await Promise.all(rest.map(({ obj }) => source.desired(obj, snapshot)));
    const recorded = await source.recorded(options.ctx, desired);
    for (const [i, { type, obj }] of rest.entries()) {
      const want = desired[i]!;
      // Being deleted: its finalizer is ours to remove, whatever the cloud records.
      const deleting = obj.metadata.deletionTimestamp != null;
      const ours =
        !deleting &&
        (type === Resources.MultiClusterService
          ? wantsLoadBalancer(obj as MultiClusterService)
          : (await ingressClassMatches(snapshot, obj as MultiClusterIngress, options.providerIngressClass))
              .matches);
      const has = recorded.get(want.stackId);
      // Not ours and nothing in the cloud: nothing to do. Ours and recorded as wanted: in sync.
      const inSync = ours ? want.fingerprint !== undefined && has === want.fingerprint : has === undefined;
      if (!deleting && inSync) {
        unchanged++;
        continue;
      }
      differing++;
      notifications.push(resyncNotification(type, obj, 'modified'));
    }
  }
  const result: ResyncPassResult = {
    listed,
    ...(await sendAll(sender, notifications, logger, options.attempts)),
    differing,
    unchanged,
    deep: deep.length,
    slots,
    kubeLists: { ...snapshot.lists },
  };
  logger.info('resync pass enqueued', { ...result });
  return result;
}
