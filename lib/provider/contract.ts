/**
 * The multicluster provider contract: the TypeScript form of Karmada's
 * `multiclusterprovider.Interface` (karmada-io/multicluster-cloud-provider, cloud.go).
 *
 * Rules every implementation follows:
 * - Inputs are read-only; a provider never mutates the object it is given.
 * - `ensureDeleted` on a load balancer that does not exist succeeds (it is idempotent).
 * - Errors are thrown. `RetryLaterError` means "transient, try again later";
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
import type { Logger } from '../log/logger.js';

export interface ProviderContext {
  /** Aborted when the caller gives up (e.g. the function is about to time out). */
  signal: AbortSignal;
  logger: Logger;
  /**
   * True when the trigger was a periodic resync: a provider that skips unchanged stacks must do
   * its full drift check instead.
   */
  resync?: boolean;
  /** Optional: tells the object's users about something disruptive before it happens (an Event). */
  announce?: (reason: string, message: string) => Promise<void>;
}

export interface GetResult<S> {
  exists: boolean;
  status?: S;
}

/** Load balancers for MultiClusterIngress (Go: `LoadBalancer`). */
export interface LoadBalancer {
  /** Whether the load balancer exists, and if so its status. */
  get(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<GetResult<IngressLoadBalancerStatus>>;
  /** Creates the load balancer. `undefined` means "no status to report yet". */
  ensure(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<IngressLoadBalancerStatus | undefined>;
  /** Brings an existing load balancer in line with the object. */
  update(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<IngressLoadBalancerStatus | undefined>;
  /** Deletes the load balancer and everything it owns, if it exists. */
  ensureDeleted(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>): Promise<void>;
}

/** Load balancers for MultiClusterService of type LoadBalancer (Go: `MCSLoadBalancer`). */
export interface MCSLoadBalancer {
  get(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<GetResult<LoadBalancerStatus>>;
  ensure(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<LoadBalancerStatus | undefined>;
  update(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<LoadBalancerStatus | undefined>;
  ensureDeleted(ctx: ProviderContext, mcs: Readonly<MultiClusterService>): Promise<void>;
}

/** A multicluster provider (Go: `Interface`). */
export interface MultiClusterProvider {
  /** The MultiClusterIngress implementation, or `undefined` when the provider does not support it. */
  loadBalancer(): LoadBalancer | undefined;
  /** The MultiClusterService implementation, or `undefined` when the provider does not support it. */
  mcsLoadBalancer(): MCSLoadBalancer | undefined;
  /** The provider's ID, e.g. `fake` or `aws`. */
  providerName(): string;
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
