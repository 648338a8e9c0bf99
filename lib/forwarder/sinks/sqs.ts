/** The forwarder's Amazon SQS FIFO sink: the notification queue's sender, handed batches by the dispatcher. */
import { SQS_MAX_BATCH, SqsSender } from '../../notification/sqs.js';
import type { Sink } from './types.js';

export class SqsSink extends SqsSender implements Sink {
  readonly name = 'sqs';
  readonly maxBatch = SQS_MAX_BATCH * 5;
  /** SendMessageBatch's limit: a call is full at 10 (the dispatcher waits for full calls under load). */
  readonly perCall = SQS_MAX_BATCH;
}
