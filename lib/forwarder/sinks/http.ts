/**
 * HTTP POST sink: JSON `{ notifications: [...] }`; any 2xx is success. Requests are SigV4-signed
 * when `sign` is given (a Lambda function URL with AWS_IAM auth); unsigned, it is for local runs.
 */
import type { ChangeNotification } from '../../notification/types.js';
import { chunk } from '../../notification/chunk.js';
import { createSigner, type RequestSigner, type SigningOptions } from './sigv4.js';
import type { SendResult, Sink } from './types.js';

const HTTP_MAX_BYTES = 1024 * 1024;

export interface HttpSinkOptions {
  url: string;
  maxBatch?: number;
  timeoutMs?: number;
  sign?: SigningOptions;
}

export class HttpSink implements Sink {
  readonly name = 'http';
  readonly maxBatch: number;

  private readonly signer: RequestSigner | undefined;

  constructor(private readonly options: HttpSinkOptions) {
    this.maxBatch = options.maxBatch ?? 100;
    this.signer = options.sign ? createSigner(options.sign) : undefined;
  }

  async send(batch: readonly ChangeNotification[], signal?: AbortSignal): Promise<SendResult> {
    const result: SendResult = { failed: [], calls: 0, errors: 0 };
    const limits = { maxCount: this.maxBatch, maxBytes: HTTP_MAX_BYTES, maxItemBytes: HTTP_MAX_BYTES };
    for (const items of chunk(batch, limits)) {
      result.calls++;
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
        const body = `{"notifications":[${items.map((s) => s.body).join(',')}]}`;
        const headers = this.signer
          ? await this.signer(new URL(this.options.url), body)
          : { 'content-type': 'application/json' };
        const res = await fetch(this.options.url, {
          method: 'POST',
          headers,
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        // Drain the body so the connection can be reused.
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 200 || res.status >= 300)
          throw new Error(`POST ${this.options.url}: HTTP ${res.status}`);
      } catch (err) {
        result.errors++;
        result.lastError = err;
        result.failed.push(...items.map((s) => s.notification));
      }
    }
    return result;
  }
}
