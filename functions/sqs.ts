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
    { signal, holder: context.awsRequestId, remainingMs: () => context.getRemainingTimeInMillis() },
  );
  // Waiting records (on AWS, on another invocation, on this one's time) come back as failures do,
  // after their delay; only real failures are a warning.
  const failed = results.filter((r) => !r.ok);
  if (failed.length) {
    const failures = failed.filter((f) => !f.waiting);
    if (failures.length)
      logger.warn('batch had failures', {
        failed: failures.map((f) => ({ messageId: f.id, error: f.error })),
      });
    if (failures.length < failed.length)
      logger.info('batch had waiting records', { waiting: failed.filter((f) => f.waiting).map((f) => f.id) });
    // Best effort, as the delay itself: without it a record comes back after the visibility timeout.
    await sqsRetry().then(
      ({ delayRedelivery }) => delayRedelivery(records, failed, logger),
      (err: unknown) => logger.warn('redelivery not delayed', { error: err }),
    );
  }
  return { batchItemFailures: failed.map((f) => ({ itemIdentifier: f.id })) };
});
