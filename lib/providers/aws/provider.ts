/**
 * The AWS provider: MultiClusterIngress → Application Load Balancer, MultiClusterService →
 * Network Load Balancer. Stateless: every call re-reads the object's inputs from Kubernetes and
 * the actual state from AWS (by name and tags).
 */
import { AwsBalancer } from './balancer.js';
import type { PlanResult } from './balancer-types.js';
import { AwsIngressBalancer } from './ingress-balancer.js';
import type { IngressMember } from './model/ingress.js';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { KubeClient } from '../../kube/client.js';
import type { Logger } from '../../log/logger.js';
import { Resources } from '../../kube/resources.js';
import type { MultiClusterIngress, MultiClusterService } from '../../karmada/types.js';
import type {
  LoadBalancer,
  MCSLoadBalancer,
  MultiClusterProvider,
  ProviderContext,
  ProviderDependencies,
  StackInventory,
  TargetGroupInventory,
  FingerprintSource,
} from '../../provider/contract.js';
import { perReconcile } from '../../provider/per-reconcile.js';
import { AwsFingerprints } from './fingerprints.js';
import { KubeTargetRecords } from './deploy/target-records.js';
import type { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { parseStackId, type StackRef } from '../../provider/stack-id.js';
import type { AwsProviderConfig } from './config-types.js';
import {
  DEFAULT_DEPLOY_OPTIONS,
  LookupMemo,
  type DeployContext,
  type DeployOptions,
  type SecurityGroupAccess,
} from './deploy/context.js';
import { limitCallsPerSecond, TokenBucket } from './deploy/rate-limit.js';
import { loadEc2, loadIngressGroups, loadSecurityGroups } from './lazy-parts.js';
import { EdgeServices, type EdgeClients } from './edge/services.js';
import { VpcNetworkSource, type VpcNetworkCacheOptions } from './vpc-network.js';
import { readIngressInputs, readServiceInputs, type ServiceReads } from './inputs.js';
import { reportIgnoredSlices } from './imported-slices.js';
import { ClientSecrets } from './oidc-secrets.js';
import { buildIngressStack, ingressLoadBalancerNames } from './model/ingress.js';
import { buildServiceStack, providerClusters, serviceLoadBalancerNames } from './model/service.js';
import { stackOwner } from './model/stack.js';
import { AwsInventory } from './inventory.js';
import { AccountQuotas } from './account-quotas.js';
import type { ElbQuotas } from './model/limits.js';
import { resourcesOf, ResourceTypes, type ModelConfig, type ModelVpc, type Stack } from './model/types.js';
import { settleDrains } from './deploy/drains.js';
import { wantsCertificateDiscovery } from './model/annotations/listeners.js';
import type { CertificateAllowList } from './model/certificates.js';
import { ALB_KEYS } from './model/annotations/keys.js';
import { type StackOwner } from './tagging.js';
import type { PolicyReads, PolicySubject } from './tenant-policy-types.js';
import type { KubeGroupRecords } from './ingress-group-record.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../karmada/constants.js';
import { groupNameOf } from '../../karmada/ingress-group.js';
import type { GlobalAcceleratorClient } from '@aws-sdk/client-global-accelerator';
import { AcceleratorService } from './accelerator/service.js';
import type { EndpointSlice } from '../../karmada/types.js';
import type { RegionalRole } from './regions/role.js';

export { AwsBalancer, type AwsLoadBalancerStatus } from './balancer.js';
export { ingressStatus, type PlanResult } from './balancer-types.js';

export const AWS_PROVIDER_NAME = 'aws';

/** The model's configuration with the account's quotas, when they have been read. */
function withQuotas<C extends object>(config: C, accountQuotas: Readonly<ElbQuotas> | undefined) {
  return accountQuotas ? { ...config, accountQuotas } : config;
}

/** The configuration the model is built from: the provider's, with the VPC's network resolved. */
export type ResolvedConfig = Omit<AwsProviderConfig, 'vpc'> & {
  vpc: ModelVpc;
  allowedSubnets?: readonly string[];
  allowedCertificates?: CertificateAllowList;
};

/** A MultiClusterIngress as the tenant policy sees it. */
function ingressSubject(mci: Readonly<MultiClusterIngress>): PolicySubject {
  return {
    kind: 'MultiClusterIngress',
    metadata: mci.metadata,
    ingressClassName: mci.spec?.ingressClassName,
  };
}

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
  /** WAFv2, Shield and ACM clients; each one absent is built from the configuration at its first use. */
  edge?: EdgeClients;
  /** The Global Accelerator client; absent, built from the configuration at its first use. */
  ga?: GlobalAcceleratorClient;
  /** Set when this provider is one Region's part of a multi-Region one (regions/role.ts). */
  regional?: RegionalRole;
}

export class AwsProvider implements MultiClusterProvider {
  readonly ingress: AwsIngressBalancer;
  readonly service: AwsBalancer<MultiClusterService>;
  readonly stacks: AwsInventory;
  readonly fingerprintSource: AwsFingerprints;
  /** Global Accelerator in front of the load balancers (accelerator/service.ts). */
  readonly accelerators: AcceleratorService;
  /** Per reconcile (the lifecycle passes one ProviderContext to get() and then update()). */
  private readonly memos = perReconcile(() => new LookupMemo());
  private readonly kube: KubeClient;
  private readonly records: KubeTargetRecords;
  /** Outlives reconciles: read at most once per container (account-quotas.ts). */
  private readonly quotas: AccountQuotas;
  /** The target groups' VPC: the configured CIDRs, or EC2's answer kept per container. */
  private readonly network: VpcNetworkSource;
  /** WAFv2 and Shield (and their per-container answers), each client loaded at its first use. */
  private readonly edge: EdgeServices;
  private groups: Promise<SecurityGroupAccess> | undefined;
  /** IngressGroups' join records (ingress-group-record.ts), made at the first group's build. */
  private readonly groupRecords: () => Promise<KubeGroupRecords>;
  /** A regional part's stacks that its Region does not serve (regions/role.ts): they are not deployed there. */
  private readonly unserved = new WeakSet<Stack>();
  readonly regional: RegionalRole | undefined;

  constructor(
    readonly config: AwsProviderConfig,
    deps: ProviderDependencies,
    private readonly options: AwsProviderOptions,
  ) {
    this.kube = deps.kube;
    this.accelerators = new AcceleratorService({
      config,
      kube: deps.kube,
      logger: deps.logger,
      ...(options.ga ? { client: options.ga } : {}),
      ...(options.instanceId !== undefined ? { instanceId: options.instanceId } : {}),
    });
    this.regional = options.regional;
    this.quotas = new AccountQuotas(options.client);
    this.network = new VpcNetworkSource(
      config.vpc,
      async () => (await loadEc2()).configuredNetworkReader(config, options.ec2),
      options.network,
      deps.logger,
    );
    this.edge = new EdgeServices(config, options.edge);
    const recordRegion = options.regional && !options.regional.primary ? options.regional.region : undefined;
    this.records = new KubeTargetRecords(
      deps.kube,
      config.recordNamespace,
      config.ownerId,
      deps.logger,
      recordRegion,
    );
    let groupRecords: Promise<KubeGroupRecords> | undefined;
    // With the IngressGroups' chunk: only a group's build reads them.
    this.groupRecords = () =>
      (groupRecords ??= loadIngressGroups().then(
        ({ KubeGroupRecords }) =>
          new KubeGroupRecords(deps.kube, config.recordNamespace, config.ownerId, deps.logger, recordRegion),
        (err: unknown) => {
          groupRecords = undefined;
          throw err;
        },
      ));
    if (config.maxCallsPerSecond !== undefined) {
      limitCallsPerSecond(options.client, new TokenBucket(config.maxCallsPerSecond));
    }
    this.ingress = new AwsIngressBalancer(
      this,
      {
        owner: (mci) => stackOwner('mci', mci, config.ownerId),
        names: (mci) => ingressLoadBalancerNames(mci, config),
        build: async (mci, kube = deps.kube, ctx, network = true) => {
          const { clientSecrets, ...read } = await readIngressInputs(
            kube,
            mci,
            new Map(),
            reportIgnoredSlices(ctx),
          );
          const { inputs, serves } = await this.inRegion(read, kube, ctx, namedClusters(mci));
          const resolved = await this.withCertificates(
            await this.withAllowedSubnets(await this.modelConfig(ctx, network), [ingressSubject(mci)]),
            [mci],
            ctx,
            network,
          );
          const stack = this.accelerators.withIntent(
            withClientSecrets(
              await this.quotas.within(ctx, (accountQuotas) =>
                buildIngressStack({ mci, ...inputs, config: withQuotas(resolved, accountQuotas) }),
              ),
              clientSecrets,
            ),
            [mci],
            elsewhereOf(inputs),
          );
          // After the accelerator intent: an accelerator is exposure the policy judges too.
          await this.withinTenantPolicy(resolved, ingressSubject(mci), stack);
          return this.servedOrNot(stack, serves);
        },
      },
      {
        kube: deps.kube,
        policy: config.tenantPolicy,
        deployed: async (ref) => (await this.records.read(ref.stackId)) !== undefined,
        build: async (resolution, kube, ctx, network = true) => {
          const resolved = await this.withCertificates(
            await this.withAllowedSubnets(
              await this.modelConfig(ctx, network),
              resolution.members.map(ingressSubject),
            ),
            resolution.members,
            ctx,
            network,
          );
          const { admitIngressGroupStack, groupPolicyCheck, memoizedPolicyReads } = await loadIngressGroups();
          const members: IngressMember[] = [];
          // Members often route to the same Services: each is read once per build.
          const reads: ServiceReads = new Map();
          let secrets = ClientSecrets.none();
          let served = false;
          const elsewhere = new Set<string>();
          for (const mci of resolution.members) {
            const { clientSecrets, ...read } = await readIngressInputs(
              kube,
              mci,
              reads,
              reportIgnoredSlices(ctx),
            );
            const { inputs, serves } = await this.inRegion(read, kube, ctx, namedClusters(mci));
            served ||= serves;
            for (const c of elsewhereOf(inputs)) elsewhere.add(c);
            secrets = secrets.with(clientSecrets);
            members.push({ mci, ...inputs });
          }
          const joined = await (await this.groupRecords()).read(resolution.ref.stackId);
          // Every member's policy on the group's stack (ingress-group-admission.ts), not only the
          // reconciled one's: a member the group's stack would break it for is left out.
          const check = groupPolicyCheck({
            group: resolution.group,
            check: (subject, stack, reads) => this.withinTenantPolicy(resolved, subject, stack, reads),
            withAccelerator: (stack, mcis) => this.accelerators.withIntent(stack, mcis, elsewhere),
            reads: memoizedPolicyReads(async () =>
              (await import('./tenant-policy.js')).kubePolicyReads(this.kube, [MCI_FINALIZER, MCS_FINALIZER]),
            ),
          });
          const model = await this.quotas.within(ctx, (accountQuotas) =>
            admitIngressGroupStack(
              {
                ref: resolution.ref,
                group: resolution.group,
                members,
                config: withQuotas(resolved, accountQuotas),
                ...(joined ? { joined } : {}),
              },
              check,
            ),
          );
          if (!model.stack) return model;
          // Only the members on the load balancer ask for its accelerator, in rule order.
          const onIt = new Map(
            resolution.members.map((m) => [`${m.metadata.namespace}/${m.metadata.name}`, m]),
          );
          const servedMembers = model.served.flatMap((k) => onIt.get(k) ?? []);
          return {
            ...model,
            stack: this.servedOrNot(
              this.accelerators.withIntent(withClientSecrets(model.stack, secrets), servedMembers, elsewhere),
              served,
            ),
          };
        },
        recordJoined: async (ref, model) => {
          if (!model.joinedChanged) return;
          const records = await this.groupRecords();
          if (model.joined.length > 0) await records.write(ref.stackId, model.joined);
          else await records.forget(ref.stackId);
        },
        forgetJoined: async (ref) => (await this.groupRecords()).forget(ref.stackId),
      },
    );
    this.service = new AwsBalancer<MultiClusterService>(this, {
      owner: (mcs) => stackOwner('mcs', mcs, config.ownerId),
      names: (mcs) => serviceLoadBalancerNames(mcs, config),
      build: async (mcs, kube = deps.kube, ctx, network = true) => {
        const { inputs, serves } = await this.inRegion(
          await readServiceInputs(kube, mcs, reportIgnoredSlices(ctx)),
          kube,
          ctx,
          providerClusters(mcs) ?? [],
        );
        const resolved = await this.withAllowedSubnets(await this.modelConfig(ctx, network), [
          { kind: 'MultiClusterService', metadata: mcs.metadata },
        ]);
        const stack = this.accelerators.withIntent(
          await this.quotas.within(ctx, (accountQuotas) =>
            buildServiceStack({ mcs, ...inputs, config: withQuotas(resolved, accountQuotas) }),
          ),
          [mcs],
          elsewhereOf(inputs),
        );
        await this.withinTenantPolicy(
          resolved,
          { kind: 'MultiClusterService', metadata: mcs.metadata },
          stack,
        );
        return this.servedOrNot(stack, serves);
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
      deleted: async (stackId) => {
        if (parseStackId(stackId)?.kind === 'mci-group') await (await this.groupRecords()).forget(stackId);
      },
      // Over Regions, only the primary part sweeps accelerators: GA's API is global.
      ...(options.regional && !options.regional.primary ? {} : { accelerators: this.accelerators }),
    });
  }

  /**
   * A regional part's share of the inputs: the slices of its Region's clusters (regions/partition.ts),
   * and whether its Region serves the object. A one-Region provider's inputs are all of them.
   */
  private async inRegion<I extends { endpointSlices: EndpointSlice[] }>(
    inputs: I,
    kube: KubeClient,
    ctx: ProviderContext | undefined,
    named: readonly string[],
  ): Promise<{ inputs: I; serves: boolean }> {
    if (!this.regional) return { inputs, serves: true };
    const share = await this.regional.share(inputs.endpointSlices, kube, ctx, named);
    return {
      inputs: { ...inputs, endpointSlices: share.slices, elsewhere: share.elsewhere },
      serves: share.serves,
    };
  }

  private servedOrNot<S extends Stack>(stack: S, serves: boolean): S {
    if (!serves) this.unserved.add(stack);
    return stack;
  }

  /** Whether the stack is deployed in this provider's Region (always, for a one-Region provider). */
  serves(stack: Stack): boolean {
    return !this.unserved.has(stack);
  }

  /**
   * Whether this Region may hold something of the stack (a regional part only): it is marked
   * (regions/markers.ts), or it is the primary Region and the stack has a targets record there
   * (deployed before the provider had Regions).
   */
  async mayHold(ctx: ProviderContext | undefined, stackId: string): Promise<boolean> {
    const role = this.regional;
    if (!role) return true;
    if ((await role.markers.regions(ctx, stackId)).has(role.region)) return true;
    return role.primary && (await this.records.read(stackId)) !== undefined;
  }

  /**
   * The configuration the model is built from, with the VPC's CIDRs and subnets (vpc-network.ts):
   * the configured list, or EC2's answer (read at most once per container per TTL). Read before
   * the model is built, so a failed read fails the reconcile before any ELBv2 call. Without the
   * network (`network: false`, for the target group names alone) every target is off the VPC.
   */
  async modelConfig(ctx: { signal: AbortSignal } | undefined, network = true): Promise<ResolvedConfig> {
    // Without configured subnets the load balancer's are discovered from the network's (model/subnets.ts).
    if (!network && this.config.subnets) return this.config;
    const signal = ctx?.signal ?? AbortSignal.timeout(NETWORK_READ_TIMEOUT_MS);
    const { cidrs, ipv6Cidrs, subnets } = await this.network.network({ signal });
    return {
      ...this.config,
      // A configured IPv6 list wins over EC2's, as `cidrs` does over its IPv4 blocks.
      vpc: { id: this.config.vpc.id, cidrs, ipv6Cidrs: this.config.vpc.ipv6Cidrs ?? ipv6Cidrs, subnets },
    };
  }

  /**
   * The configuration with the Region's issued ACM certificates, when one of `mcis` has HTTPS
   * listen-ports without certificate-arn (model/certificates.ts): read through the per-container
   * cache (edge/services.ts) before the model is built, so a failed read fails the reconcile
   * before any ELBv2 call. A model for target group names only (`network: false`) reads none.
   */
  private async withCertificates(
    config: ResolvedConfig,
    mcis: readonly Readonly<MultiClusterIngress>[],
    ctx: { signal: AbortSignal } | undefined,
    network: boolean,
  ): Promise<ResolvedConfig & Pick<ModelConfig, 'certificates'>> {
    if (!mcis.some((m) => wantsCertificateDiscovery(m.metadata.annotations, ALB_KEYS))) return config;
    if (!network) return { ...config, certificates: 'not-read' };
    const signal = ctx?.signal ?? AbortSignal.timeout(NETWORK_READ_TIMEOUT_MS);
    const certificates = await this.edge.certificates({ signal });
    const allowed = await this.allowedCertificates(mcis);
    return { ...config, certificates, ...(allowed ? { allowedCertificates: allowed } : {}) };
  }

  /** The certificates the tenant policy lets discovery pick for `mcis` (all of an IngressGroup's members). */
  private async allowedCertificates(
    mcis: readonly Readonly<MultiClusterIngress>[],
  ): Promise<CertificateAllowList | undefined> {
    if (!this.config.tenantPolicy?.rules.some((r) => r.certificates)) return undefined;
    const { allowedCertificates, kubePolicyReads } = await import('./tenant-policy.js');
    return allowedCertificates(
      this.config.tenantPolicy,
      mcis.map(ingressSubject),
      kubePolicyReads(this.kube, [MCI_FINALIZER, MCS_FINALIZER]),
    );
  }

  /**
   * The configuration with the subnets the tenant policy allows the subjects, for discovery to
   * keep to; only when discovery may run (no configured subnets) and a rule limits subnets.
   */
  private async withAllowedSubnets(
    resolved: ResolvedConfig,
    subjects: readonly PolicySubject[],
  ): Promise<ResolvedConfig> {
    if (resolved.subnets || !this.config.tenantPolicy?.rules.some((r) => r.subnets)) return resolved;
    const { allowedSubnets, kubePolicyReads } = await import('./tenant-policy.js');
    const allowed = await allowedSubnets(
      this.config.tenantPolicy,
      subjects,
      kubePolicyReads(this.kube, [MCI_FINALIZER, MCS_FINALIZER]),
      resolved.vpc.subnets,
    );
    return allowed ? { ...resolved, allowedSubnets: allowed } : resolved;
  }

  /**
   * The model build step's last part: the operator's tenant policy, before anything is deployed.
   * Without one, its closed default: what the configuration (`resolved`, this Region's) gives.
   * `reads`: an IngressGroup's build asks once for all its members (ingress-group-admission.ts).
   */
  private async withinTenantPolicy(
    resolved: ResolvedConfig,
    subject: PolicySubject,
    stack: Stack,
    reads?: PolicyReads,
  ): Promise<Stack> {
    // Its own chunk, loaded at the first build: no cold start carries it.
    const { checkTenantPolicy, kubePolicyReads, policyDefaults } = await import('./tenant-policy.js');
    await checkTenantPolicy(
      this.config.tenantPolicy,
      policyDefaults(resolved),
      subject,
      stack,
      reads ?? kubePolicyReads(this.kube, [MCI_FINALIZER, MCS_FINALIZER]),
    );
    return stack;
  }

  /**
   * The desired stack as a deploy would settle it now (deploy/drains.ts): a stack with a drained
   * cluster reads its targets record (a Kubernetes read, no AWS call) to know when the drain began.
   */
  async settledNow(stack: Stack): Promise<Stack> {
    if (!resourcesOf(stack, ResourceTypes.TargetGroup).some((tg) => tg.spec.drain)) return stack;
    return settleDrains(stack, await this.records.read(stack.id), Date.now()).stack;
  }

  context(ctx: ProviderContext, owner: StackOwner): DeployContext {
    const lookups = this.memos(ctx);
    return {
      client: this.options.client,
      ...(this.options.tagging ? { tagging: this.options.tagging } : {}),
      lookups,
      edge: this.edge,
      records: this.records,
      signal: ctx.signal,
      // A regional part's lines name its Region: one reconcile plans each Region's stack.
      logger: ctx.logger.child({
        provider: AWS_PROVIDER_NAME,
        stack: owner.stackId,
        ...(this.regional ? { region: this.regional.region } : {}),
      }),
      owner:
        this.options.instanceId !== undefined ? { ...owner, instanceId: this.options.instanceId } : owner,
      vpcId: this.config.vpc.id,
      options: { ...DEFAULT_DEPLOY_OPTIONS, ...this.options.deploy },
      ...(ctx.announce ? { announce: ctx.announce } : {}),
      // The configuration names no security groups: load balancers without their own get a managed one.
      ...(this.config.securityGroups ? {} : { securityGroups: () => this.securityGroupAccess() }),
    };
  }

  /** The managed security groups' EC2 side, loaded once per container at its first use. */
  private securityGroupAccess(): Promise<SecurityGroupAccess> {
    this.groups ??= loadSecurityGroups().then((m) =>
      m.securityGroupAccess(this.options.ec2 ?? m.createEc2Client(this.config)),
    );
    // A failed load is not kept: the next reconcile tries again (lib/util/lazy.ts says why).
    this.groups.catch(() => {
      this.groups = undefined;
    });
    return this.groups;
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
    if (kind === 'mci-group') return this.ingress.groupTargetGroupNames(stack);
    if (kind === 'mci') {
      const mci = await this.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, namespace, name);
      if (!mci) return new Set<string>();
      // A member of an IngressGroup is served by the group's stack, never by one of its own (a
      // group name that is invalid says nothing: its reconcile reports it).
      let group: string | undefined;
      try {
        group = groupNameOf(mci);
      } catch {
        return undefined;
      }
      if (group !== undefined) return new Set<string>();
      return this.ingress.targetGroupNames(mci, logger, { servedOnly: true });
    }
    const mcs = await this.kube.get<MultiClusterService>(Resources.MultiClusterService, namespace, name);
    return mcs ? this.service.targetGroupNames(mcs, logger, { servedOnly: true }) : new Set<string>();
  }
}

/** The clusters an MCI names in its status: its Services' locations and the blocked ones. */
function namedClusters(mci: Readonly<MultiClusterIngress>): string[] {
  return [
    ...(mci.status?.trafficBlockClusters ?? []),
    ...(mci.status?.serviceLocations ?? []).flatMap((l) => l.clusters ?? []),
  ];
}

/** A regional part's inputs name the object's clusters in other Regions (inRegion); none otherwise. */
function elsewhereOf(inputs: object): ReadonlySet<string> {
  return (inputs as { elsewhere?: ReadonlySet<string> }).elsewhere ?? new Set();
}

/** The stack with the client secrets its OIDC actions name, when there are any (Stack.clientSecrets). */
function withClientSecrets<S extends Stack>(stack: S, secrets: ClientSecrets): S {
  return secrets.size > 0 ? { ...stack, clientSecrets: secrets } : stack;
}
