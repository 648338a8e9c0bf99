/** Finding our load balancer by name, with get()'s look-ups reused once by the deploy after it. */
import type { LoadBalancer } from '@aws-sdk/client-elastic-load-balancing-v2';
import { isOwnedBy } from '../tagging.js';
import type { DeployContext } from './context.js';
import { describeTags, findLoadBalancerByName } from './describe.js';

/** The load balancer under `name` and its tags; `memo: 'use'` takes what get() just saw. */
export async function ownedByName(
  ctx: DeployContext,
  name: string,
  memo: 'use' | 'record' | 'skip',
): Promise<{ lb: LoadBalancer; tags: Record<string, string> } | undefined> {
  if (memo === 'use') {
    const seen = ctx.lookups?.take(name);
    if (seen !== undefined) return seen ?? undefined;
  }
  const lb = await findLoadBalancerByName(ctx, name);
  const found = lb?.LoadBalancerArn
    ? { lb, tags: (await describeTags(ctx, [lb.LoadBalancerArn])).get(lb.LoadBalancerArn) ?? {} }
    : undefined;
  if (memo === 'record') ctx.lookups?.record(name, found ?? null);
  return found;
}

/**
 * Our load balancer with one of these names and its tags, if any (foreign ones are reported, never returned);
 * each look-up is recorded for the deploy that follows get().
 */
export async function findOwnedLoadBalancer(
  ctx: DeployContext,
  names: readonly string[],
): Promise<{ lb: LoadBalancer; tags: Record<string, string> } | undefined> {
  for (const name of names) {
    const found = await ownedByName(ctx, name, 'record');
    if (!found) continue;
    if (isOwnedBy(found.tags, ctx.owner)) return found;
    ctx.logger.warn('a load balancer with our name is not ours; leaving it alone', { name });
  }
  return undefined;
}
