/**
 * The AWS provider's bulk fingerprints for the resync (FingerprintSource): the desired one comes
 * from the model alone (no AWS call), the recorded ones from every load balancer's fingerprint
 * tag, read in bulk: the account's load balancers paged 400 at a time (DescribeLoadBalancers),
 * then the tags of ours only (by the names our objects want), 20 ARNs per DescribeTags. For N
 * stacks among L load balancers that is ⌈L/400⌉ + ⌈N/20⌉ calls, where one reconcile per object
 * (even on the fingerprint fast path) costs 2N.
 *
 * With the Resource Groups Tagging API configured, the same tags come from GetResources (our owner
 * tag, load balancers only, 100 per page): ⌈N/100⌉ calls on the Tagging API's own rate limit and
 * no ELBv2 call at all. It is eventually consistent: a load balancer created moments ago may be
 * missing (the pass then reconciles its object, which finds it) and a fingerprint written moments
 * ago may show its old value (one needless reconcile, or a drift seen one pass later). A failed
 * Tagging API read falls back to the ELBv2 reads above.
 *
 * The targets side of each stack's state comes from the targets records (target-records.ts):
 * one paged LIST on the Karmada API server, no AWS call.
 */
import { DescribeLoadBalancersCommand, type LoadBalancer } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { MultiClusterIngress, MultiClusterService } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import type { DesiredFingerprint, FingerprintSource, ProviderContext } from '../../provider/contract.js';
import { call, type DeployContext } from './deploy/context.js';
import { describeTags } from './deploy/describe.js';
import { findByTags } from './deploy/stack-tags.js';
import { groupFingerprints, type TargetRecord } from './deploy/target-records.js';
import { recordedState } from './deploy/targets-only.js';
import { FINGERPRINT_TAG, isOwnedBy, OWNER_TAG, type StackOwner } from './tagging.js';

/** DescribeLoadBalancers' largest page. */
const PAGE_SIZE = 400;

/**
 * What one deep drift check of an unchanged ALB costs (bench/README.md, "no-op, resync":
 * DescribeLoadBalancers, DescribeTags ×3, DescribeTargetGroups, DescribeListeners, DescribeRules,
 * DescribeTargetHealth); an NLB costs one less.
 */
export const DEEP_CHECK_CALLS = 8;

export interface AwsFingerprintsOptions {
  ownerId: string;
  context(ctx: ProviderContext, owner: StackOwner): DeployContext;
  desired(
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
    kube: KubeClient,
  ): Promise<DesiredFingerprint>;
}

export class AwsFingerprints implements FingerprintSource {
  readonly deepCheckCalls = DEEP_CHECK_CALLS;

  constructor(private readonly options: AwsFingerprintsOptions) {}

  desired(
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
    kube: KubeClient,
  ): Promise<DesiredFingerprint> {
    return this.options.desired(obj, kube);
  }

  async recorded(ctx: ProviderContext, stacks: readonly DesiredFingerprint[]): Promise<Map<string, string>> {
    const dctx = this.options.context(ctx, { ownerId: this.options.ownerId, stackId: '' });
    const wanted = new Map(stacks.map((s) => [s.locator, s.stackId]));
    const byTags = await findByTags(
      dctx,
      [{ Key: OWNER_TAG, Values: [this.options.ownerId] }],
      ['elasticloadbalancing:loadbalancer'],
    );
    const records = await dctx.records.list();
    if (byTags) {
      return this.states(
        records,
        byTags.flatMap((lb) => {
          const stackId = wanted.get(lb.name);
          return stackId !== undefined ? [{ stackId, tags: lb.tags }] : [];
        }),
      );
    }
    const found: Array<{ lb: LoadBalancer; stackId: string }> = [];
    let marker: string | undefined;
    do {
      const res = await call(dctx, 'DescribeLoadBalancers', (o) =>
        dctx.client.send(new DescribeLoadBalancersCommand({ Marker: marker, PageSize: PAGE_SIZE }), o),
      );
      for (const lb of res.LoadBalancers ?? []) {
        const stackId = wanted.get(lb.LoadBalancerName ?? '');
        if (stackId !== undefined && lb.LoadBalancerArn) found.push({ lb, stackId });
      }
      marker = res.NextMarker;
    } while (marker);
    const tags = await describeTags(
      dctx,
      found.map((f) => f.lb.LoadBalancerArn ?? ''),
    );
    return this.states(
      records,
      found.map(({ lb, stackId }) => ({ stackId, tags: tags.get(lb.LoadBalancerArn ?? '') ?? {} })),
    );
  }

  /**
   * Each stack's recorded state: the structure fingerprint on the load balancer under its name,
   * with the targets record written under that fingerprint; '' (never the desired state) when
   * either is missing, so the stack is reconciled and its record written again.
   */
  private states(
    records: ReadonlyMap<string, TargetRecord>,
    found: Array<{ stackId: string; tags: Readonly<Record<string, string>> }>,
  ): Map<string, string> {
    const out = new Map<string, string>();
    for (const { stackId, tags: t } of found) {
      // A load balancer under our name that is not this stack's is not its record.
      if (!isOwnedBy(t, { ownerId: this.options.ownerId, stackId })) continue;
      const fingerprint = t[FINGERPRINT_TAG];
      const record = records.get(stackId);
      out.set(
        stackId,
        fingerprint && record?.fingerprint === fingerprint
          ? recordedState(fingerprint, groupFingerprints(record))
          : '',
      );
    }
    return out;
  }
}
