/**
 * Global Accelerator as the AWS provider uses it: which stacks carry an accelerator intent (read
 * from their objects when the model is built), the context each reconcile, deletion and sweep
 * runs in, and the one configured Region's endpoint for the single-Region provider. The GA client
 * is loaded at its first call (lazy-parts.ts), by a stack that has to call GA.
 */
import type { GlobalAcceleratorClient } from '@aws-sdk/client-global-accelerator';
import { InvalidObjectError } from '../../../errors.js';
import type { LoadBalancerStatus } from '../../../karmada/types.js';
import type { KubeClient } from '../../../kube/client.js';
import type { KubeObject } from '../../../kube/types.js';
import type { Logger } from '../../../log/logger.js';
import type { ProviderContext } from '../../../provider/contract.js';
import type { AwsProviderConfig } from '../config.js';
import { loadAcceleratorReconcile, loadGlobalAccelerator } from '../lazy-parts.js';
import type { Stack } from '../model/types.js';
import type { StackOwner } from '../tagging.js';
import { blockedClusters, objectClusters, regionDrained } from './drained.js';
import type { GaApi } from './ga-api.js';
import { ACCELERATOR_RETRY_SECONDS, acceleratorSettings, GA_KEYS, type AcceleratorSettings } from './keys.js';
import { checkListenerQuota } from './model.js';
import { KubeAcceleratorRecords } from './record.js';
import type { AcceleratorContext, AcceleratorResult, AcceleratorStatus } from './reconcile.js';
import {
  RETIRING_TAG,
  type AcceleratorOperation,
  type AcceleratorPhase,
  type ActualAccelerator,
  type RegionalEndpoint,
} from './types.js';

/** The reason of an accelerator asked for where the configuration has none (next-steps.ts). */
export const ACCELERATOR_NOT_CONFIGURED = 'GlobalAcceleratorNotConfigured';

/** GA's DNS names (`a1234abcd.awsglobalaccelerator.com`), as the status shows them. */
const GA_DNS_SUFFIX = '.awsglobalaccelerator.com';

/** Whether an object's status shows an accelerator (its DNS name, or a static IP). */
export function statusShowsAccelerator(obj: Readonly<KubeObject>): boolean {
  const status = (obj as { status?: { loadBalancer?: LoadBalancerStatus } }).status;
  return (status?.loadBalancer?.ingress ?? []).some(
    (i) => i.ip !== undefined || (i.hostname ?? '').toLowerCase().endsWith(GA_DNS_SUFFIX),
  );
}

/**
 * `status.loadBalancer.ingress` with an accelerator in front: its DNS name, then each static IP
 * (the regional load balancers' DNS names are not the entry point any more).
 */
export function acceleratorIngress(status: AcceleratorStatus): LoadBalancerStatus {
  return { ingress: [{ hostname: status.dnsName }, ...status.ips.map((ip) => ({ ip }))] };
}

export interface AcceleratorServiceOptions {
  config: AwsProviderConfig;
  kube: KubeClient;
  logger: Logger;
  /** A client for tests and simulators; built from the configuration at the first call otherwise. */
  client?: GlobalAcceleratorClient;
  instanceId?: string;
}

export class AcceleratorService {
  readonly records: KubeAcceleratorRecords;
  private api: Promise<GaApi> | undefined;

  constructor(private readonly options: AcceleratorServiceOptions) {
    const { config, kube, logger } = options;
    this.records = new KubeAcceleratorRecords(kube, config.recordNamespace, config.ownerId, logger);
  }

  private get config(): AwsProviderConfig {
    return this.options.config;
  }

  /** Whether GA is configured at all (then deletions and the sweep look at GA even without a record). */
  get configured(): boolean {
    return this.config.globalAccelerator !== undefined;
  }

  /**
   * The stack with its accelerator intent when the accelerator path must run: `objs` (the MCI or
   * MCS, or an IngressGroup's members) ask for one, GA is configured, or a status shows one.
   * Annotations are checked here, before any AWS call; the settings are the first object's that
   * names the enabling key (an IngressGroup's members share one accelerator). `elsewhere`: the
   * objects' clusters in other Regions (a regional part's), left out of this Region's drain.
   */
  withIntent<S extends Stack>(
    stack: S,
    objs: readonly Readonly<KubeObject>[],
    elsewhere: ReadonlySet<string> = new Set(),
  ): S {
    const byDefault = this.config.globalAccelerator?.enabled ?? false;
    const all = objs.map((o) => acceleratorSettings(o.metadata.annotations, byDefault));
    const named = objs.findIndex((o) => o.metadata.annotations?.[GA_KEYS.enabled] !== undefined);
    const settings: AcceleratorSettings | undefined = all[named >= 0 ? named : 0];
    if (!settings && !this.configured && !objs.some(statusShowsAccelerator)) return stack;
    if (settings) checkListenerQuota(stack);
    if (settings && !this.configured) {
      // Public anycast addresses are the operator's to offer: an annotation alone creates none.
      throw new InvalidObjectError(
        `annotation ${GA_KEYS.enabled}: an accelerator is asked for, but the provider configuration has no globalAccelerator: none is created`,
        { field: GA_KEYS.enabled, reason: ACCELERATOR_NOT_CONFIGURED },
      );
    }
    // This Region's clusters (a regional part's stack is built from them only).
    const clusters = [...new Set(objs.flatMap((o) => objectClusters(o, stack)))]
      .filter((c) => !elsewhere.has(c))
      .sort();
    const blocked = [...new Set(objs.flatMap((o) => [...blockedClusters(o)]))].sort();
    return { ...stack, accelerator: { ...(settings ? { settings } : {}), clusters, blocked } };
  }

  context(ctx: ProviderContext, owner: StackOwner, dryRun: boolean): AcceleratorContext {
    return {
      ga: () => this.ga(),
      records: this.records,
      owner:
        this.options.instanceId !== undefined ? { ...owner, instanceId: this.options.instanceId } : owner,
      signal: ctx.signal,
      logger: ctx.logger.child({ service: 'globalaccelerator', stack: owner.stackId }),
      defaultTags: this.config.defaultTags,
      externalManagedTags: this.config.externalManagedTags ?? [],
      dryRun,
      resync: ctx.resync === true,
      pollSeconds: this.config.globalAccelerator?.pollSeconds ?? ACCELERATOR_RETRY_SECONDS,
      ...(ctx.announce ? { announce: ctx.announce } : {}),
    };
  }

  /** The GA API, loaded once per container at its first use (a failed load is tried again). */
  private ga(): Promise<GaApi> {
    this.api ??= loadGlobalAccelerator().then((m) => m.configuredGa(this.config, this.options.client));
    this.api.catch(() => {
      this.api = undefined;
    });
    return this.api;
  }

  /** The one configured Region's endpoint (until the regional orchestrator passes every Region's). */
  singleRegion(stack: Stack, loadBalancerArn: string | undefined): RegionalEndpoint[] {
    const intent = stack.accelerator;
    const drained = intent ? regionDrained(stack, intent.clusters, new Set(intent.blocked)) : false;
    return [{ region: this.config.region, loadBalancerArn, drained }];
  }

  /**
   * One phase over explicit settings (the orchestrator's `after` over every Region: undefined
   * settings when no Region serves the stack any more, so its accelerator is retired).
   */
  async reconcileWith(
    ctx: ProviderContext,
    owner: StackOwner,
    settings: AcceleratorSettings | undefined,
    stack: Stack,
    endpoints: readonly RegionalEndpoint[],
    dryRun: boolean,
  ): Promise<AcceleratorResult | undefined> {
    const { reconcileAccelerator } = await loadAcceleratorReconcile();
    return reconcileAccelerator(this.context(ctx, owner, dryRun), settings, stack, endpoints, 'after');
  }

  /** One phase of the stack's accelerator; undefined when the stack has no accelerator intent. */
  async reconcile(
    ctx: ProviderContext,
    owner: StackOwner,
    stack: Stack,
    endpoints: readonly RegionalEndpoint[],
    phase: AcceleratorPhase,
    dryRun: boolean,
  ): Promise<AcceleratorResult | undefined> {
    if (!stack.accelerator) return undefined;
    const { reconcileAccelerator } = await loadAcceleratorReconcile();
    return reconcileAccelerator(
      this.context(ctx, owner, dryRun),
      stack.accelerator.settings,
      stack,
      endpoints,
      phase,
    );
  }

  /** The stack's accelerators one step closer to gone (RetryLaterError while one is left). */
  async delete(
    ctx: ProviderContext,
    owner: StackOwner,
    dryRun: boolean,
    /** false for the orphan sweep, which tags nothing (deleteAccelerator). */
    mark = true,
  ): Promise<AcceleratorOperation[]> {
    // Neither configured nor ever asked for (no record): nothing in GA to look for, nothing to load.
    const record = await this.records.read(owner.stackId);
    if (!record && !this.configured) return [];
    const { deleteAccelerator } = await loadAcceleratorReconcile();
    return deleteAccelerator(this.context(ctx, owner, dryRun), record, mark);
  }

  /**
   * Every accelerator of this owner, for the orphan sweep: listed when GA is configured, or when
   * an accelerator record says an object asked for one (a Kubernetes LIST, no GA call otherwise).
   */
  async owned(ctx: ProviderContext): Promise<Array<ActualAccelerator & { stackId: string }>> {
    if (!this.configured && !(await this.records.any())) return [];
    const { listOwnerAccelerators } = await loadAcceleratorReconcile();
    return listOwnerAccelerators(await this.ga(), ctx, {
      ownerId: this.config.ownerId,
      ...(this.options.instanceId !== undefined ? { instanceId: this.options.instanceId } : {}),
    });
  }

  /** The sweep's pass over accelerators being retired (replaced or no longer wanted): one step each. */
  async retireAll(
    ctx: ProviderContext,
    accelerators: ReadonlyArray<ActualAccelerator & { stackId: string }>,
    dryRun: boolean,
  ): Promise<void> {
    const retiring = accelerators.filter((x) => x.tags[RETIRING_TAG] !== undefined);
    if (retiring.length === 0) return;
    const { retireOne } = await loadAcceleratorReconcile();
    for (const a of retiring) {
      const owner = { ownerId: this.config.ownerId, stackId: a.stackId };
      try {
        await retireOne(this.context(ctx, owner, dryRun), a);
      } catch (err) {
        ctx.logger.warn('could not retire an accelerator; the next sweep tries again', {
          arn: a.arn,
          error: err,
        });
      }
    }
  }
}
