import { EC2Client, type EC2ClientConfig } from '@aws-sdk/client-ec2';
import { fixedDelayRetryStrategy, type SimClientOptions } from '../elbv2-sim/client.js';

/** A real EC2 client pointed at a simulator, with dummy credentials (options as for ELBv2's). */
export function ec2ClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<EC2ClientConfig> } = {},
): EC2Client {
  const maxAttempts = options.maxAttempts ?? 3;
  return new EC2Client({
    endpoint: sim.url,
    region: sim.region,
    credentials: { accessKeyId: 'AKIDSIMULATOR', secretAccessKey: 'simulator-secret' },
    maxAttempts,
    ...(options.retryDelayMs !== undefined
      ? {
          retryStrategy: fixedDelayRetryStrategy(
            maxAttempts,
            options.retryDelayMs,
          ) as EC2ClientConfig['retryStrategy'],
        }
      : {}),
    ...options.config,
  });
}
