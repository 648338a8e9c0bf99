/** Direct asynchronous Lambda invoke: payload `{ notifications: [...] }`, InvocationType Event. */
import { InvokeCommand, LambdaClient, type LambdaClientConfig } from '@aws-sdk/client-lambda';
import type { ChangeNotification } from '../../notification/types.js';
import { chunk } from '../../notification/chunk.js';
import type { SendResult, Sink } from './types.js';
import { deliveryClientConfig } from '../../notification/delivery-client.js';

// Asynchronous invocation payload limit, less room for the envelope.
const LAMBDA_MAX_BYTES = 256 * 1024 - 1024;

export interface LambdaSinkOptions {
  functionName: string;
  region?: string;
  endpoint?: string;
  maxBatch?: number;
  clientConfig?: LambdaClientConfig;
}

export class LambdaSink implements Sink {
  readonly name = 'lambda';
  readonly maxBatch: number;
  private readonly client: LambdaClient;

  constructor(private readonly options: LambdaSinkOptions) {
    this.maxBatch = options.maxBatch ?? 100;
    this.client = new LambdaClient(deliveryClientConfig(options));
  }

  async send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SendResult> {
    const result: SendResult = { failed: [], calls: 0, errors: 0 };
    const limits = { maxCount: this.maxBatch, maxBytes: LAMBDA_MAX_BYTES, maxItemBytes: LAMBDA_MAX_BYTES };
    for (const items of chunk(batch, limits)) {
      result.calls++;
      try {
        const payload = `{"notifications":[${items.map((s) => s.body).join(',')}]}`;
        const out = await this.client.send(
          new InvokeCommand({
            FunctionName: this.options.functionName,
            InvocationType: 'Event',
            Payload: Buffer.from(payload),
          }),
          signal ? { abortSignal: signal } : {},
        );
        if (out.StatusCode !== undefined && (out.StatusCode < 200 || out.StatusCode >= 300)) {
          throw new Error(`Invoke returned status ${out.StatusCode}`);
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
