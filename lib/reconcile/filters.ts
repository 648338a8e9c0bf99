/**
 * Upstream's event filters, for notifications. A notification may carry the object after and
 * before the change; when it carries both, a filter can tell whether the change matters. When it
 * does not, the change matters: every reconcile is idempotent, so an extra one only costs calls.
 */
import { LOAD_BALANCER_TYPE } from '../karmada/constants.js';
import type { MultiClusterService } from '../karmada/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceType } from '../kube/types.js';
import type { NormalizedNotification } from '../notification/types.js';
import { semanticEqual } from '../util/equal.js';

type Fields = Record<string, unknown>;

export function isKind(n: NormalizedNotification, t: { apiVersion: string; kind: string }): boolean {
  return n.ref.apiVersion === t.apiVersion && n.ref.kind === t.kind;
}

/** Whether `pick` differs between the old and the new object; true when either is missing. */
export function changedBy(n: NormalizedNotification, pick: (o: KubeObject) => unknown): boolean {
  if (n.change !== 'modified' || !n.object || !n.oldObject) return true;
  return !semanticEqual(pick(n.object), pick(n.oldObject));
}

/** Upstream's usual update filter: annotations, the deletion state or one of `fields` changed. */
export function changed(n: NormalizedNotification, fields: string[]): boolean {
  return changedBy(n, (o) => ({
    deleting: o.metadata.deletionTimestamp != null,
    annotations: o.metadata.annotations,
    ...Object.fromEntries(fields.map((k) => [k, (o as unknown as Fields)[k]])),
  }));
}

/** Both versions of a modification, when the notification carries them. */
export function versions<T extends KubeObject>(n: NormalizedNotification): { now: T; old: T } | undefined {
  if (n.change !== 'modified' || !n.object || !n.oldObject) return undefined;
  return { now: n.object as T, old: n.oldObject as T };
}

/**
 * The object the notification is about: the copy it carries, else the one on the API server (a
 * reference-only notification), else the last copy it had before a deletion.
 */
export async function subject<T extends KubeObject>(
  kube: KubeClient,
  type: ResourceType,
  n: NormalizedNotification,
): Promise<T | undefined> {
  if (n.object) return n.object as T;
  if (n.change !== 'deleted') {
    const read = await kube.get<T>(type, n.ref.namespace, n.ref.name);
    if (read) return read;
  }
  return n.oldObject as T | undefined;
}

/** Upstream's MultiClusterService predicate: only those whose `spec.types` has LoadBalancer get one. */
export function wantsLoadBalancer(mcs: Readonly<MultiClusterService>): boolean {
  return Array.isArray(mcs.spec?.types) && mcs.spec.types.includes(LOAD_BALANCER_TYPE);
}
