/**
 * Target groups (LBC pkg/deploy/elbv2/target_group_synthesizer.go): create and update before the
 * load balancer, delete orphans only at the very end, when no rule points at them any more.
 */
import {
  AddTagsCommand,
  CreateTargetGroupCommand,
  DeleteTargetGroupCommand,
  ModifyTargetGroupCommand,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { RetryLaterError } from '../../../errors.js';
import type { HealthCheckSpec, TargetGroupResource } from '../model/types.js';
import { recordToTags, resourceIdOf, tagsToUpsert } from '../tagging.js';
import { call, isAwsError, sleep, type DeployContext } from './context.js';

export interface OwnedTargetGroup {
  tg: TargetGroup;
  tags: Record<string, string>;
}

export interface TargetGroupsResult {
  /** Resource ID → ARN, for resolving `{ $ref }` in actions. */
  arns: Map<string, string>;
  /** Resource IDs created in this run (they have no targets yet). */
  created: Set<string>;
  /** Our target groups that the desired stack no longer has: deleted last. */
  orphans: OwnedTargetGroup[];
}

function healthCheckParams(hc: HealthCheckSpec) {
  return {
    HealthCheckEnabled: hc.enabled,
    HealthCheckPath: hc.path,
    HealthCheckPort: hc.port,
    HealthCheckProtocol: hc.protocol,
    HealthCheckIntervalSeconds: hc.intervalSeconds,
    HealthCheckTimeoutSeconds: hc.timeoutSeconds,
    HealthyThresholdCount: hc.healthyThresholdCount,
    UnhealthyThresholdCount: hc.unhealthyThresholdCount,
    ...(hc.matcher ? { Matcher: { HttpCode: hc.matcher.httpCode } } : {}),
  };
}

function healthCheckDiffers(hc: HealthCheckSpec, tg: TargetGroup): boolean {
  return (
    (tg.HealthCheckEnabled ?? true) !== hc.enabled ||
    (hc.path !== undefined && tg.HealthCheckPath !== hc.path) ||
    tg.HealthCheckPort !== hc.port ||
    tg.HealthCheckProtocol !== hc.protocol ||
    tg.HealthCheckIntervalSeconds !== hc.intervalSeconds ||
    tg.HealthCheckTimeoutSeconds !== hc.timeoutSeconds ||
    tg.HealthyThresholdCount !== hc.healthyThresholdCount ||
    tg.UnhealthyThresholdCount !== hc.unhealthyThresholdCount ||
    (hc.matcher !== undefined && tg.Matcher?.HttpCode !== hc.matcher.httpCode)
  );
}

/**
 * Matches desired and owned target groups on the resource-ID tag. A match whose name differs
 * has a changed immutable field (the name hashes them): it is replaced, not modified.
 */
export async function synthesizeTargetGroups(
  ctx: DeployContext,
  desired: readonly TargetGroupResource[],
  owned: readonly OwnedTargetGroup[],
): Promise<TargetGroupsResult> {
  const arns = new Map<string, string>();
  const created = new Set<string>();
  const matched = new Set<string>();
  for (const d of desired) {
    const actual = owned.find(
      (o) => resourceIdOf(o.tags) === d.id && o.tg.TargetGroupName === d.spec.name && !matched.has(arnOf(o)),
    );
    if (actual) {
      const arn = arnOf(actual);
      matched.add(arn);
      arns.set(d.id, arn);
      if (healthCheckDiffers(d.spec.healthCheck, actual.tg)) {
        await call(ctx, 'ModifyTargetGroup', (o) =>
          ctx.client.send(
            new ModifyTargetGroupCommand({ TargetGroupArn: arn, ...healthCheckParams(d.spec.healthCheck) }),
            o,
          ),
        );
      }
      const add = tagsToUpsert(d.spec.tags, actual.tags);
      if (Object.keys(add).length > 0) {
        await call(ctx, 'AddTags', (o) =>
          ctx.client.send(new AddTagsCommand({ ResourceArns: [arn], Tags: recordToTags(add) }), o),
        );
      }
      continue;
    }
    const res = await call(ctx, 'CreateTargetGroup', (o) =>
      ctx.client.send(
        new CreateTargetGroupCommand({
          Name: d.spec.name,
          TargetType: d.spec.targetType,
          Protocol: d.spec.protocol,
          ...(d.spec.protocolVersion ? { ProtocolVersion: d.spec.protocolVersion } : {}),
          Port: d.spec.port,
          VpcId: d.spec.vpcId,
          IpAddressType: d.spec.ipAddressType,
          ...healthCheckParams(d.spec.healthCheck),
          Tags: recordToTags(d.spec.tags),
        }),
        o,
      ),
    );
    const arn = res.TargetGroups?.[0]?.TargetGroupArn;
    if (!arn) throw new Error(`CreateTargetGroup ${d.spec.name} returned no ARN`);
    ctx.logger.info('created target group', { name: d.spec.name, resourceId: d.id });
    arns.set(d.id, arn);
    created.add(d.id);
  }
  const orphans = owned.filter((o) => !matched.has(arnOf(o)));
  return { arns, created, orphans };
}

function arnOf(o: OwnedTargetGroup): string {
  return o.tg.TargetGroupArn ?? '';
}

/**
 * Deletes target groups, retrying ResourceInUse (a just-deleted rule or load balancer still holds
 * them for a moment) a bounded number of times; then gives up with RetryLaterError.
 */
export async function deleteTargetGroups(
  ctx: DeployContext,
  groups: readonly OwnedTargetGroup[],
): Promise<void> {
  const { resourceInUseAttempts, resourceInUseDelayMs } = ctx.options;
  for (const g of groups) {
    const arn = arnOf(g);
    for (let attempt = 1; ; attempt++) {
      try {
        await call(ctx, 'DeleteTargetGroup', (o) =>
          ctx.client.send(new DeleteTargetGroupCommand({ TargetGroupArn: arn }), o),
        );
        ctx.logger.info('deleted target group', {
          name: g.tg.TargetGroupName,
          resourceId: resourceIdOf(g.tags),
        });
        break;
      } catch (err) {
        if (isAwsError(err, 'TargetGroupNotFound')) break;
        if (!isAwsError(err, 'ResourceInUse')) throw err;
        if (attempt >= resourceInUseAttempts) {
          throw new RetryLaterError(`target group ${g.tg.TargetGroupName ?? arn} is still in use`, {
            cause: err,
          });
        }
        await sleep(resourceInUseDelayMs, ctx.signal);
      }
    }
  }
}
