/**
 * A cap on ELBv2 calls per second for the whole function container: one token bucket shared by
 * every call, installed as SDK middleware after the retry step, so SDK retries are counted too.
 * The ELBv2 API bucket is per account and Region (anchors §4.5): one busy Lambda must not starve
 * the console, LBC and the other containers.
 */
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';

export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number = Math.max(1, Math.ceil(ratePerSecond)),
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tokens = this.burst;
    this.last = now();
  }

  /** Resolves once a token is available; callers are served in arrival order. */
  take(): Promise<void> {
    const next = this.queue.then(() => this.wait());
    this.queue = next;
    return next;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const ms = Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
      await new Promise((r) => setTimeout(r, ms));
    }
  }
}

const MIDDLEWARE_NAME = 'karmadaElbv2CallsPerSecond';

/** Installs the cap on a client (once per client: a second install is ignored). */
export function limitCallsPerSecond(client: ElasticLoadBalancingV2Client, bucket: TokenBucket): void {
  if (client.middlewareStack.identify().some((m) => m.startsWith(MIDDLEWARE_NAME))) return;
  client.middlewareStack.add(
    (next) => async (args) => {
      await bucket.take();
      return next(args);
    },
    // After retryMiddleware (finalizeRequest, high priority): every attempt takes a token.
    { step: 'finalizeRequest', priority: 'low', name: MIDDLEWARE_NAME },
  );
}
