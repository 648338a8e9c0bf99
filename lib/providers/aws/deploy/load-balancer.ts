/** The load balancer (LBC pkg/deploy/elbv2/load_balancer_synthesizer.go), created after its target groups. */
import {
  AddTagsCommand,
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
  SetSecurityGroupsCommand,
  SetSubnetsCommand,
  type LoadBalancer,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { LoadBalancerResource } from '../model/types.js';
import { recordToTags, tagsToUpsert } from '../tagging.js';
import { call, isAwsError, type DeployContext } from './context.js';

export interface DeployedLoadBalancer {
  arn: string;
  dnsName: string;
  /** True when this run created it: it has no listeners yet, so nothing needs describing. */
  created: boolean;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

export async function synthesizeLoadBalancer(
  ctx: DeployContext,
  desired: LoadBalancerResource,
  actual: { lb: LoadBalancer; tags: Record<string, string> } | undefined,
): Promise<DeployedLoadBalancer> {
  const spec = desired.spec;
  if (!actual) {
    const res = await call(ctx, 'CreateLoadBalancer', (o) =>
      ctx.client.send(
        new CreateLoadBalancerCommand({
          Name: spec.name,
          Type: spec.type,
          Scheme: spec.scheme,
          IpAddressType: spec.ipAddressType,
          Subnets: spec.subnets,
          ...(spec.securityGroups ? { SecurityGroups: spec.securityGroups } : {}),
          Tags: recordToTags(spec.tags),
        }),
        o,
      ),
    );
    const lb = res.LoadBalancers?.[0];
    if (!lb?.LoadBalancerArn) throw new Error(`CreateLoadBalancer ${spec.name} returned no ARN`);
    ctx.logger.info('created load balancer', { name: spec.name });
    return { arn: lb.LoadBalancerArn, dnsName: lb.DNSName ?? '', created: true };
  }
  const arn = actual.lb.LoadBalancerArn ?? '';
  const subnets = (actual.lb.AvailabilityZones ?? []).flatMap((az) => (az.SubnetId ? [az.SubnetId] : []));
  if (!sameSet(subnets, spec.subnets)) {
    await call(ctx, 'SetSubnets', (o) =>
      ctx.client.send(new SetSubnetsCommand({ LoadBalancerArn: arn, Subnets: spec.subnets }), o),
    );
  }
  if (spec.securityGroups && !sameSet(actual.lb.SecurityGroups ?? [], spec.securityGroups)) {
    await call(ctx, 'SetSecurityGroups', (o) =>
      ctx.client.send(
        new SetSecurityGroupsCommand({ LoadBalancerArn: arn, SecurityGroups: spec.securityGroups }),
        o,
      ),
    );
  }
  const add = tagsToUpsert(spec.tags, actual.tags);
  if (Object.keys(add).length > 0) {
    await call(ctx, 'AddTags', (o) =>
      ctx.client.send(new AddTagsCommand({ ResourceArns: [arn], Tags: recordToTags(add) }), o),
    );
  }
  return { arn, dnsName: actual.lb.DNSName ?? '', created: false };
}

/** Deletes a load balancer; its listeners and rules go with it. Missing is fine. */
export async function deleteLoadBalancer(ctx: DeployContext, lb: LoadBalancer): Promise<void> {
  try {
    await call(ctx, 'DeleteLoadBalancer', (o) =>
      ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lb.LoadBalancerArn }), o),
    );
    ctx.logger.info('deleted load balancer', { name: lb.LoadBalancerName });
  } catch (err) {
    if (!isAwsError(err, 'LoadBalancerNotFound')) throw err;
  }
}
