/** Picks the sink from configuration. */
import type { SQSClientConfig } from '@aws-sdk/client-sqs';
import type { LambdaClientConfig } from '@aws-sdk/client-lambda';
import { HttpSink } from './http.js';
import { LambdaSink } from './lambda.js';
import { SqsSink } from './sqs.js';
import type { Sink } from './types.js';

export type SinkType = 'sqs' | 'lambda' | 'http';
export const SINK_TYPES: readonly SinkType[] = ['sqs', 'lambda', 'http'];

export interface SinkConfig {
  type: SinkType;
  /** Queue URL, function name or ARN, or HTTP URL. */
  target: string;
  region?: string;
  endpoint?: string;
  batchSize?: number;
  /** Extra AWS client configuration (tests: credentials). */
  awsClientConfig?: SQSClientConfig & LambdaClientConfig;
}

export function createSink(config: SinkConfig): Sink {
  const aws = { region: config.region, endpoint: config.endpoint, clientConfig: config.awsClientConfig };
  switch (config.type) {
    case 'sqs':
      return new SqsSink({ queueUrl: config.target, ...aws });
    case 'lambda':
      return new LambdaSink({ functionName: config.target, maxBatch: config.batchSize, ...aws });
    case 'http':
      return new HttpSink({ url: config.target, maxBatch: config.batchSize });
  }
}

export type { Sink, SendResult } from './types.js';
