/**
 * SQS (FIFO) batch handler: the production path. Reports partial batch failures, so one failing
 * object never blocks the others, and lets the queue's redrive policy carry poison messages to the
 * dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseSqsBody } from '../lib/notification/parse.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';
import { processBatch } from '../lib/runtime/process.js';
import { lazy } from '../lib/util/lazy.js';

// Either built-in provider can serve this function: each is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

/** Only a batch with failures delays their redelivery: a chunk of its own, with its SQS client. */
const sqsRetry = lazy(
  () => import('../lib/runtime/sqs-retry.js'),
  'the redelivery delay (runtime/sqs-retry.ts)',
);

export const handler = lambdaHandler<SQSEvent, SQSBatchResponse>(async (event, context, { signal }) => {
  const runtime = await runtimeFor(context);
  const records = event.Records ?? [];
  const results = await processBatch(
    runtime,
    records.map((r) => ({ id: r.messageId, notifications: () => parseSqsBody(r.body) })),
    { signal, holder: context.awsRequestId },
  );
  const failed = results.filter((r) => !r.ok);
  if (failed.length) {
    logger.warn('batch had failures', { failed: failed.map((f) => ({ messageId: f.id, error: f.error })) });
    // Best effort, as the delay itself: without it a record comes back after the visibility timeout.
    await sqsRetry().then(
      ({ delayRedelivery }) => delayRedelivery(records, failed, logger),
      (err: unknown) => logger.warn('redelivery not delayed', { error: err }),
    );
  }
  return { batchItemFailures: failed.map((f) => ({ itemIdentifier: f.id })) };
});
