import type { SQSRecord } from 'aws-lambda';

/** An SQS record as the Lambda event source delivers it from the notification FIFO queue. */
export function sqsRecord(id: string, body: string, receiveCount = '1'): SQSRecord {
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body,
    attributes: {
      ApproximateReceiveCount: receiveCount,
      SentTimestamp: '0',
      SenderId: 'x',
      ApproximateFirstReceiveTimestamp: '0',
      MessageGroupId: id,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:mcp-notifications.fifo',
    awsRegion: 'us-east-1',
  };
}
