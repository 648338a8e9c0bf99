/** Picks the sink from configuration. */
import type { SQSClientConfig } from '@aws-sdk/client-sqs';
import type { LambdaClientConfig } from '@aws-sdk/client-lambda';
import { HttpSink } from './http.js';
import { functionUrlRegion } from './sigv4.js';
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
  /**
   * HTTP sink: SigV4-sign requests. `auto` (the default) signs for Lambda function URLs
   * (`*.lambda-url.<region>.on.aws`), whose AWS_IAM auth refuses anything unsigned.
   */
  sign?: 'auto' | boolean;
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
    case 'http': {
      const urlRegion = functionUrlRegion(config.target);
      const sign =
        config.sign === undefined || config.sign === 'auto' ? urlRegion !== undefined : config.sign;
      const region = config.region ?? urlRegion;
      if (sign && !region)
        throw new Error('signing the HTTP sink needs --region (or a function URL that names it)');
      return new HttpSink({
        url: config.target,
        maxBatch: config.batchSize,
        ...(sign && region
          ? {
              sign: {
                region,
                ...(config.awsClientConfig?.credentials
                  ? { credentials: config.awsClientConfig.credentials }
                  : {}),
              },
            }
          : {}),
      });
    }
  }
}

export type { Sink, SendResult } from './types.js';
