/**
 * One balancer for either kind (MultiClusterIngress → ALB, MultiClusterService → NLB): what the
 * contract asks of a load balancer, on top of the model and the deployer. The MCI's IngressGroups
 * are a subclass (ingress-balancer.ts).
 */
import { errorMessage } from '../../errors.js';
import type { KubeClient } from '../../kube/client.js';
import type { KubeObject } from '../../kube/types.js';
import type { Balancer, GetResult, ProviderContext, DesiredFingerprint } from '../../provider/contract.js';
import { findStackByTags } from './deploy/stack-tags.js';
import { DNS_NAME_TAG, recordedState } from './deploy/targets-only.js';
import { groupFingerprints, recordOf } from './deploy/target-records.js';
import { stackFingerprint } from './model/fingerprint.js';
import { loadFullPath } from './lazy-parts.js';
import { deployStack, type DeployResult } from './deploy/deployer.js';
import { findOwnedLoadBalancer } from './deploy/lookup.js';
import type { Operation } from './deploy/operations.js';
import { resourcesOf, ResourceTypes, type ModelWarning, type Stack } from './model/types.js';
import { wordWarnings } from './model/annotations/unknown-keys.js';
import { FRONTEND_NLB_DNS_TAG, isOwnedBy, type StackOwner } from './tagging.js';
import type { AwsLoadBalancerStatus } from './load-balancer-status.js';
import { reportWarnings } from '../../provider/announce.js';
import {
  isAbout,
  reportTraffic,
  NOT_SERVED,
  ingressStatus,
  statusOfDeploy,
  type BalancerHost,
  type StackKindAdapter,
  type PlanResult,
  type StackDeployResult,
  type ObjectDeployResult,
} from './balancer-types.js';

export type { AwsLoadBalancerStatus } from './load-balancer-status.js';

/** One balancer for either kind: ensure and update are the same level-triggered reconcile. */
export class AwsBalancer<O extends KubeObject> implements Balancer<O, AwsLoadBalancerStatus> {
  constructor(
    protected readonly provider: BalancerHost,
    protected readonly kind: StackKindAdapter<O>,
  ) {}

  get(ctx: ProviderContext, obj: Readonly<O>): Promise<GetResult<AwsLoadBalancerStatus>> {
    return this.statusOf(ctx, this.kind.owner(obj), this.kind.names(obj));
  }

  /** Whether the stack's load balancer exists under one of `names`, and its status. */
  protected async statusOf(
    ctx: ProviderContext,
    owner: StackOwner,
    names: readonly string[],
  ): Promise<GetResult<AwsLoadBalancerStatus>> {
    const dctx = this.provider.context(ctx, owner);
    // By tags first: the DNS name recorded on our load balancer is the status, no ELBv2 call.
    const tagged = await findStackByTags(dctx);
    if (tagged) {
      dctx.lookups?.recordTagged(dctx.owner.stackId, tagged);
      const tags = tagged.loadBalancers.find(
        (l) => names.includes(l.name) && isOwnedBy(l.tags, dctx.owner),
      )?.tags;
      const dns = tags?.[DNS_NAME_TAG];
      if (dns) return { exists: true, status: ingressStatus(dns, tags[FRONTEND_NLB_DNS_TAG]) };
    }
    const found = await findOwnedLoadBalancer(dctx, [...names]);
    if (!found?.lb.LoadBalancerArn) return { exists: false };
    return { exists: true, status: ingressStatus(found.lb.DNSName ?? '', found.tags[FRONTEND_NLB_DNS_TAG]) };
  }

  ensure(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  update(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  /** The same desired stack whether the load balancer exists or not. */
  protected async reconcile(
    ctx: ProviderContext,
    obj: Readonly<O>,
  ): Promise<AwsLoadBalancerStatus | undefined> {
    const dryRun = this.provider.config.dryRun === true;
    const result = await this.deploy(ctx, obj, dryRun);
    // Nothing applied (the fingerprint matched, or a dry run): no UpdatedLoadBalancer Event.
    if (dryRun || (result.plan.length === 0 && (result.accelerator?.plan.length ?? 0) === 0)) {
      ctx.unchanged?.();
    }
    return statusOfDeploy(result);
  }

  /** The change plan a reconcile would apply now (a dry run, whatever the configuration says). */
  async plan(ctx: ProviderContext, obj: Readonly<O>): Promise<PlanResult> {
    // A plan tells its reader about the warnings; it records no Events, as it changes nothing.
    const { plan, skipped, warnings, accelerator, stack, dnsName } = await this.deploy(ctx, obj, true, false);
    const front = accelerator && (accelerator.desired || accelerator.status) ? accelerator : undefined;
    return {
      plan,
      skipped: skipped && (accelerator?.plan.length ?? 0) === 0,
      warnings: await this.worded(ctx, warnings),
      ...(accelerator ? { accelerator: accelerator.plan } : {}),
      target: {
        stack,
        served: this.provider.serves(stack),
        ...(dnsName !== undefined ? { dnsName } : {}),
        ...(front
          ? {
              accelerator: {
                ...(front.desired ? { desired: front.desired } : {}),
                ...(front.status ? { status: front.status } : {}),
              },
            }
          : {}),
      },
    };
  }

  protected async deploy(
    ctx: ProviderContext,
    obj: Readonly<O>,
    dryRun: boolean,
    report = true,
  ): Promise<ObjectDeployResult> {
    // The model is built (and every annotation and limit checked) before the first AWS call.
    const stack = await this.kind.build(obj, undefined, ctx);
    reportTraffic(ctx, stack, this.provider.regional?.region);
    const warnings = (stack.warnings ?? []).filter((w) => isAbout(w, obj));
    if (report) await this.reportAll(ctx, warnings);
    const result = await this.deployBuilt(ctx, this.kind.owner(obj), stack, this.kind.names(obj), dryRun);
    // The deploy announced its own notices (when it applied); a plan shows them with the model's.
    return { ...result, warnings: [...warnings, ...(result.notices ?? [])] };
  }

  /** Each warning becomes an Event (repeats aggregate into its count) and a log line. */
  protected async reportAll(ctx: ProviderContext, warnings: readonly ModelWarning[]): Promise<void> {
    await reportWarnings(ctx, await this.worded(ctx, warnings));
  }

  /** The warnings as their reader sees them (ignored annotations each with its reason). */
  private worded(ctx: ProviderContext, warnings: readonly ModelWarning[]): Promise<ModelWarning[]> {
    return wordWarnings(warnings, (err) =>
      ctx.logger.warn('ignored annotations reported without their reasons', { error: errorMessage(err) }),
    );
  }

  /**
   * Deploys a stack built already; `names`: those a previous spec may have given its load balancer.
   * A regional part (regions/role.ts) whose Region does not serve the stack deletes what it has of
   * it instead, and marks its Region before the first call that may build there.
   *
   * With an accelerator in front, its dials going to 0 come before the ELBv2 deploy (clients leave
   * a drained Region before its targets drain) and the rest after it (accelerator/reconcile.ts). A
   * regional part lowers only its own Region's dial; the rest is the orchestrator's, once over
   * every Region (regions/accelerator-seam.ts).
   */
  protected async deployBuilt(
    ctx: ProviderContext,
    owner: StackOwner,
    stack: Stack,
    names: readonly string[],
    dryRun: boolean,
  ): Promise<StackDeployResult> {
    const role = this.provider.regional;
    if (role && !this.provider.serves(stack)) {
      const tgs = resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name);
      const plan = await this.deleteByNames(ctx, owner, names, tgs, dryRun);
      const result = {
        dnsName: undefined,
        plan,
        skipped: plan.length === 0,
        applied: !dryRun && plan.length > 0,
      };
      role.deployed(ctx, { region: role.region, owner, stack, result, served: false });
      return { ...result, stack };
    }
    if (role && !dryRun) await role.markers.add(ctx, owner.stackId, role.region);
    const accelerators = this.provider.accelerators;
    const lower = () =>
      accelerators.reconcile(
        ctx,
        owner,
        stack,
        accelerators.singleRegion(stack, undefined),
        'before',
        dryRun,
      );
    const before = await (role ? role.frontDoorTurn(ctx, owner.stackId, lower) : lower());
    const deployed = await this.deployServed(ctx, owner, stack, names, dryRun);
    if (role) {
      role.deployed(ctx, { region: role.region, owner, stack, result: deployed, served: true });
    }
    const result = { ...deployed, stack };
    if (role) return before ? { ...result, accelerator: { plan: before.plan } } : result;
    const after = await accelerators.reconcile(
      ctx,
      owner,
      stack,
      accelerators.singleRegion(stack, result.loadBalancerArn),
      'after',
      dryRun,
    );
    if (!before && !after) return result;
    const plan = [...(before?.plan ?? []), ...(after?.plan ?? [])];
    const status = after?.status ?? before?.status;
    return {
      ...result,
      accelerator: {
        plan,
        ...(status ? { status } : {}),
        ...(after?.desired ? { desired: after.desired } : {}),
      },
    };
  }

  /** The ELBv2 deploy of a stack its Region serves. */
  private deployServed(
    ctx: ProviderContext,
    owner: StackOwner,
    stack: Stack,
    names: readonly string[],
    dryRun: boolean,
  ): Promise<DeployResult> {
    const dctx = this.provider.context(ctx, owner);
    dctx.logger.debug('built model', { stack });
    return deployStack(dctx, stack, {
      resync: ctx.resync === true,
      dryRun,
      previousNames: names,
      ...(this.provider.config.externalManagedTags
        ? { externalManagedTags: this.provider.config.externalManagedTags }
        : {}),
    });
  }

  /** The fingerprint a deploy would record now, from Kubernetes reads through `kube` only. */
  async desiredFingerprint(obj: Readonly<O>, kube: KubeClient): Promise<DesiredFingerprint> {
    const where = { stackId: this.kind.owner(obj).stackId, locator: this.kind.names(obj)[0] ?? '' };
    try {
      const built = await this.kind.build(obj, kube);
      if (!this.provider.serves(built)) return { ...where, fingerprint: NOT_SERVED };
      const stack = await this.provider.settledNow(built);
      const fingerprint = stackFingerprint(stack);
      return {
        ...where,
        fingerprint: recordedState(fingerprint, groupFingerprints(recordOf(stack, fingerprint))),
      };
    } catch {
      return where; // the object's reconcile reports why it builds no model
    }
  }

  async ensureDeleted(ctx: ProviderContext, obj: Readonly<O>): Promise<void> {
    await this.delete(ctx, obj, this.provider.config.dryRun === true);
  }

  /** The change plan ensureDeleted would apply now (a dry run, whatever the configuration says). */
  planDeletion(ctx: ProviderContext, obj: Readonly<O>): Promise<Operation[]> {
    return this.delete(ctx, obj, true);
  }

  protected async delete(ctx: ProviderContext, obj: Readonly<O>, dryRun: boolean): Promise<Operation[]> {
    // No model needed: deletion must work even when the spec no longer builds one.
    const owner = this.kind.owner(obj);
    return this.deleteByNames(
      ctx,
      owner,
      this.kind.names(obj),
      [...((await this.targetGroupNames(obj, ctx.logger)) ?? [])],
      dryRun,
    );
  }

  /**
   * Deletes the stack's load balancers under `names`, what they use, and its groups under
   * `targetGroupNames`; its accelerator first (accelerator/reconcile.ts): while GA works on that,
   * RetryLaterError, and nothing of the ELBv2 stack is deleted yet. (A dry run logs the
   * accelerator's next step; the operations returned are the ELBv2 stack's.)
   */
  protected async deleteByNames(
    ctx: ProviderContext,
    owner: StackOwner,
    names: readonly string[],
    targetGroupNames: readonly string[],
    dryRun: boolean,
  ): Promise<Operation[]> {
    const role = this.provider.regional;
    // The accelerator is over every Region: a regional part leaves it to the orchestrator.
    if (!role) await this.provider.accelerators.delete(ctx, owner, dryRun);
    // A regional part: a Region never marked for the stack has nothing of it (regions/markers.ts).
    if (role && !(await this.provider.mayHold(ctx, owner.stackId))) return [];
    const dctx = this.provider.context(ctx, owner);
    const { deleteStack } = await loadFullPath();
    const plan = await deleteStack(
      dctx,
      { loadBalancerNames: [...names], targetGroupNames: [...targetGroupNames] },
      { dryRun },
    );
    if (role && !dryRun) await role.markers.remove(ctx, owner.stackId, role.region);
    return plan;
  }

  /**
   * The target group names the object's model gives, or undefined when its spec builds no model:
   * the only way to find a group of its stack that no load balancer uses without listing the
   * account. With `servedOnly` (what the object wants here, the orphan sweep's question), a Region
   * that does not serve the object wants none; a deletion looks under every name the model gives.
   */
  async targetGroupNames(
    obj: Readonly<O>,
    logger: { debug(message: string, fields?: Record<string, unknown>): void },
    { servedOnly = false }: { servedOnly?: boolean } = {},
  ): Promise<Set<string> | undefined> {
    try {
      const stack = await this.kind.build(obj, undefined, undefined, false);
      if (servedOnly && !this.provider.serves(stack)) return new Set();
      return new Set(resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name));
    } catch (err) {
      logger.debug('no model: target groups are found through the load balancers only', {
        error: errorMessage(err),
      });
      return undefined;
    }
  }
}
