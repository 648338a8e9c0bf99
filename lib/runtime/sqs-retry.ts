/**
 * Redelivery timing for failed SQS records. FIFO queues have no per-message delay, so a failed
 * record is made visible again after a delay by changing its visibility timeout: the provider's
 * `retryAfterSeconds` when it gave one (a throttled or busy object), else 5 s × 2^(receives − 1),
 * capped at 5 minutes. This is the workqueue's rate-limited requeue, for a stateless consumer.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { Logger } from '../log/logger.js';
import type { ItemResult } from './process.js';

const BASE_SECONDS = 5;
const MAX_SECONDS = 300;

export function retryDelaySeconds(receiveCount: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined)
    return Math.min(MAX_SECONDS, Math.max(0, Math.ceil(retryAfterSeconds)));
  const n = Math.max(1, receiveCount);
  return Math.min(MAX_SECONDS, BASE_SECONDS * 2 ** Math.min(n - 1, 16));
}

/** `https://sqs.<region>.amazonaws.com/<account>/<queue>` from a record's eventSourceARN. */
export function queueUrlOf(arn: string): string | undefined {
  const parts = arn.split(':');
  if (parts.length < 6 || parts[2] !== 'sqs') return undefined;
  const [, partition, , region, account, name] = parts;
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}

let client: SQSClient | undefined;

/** Best effort: if this fails the record simply comes back after the queue's visibility timeout. */
export async function delayRedelivery(
  records: SQSRecord[],
  failed: ItemResult[],
  logger: Logger,
): Promise<void> {
  const byId = new Map(records.map((r) => [r.messageId, r]));
  const byQueue = new Map<string, Array<{ Id: string; ReceiptHandle: string; VisibilityTimeout: number }>>();
  for (const f of failed) {
    const record = byId.get(f.id);
    const url = record && queueUrlOf(record.eventSourceARN);
    if (!record || !url) continue;
    const delay = retryDelaySeconds(
      Number(record.attributes.ApproximateReceiveCount ?? '1'),
      f.retryAfterSeconds,
    );
    const list = byQueue.get(url) ?? [];
    list.push({ Id: `m${list.length}`, ReceiptHandle: record.receiptHandle, VisibilityTimeout: delay });
    byQueue.set(url, list);
  }
  if (!byQueue.size) return;
  // The regional endpoint (or AWS_ENDPOINT_URL_SQS) is where the queue lives; never redirect to another host.
  // Loaded on the first failure only: most batches never need it.
  const { SQSClient: Client, ChangeMessageVisibilityBatchCommand } = await import('@aws-sdk/client-sqs');
  client ??= new Client({ useQueueUrlAsEndpoint: false });
  for (const [QueueUrl, entries] of byQueue) {
    for (let i = 0; i < entries.length; i += 10) {
      try {
        await client.send(
          new ChangeMessageVisibilityBatchCommand({ QueueUrl, Entries: entries.slice(i, i + 10) }),
        );
      } catch (error) {
        logger.warn('could not delay redelivery of failed records', { error });
      }
    }
  }
}
