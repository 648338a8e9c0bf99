/**
 * Sends notifications to the Amazon SQS FIFO notification queue: the forwarder's SQS sink and the
 * scheduled resync both use it. One message per notification; MessageGroupId = the object, so two
 * workers never reconcile one object at once; MessageDeduplicationId = the exact change, keyed
 * with a secret, so a retry within SQS's 5-minute window is dropped by SQS and no sender can forge
 * the ID.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SQSClient, SendMessageBatchCommand, type SQSClientConfig } from '@aws-sdk/client-sqs';
import { chunk, type SerializedNotification } from './chunk.js';
import type { ChangeNotification } from './types.js';
import { deliveryClientConfig } from './delivery-client.js';

export const SQS_MAX_BATCH = 10;
// SQS's limit per message and per batch (the sum of all entries).
export const SQS_MAX_BYTES = 256 * 1024;
const ID_LIMIT = 128;

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** `Kind/namespace/name` (within SQS's 128 characters, else Kind/ + a hash of it). */
export function messageGroupId(n: ChangeNotification): string {
  const { kind, namespace, name, apiVersion } = n.ref;
  const id = `${kind}/${namespace ?? ''}/${name}`;
  return id.length <= ID_LIMIT ? id : `${kind}/${sha256(`${apiVersion}/${id}`)}`;
}

/**
 * The key deduplication IDs are keyed with. Anyone who can send to the queue and predict an ID could
 * send a message with it first and make SQS drop the real notification for 5 minutes; keyed with a
 * secret they cannot. Random per process by default (a resend after a failover to another replica is
 * then delivered twice, which reconciles idempotently); FORWARDER_DEDUP_KEY shares one among replicas.
 */
const DEDUP_KEY: Buffer = process.env.FORWARDER_DEDUP_KEY
  ? Buffer.from(process.env.FORWARDER_DEDUP_KEY, 'utf8')
  : randomBytes(32);

/** uid + resourceVersion + change, keyed-hashed (HMAC-SHA256): 64 hex characters. */
export function deduplicationId(n: ChangeNotification, key: Buffer = DEDUP_KEY): string {
  const { apiVersion, kind, namespace, name, uid, resourceVersion } = n.ref;
  // Without a resourceVersion the change cannot be identified: make it unique instead of risking
  // that SQS drops a real change as a duplicate.
  const version = resourceVersion ?? `t${n.observedAt ?? ''}-${Math.random()}`;
  return createHmac('sha256', key)
    .update(`${apiVersion}/${kind}/${namespace ?? ''}/${name}|${uid ?? ''}|${version}|${n.change}`)
    .digest('hex');
}

export interface SqsEntry {
  Id: string;
  MessageBody: string;
  MessageGroupId: string;
  MessageDeduplicationId: string;
}

/** The SendMessageBatch calls for a batch: ≤ 10 entries and ≤ 256 KiB each. */
export function buildSqsBatches(
  batch: readonly ChangeNotification[],
): Array<{ entries: SqsEntry[]; items: SerializedNotification[] }> {
  return chunk(batch, { maxCount: SQS_MAX_BATCH, maxBytes: SQS_MAX_BYTES, maxItemBytes: SQS_MAX_BYTES }).map(
    (items) => ({
      items,
      entries: items.map((s, i) => ({
        Id: String(i),
        MessageBody: s.body,
        MessageGroupId: messageGroupId(s.notification),
        MessageDeduplicationId: deduplicationId(s.notification),
      })),
    }),
  );
}

/** What one `send` did: the notifications not delivered, and the calls it took. */
export interface SqsSendResult {
  failed: ChangeNotification[];
  /** SendMessageBatch calls (a batch may need several to fit SQS's limits). */
  calls: number;
  /** Calls that failed, wholly or partly. */
  errors: number;
  /** The last failure, for the log. */
  lastError?: unknown;
}

export interface SqsSenderOptions {
  queueUrl: string;
  region?: string;
  endpoint?: string;
  /** Extra client configuration (tests: credentials). */
  clientConfig?: SQSClientConfig;
}

/** Never retries by itself (maxAttempts 1): the caller decides, with its own backoff and merging. */
export class SqsSender {
  private readonly client: SQSClient;

  constructor(private readonly options: SqsSenderOptions) {
    this.client = new SQSClient(deliveryClientConfig(options));
  }

  /** Never throws: failures come back in `failed`. */
  async send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SqsSendResult> {
    const result: SqsSendResult = { failed: [], calls: 0, errors: 0 };
    for (const { entries, items } of buildSqsBatches(batch)) {
      result.calls++;
      try {
        const out = await this.client.send(
          new SendMessageBatchCommand({ QueueUrl: this.options.queueUrl, Entries: entries }),
          signal ? { abortSignal: signal } : {},
        );
        const failedIds = new Set((out.Failed ?? []).map((f) => f.Id));
        if (failedIds.size > 0) {
          result.errors++;
          const first = out.Failed?.[0];
          result.lastError = new Error(
            `SendMessageBatch: ${failedIds.size} failed (${first?.Code}: ${first?.Message})`,
          );
          items.forEach((s, i) => failedIds.has(String(i)) && result.failed.push(s.notification));
        }
      } catch (err) {
        result.errors++;
        result.lastError = err;
        result.failed.push(...items.map((s) => s.notification));
      }
    }
    return result;
  }

  close(): void {
    this.client.destroy();
  }
}
