/**
 * The decisions of the load-balancer lifecycle (lifecycle.ts), as pure functions of what one pass
 * read, so each is table-tested on its own (as kubernetes/cloud-provider tests needsCleanup and
 * needsUpdate). lifecycle.ts only sequences reads, provider calls and writes around them.
 */
import { withFinalizer } from '../kube/finalizers.js';
import type { KubeObject } from '../kube/types.js';
import type { GetResult } from '../provider/contract.js';
import { semanticEqual } from '../util/equal.js';

/** What one pass does with the object it read. */
export type LifecycleAction = 'ignore' | 'delete' | 'ensure';

export interface Observed {
  /** metadata.deletionTimestamp is set. */
  deleting: boolean;
  /** The object asks for a load balancer from us (class or type matches); false while deleting. */
  wanted: boolean;
  /** Our finalizer is on the object: we may have made a load balancer for it. */
  finalized: boolean;
}

/**
 * Upstream's needsCleanup: a load balancer goes when the object is being deleted or is no longer
 * ours, but only while our finalizer says we may have made one; without it there is nothing of
 * ours to delete, and a deleted object without it is not ours to hold up.
 */
export function lifecycleAction({ deleting, wanted, finalized }: Observed): LifecycleAction {
  if (deleting || !wanted) return finalized ? 'delete' : 'ignore';
  return 'ensure';
}

/**
 * The object with our finalizer and the kind's own metadata (`decorate`: index labels), or
 * undefined when its metadata already is so and nothing needs writing. The finalizer is added
 * before the provider is called, so a load balancer never exists without it.
 */
export function withOurMetadata<T extends KubeObject>(
  obj: T,
  finalizer: string,
  decorate: (o: T) => T = (o) => o,
): T | undefined {
  const next = decorate(withFinalizer(obj, finalizer));
  return semanticEqual(next.metadata, obj.metadata) ? undefined : next;
}

/** After get(): update an existing load balancer, ensure (create) a missing one. */
export function providerCall(existing: GetResult<unknown>): 'ensure' | 'update' {
  return existing.exists ? 'update' : 'ensure';
}

/**
 * Whether the load balancer status is written: when the provider reported one (undefined means
 * "nothing to report yet", which keeps what is there) or it must be cleared, and it differs from
 * what the object carries. An unchanged status is never rewritten (no write, no watch event).
 */
export function statusNeedsWrite<S>(current: S | undefined, reported: S | undefined, clear = false): boolean {
  return (reported !== undefined || clear) && !semanticEqual(current, reported);
}

/**
 * After the load balancer is deleted and the finalizer removed: whether its status is cleared.
 * Only for an object that lives on (no longer ours) and still shows one; an object being deleted
 * goes away with its status.
 */
export function clearsStatusAfterDelete(deleting: boolean, current: unknown): boolean {
  return !deleting && current !== undefined;
}

/**
 * Whether a served pass records its EnsuredLoadBalancer or UpdatedLoadBalancer Event: a creation
 * always, an update when the provider changed something (it did not say `unchanged`) or the
 * status it reports differs from the object's. So one change gives one Event, and the reconciles
 * our own status and condition writes trigger give none.
 */
export function recordsServedEvent(pass: {
  created: boolean;
  unchanged: boolean;
  statusChanged: boolean;
}): boolean {
  return pass.created || !pass.unchanged || pass.statusChanged;
}
