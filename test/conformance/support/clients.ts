/**
 * The scenarios' own SDK clients (seeding the network, importing certificates, making foreign
 * resources, reading the state back), pointed at a target's gateway. Their calls carry the
 * observer's user agent, so the gateway does not count them as the provider's.
 */
import { ACMClient } from '@aws-sdk/client-acm';
import { EC2Client } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { OBSERVER_AGENT, type Gateway } from './gateway.js';

/** The provider's `ownerId` in every scenario. */
export const OWNER_ID = 'conformance';

/** What the provider's clients find in the environment too (moto takes any; ours check none). */
export const CREDENTIALS = { accessKeyId: 'AKIDCONFORMANCE', secretAccessKey: 'conformance' } as const;

export interface Clients {
  elbv2: ElasticLoadBalancingV2Client;
  ec2: EC2Client;
  acm: ACMClient;
}

export function clientsFor(gateway: Pick<Gateway, 'url'>, region: string): Clients {
  const common = {
    endpoint: gateway.url,
    region,
    credentials: CREDENTIALS,
    customUserAgent: OBSERVER_AGENT,
    maxAttempts: 2,
  };
  return {
    elbv2: new ElasticLoadBalancingV2Client(common),
    ec2: new EC2Client(common),
    acm: new ACMClient(common),
  };
}

/** The provider reads its credentials from the environment, as in a function. */
export function useConformanceCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
}
