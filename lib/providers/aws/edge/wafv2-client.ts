/**
 * The WAFv2 calls (regional scope): which web ACL a load balancer has (GetWebACLForResource),
 * the Region's web ACLs by name (ListWebACLs, for `wafv2-acl-name`), and the association itself.
 * Its own chunk in the function bundles (lazy-parts.ts): loaded only by a container whose stacks
 * name a web ACL or had one of ours.
 */
// Costs nothing at run time (the factory is loaded before anything can load this chunk): it keeps
// esbuild from splitting the start set's chunks around what this one shares with them (full-path.ts).
import '../factory.js';
import {
  AssociateWebACLCommand,
  DisassociateWebACLCommand,
  GetWebACLForResourceCommand,
  ListWebACLsCommand,
  WAFV2Client,
} from '@aws-sdk/client-wafv2';
import type { AwsProviderConfig } from '../config-types.js';
import { call } from '../deploy/context.js';
import type { Wafv2Api } from './services.js';

/** ListWebACLs' largest page. */
const PAGE_SIZE = 100;

export function createWafv2Client(
  config: Pick<AwsProviderConfig, 'region' | 'wafv2Endpoint' | 'maxAttempts'>,
): WAFV2Client {
  return new WAFV2Client({
    region: config.region,
    ...(config.wafv2Endpoint ? { endpoint: config.wafv2Endpoint } : {}),
    maxAttempts: config.maxAttempts,
  });
}

export function wafv2Api(client: WAFV2Client): Wafv2Api {
  return {
    async webAclOf(resourceArn, ctx) {
      const out = await call(
        ctx,
        'GetWebACLForResource',
        (o) => client.send(new GetWebACLForResourceCommand({ ResourceArn: resourceArn }), o),
        'WAFv2',
      );
      return out.WebACL?.ARN ?? null;
    },
    async webAclsByName(ctx) {
      const byName = new Map<string, string>();
      let marker: string | undefined;
      do {
        const page = await call(
          ctx,
          'ListWebACLs',
          (o) =>
            client.send(
              new ListWebACLsCommand({
                Scope: 'REGIONAL',
                Limit: PAGE_SIZE,
                ...(marker ? { NextMarker: marker } : {}),
              }),
              o,
            ),
          'WAFv2',
        );
        for (const acl of page.WebACLs ?? []) if (acl.Name && acl.ARN) byName.set(acl.Name, acl.ARN);
        // WAFv2 returns a marker with the last page too; an empty page ends the listing.
        marker = (page.WebACLs ?? []).length > 0 ? page.NextMarker : undefined;
      } while (marker);
      return byName;
    },
    async associate(input, o) {
      await client.send(new AssociateWebACLCommand(input), o);
    },
    async disassociate(input, o) {
      await client.send(new DisassociateWebACLCommand(input), o);
    },
  };
}

export function configuredWafv2(
  config: Pick<AwsProviderConfig, 'region' | 'wafv2Endpoint' | 'maxAttempts'>,
  client?: WAFV2Client,
): Wafv2Api {
  return wafv2Api(client ?? createWafv2Client(config));
}
