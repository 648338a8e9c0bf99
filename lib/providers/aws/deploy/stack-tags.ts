/**
 * A stack's load balancers and target groups found by their tags through the Resource Groups
 * Tagging API (GetResources with the owner and stack tags): ARNs and every tag in one call that is
 * not an ELBv2 call, so it spends nothing of the account's ELBv2 budget. Names are read from the
 * ARNs (`loadbalancer/app/<name>/<id>`, `targetgroup/<name>/<id>`).
 *
 * The Tagging API is eventually consistent: a resource created a moment ago may be missing, a tag
 * written a moment ago may still show its old value. Callers only take a shortcut when what it
 * returns proves the stack unchanged; anything missing sends them the long way, through ELBv2.
 */
import {
  GetResourcesCommand,
  type ResourceGroupsTaggingAPIClient,
} from '@aws-sdk/client-resource-groups-tagging-api';
import { errorMessage } from '../../../errors.js';
import { OWNER_TAG, STACK_TAG, tagsToRecord } from '../tagging.js';
import type { DeployContext, TaggedResource, TaggedStack } from './context.js';

export type { TaggedResource, TaggedStack } from './context.js';

/** `…:loadbalancer/app/<name>/<id>` or `…:targetgroup/<name>/<id>` → its kind and name. */
export function parseElbArn(arn: string): { kind: 'loadbalancer' | 'targetgroup'; name: string } | undefined {
  const resource = arn.split(':').slice(5).join(':');
  const lb = /^loadbalancer\/(?:app|net)\/([^/]+)\/[^/]+$/.exec(resource);
  if (lb?.[1]) return { kind: 'loadbalancer', name: lb[1] };
  const tg = /^targetgroup\/([^/]+)\/[^/]+$/.exec(resource);
  return tg?.[1] ? { kind: 'targetgroup', name: tg[1] } : undefined;
}

/** The stack's resources by tags, or undefined when the Tagging API is not configured or failed. */
export async function findStackByTags(
  ctx: Pick<DeployContext, 'tagging' | 'owner' | 'signal' | 'logger'>,
  tagging: ResourceGroupsTaggingAPIClient | undefined = ctx.tagging,
): Promise<TaggedStack | undefined> {
  const found = await findByTags(
    { ...ctx, tagging },
    [
      { Key: OWNER_TAG, Values: [ctx.owner.ownerId] },
      { Key: STACK_TAG, Values: [ctx.owner.stackId] },
    ],
    ['elasticloadbalancing:loadbalancer', 'elasticloadbalancing:targetgroup'],
  );
  if (!found) return undefined;
  return {
    loadBalancers: found.filter((r) => r.kind === 'loadbalancer'),
    targetGroups: found.filter((r) => r.kind === 'targetgroup'),
  };
}

/**
 * Every load balancer and target group carrying all of `filters`, 100 per GetResources page; or
 * undefined when the Tagging API is not configured or failed (the caller then asks ELBv2).
 */
export async function findByTags(
  ctx: Pick<DeployContext, 'tagging' | 'signal' | 'logger'>,
  filters: Array<{ Key: string; Values: string[] }>,
  resourceTypes: readonly string[],
): Promise<Array<TaggedResource & { kind: 'loadbalancer' | 'targetgroup' }> | undefined> {
  const { tagging } = ctx;
  if (!tagging) return undefined;
  const out: Array<TaggedResource & { kind: 'loadbalancer' | 'targetgroup' }> = [];
  let token: string | undefined;
  try {
    do {
      const res = await tagging.send(
        new GetResourcesCommand({
          TagFilters: filters,
          ResourceTypeFilters: [...resourceTypes],
          ResourcesPerPage: 100,
          ...(token ? { PaginationToken: token } : {}),
        }),
        { abortSignal: ctx.signal },
      );
      for (const m of res.ResourceTagMappingList ?? []) {
        const parsed = m.ResourceARN ? parseElbArn(m.ResourceARN) : undefined;
        if (!parsed || !m.ResourceARN) continue;
        out.push({ arn: m.ResourceARN, name: parsed.name, kind: parsed.kind, tags: tagsToRecord(m.Tags) });
      }
      token = res.PaginationToken || undefined;
    } while (token);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // Not fatal: the ELBv2 path finds the same resources, at its own cost.
    ctx.logger.debug('tagging API lookup failed; discovering through ELBv2', { error: errorMessage(err) });
    return undefined;
  }
  return out;
}
