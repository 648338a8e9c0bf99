/**
 * The AWS provider: MultiClusterIngress → Application Load Balancer, MultiClusterService →
 * Network Load Balancer. Stateless: every call re-reads the object's inputs from Kubernetes and
 * the actual state from AWS (by name and tags).
 */
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { errorMessage } from '../../errors.js';
import type { KubeClient } from '../../kube/client.js';
import type { KubeObject } from '../../kube/types.js';
import type { Logger } from '../../log/logger.js';
import { Resources } from '../../kube/resources.js';
import type {
  IngressLoadBalancerStatus,
  LoadBalancerStatus,
  MultiClusterIngress,
  MultiClusterService,
} from '../../karmada/types.js';
import type {
  Balancer,
  GetResult,
  LoadBalancer,
  MCSLoadBalancer,
  MultiClusterProvider,
  ProviderContext,
  ProviderDependencies,
  StackInventory,
  TargetGroupInventory,
  DesiredFingerprint,
  FingerprintSource,
} from '../../provider/contract.js';
import { AwsFingerprints } from './fingerprints.js';
import { findStackByTags } from './deploy/stack-tags.js';
import { DNS_NAME_TAG, recordedState } from './deploy/targets-only.js';
import { groupFingerprints, KubeTargetRecords, recordOf } from './deploy/target-records.js';
import type { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { stackFingerprint } from './model/fingerprint.js';
import type { StackRef } from '../../provider/stack-id.js';
import type { AwsProviderConfig } from './config.js';
import {
  DEFAULT_DEPLOY_OPTIONS,
  LookupMemo,
  type DeployContext,
  type DeployOptions,
} from './deploy/context.js';
import { loadEc2, loadFullPath } from './lazy-parts.js';
import { deployStack } from './deploy/deployer.js';
import { findOwnedLoadBalancer } from './deploy/lookup.js';
import type { Operation } from './deploy/operations.js';
import { limitCallsPerSecond, TokenBucket } from './deploy/rate-limit.js';
import { readIngressInputs, readServiceInputs } from './inputs.js';
import { buildIngressStack, ingressLoadBalancerNames } from './model/ingress.js';
import { buildServiceStack, serviceLoadBalancerNames } from './model/service.js';
import { stackOwner } from './model/stack.js';
import { AwsInventory } from './inventory.js';
import { AccountQuotas } from './account-quotas.js';
import type { ElbQuotas } from './model/limits.js';
import { resourcesOf, ResourceTypes, type ModelVpc, type ModelWarning, type Stack } from './model/types.js';
import { VpcNetworkSource, type VpcNetworkCacheOptions } from './vpc-network.js';
import { isOwnedBy, type StackOwner } from './tagging.js';
import type { PolicySubject } from './tenant-policy.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../karmada/constants.js';

export const AWS_PROVIDER_NAME = 'aws';

/** The model's configuration with the account's quotas, when they have been read. */
function withQuotas<C extends object>(config: C, accountQuotas: Readonly<ElbQuotas> | undefined) {
  return accountQuotas ? { ...config, accountQuotas } : config;
}

/** The configuration the model is built from: the provider's, with the VPC's network resolved. */
export type ResolvedConfig = Omit<AwsProviderConfig, 'vpc'> & { vpc: ModelVpc };

/** A read of the VPC's network outside a reconcile (resync fingerprints, topology) gives up after this. */
const NETWORK_READ_TIMEOUT_MS = 20_000;

export interface AwsProviderOptions {
  client: ElasticLoadBalancingV2Client;
  /** Finds stacks by tags without ELBv2 calls (endpoint churn, status); ELBv2 alone without it. */
  tagging?: ResourceGroupsTaggingAPIClient;
  deploy?: Partial<DeployOptions>;
  /** The Karmada instance (instance.ts): every owner this provider acts as carries it. */
  instanceId?: string;
  /**
   * The EC2 client for the VPC's network (vpc-network.ts) when the configuration lists no CIDRs;
   * without it one is built from the configuration at the first read.
   */
  ec2?: EC2Client;
  /** How long and how many VPC network answers are kept (vpc-network.ts's defaults). */
  network?: VpcNetworkCacheOptions;
}

/** Whether a warning is the reconciled object's to report: its own, or the whole stack's. */
function isAbout(warning: ModelWarning, obj: Readonly<KubeObject>): boolean {
  const { namespace, name } = obj.metadata;
  return (
    warning.object === undefined || (warning.object.namespace === namespace && warning.object.name === name)
  );
}

/** What the AWS provider reports for either kind: the load balancer's DNS name. */
export type AwsLoadBalancerStatus = IngressLoadBalancerStatus & LoadBalancerStatus;

/**
 * `{ ingress: [{ hostname }] }`: the lower-cased DNS name, WITHOUT `ports`. LBC also reports the
 * listener ports, but Karmada's CRDs (infra/crds/) make `ingress[].ports[].error` required, so a
 * real Karmada API server rejects a port status without an error; we have no error to report.
 */
export function ingressStatus(dnsName: string): AwsLoadBalancerStatus {
  return { ingress: [{ hostname: dnsName.toLowerCase() }] };
}

/** What differs between the ALB (MCI) and the NLB (MCS): everything else is shared. */
interface StackKindAdapter<O extends KubeObject> {
  owner(obj: Readonly<O>): StackOwner;
  /** The wanted name first, then names a previous spec may have used. */
  names(obj: Readonly<O>): string[];
  /**
   * The desired stack, read through `kube` (the provider's client unless given). With `ctx` (a
   * reconcile) a stack over AWS's default quotas is checked again against the account's.
   * `network: false` builds without reading the VPC's network (for what does not depend on the
   * targets' zones, such as the target group names): every target is then taken as off the VPC.
   */
  build(obj: Readonly<O>, kube?: KubeClient, ctx?: ProviderContext, network?: boolean): Promise<Stack>;
}

export interface PlanResult {
  plan: Operation[];
  /** Stopped after confirming the fingerprint: nothing to do. */
  skipped: boolean;
  /** What the objects ask for that the stack does not honour (a reconcile reports them as Events). */
  warnings: ModelWarning[];
}

/** One balancer for either kind: ensure and update are the same level-triggered reconcile. */
export class AwsBalancer<O extends KubeObject> implements Balancer<O, AwsLoadBalancerStatus> {
  constructor(
    private readonly provider: AwsProvider,
    private readonly kind: StackKindAdapter<O>,
  ) {}

  async get(ctx: ProviderContext, obj: Readonly<O>): Promise<GetResult<AwsLoadBalancerStatus>> {
    const dctx = this.provider.context(ctx, this.kind.owner(obj));
    // By tags first: the DNS name recorded on our load balancer is the status, no ELBv2 call.
    const tagged = await findStackByTags(dctx);
    if (tagged) {
      dctx.lookups?.recordTagged(dctx.owner.stackId, tagged);
      const names = this.kind.names(obj);
      const dns = tagged.loadBalancers.find((l) => names.includes(l.name) && isOwnedBy(l.tags, dctx.owner))
        ?.tags[DNS_NAME_TAG];
      if (dns) return { exists: true, status: ingressStatus(dns) };
    }
    const lb = await findOwnedLoadBalancer(dctx, this.kind.names(obj));
    if (!lb?.LoadBalancerArn) return { exists: false };
    return { exists: true, status: ingressStatus(lb.DNSName ?? '') };
  }

  ensure(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  update(ctx: ProviderContext, obj: Readonly<O>): Promise<AwsLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, obj);
  }

  /** The same desired stack whether the load balancer exists or not. */
  private async reconcile(
    ctx: ProviderContext,
    obj: Readonly<O>,
  ): Promise<AwsLoadBalancerStatus | undefined> {
    const result = await this.deploy(ctx, obj, this.provider.config.dryRun === true);
    return result.dnsName !== undefined ? ingressStatus(result.dnsName) : undefined;
  }

  /** The change plan a reconcile would apply now (a dry run, whatever the configuration says). */
  async plan(ctx: ProviderContext, obj: Readonly<O>): Promise<PlanResult> {
    // A plan tells its reader about the warnings; it records no Events, as it changes nothing.
    const { plan, skipped, warnings } = await this.deploy(ctx, obj, true, false);
    return { plan, skipped, warnings };
  }

  private async deploy(ctx: ProviderContext, obj: Readonly<O>, dryRun: boolean, report = true) {
    // The model is built (and every annotation and limit checked) before the first AWS call.
    const stack = await this.kind.build(obj, undefined, ctx);
    const dctx = this.provider.context(ctx, this.kind.owner(obj));
    dctx.logger.debug('built model', { stack });
    const warnings = stack.warnings ?? [];
    if (report) for (const w of warnings) if (isAbout(w, obj)) await this.report(ctx, w);
    const result = await deployStack(dctx, stack, {
      resync: ctx.resync === true,
      dryRun,
      previousNames: this.kind.names(obj),
      ...(this.provider.config.externalManagedTags
        ? { externalManagedTags: this.provider.config.externalManagedTags }
        : {}),
    });
    return { ...result, warnings };
  }

  /** A warning becomes an Event (repeats aggregate into its count) and a log line. */
  private async report(ctx: ProviderContext, warning: ModelWarning): Promise<void> {
    ctx.logger.warn(warning.message, { reason: warning.reason });
    try {
      await ctx.announce?.(warning.reason, warning.message);
    } catch (err) {
      // Best effort, like every Event: failing to record it must not stop the object being served.
      ctx.logger.warn('could not record a warning Event', { error: errorMessage(err) });
    }
  }

  /** The fingerprint a deploy would record now, from Kubernetes reads through `kube` only. */
  async desiredFingerprint(obj: Readonly<O>, kube: KubeClient): Promise<DesiredFingerprint> {
    const where = { stackId: this.kind.owner(obj).stackId, locator: this.kind.names(obj)[0] ?? '' };
    try {
      const stack = await this.kind.build(obj, kube);
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

  private async delete(ctx: ProviderContext, obj: Readonly<O>, dryRun: boolean): Promise<Operation[]> {
    // No model needed: deletion must work even when the spec no longer builds one.
    const dctx = this.provider.context(ctx, this.kind.owner(obj));
    const { deleteStack } = await loadFullPath();
    return deleteStack(
      dctx,
      {
        loadBalancerNames: this.kind.names(obj),
        targetGroupNames: [...((await this.targetGroupNames(obj, dctx.logger)) ?? [])],
      },
      { dryRun },
    );
  }

  /**
   * The target group names the object wants now, or undefined when its spec builds no model: the
   * only way to find a group of its stack that no load balancer uses without listing the account.
   */
  async targetGroupNames(
    obj: Readonly<O>,
    logger: { debug(message: string, fields?: Record<string, unknown>): void },
  ): Promise<Set<string> | undefined> {
    try {
      const stack = await this.kind.build(obj, undefined, undefined, false);
      return new Set(resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name));
    } catch (err) {
      logger.debug('no model: target groups are found through the load balancers only', {
        error: errorMessage(err),
      });
      return undefined;
    }
  }
}

export class AwsProvider implements MultiClusterProvider {
  readonly ingress: AwsBalancer<MultiClusterIngress>;
  readonly service: AwsBalancer<MultiClusterService>;
  readonly stacks: AwsInventory;
  readonly fingerprintSource: AwsFingerprints;
  /** Per reconcile (the lifecycle passes one ProviderContext to get() and then update()). */
  private readonly memos = new WeakMap<ProviderContext, LookupMemo>();
  private readonly kube: KubeClient;
  private readonly records: KubeTargetRecords;
  /** Outlives reconciles: read at most once per container (account-quotas.ts). */
  private readonly quotas: AccountQuotas;
  /** The target groups' VPC: the configured CIDRs, or EC2's answer kept per container. */
  private readonly network: VpcNetworkSource;

  constructor(
    readonly config: AwsProviderConfig,
    deps: ProviderDependencies,
    private readonly options: AwsProviderOptions,
  ) {
    this.kube = deps.kube;
    this.quotas = new AccountQuotas(options.client);
    this.network = new VpcNetworkSource(
      config.vpc,
      async () => (await loadEc2()).configuredNetworkReader(config, options.ec2),
      options.network,
      deps.logger,
    );
    this.records = new KubeTargetRecords(deps.kube, config.recordNamespace, config.ownerId, deps.logger);
    if (config.maxCallsPerSecond !== undefined) {
      limitCallsPerSecond(options.client, new TokenBucket(config.maxCallsPerSecond));
    }
    this.ingress = new AwsBalancer<MultiClusterIngress>(this, {
      owner: (mci) => stackOwner('mci', mci, config.ownerId),
      names: (mci) => ingressLoadBalancerNames(mci, config),
      build: async (mci, kube = deps.kube, ctx, network = true) => {
        const inputs = await readIngressInputs(kube, mci);
        const resolved = await this.modelConfig(ctx, network);
        return this.withinTenantPolicy(
          {
            kind: 'MultiClusterIngress',
            metadata: mci.metadata,
            ingressClassName: mci.spec?.ingressClassName,
          },
          await this.quotas.within(ctx, (accountQuotas) =>
            buildIngressStack({ mci, ...inputs, config: withQuotas(resolved, accountQuotas) }),
          ),
        );
      },
    });
    this.service = new AwsBalancer<MultiClusterService>(this, {
      owner: (mcs) => stackOwner('mcs', mcs, config.ownerId),
      names: (mcs) => serviceLoadBalancerNames(mcs, config),
      build: async (mcs, kube = deps.kube, ctx, network = true) => {
        const inputs = await readServiceInputs(kube, mcs);
        const resolved = await this.modelConfig(ctx, network);
        return this.withinTenantPolicy(
          { kind: 'MultiClusterService', metadata: mcs.metadata },
          await this.quotas.within(ctx, (accountQuotas) =>
            buildServiceStack({ mcs, ...inputs, config: withQuotas(resolved, accountQuotas) }),
          ),
        );
      },
    });
    this.fingerprintSource = new AwsFingerprints({
      ownerId: config.ownerId,
      context: (ctx, owner) => this.context(ctx, owner),
      desired: (obj, kube) =>
        obj.kind === 'MultiClusterService'
          ? this.service.desiredFingerprint(obj as MultiClusterService, kube)
          : this.ingress.desiredFingerprint(obj as MultiClusterIngress, kube),
    });
    this.stacks = new AwsInventory({
      ownerId: config.ownerId,
      dryRun: config.dryRun === true,
      context: (ctx, owner) => this.context(ctx, owner),
      wantedTargetGroupNames: (stack, logger) => this.wantedTargetGroupNames(stack, logger),
    });
  }

  /**
   * The configuration the model is built from, with the VPC's CIDRs and subnets (vpc-network.ts):
   * the configured list, or EC2's answer (read at most once per container per TTL). Read before
   * the model is built, so a failed read fails the reconcile before any ELBv2 call.
   */
  async modelConfig(ctx: { signal: AbortSignal } | undefined, network = true): Promise<ResolvedConfig> {
    if (!network) return this.config;
    const signal = ctx?.signal ?? AbortSignal.timeout(NETWORK_READ_TIMEOUT_MS);
    const { cidrs, ipv6Cidrs, subnets } = await this.network.network({ signal });
    return {
      ...this.config,
      // A configured IPv6 list wins over EC2's, as `cidrs` does over its IPv4 blocks.
      vpc: { id: this.config.vpc.id, cidrs, ipv6Cidrs: this.config.vpc.ipv6Cidrs ?? ipv6Cidrs, subnets },
    };
  }

  /** The model build step's last part: the operator's tenant policy, before anything is deployed. */
  private async withinTenantPolicy(subject: PolicySubject, stack: Stack): Promise<Stack> {
    if (!this.config.tenantPolicy?.rules.length) return stack;
    // Its own chunk (config.ts loaded it to validate the policy): no cost without a policy.
    const { checkTenantPolicy, kubePolicyReads } = await import('./tenant-policy.js');
    await checkTenantPolicy(
      this.config.tenantPolicy,
      subject,
      stack,
      kubePolicyReads(this.kube, [MCI_FINALIZER, MCS_FINALIZER]),
    );
    return stack;
  }

  context(ctx: ProviderContext, owner: StackOwner): DeployContext {
    let lookups = this.memos.get(ctx);
    if (!lookups) {
      lookups = new LookupMemo();
      this.memos.set(ctx, lookups);
    }
    return {
      client: this.options.client,
      ...(this.options.tagging ? { tagging: this.options.tagging } : {}),
      lookups,
      records: this.records,
      signal: ctx.signal,
      logger: ctx.logger.child({ provider: AWS_PROVIDER_NAME, stack: owner.stackId }),
      owner:
        this.options.instanceId !== undefined ? { ...owner, instanceId: this.options.instanceId } : owner,
      vpcId: this.config.vpc.id,
      options: { ...DEFAULT_DEPLOY_OPTIONS, ...this.options.deploy },
      ...(ctx.announce ? { announce: ctx.announce } : {}),
    };
  }

  loadBalancer(): LoadBalancer {
    return this.ingress;
  }
  mcsLoadBalancer(): MCSLoadBalancer {
    return this.service;
  }
  providerName(): string {
    return AWS_PROVIDER_NAME;
  }
  fingerprints(): FingerprintSource {
    return this.fingerprintSource;
  }
  inventory(): StackInventory {
    return this.stacks;
  }
  targetGroupInventory(): TargetGroupInventory {
    return this.stacks;
  }

  /** The change plan a reconcile of this MCI or MCS would apply now; changes nothing. */
  plan(
    ctx: ProviderContext,
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
  ): Promise<PlanResult> {
    return obj.kind === 'MultiClusterService'
      ? this.service.plan(ctx, obj as MultiClusterService)
      : this.ingress.plan(ctx, obj as MultiClusterIngress);
  }

  /**
   * The target group names the stack's object wants now: none when the object is gone, undefined
   * when its spec builds no model (then what it wants is unknown).
   */
  private async wantedTargetGroupNames(
    stack: StackRef,
    logger: Logger,
  ): Promise<ReadonlySet<string> | undefined> {
    const { kind, namespace, name } = stack;
    if (kind === 'mci') {
      const mci = await this.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, namespace, name);
      return mci ? this.ingress.targetGroupNames(mci, logger) : new Set<string>();
    }
    const mcs = await this.kube.get<MultiClusterService>(Resources.MultiClusterService, namespace, name);
    return mcs ? this.service.targetGroupNames(mcs, logger) : new Set<string>();
  }
}
