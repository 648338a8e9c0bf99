import { EC2Client, type EC2ClientConfig } from '@aws-sdk/client-ec2';
import { simClientConfig, type SimClientOptions } from '../elbv2-sim/client.js';

/** A real EC2 client pointed at a simulator, with dummy credentials (options as for ELBv2's). */
export function ec2ClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<EC2ClientConfig> } = {},
): EC2Client {
  return new EC2Client({ ...(simClientConfig(sim, options) as EC2ClientConfig), ...options.config });
}
