/**
 * Change notifications: "something about object K changed". A notification is only a hint; every
 * reconcile reads the current object from the Karmada API server, so stale, duplicated or
 * reordered notifications are harmless.
 */
import type { KubeObject } from '../kube/types.js';

export const NOTIFICATION_API_VERSION = 'notifications.multicluster.karmada.io/v1';
export const NOTIFICATION_KIND = 'ChangeNotification';

export type ChangeType = 'added' | 'modified' | 'deleted' | 'resync';
export const CHANGE_TYPES: readonly ChangeType[] = ['added', 'modified', 'deleted', 'resync'];

/** Names one object. `namespace` is absent for cluster-scoped objects. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
}

/**
 * Our own wire format: what the forwarder sends (JSON), one per object change.
 * `object` / `oldObject` are optional copies of the object after / before the change; they let
 * trigger filters skip changes that do not matter (e.g. a status-only update), never replace a read.
 */
export interface ChangeNotification {
  apiVersion: typeof NOTIFICATION_API_VERSION;
  kind: typeof NOTIFICATION_KIND;
  change: ChangeType;
  ref: ObjectRef;
  object?: KubeObject;
  oldObject?: KubeObject;
  /** When the forwarder saw the change (RFC 3339; merged: the first of them); for latency figures. */
  observedAt?: string;
  /**
   * Merged notifications only: when the forwarder saw the latest change merged in (RFC 3339). The
   * function skips an object whose reconcile started after the changes were seen
   * (runtime/recent-reconciles.ts).
   */
  lastObservedAt?: string;
}

/** Where a notification came from, after normalisation. */
export type NotificationSource = 'native' | 'cloudevent' | 'sqs';

/** The one shape every accepted input is normalised to. */
export interface NormalizedNotification {
  change: ChangeType;
  ref: ObjectRef;
  object?: KubeObject;
  oldObject?: KubeObject;
  source: NotificationSource;
  observedAt?: string;
  lastObservedAt?: string;
}

/** `apiVersion/kind/namespace/name`: stable identity of the object a notification names. */
export function refKey(ref: Pick<ObjectRef, 'apiVersion' | 'kind' | 'namespace' | 'name'>): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}
