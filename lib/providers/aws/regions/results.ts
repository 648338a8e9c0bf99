/**
 * Each Region's outcome of one reconcile or deletion, and how the object is told: one line
 * (`us-east-1: ok; eu-west-1: failed: ...`) in the condition and the error, every Region named.
 */
import { errorMessage, InProgressError } from '../../../errors.js';

export type RegionOutcome<S> =
  { region: string; ok: true; status: S | undefined } | { region: string; ok: false; error: unknown };

/**
 * What one Region's outcome says: its hostname list, `no clusters` (not served), the failure, or
 * `waiting` on the cloud (InProgressError: progress, such as a drain waiting for GA's dial at 0).
 */
export function describeOutcome<S>(o: RegionOutcome<S>, served: (status: S | undefined) => boolean): string {
  if (!o.ok) {
    const how = o.error instanceof InProgressError ? 'waiting' : 'failed';
    return `${o.region}: ${how}: ${errorMessage(o.error)}`;
  }
  return `${o.region}: ${served(o.status) ? 'ok' : 'no clusters'}`;
}

export function describeOutcomes<S>(
  outcomes: readonly RegionOutcome<S>[],
  served: (status: S | undefined) => boolean = (s) => s !== undefined,
): string {
  return outcomes.map((o) => describeOutcome(o, served)).join('; ');
}

/**
 * Thrown after every Region was tried when one or more failed, so that the reconcile is retried;
 * its cause is the first failure (a throttled Region's RetryLaterError keeps its reason, an
 * invalid object's InvalidObjectError is still found by the lifecycle).
 */
export class RegionsFailedError extends Error {
  override name = 'RegionsFailedError';
  constructor(
    readonly outcomes: readonly RegionOutcome<unknown>[],
    served?: (status: unknown) => boolean,
  ) {
    const failed = outcomes.filter((o): o is Extract<RegionOutcome<unknown>, { ok: false }> => !o.ok);
    super(describeOutcomes(outcomes, served), { cause: failed[0]?.error });
  }
}

/** Throws RegionsFailedError when a Region failed. */
export function throwIfFailed<S>(
  outcomes: readonly RegionOutcome<S>[],
  served?: (status: S | undefined) => boolean,
): void {
  if (outcomes.some((o) => !o.ok)) {
    throw new RegionsFailedError(outcomes, served as ((status: unknown) => boolean) | undefined);
  }
}

/**
 * Runs `work` in every Region at once (Regions do not depend on each other: each has its own
 * clients, call budget and records) and gives each one's outcome in the Regions' order; one
 * Region's failure never stops another's work.
 */
export async function inEveryRegion<P extends { region: string }, S>(
  parts: readonly P[],
  work: (part: P) => Promise<S>,
): Promise<RegionOutcome<S>[]> {
  return Promise.all(
    parts.map(async (part): Promise<RegionOutcome<S>> => {
      try {
        return { region: part.region, ok: true, status: await work(part) };
      } catch (err) {
        return { region: part.region, ok: false, error: err };
      }
    }),
  );
}
