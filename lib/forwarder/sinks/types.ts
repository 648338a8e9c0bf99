/** What the dispatcher needs from a delivery target. */
import type { ChangeNotification } from '../../notification/types.js';

export interface SendResult {
  /** Notifications not delivered; the dispatcher puts them back and retries. */
  failed: ChangeNotification[];
  /**
   * Notifications the target took and wants again after `afterMs` (the function's objects wait on
   * the cloud or on another invocation): delivered, not failed, and queued again for later.
   */
  later?: Array<{ notification: ChangeNotification; afterMs: number }>;
  /** Calls made to the target (a batch may need several to fit its size limits). */
  calls: number;
  /** Calls that failed, wholly or partly. */
  errors: number;
  /** The last failure, for the log. */
  lastError?: unknown;
}

export interface Sink {
  readonly name: 'sqs' | 'lambda' | 'http' | (string & {});
  /** Most notifications the dispatcher should hand over in one `send`. */
  readonly maxBatch: number;
  /** Most notifications one call to the target carries (SQS: 10), when less than `maxBatch`. */
  readonly perCall?: number;
  /** Never throws: failures come back in `failed`. */
  send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SendResult>;
  close?(): void;
}

export function failure(batch: readonly ChangeNotification[], err: unknown): SendResult {
  return { failed: [...batch], calls: 1, errors: 1, lastError: err };
}
