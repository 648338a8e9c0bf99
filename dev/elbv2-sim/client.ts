import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ElasticLoadBalancingV2ClientConfig } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import type { InProcessHandler } from '../shared/in-process.js';

export interface SimClientOptions {
  /** SDK maxAttempts (default 3, the SDK's own default). */
  maxAttempts?: number;
  /**
   * Fixed delay between retries instead of the SDK's exponential backoff (1 s base for
   * throttling), so retry-heavy tests stay fast. The SDK still decides *whether* to retry.
   */
  retryDelayMs?: number;
  /** Anything else to pass to the client (requestHandler, logger, ...); wins over the above. */
  config?: Partial<ElasticLoadBalancingV2ClientConfig>;
}

type RetryStrategy = NonNullable<ElasticLoadBalancingV2ClientConfig['retryStrategy']>;

interface Token {
  getRetryCount(): number;
  getRetryDelay(): number;
}

/** Same retry decision as the SDK's standard strategy (throttling and transient errors only). */
export function fixedDelayRetryStrategy(maxAttempts: number, delayMs: number): RetryStrategy {
  const token = (count: number): Token => ({ getRetryCount: () => count, getRetryDelay: () => delayMs });
  return {
    mode: 'standard',
    acquireInitialRetryToken: async () => token(0),
    refreshRetryTokenForRetry: async (previous: Token, info: { errorType: string }) => {
      const retryable = info.errorType === 'THROTTLING' || info.errorType === 'TRANSIENT';
      if (!retryable || previous.getRetryCount() + 1 >= maxAttempts)
        throw new Error('No retry token available');
      await new Promise((r) => setTimeout(r, delayMs));
      return token(previous.getRetryCount() + 1);
    },
    recordSuccess: () => {},
  } as unknown as RetryStrategy;
}

/**
 * What every simulator's real SDK client is given: the simulator's URL and Region, dummy
 * credentials, and the retry options (a client's own `config` goes over it).
 */
export function simClientConfig(
  sim: { url: string; region: string; requestHandler?: InProcessHandler | undefined },
  options: Omit<SimClientOptions, 'config'> = {},
) {
  const maxAttempts = options.maxAttempts ?? 3;
  return {
    endpoint: sim.url,
    // A simulator served in process: no socket, the SDK's request handed to it directly.
    ...(sim.requestHandler ? { requestHandler: sim.requestHandler } : {}),
    region: sim.region,
    credentials: { accessKeyId: 'AKIDSIMULATOR', secretAccessKey: 'simulator-secret' },
    maxAttempts,
    ...(options.retryDelayMs !== undefined
      ? { retryStrategy: fixedDelayRetryStrategy(maxAttempts, options.retryDelayMs) }
      : {}),
  };
}

/** A real ELBv2 client pointed at a simulator, with dummy credentials. */
export function elbv2ClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions = {},
): ElasticLoadBalancingV2Client {
  return new ElasticLoadBalancingV2Client({ ...simClientConfig(sim, options), ...options.config });
}

/** A real Resource Groups Tagging API client pointed at the simulator (which serves it too). */
export function taggingClientFor(sim: {
  url: string;
  region: string;
  requestHandler?: InProcessHandler | undefined;
}): ResourceGroupsTaggingAPIClient {
  return new ResourceGroupsTaggingAPIClient({
    endpoint: sim.url,
    ...(sim.requestHandler ? { requestHandler: sim.requestHandler } : {}),
    region: sim.region,
    credentials: { accessKeyId: 'AKIDSIMULATOR', secretAccessKey: 'simulator-secret' },
    maxAttempts: 2,
  });
}
