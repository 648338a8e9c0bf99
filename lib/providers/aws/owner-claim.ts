/**
 * The claim of an owner ID in an account and Region: an empty target group (no cost, never
 * attached, outside the `k8s-` names the sweep looks at, no stack tag) named after the owner ID
 * and tagged with the Karmada instance that holds it. Before its first ELBv2 call a deployment
 * looks at the claim: absent, it creates it; held by its own instance, it goes on; held by another
 * instance, it refuses to run, so a second Karmada given the same ownerId by mistake fails loudly
 * instead of adopting (and sweeping) the first one's load balancers. The sweep's role cannot
 * create, so the sweep only runs once a reconciling function has made the claim.
 */
import { createHash } from 'node:crypto';
import {
  CreateTargetGroupCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  type ElasticLoadBalancingV2Client,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { ProviderConfigError } from '../../errors.js';
import type { Logger } from '../../log/logger.js';
import type { DeploymentIdentity } from './instance.js';
import { CLAIM_TAG, INSTANCE_TAG, OWNER_TAG, recordToTags, tagsToRecord } from './tagging.js';

/** `mcp-claim-<16 hex of sha256(ownerId)>`: 26 characters, a valid target group name. */
export function claimName(ownerId: string): string {
  return `mcp-claim-${createHash('sha256').update(ownerId).digest('hex').slice(0, 16)}`;
}

export class OwnerClaimError extends ProviderConfigError {
  override name = 'OwnerClaimError';
}

const errorName = (err: unknown): string => (err as { name?: string })?.name ?? '';

async function findClaim(
  client: ElasticLoadBalancingV2Client,
  name: string,
): Promise<TargetGroup | undefined> {
  try {
    const res = await client.send(new DescribeTargetGroupsCommand({ Names: [name] }));
    return res.TargetGroups?.[0];
  } catch (err) {
    if (errorName(err) === 'TargetGroupNotFoundException' || errorName(err) === 'TargetGroupNotFound')
      return undefined;
    throw err;
  }
}

/** Makes or checks the claim; throws OwnerClaimError when another instance holds it. */
export async function claimOwnerId(
  client: ElasticLoadBalancingV2Client,
  identity: DeploymentIdentity,
  vpcId: string,
  logger: Logger,
): Promise<void> {
  const { ownerId, instanceId } = identity;
  // Without an instance (a local API stand-in with no kube-system) there is nothing to claim with.
  if (!instanceId) return;
  const name = claimName(ownerId);
  let claim = await findClaim(client, name);
  if (!claim) {
    try {
      const created = await client.send(
        new CreateTargetGroupCommand({
          Name: name,
          Protocol: 'TCP',
          Port: 1,
          VpcId: vpcId,
          TargetType: 'ip',
          Tags: recordToTags({ [OWNER_TAG]: ownerId, [INSTANCE_TAG]: instanceId, [CLAIM_TAG]: 'owner-id' }),
        }),
      );
      claim = created.TargetGroups?.[0];
      logger.info('owner ID claimed', { ownerId, instanceId, claim: name });
    } catch (err) {
      if (/AccessDenied/.test(errorName(err))) {
        throw new OwnerClaimError(
          `owner ID "${ownerId}" is not claimed in this account yet, and this function may not claim it (only the reconciling functions may): it does nothing until one of them has run`,
          { cause: err },
        );
      }
      // Another deployment created it at the same moment: whose it is decides below.
      if (
        errorName(err) !== 'DuplicateTargetGroupNameException' &&
        errorName(err) !== 'DuplicateTargetGroupName'
      )
        throw err;
      claim = await findClaim(client, name);
    }
  }
  const arn = claim?.TargetGroupArn;
  if (!arn) throw new OwnerClaimError(`the claim of owner ID "${ownerId}" (${name}) could not be read`);
  const res = await client.send(new DescribeTagsCommand({ ResourceArns: [arn] }));
  const tags = tagsToRecord(res.TagDescriptions?.[0]?.Tags);
  if (tags[OWNER_TAG] !== ownerId || tags[INSTANCE_TAG] !== instanceId) {
    throw new OwnerClaimError(
      `owner ID "${ownerId}" is held by another Karmada (instance ${tags[INSTANCE_TAG] ?? 'unknown'}, target group ${name}); this one is ${instanceId}. Give each Karmada its own ownerId (and awsOwnerId); this deployment refuses to run rather than touch the other's load balancers`,
    );
  }
}

/**
 * Runs `claim` before the first request any ELBv2 call makes through `client` (once per container;
 * a claim that failed is tried again by the next call, so a fixed configuration recovers). The
 * claim must use another client: its own calls would wait for themselves.
 */
export function claimBeforeFirstCall(client: ElasticLoadBalancingV2Client, claim: () => Promise<void>): void {
  let claimed: Promise<void> | undefined;
  client.middlewareStack.add(
    (next) => async (args) => {
      claimed ??= claim().catch((err: unknown) => {
        claimed = undefined;
        throw err;
      });
      await claimed;
      return next(args);
    },
    { step: 'initialize', name: 'ownerClaim' },
  );
}
