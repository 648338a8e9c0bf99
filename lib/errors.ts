/**
 * Error classes shared by the contract, the reconcilers and the providers. Callers branch on the
 * class (never on message text), and every class keeps its `cause`.
 */

/**
 * A transient condition: try again later, after about `retryAfterSeconds` if given. `reason` is
 * the condition reason to show meanwhile (`Throttled`: the cloud API rate-limited us).
 */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError';
  readonly retryAfterSeconds: number | undefined;
  readonly reason: string | undefined;
  constructor(
    message: string,
    options: { retryAfterSeconds?: number; cause?: unknown; reason?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.reason = options.reason;
  }
}

/**
 * Not a failure: the work waits (on the cloud, on another invocation, on the next invocation) and
 * is to be delivered again after `retryAfterSeconds`. Reported as waiting, with its own metric.
 */
export class WaitingError extends RetryLaterError {
  override name = 'WaitingError';
}

/**
 * Waiting on the cloud, which is progress, not failure (an accelerator deploying its disable
 * before GA lets it be deleted). Retried like any RetryLaterError, but the reconciler tells
 * `step`, what this pass did, as a Normal Event of `reason` instead of a Warning, and a pass that
 * only found the cloud still busy (no `step`) in a log line only: one Event per step.
 */
export class InProgressError extends WaitingError {
  override name = 'InProgressError';
  /** What this pass did, for the Normal Event; undefined when it only waited. */
  readonly step: string | undefined;
  declare readonly reason: string;
  constructor(
    message: string,
    options: { reason: string; step?: string; retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, options);
    this.step = options.step;
  }
}

/**
 * Another invocation holds the object's lock: the object is being reconciled, and this delivery
 * waits its turn. Like InProgressError, a wait and not a failure.
 */
export class LockHeldError extends WaitingError {
  override name = 'LockHeldError';
}

/**
 * The reconcile only waited (a WaitingError: on the cloud, on another invocation that holds the
 * object, on this invocation's time); a failure is everything else.
 */
export function isWaiting(err: unknown): boolean {
  return findCause(err, WaitingError) !== undefined;
}

/**
 * The object cannot be turned into a load balancer as it stands (a bad annotation, a missing
 * backend, a limit exceeded). Retrying does not help until the object changes; the reconciler
 * reports it on the object (Event and status) instead of failing the delivery forever.
 */
export class InvalidObjectError extends Error {
  override name = 'InvalidObjectError';
  /** The field path or annotation key at fault, e.g. `spec.rules[0].http.paths[1].backend`. */
  readonly field: string | undefined;
  /** A short CamelCase reason for Events and conditions. */
  readonly reason: string;
  constructor(message: string, options: { field?: string; reason?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.field = options.field;
    this.reason = options.reason ?? 'InvalidSpec';
  }
}

/**
 * An InvalidObjectError for an object that no load balancer serves now (an IngressGroup member
 * left out or refused): besides its Warning and condition, the lifecycle clears its load-balancer
 * status, which must never name a load balancer that does not carry its traffic.
 */
export class NotServedError extends InvalidObjectError {
  override name = 'NotServedError';
  /** `invalid`'s message, field and reason; it stays the cause. */
  static of(invalid: InvalidObjectError): NotServedError {
    if (invalid instanceof NotServedError) return invalid;
    return new NotServedError(invalid.message, {
      ...(invalid.field !== undefined ? { field: invalid.field } : {}),
      reason: invalid.reason,
      cause: invalid,
    });
  }
}

/**
 * A cloud resource with the name we need exists but is not this stack's: we never touch it. It
 * stays so until someone acts (the resource is deleted or renamed, or the object takes another
 * name), so, like InvalidObjectError, the reconciler reports it on the object and does not retry
 * it; the object's next change or the resync does. The message is read by the object's users: it
 * names the holder only when that is an object of the same namespace; `holder` (the tags found) is
 * for the operator's log only.
 */
export class OwnershipConflictError extends Error {
  override name = 'OwnershipConflictError';
  /** A short CamelCase reason for Events and conditions. */
  readonly reason: string;
  /** Who holds the resource as its tags say (owner, instance, stack): logged, never in an Event. */
  readonly holder: string | undefined;
  constructor(message: string, options: { cause?: unknown; reason?: string; holder?: string } = {}) {
    super(message, { cause: options.cause });
    this.reason = options.reason ?? 'OwnershipConflict';
    this.holder = options.holder;
  }
}

/** The provider's configuration file is missing, unreadable or invalid. */
export class ProviderConfigError extends Error {
  override name = 'ProviderConfigError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
  }
}

/** The work was cancelled through its AbortSignal (e.g. the function is about to time out). */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(message = 'operation cancelled', options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
  }
}

/** Walks an error's `cause` chain and returns the first error of the given class. */
export function findCause<T extends Error>(
  err: unknown,
  cls: abstract new (...args: never[]) => T,
): T | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 16 && cur != null; i++) {
    if (cur instanceof cls) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
