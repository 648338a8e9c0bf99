/**
 * HTTP POST sink: JSON `{ notifications: [...] }`; any 2xx is success. When the answer carries one
 * result per notification (the http function's `{ results: [{ id, ok, waiting, retryAfterSeconds }] }`),
 * each notification has its own outcome: reconciled, waiting (delivered again after its delay, not
 * a failure), or failed (retried). Requests are SigV4-signed when `sign` is given (a Lambda
 * function URL with AWS_IAM auth); unsigned, it is for local runs.
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
        // Read the body whatever it holds, so the connection can be reused.
        const text = await res.text().catch(() => '');
        const outcomes = itemOutcomes(text, items.length);
        if (outcomes) {
          // Our function's answer (functions/http.ts): per notification, in the order sent.
          for (const [i, o] of outcomes.entries()) {
            const n = items[i]!.notification;
            if (o.waiting) (result.later ??= []).push({ notification: n, afterMs: o.afterMs });
            else if (!o.ok) result.failed.push(n);
          }
          if (outcomes.some((o) => !o.ok && !o.waiting)) {
            result.errors++;
            result.lastError = new Error(
              `POST ${this.options.url}: HTTP ${res.status}, some notifications failed`,
            );
          }
          continue;
        }
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

interface ItemOutcome {
  ok: boolean;
  waiting: boolean;
  afterMs: number;
}

/** Without a delay, a waiting notification comes back after this long. */
const DEFAULT_WAIT_MS = 1_000;

/**
 * The per-notification outcomes of a `{ results: [...] }` answer whose ids are the indices of the
 * `count` notifications sent; undefined for any other body (then the status alone decides).
 */
function itemOutcomes(text: string, count: number): ItemOutcome[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results) || results.length !== count) return undefined;
  const out: ItemOutcome[] = [];
  for (const [i, r] of (results as Array<Record<string, unknown>>).entries()) {
    if (typeof r !== 'object' || r === null || r.id !== String(i) || typeof r.ok !== 'boolean')
      return undefined;
    const after = typeof r.retryAfterSeconds === 'number' ? r.retryAfterSeconds * 1000 : DEFAULT_WAIT_MS;
    out.push({ ok: r.ok, waiting: !r.ok && r.waiting === true, afterMs: Math.max(0, after) });
  }
  return out;
}
