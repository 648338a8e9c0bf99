/**
 * The MultiClusterIngress balancer with IngressGroups (ingress-groups.ts, model/ingress-group.ts).
 * An MCI without `group.name` has its own ALB, as before. One with a group is served by the
 * group's ALB, built from every member each time, so whichever member is reconciled brings the
 * whole group in line (the reconcile holds the group's lock: reconcile/run.ts). Around that:
 *
 * - a group the MCI left (its finalizer is still on it: karmada/ingress-group.ts) is rebuilt
 *   without it, which deletes only its rules and target groups, or deleted with its last member;
 * - once the group serves it, the MCI's own ALB (if it had one: its status named another load
 *   balancer) is deleted;
 * - a member the group cannot take (a conflicting setting, a namespace the group is not shared
 *   with, a spec that builds no model, another member's tenant policy, a route another namespace
 *   has) gets its reason as a NotServedError, after the rest of the group was deployed: the
 *   lifecycle clears its status, which must not name a load balancer that does not serve it;
 * - after each deploy the group's join record says who is on it, in join order
 *   (ingress-group-record.ts), so a newcomer never takes a served member's place.
 */
import { InvalidObjectError, NotServedError } from '../../errors.js';
import {
  finalizerGroups,
  groupNameOf,
  touchedGroups,
  validGroupNameOf,
} from '../../karmada/ingress-group.js';
import type { MultiClusterIngress } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import type { DesiredFingerprint, GetResult, ProviderContext } from '../../provider/contract.js';
import type { StackRef } from '../../provider/stack-id.js';
import { AwsBalancer, type AwsLoadBalancerStatus } from './balancer.js';
import {
  isAbout,
  NOT_SERVED,
  reportTraffic,
  type BalancerHost,
  type ObjectDeployResult,
  type StackDeployResult,
  type StackKindAdapter,
} from './balancer-types.js';
import { findStackByTags } from './deploy/stack-tags.js';
import type { Operation } from './deploy/operations.js';
import { groupFingerprints, recordOf } from './deploy/target-records.js';
import { recordedState } from './deploy/targets-only.js';
import type { GroupResolution } from './ingress-groups.js';
import { loadIngressGroups } from './lazy-parts.js';
import { stackFingerprint } from './model/fingerprint.js';
import type { IngressGroupModel } from './model/ingress-group.js';
import { memberWarnings } from './model/ingress.js';
import { derivedLoadBalancerName } from './model/stack.js';
import {
  LOAD_BALANCER_ID,
  resourcesOf,
  ResourceTypes,
  type ModelWarning,
  type Stack,
} from './model/types.js';
import { loadBalancerNameFromHostname } from './naming.js';
import type { StackOwner } from './tagging.js';
import type { TenantPolicy } from './tenant-policy-types.js';

/** What the group balancer needs from the provider besides what every balancer has. */
export interface IngressGroupDeps {
  kube: KubeClient;
  policy: TenantPolicy | undefined;
  /** Whether a group stack has been deployed (it has a targets record). */
  deployed(ref: StackRef): Promise<boolean>;
  /**
   * The group's model from its members' inputs read through `kube`; with `ctx`, the account's
   * quotas apply; `network: false` builds without the VPC's network (target group names only).
   */
  build(
    resolution: GroupResolution,
    kube: KubeClient,
    ctx?: ProviderContext,
    network?: boolean,
  ): Promise<IngressGroupModel>;
  /** After a deploy of `ref`'s stack from `model`: its join record (ingress-group-record.ts) made true. */
  recordJoined(ref: StackRef, model: IngressGroupModel): Promise<void>;
  /** After `ref`'s load balancer was deleted: its join record goes. */
  forgetJoined(ref: StackRef): Promise<void>;
}

function keyOf(mci: Readonly<MultiClusterIngress>): string {
  return `${mci.metadata.namespace ?? ''}/${mci.metadata.name ?? ''}`;
}

function statusHostname(mci: Readonly<MultiClusterIngress>): string | undefined {
  return mci.status?.loadBalancer?.ingress?.[0]?.hostname?.toLowerCase();
}

function loadBalancerOf(stack: Stack) {
  return resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID)?.spec;
}

export class AwsIngressBalancer extends AwsBalancer<MultiClusterIngress> {
  /** Group models by the snapshot they were read from (desiredFingerprint). */
  private readonly snapshots = new WeakMap<KubeClient, Map<string, Promise<IngressGroupModel>>>();

  constructor(
    provider: BalancerHost,
    kind: StackKindAdapter<MultiClusterIngress>,
    private readonly groups: IngressGroupDeps,
  ) {
    super(provider, kind);
  }

  private owner(ref: StackRef): StackOwner {
    return { ownerId: this.provider.config.ownerId, stackId: ref.stackId };
  }

  /** The names a group's load balancer may have: the wanted one, either scheme's derived one, the status's. */
  private groupNames(ref: StackRef, stack: Stack | undefined, mci?: Readonly<MultiClusterIngress>): string[] {
    const derived = (scheme: 'internal' | 'internet-facing') =>
      derivedLoadBalancerName(ref, this.provider.config.ownerId, 'application', scheme);
    const fromStatus = mci && loadBalancerNameFromHostname(statusHostname(mci));
    const wanted = stack && loadBalancerOf(stack)?.name;
    return [
      ...new Set(
        [wanted, derived('internal'), derived('internet-facing'), fromStatus].filter(
          (n): n is string => n !== undefined,
        ),
      ),
    ];
  }

  override async get(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<GetResult<AwsLoadBalancerStatus>> {
    const group = validGroupNameOf(mci);
    if (group === undefined) return super.get(ctx, mci);
    // Only "created" or "updated" depends on it: the group's stack as the policy places it.
    const { formerGroupRef } = await loadIngressGroups();
    const ref = formerGroupRef(this.groups.policy, group, mci.metadata.namespace ?? '');
    return this.statusOf(ctx, this.owner(ref), this.groupNames(ref, undefined));
  }

  protected override async deploy(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
    dryRun: boolean,
    report = true,
  ): Promise<ObjectDeployResult> {
    let group: string | undefined;
    try {
      group = groupNameOf(mci);
    } catch (err) {
      // An invalid group name: the groups it was in are left, then the lifecycle reports it.
      for (const g of finalizerGroups(mci)) await this.leave(ctx, mci, g, dryRun);
      throw err;
    }
    const left = finalizerGroups(mci).filter((g) => g !== group);
    if (group === undefined) {
      const own = await super.deploy(ctx, mci, dryRun, report);
      const plan = [...own.plan];
      for (const g of left) plan.push(...(await this.leave(ctx, mci, g, dryRun)));
      return { ...own, plan };
    }
    // Joined first, then the groups it left: moving between groups never leaves it unserved.
    const joined = await this.join(ctx, mci, group, dryRun);
    // Only its own (and the group's): every other member's are reported by that member's reconcile.
    const warnings = joined.warnings ?? memberWarnings(mci);
    if (report) await this.reportAll(ctx, warnings);
    const plan = [...(joined.result?.plan ?? [])];
    for (const g of left) plan.push(...(await this.leave(ctx, mci, g, dryRun)));
    if (joined.refusal || !joined.result) throw joined.refusal;
    const result = joined.result;
    // Served by the group now: a load balancer of its own (the status named another) goes.
    // With an accelerator in front, the status is the accelerator's (a regional part has none).
    const dns = (result.accelerator?.status?.dnsName ?? result.dnsName)?.toLowerCase();
    if ((dns === undefined || !this.statusNames(mci, dns)) && (await this.mayHaveOwnStack(ctx, mci))) {
      await this.retireAcceleratorOf(ctx, this.kind.owner(mci), dryRun);
      plan.push(...(await super.delete(ctx, mci, dryRun)));
    }
    return { ...result, plan, skipped: result.skipped && plan.length === result.plan.length, warnings };
  }

  /**
   * Whether the MCI may have a stack of its own: its status names a load balancer, or (never
   * served: a new member) the Tagging API, where configured, finds something of its stack. Without
   * the Tagging API, or when it fails, the deletion is tried (it finds nothing, and costs its look-ups).
   */
  private async mayHaveOwnStack(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>): Promise<boolean> {
    // A regional part: the Region's markers say (deleteByNames reads them, no AWS call).
    if (this.provider.regional || statusHostname(mci) !== undefined) return true;
    const tagged = await findStackByTags(this.provider.context(ctx, this.kind.owner(mci)));
    return !tagged || tagged.loadBalancers.length > 0 || tagged.targetGroups.length > 0;
  }

  /**
   * Whether the MCI's status names the group's load balancer: first, as one Region's provider
   * writes it, or anywhere in it for a regional part (every Region's hostname is listed).
   */
  private statusNames(mci: Readonly<MultiClusterIngress>, dns: string): boolean {
    if (!this.provider.regional) return statusHostname(mci) === dns;
    return (mci.status?.loadBalancer?.ingress ?? []).some((i) => i.hostname?.toLowerCase() === dns);
  }

  /** Deploys the group with the MCI in it, if it may join; the refusal (if any) after the rest is served. */
  private async join(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
    group: string,
    dryRun: boolean,
  ): Promise<{ result?: StackDeployResult; refusal?: InvalidObjectError; warnings?: ModelWarning[] }> {
    const { resolveGroup } = await loadIngressGroups();
    const resolution = await resolveGroup(
      this.groups.kube,
      this.groups.policy,
      { group, subject: mci },
      (ref) => this.groups.deployed(ref),
    );
    if (resolution.refusal) return { refusal: NotServedError.of(resolution.refusal) };
    // Every member's tenant policy is checked while the group's model is built.
    const model = await this.groups.build(resolution, this.groups.kube, ctx);
    const mine = model.excluded.get(keyOf(mci));
    if (!model.stack) {
      return {
        refusal: NotServedError.of(
          mine ??
            new InvalidObjectError(`IngressGroup "${group}" has no member that can be served`, {
              field: 'metadata.annotations',
            }),
        ),
      };
    }
    reportTraffic(ctx, model.stack, this.provider.regional?.region);
    const result = await this.deployBuilt(
      ctx,
      this.owner(resolution.ref),
      model.stack,
      this.groupNames(resolution.ref, model.stack),
      dryRun,
    );
    if (!dryRun) await this.groups.recordJoined(resolution.ref, model);
    const warnings = mine ? undefined : (model.stack.warnings ?? []).filter((w) => isAbout(w, mci));
    return {
      result,
      ...(mine ? { refusal: NotServedError.of(mine) } : {}),
      ...(warnings ? { warnings } : {}),
    };
  }

  /**
   * The group without the MCI: rebuilt from the members left (its rules and target groups go), or
   * deleted when none is left in the stack's namespace.
   */
  private async leave(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
    group: string,
    dryRun: boolean,
  ): Promise<Operation[]> {
    const namespace = mci.metadata.namespace ?? '';
    const { formerGroupRef, resolveGroup } = await loadIngressGroups();
    const former = formerGroupRef(this.groups.policy, group, namespace);
    const resolution = await resolveGroup(
      this.groups.kube,
      this.groups.policy,
      { group, leaving: keyOf(mci), namespace },
      (ref) => this.groups.deployed(ref),
    );
    if (resolution.ref.stackId === former.stackId && resolution.members.length > 0) {
      const model = await this.groups.build(resolution, this.groups.kube, ctx);
      if (model.stack) {
        const result = await this.deployBuilt(
          ctx,
          this.owner(former),
          model.stack,
          this.groupNames(former, model.stack, mci),
          dryRun,
        );
        if (!dryRun) await this.groups.recordJoined(former, model);
        return result.plan;
      }
      // The members left build no model: their load balancer stays as it is until one does.
      ctx.logger.warn('IngressGroup left as it is: none of its members builds a model', {
        group,
        members: resolution.members.map(keyOf),
      });
      return [];
    }
    await this.retireAcceleratorOf(ctx, this.owner(former), dryRun);
    const plan = await this.deleteByNames(
      ctx,
      this.owner(former),
      this.groupNames(former, undefined, mci),
      [],
      dryRun,
    );
    if (!dryRun) await this.groups.forgetJoined(former);
    return plan;
  }

  /**
   * Over Regions the orchestrator deletes an object's accelerator only when the object goes, and a
   * regional part's deleteByNames leaves it alone. A stack that goes while its object stays (an
   * MCI's own once a group serves it, a group's with its last member) must take its accelerator
   * with it, as one Region's deleteByNames does: first, while this Region's marker still holds the
   * stack, so a RetryLaterError while GA deploys keeps the stack (and this step) for the retry.
   */
  private async retireAcceleratorOf(ctx: ProviderContext, owner: StackOwner, dryRun: boolean): Promise<void> {
    if (!this.provider.regional || !(await this.provider.mayHold(ctx, owner.stackId))) return;
    await this.provider.accelerators.delete(ctx, owner, dryRun);
  }

  /** Deletion: every group it may be in is left, then its own load balancer (if any) goes. */
  protected override async delete(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
    dryRun: boolean,
  ): Promise<Operation[]> {
    const plan: Operation[] = [];
    for (const g of touchedGroups(mci)) plan.push(...(await this.leave(ctx, mci, g, dryRun)));
    plan.push(...(await super.delete(ctx, mci, dryRun)));
    return plan;
  }

  override async desiredFingerprint(
    mci: Readonly<MultiClusterIngress>,
    kube: KubeClient,
  ): Promise<DesiredFingerprint> {
    const group = validGroupNameOf(mci);
    if (group === undefined) return super.desiredFingerprint(mci, kube);
    const { formerGroupRef, resolveGroup } = await loadIngressGroups();
    const former = formerGroupRef(this.groups.policy, group, mci.metadata.namespace ?? '');
    try {
      const resolution = await resolveGroup(kube, this.groups.policy, { group, subject: mci }, (ref) =>
        this.groups.deployed(ref),
      );
      const built = await this.builtOnce(kube, resolution);
      if (built.stack && !this.provider.serves(built.stack)) {
        const locator = this.groupNames(resolution.ref, built.stack)[0] ?? '';
        return { stackId: resolution.ref.stackId, locator, fingerprint: NOT_SERVED };
      }
      const stack = built.stack && (await this.provider.settledNow(built.stack));
      if (!stack)
        return {
          stackId: resolution.ref.stackId,
          locator: this.groupNames(resolution.ref, undefined)[0] ?? '',
        };
      const fingerprint = stackFingerprint(stack);
      return {
        stackId: resolution.ref.stackId,
        locator: loadBalancerOf(stack)?.name ?? '',
        fingerprint: recordedState(fingerprint, groupFingerprints(recordOf(stack, fingerprint))),
      };
    } catch {
      // The object's reconcile reports why it builds no model.
      return { stackId: former.stackId, locator: this.groupNames(former, undefined)[0] ?? '' };
    }
  }

  /**
   * The group's model, built once per `kube` (the resync's snapshot: a group of 50 is asked for 50
   * times, once per member) and members; a member the group refuses builds the same model.
   */
  private builtOnce(kube: KubeClient, resolution: GroupResolution): Promise<IngressGroupModel> {
    // The live client changes under us: only a snapshot's answers may be kept.
    if (kube === this.groups.kube) return this.groups.build(resolution, kube);
    let byGroup = this.snapshots.get(kube);
    if (!byGroup) {
      byGroup = new Map();
      this.snapshots.set(kube, byGroup);
    }
    const key = `${resolution.ref.stackId}\n${resolution.members.map(keyOf).sort().join(',')}`;
    let model = byGroup.get(key);
    if (!model) {
      model = this.groups.build(resolution, kube);
      byGroup.set(key, model);
    }
    return model;
  }

  /** The target group names a group's stack wants now: none when nobody is in it, undefined when unknown. */
  async groupTargetGroupNames(ref: StackRef): Promise<ReadonlySet<string> | undefined> {
    try {
      const { resolveGroup } = await loadIngressGroups();
      const resolution = await resolveGroup(
        this.groups.kube,
        this.groups.policy,
        { group: ref.name, namespace: ref.namespace },
        (r) => this.groups.deployed(r),
      );
      if (resolution.ref.stackId !== ref.stackId) return new Set();
      const { stack } = await this.groups.build(resolution, this.groups.kube, undefined, false);
      return new Set(stack ? resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name) : []);
    } catch {
      return undefined;
    }
  }
}
