/**
 * The multicluster provider contract: the TypeScript form of Karmada's
 * `multiclusterprovider.Interface` (karmada-io/multicluster-cloud-provider, cloud.go).
 *
 * Rules every implementation follows:
 * - Inputs are read-only; a provider never mutates the object it is given.
 * - `ensureDeleted` on a load balancer that does not exist succeeds (it is idempotent).
 * - Errors are thrown. `RetryLaterError` means "transient, try again later" (its subclass
 *   `InProgressError`: "waiting on the cloud, which is progress", told as a Normal Event);
 *   `InvalidObjectError` means "this object cannot be served until it changes";
 *   anything else is a failure the caller reports and retries with backoff.
 * - Every call honours `ctx.signal`: when it aborts, the provider stops starting new work.
 */
import type {
  IngressLoadBalancerStatus,
  LoadBalancerStatus,
  MultiClusterIngress,
  MultiClusterService,
} from '../karmada/types.js';
import type { KubeClient } from '../kube/client.js';
import type { EventType } from '../kube/events.js';
import type { Logger } from '../log/logger.js';
import type { StackRef } from './stack-id.js';

export interface ProviderContext {
  /** Aborted when the caller gives up (e.g. the function is about to time out). */
  signal: AbortSignal;
  logger: Logger;
  /**
   * True when the trigger was a periodic resync: a provider that skips unchanged stacks must do
   * its full drift check instead.
   */
  resync?: boolean;
  /**
   * Optional: tells the object's users (a Warning Event) about something disruptive before it
   * happens, or about something in the object the provider cannot honour. `Normal` is for news
   * that asks nothing of anyone (a drained cluster restored).
   */
  announce?: (reason: string, message: string, type?: EventType) => Promise<void>;
  /**
   * Optional: adds a line to the message of the load-balancer condition a successful reconcile
   * writes (the AWS provider lists each cluster's effective weight there).
   */
  detail?: (line: string) => void;
  /**
   * Optional: the provider found the load balancer as the object asks and changed nothing in this
   * ensure or update. The lifecycle then records no UpdatedLoadBalancer Event for the pass (a
   * change gives one Event; the reconciles that its own status and condition writes cause give
   * none), unless the status changed. A provider that never calls it gets an Event for every
   * update, as upstream's controllers record one.
   */
  unchanged?: () => void;
}

export interface GetResult<S> {
  exists: boolean;
  status?: S;
}

/**
 * One object's load balancer (Go: `LoadBalancer` and `MCSLoadBalancer`, the same four methods
 * written once): `Obj` is the Kubernetes object served, `Status` the load-balancer status written
 * back to it.
 */
export interface Balancer<Obj, Status> {
  /** Whether the load balancer exists, and if so its status. */
  get(ctx: ProviderContext, obj: Readonly<Obj>): Promise<GetResult<Status>>;
  /** Creates the load balancer. `undefined` means "no status to report yet". */
  ensure(ctx: ProviderContext, obj: Readonly<Obj>): Promise<Status | undefined>;
  /** Brings an existing load balancer in line with the object. */
  update(ctx: ProviderContext, obj: Readonly<Obj>): Promise<Status | undefined>;
  /** Deletes the load balancer and everything it owns, if it exists. */
  ensureDeleted(ctx: ProviderContext, obj: Readonly<Obj>): Promise<void>;
}

/** Load balancers for MultiClusterIngress (Go: `LoadBalancer`). */
export type LoadBalancer = Balancer<MultiClusterIngress, IngressLoadBalancerStatus>;

/** Load balancers for MultiClusterService of type LoadBalancer (Go: `MCSLoadBalancer`). */
export type MCSLoadBalancer = Balancer<MultiClusterService, LoadBalancerStatus>;

/** A stack the provider owns, as its inventory lists it. */
export interface OwnedStack extends StackRef {
  /**
   * When it was created, if the provider knows: younger stacks are left alone. The AWS provider
   * reports its newest resource's time, so a stack still being built counts as young.
   */
  createdAt?: Date;
}

/**
 * For the orphan sweep: the load-balancer stacks the provider owns (by its ownership tags, or its
 * own state), and deleting one by its ID, without the Kubernetes object (which is exactly what is
 * missing for an orphan).
 */
export interface StackInventory {
  listOwnedStacks(ctx: ProviderContext): Promise<OwnedStack[]>;
  deleteOwnedStack(ctx: ProviderContext, stackId: string): Promise<void>;
}

/** A resource group (an AWS target group) owned by a stack but used by none of its load balancers. */
export interface UnattachedTargetGroup {
  /** The provider's id for it (an ARN). */
  id: string;
  name: string;
  /** The stack whose tags it carries. */
  stack: StackRef;
  /** When it was created, if the provider knows: younger ones are left alone. */
  createdAt?: Date;
}

/**
 * For the orphan sweep, in providers whose stacks can leak a part: target groups a reconcile
 * cannot find (attached to none of its load balancers and no longer under a name it wants) are
 * listed here, account-wide, once per sweep, instead of by every object's reconcile.
 */
export interface TargetGroupInventory {
  listUnattachedTargetGroups(ctx: ProviderContext): Promise<UnattachedTargetGroup[]>;
  /**
   * Deletes it after checking again that it is still unattached, still ours and not named by its
   * stack's object (when that exists); false when it was left alone.
   */
  deleteUnattachedTargetGroup(ctx: ProviderContext, tg: UnattachedTargetGroup): Promise<boolean>;
}

/** A stack's fingerprint as the provider would record it after deploying the object now. */
export interface DesiredFingerprint {
  stackId: string;
  /** Undefined when the object builds no model (its reconcile reports why). */
  fingerprint?: string;
  /** Where the provider looks for the stack's record (the AWS provider: the load balancer's name). */
  locator: string;
}

/**
 * For the scheduled resync's fingerprint pass: what each object's stack should record, computed
 * from Kubernetes reads alone (through the `kube` given, a one-LIST-per-kind snapshot), and what
 * the stacks do record, read in bulk; only the objects whose two differ are reconciled.
 */
export interface FingerprintSource {
  desired(
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
    kube: KubeClient,
  ): Promise<DesiredFingerprint>;
  /** The recorded fingerprint of each stack found, by stack ID ('' when it carries none). */
  recorded(ctx: ProviderContext, stacks: readonly DesiredFingerprint[]): Promise<Map<string, string>>;
  /** Cloud calls one deep drift check of an unchanged stack costs: the deep pass's budget unit. */
  readonly deepCheckCalls: number;
}

/**
 * A multicluster provider (Go: `Interface`). Every capability is a member that answers
 * `undefined` when the provider does not offer it, so a caller asks, never guesses.
 */
export interface MultiClusterProvider {
  /** The MultiClusterIngress implementation, or `undefined` when the provider does not support it. */
  loadBalancer(): LoadBalancer | undefined;
  /** The MultiClusterService implementation, or `undefined` when the provider does not support it. */
  mcsLoadBalancer(): MCSLoadBalancer | undefined;
  /** The provider's ID, e.g. `fake` or `aws`. */
  providerName(): string;
  /** Its stacks, for the orphan sweep; `undefined`: nothing to sweep (the sweep does nothing). */
  inventory(): StackInventory | undefined;
  /** Its unattached target groups, for the orphan sweep; `undefined` when it has none to leak. */
  targetGroupInventory(): TargetGroupInventory | undefined;
  /** Bulk fingerprints for the resync; `undefined`: the resync reconciles every object. */
  fingerprints(): FingerprintSource | undefined;
}

/** What a factory may use besides its configuration. */
export interface ProviderDependencies {
  /** The Karmada API server, for providers that read Services and EndpointSlices. */
  kube: KubeClient;
  logger: Logger;
}

/**
 * Builds a provider (Go: `Factory`). `config` is the configuration file's contents, or
 * `undefined` when no file was given.
 */
export type ProviderFactory = (
  config: string | undefined,
  deps: ProviderDependencies,
) => MultiClusterProvider | Promise<MultiClusterProvider>;
