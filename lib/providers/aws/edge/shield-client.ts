/**
 * The Shield Advanced calls: the account's subscription (GetSubscriptionState), a load balancer's
 * protection and its tags (DescribeProtection by resource, ListTagsForResource), and creating and
 * deleting one. Shield's API lives in us-east-1 whatever the load balancer's Region. Its own chunk
 * in the function bundles (lazy-parts.ts): loaded only by a container whose stacks ask for
 * protection or had one of ours.
 */
// Costs nothing at run time (the factory is loaded before anything can load this chunk): it keeps
// esbuild from splitting the start set's chunks around what this one shares with them (full-path.ts).
import '../factory.js';
import {
  CreateProtectionCommand,
  DeleteProtectionCommand,
  DescribeProtectionCommand,
  GetSubscriptionStateCommand,
  ListTagsForResourceCommand,
  ShieldClient,
} from '@aws-sdk/client-shield';
import type { AwsProviderConfig } from '../config-types.js';
import { call, isAwsError } from '../deploy/context.js';
import type { ShieldApi } from './services.js';

/** Where Shield's API is (its one regional endpoint, for every Region's resources). */
export const SHIELD_API_REGION = 'us-east-1';

export function createShieldClient(
  config: Pick<AwsProviderConfig, 'shieldEndpoint' | 'maxAttempts'>,
): ShieldClient {
  return new ShieldClient({
    region: SHIELD_API_REGION,
    ...(config.shieldEndpoint ? { endpoint: config.shieldEndpoint } : {}),
    maxAttempts: config.maxAttempts,
  });
}

export function shieldApi(client: ShieldClient): ShieldApi {
  return {
    async subscribed(ctx) {
      const out = await call(
        ctx,
        'GetSubscriptionState',
        (o) => client.send(new GetSubscriptionStateCommand({}), o),
        'Shield',
      );
      return out.SubscriptionState === 'ACTIVE';
    },
    async protectionOf(resourceArn, ctx) {
      let found;
      try {
        found = await call(
          ctx,
          'DescribeProtection',
          (o) => client.send(new DescribeProtectionCommand({ ResourceArn: resourceArn }), o),
          'Shield',
        );
      } catch (err) {
        if (isAwsError(err, 'ResourceNotFoundException')) return null;
        throw err;
      }
      const p = found.Protection;
      if (!p?.Id || !p.ProtectionArn) return null;
      const arn = p.ProtectionArn;
      const tags = await call(
        ctx,
        'ListTagsForResource',
        (o) => client.send(new ListTagsForResourceCommand({ ResourceARN: arn }), o),
        'Shield',
      );
      return {
        id: p.Id,
        arn,
        tags: Object.fromEntries((tags.Tags ?? []).flatMap((t) => (t.Key ? [[t.Key, t.Value ?? '']] : []))),
      };
    },
    async create(input, o) {
      await client.send(new CreateProtectionCommand(input), o);
    },
    async delete(input, o) {
      await client.send(new DeleteProtectionCommand(input), o);
    },
  };
}

export function configuredShield(
  config: Pick<AwsProviderConfig, 'shieldEndpoint' | 'maxAttempts'>,
  client?: ShieldClient,
): ShieldApi {
  return shieldApi(client ?? createShieldClient(config));
}
