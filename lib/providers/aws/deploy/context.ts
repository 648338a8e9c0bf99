/**
 * What every deploy step needs, and the one door to the ELBv2 API: `call` passes the abort signal,
 * stops before starting work once the signal fired, and turns throttling / server errors that
 * survived the SDK's bounded retries, and write conflicts, into RetryLaterError (the caller
 * requeues instead of sleeping).
 */
import type { ElasticLoadBalancingV2Client, LoadBalancer } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import type { Ec2Call } from './operations.js';
import type { ActualSecurityGroup } from './security-group.js';
import { CancelledError, RetryLaterError, errorMessage } from '../../../errors.js';
import type { Logger } from '../../../log/logger.js';
import type { ProviderContext } from '../../../provider/contract.js';
import type { StackOwner } from '../tagging.js';
import type { TargetRecordStore } from './target-records.js';
import type { EdgeServices } from '../edge/services.js';

/** A resource of a stack as the Tagging API lists it (stack-tags.ts). */
export interface TaggedResource {
  arn: string;
  name: string;
  tags: Record<string, string>;
}

export interface TaggedStack {
  loadBalancers: TaggedResource[];
  targetGroups: TaggedResource[];
}

export interface DeployOptions {
  /** Bounded retry of DeleteTargetGroup while a deleted rule/LB still references it (LBC: 2 s, 20 s). */
  resourceInUseAttempts: number;
  resourceInUseDelayMs: number;
}

export const DEFAULT_DEPLOY_OPTIONS: DeployOptions = {
  resourceInUseAttempts: 10,
  resourceInUseDelayMs: 2000,
};

/** A load balancer looked up by name (with its tags), or `null`: no load balancer has that name. */
export type LoadBalancerLookup = { lb: LoadBalancer; tags: Record<string, string> } | null;

/**
 * Look-ups made by `get()` that the `ensure()`/`update()` right after it (same ProviderContext, as
 * the lifecycle calls them) may use once instead of asking ELBv2 again: a no-op reconcile then
 * costs 2 calls in total, not 2 for get() and 2 more for update().
 */
export class LookupMemo {
  private readonly entries = new Map<string, { at: number; value: LoadBalancerLookup }>();
  constructor(
    private readonly ttlMs = 5000,
    private readonly now: () => number = () => Date.now(),
  ) {}
  private readonly tagged = new Map<string, { at: number; value: TaggedStack }>();
  record(name: string, value: LoadBalancerLookup): void {
    this.entries.set(name, { at: this.now(), value });
  }
  /** The stack found by tags in get(), for the deploy right after it (once, if recent). */
  recordTagged(stackId: string, value: TaggedStack): void {
    this.tagged.set(stackId, { at: this.now(), value });
  }
  takeTagged(stackId: string): TaggedStack | undefined {
    const e = this.tagged.get(stackId);
    this.tagged.delete(stackId);
    return e && this.now() - e.at <= this.ttlMs ? e.value : undefined;
  }
  clear(): void {
    this.entries.clear();
    this.tagged.clear();
  }
  /** The recorded look-up, once (it is forgotten), if recent; undefined when unknown. */
  take(name: string): LoadBalancerLookup | undefined {
    const e = this.entries.get(name);
    this.entries.delete(name);
    return e && this.now() - e.at <= this.ttlMs ? e.value : undefined;
  }
}

/** The managed security groups' EC2 side (ec2/security-groups.ts), behind its lazy chunk. */
export interface SecurityGroupAccess {
  /** The stack's groups (`ctx.owner`'s stack), found by their ownership tags. */
  findStack(ctx: DeployContext): Promise<ActualSecurityGroup[]>;
  /** Every group of this owner in the VPC (the orphan sweep). */
  findOwned(ctx: DeployContext): Promise<ActualSecurityGroup[]>;
  send(ctx: DeployContext, c: Ec2Call, o: { abortSignal: AbortSignal }): Promise<{ arn?: string }>;
}

export interface DeployContext {
  client: ElasticLoadBalancingV2Client;
  /**
   * Present when the provider manages security groups (the configuration names none): loads the
   * EC2 client at its first call, so a stack that needs none never does.
   */
  securityGroups?: () => Promise<SecurityGroupAccess>;
  /** The Resource Groups Tagging API: finds a stack by its tags without ELBv2 calls. */
  tagging?: ResourceGroupsTaggingAPIClient;
  /** See LookupMemo. */
  lookups?: LookupMemo;
  /** WAFv2 and Shield (edge/services.ts), each client loaded at its first use. */
  edge?: EdgeServices;
  /** Where each stack's targets are recorded (target-records.ts); one per provider. */
  records: TargetRecordStore;
  /** Told about replacements before they happen (wired to an Event by the caller). */
  announce?: ProviderContext['announce'];
  signal: AbortSignal;
  logger: Logger;
  owner: StackOwner;
  /** The VPC our target groups live in: narrows the tag sweep over target groups. */
  vpcId: string;
  options: DeployOptions;
}

/** Stops between steps once the caller gave up. */
export function checkAborted(ctx: Pick<DeployContext, 'signal'>): void {
  if (ctx.signal.aborted) throw new CancelledError('reconcile cancelled', { cause: ctx.signal.reason });
}

interface SdkErrorShape {
  name?: string;
  code?: string;
  Code?: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
}

/** Whether an SDK error is the given ELBv2 error code (`LoadBalancerNotFound`, `ResourceInUse`...). */
export function isAwsError(err: unknown, code: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as SdkErrorShape;
  // awsQuery errors surface as `<Code>Exception` classes, or as the bare code when unmodelled.
  return e.name === code || e.name === `${code}Exception` || e.Code === code;
}

const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
]);
/** Whether an SDK error is the API's throttling answer (an error code, or HTTP 429). */
export function isThrottling(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as SdkErrorShape;
  return (e.name !== undefined && THROTTLING.has(e.name)) || e.$metadata?.httpStatusCode === 429;
}

/**
 * Conflicts a fresh reconcile resolves: a write whose response was lost (the SDK's retry then
 * meets its own result) or a concurrent writer. Re-reading AWS adopts ours or reports a foreign one.
 */
const CONFLICTS = [
  'PriorityInUse',
  'DuplicateListener',
  'DuplicateTargetGroupName',
  'DuplicateLoadBalancerName',
  // A target group of a just-deleted (replaced) load balancer is released a moment later.
  'TargetGroupAssociationLimit',
];

export function isConflict(err: unknown): boolean {
  return CONFLICTS.some((code) => isAwsError(err, code));
}

const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

/** Throttling, 5xx and network failures: worth trying again later, not worth reporting as invalid. */
export function isTransient(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as SdkErrorShape;
  if (e.name !== undefined && THROTTLING.has(e.name)) return true;
  if (e.$fault === 'server') return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && (status === 429 || status >= 500)) return true;
  if (e.name === 'TimeoutError') return true;
  return e.code !== undefined && NETWORK.has(e.code);
}

/**
 * The backoff hint for a call that stayed throttled or failing through the SDK's retries: the
 * account's API bucket refills at about 10 Describe calls per second, so a throttled reconcile
 * waits long enough for the bucket (and everyone else sharing it) to recover; jitter spreads the
 * retries of many objects throttled at once.
 */
export function retryAfterFor(err: unknown, random: () => number = Math.random): number {
  const e = err as SdkErrorShape;
  const throttled = e.name !== undefined && THROTTLING.has(e.name);
  const status = e.$metadata?.httpStatusCode;
  const base = throttled || status === 429 ? 20 : e.$fault === 'server' || (status ?? 0) >= 500 ? 10 : 5;
  return base + Math.floor(random() * base);
}

/**
 * Runs one ELBv2 call under the context's signal; see the module comment for error mapping.
 * `service` names the API in the messages (EC2's reads go through here too).
 */
export async function call<T>(
  ctx: Pick<DeployContext, 'signal'>,
  operation: string,
  send: (options: { abortSignal: AbortSignal }) => Promise<T>,
  service = 'ELBv2',
): Promise<T> {
  checkAborted(ctx);
  try {
    return await send({ abortSignal: ctx.signal });
  } catch (err) {
    if (ctx.signal.aborted)
      throw new CancelledError(`reconcile cancelled during ${operation}`, { cause: err });
    if (isThrottling(err)) {
      const retryAfterSeconds = retryAfterFor(err);
      throw new RetryLaterError(
        `${service} throttled ${operation} through the SDK's retries (the account's API rate is shared); retrying in about ${retryAfterSeconds} s`,
        { cause: err, retryAfterSeconds, reason: 'Throttled' },
      );
    }
    if (isTransient(err)) {
      throw new RetryLaterError(`${service} ${operation} failed after retries: ${errorMessage(err)}`, {
        cause: err,
        retryAfterSeconds: retryAfterFor(err),
      });
    }
    if (isConflict(err)) {
      throw new RetryLaterError(
        `${service} ${operation} conflicted with the current state, reconcile again: ${errorMessage(err)}`,
        { cause: err, retryAfterSeconds: 1 },
      );
    }
    throw err;
  }
}

/** Waits `ms`, or rejects with CancelledError when the signal fires first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CancelledError('reconcile cancelled', { cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError('reconcile cancelled', { cause: signal.reason }));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
