/**
 * A warm container's memory of the stacks whose targets it last set, as LBC's target cache keeps
 * one per TargetGroupBinding: the load balancer's ARN and DNS name, its recorded targets
 * fingerprints, and each target group's ARN and the targets it registered. With it an endpoint
 * change costs only the registration calls and the record (targets-only.ts), without GetResources
 * or DescribeTargetHealth.
 *
 * Why a stale entry can never deregister a target that should stay: a deregistration is always
 * `remembered − desired`, and `desired` is computed from the objects read for this reconcile, under
 * the object's lock. A target in `desired` is never deregistered, whatever the entry says. A stale
 * entry can only (a) register a target already registered (RegisterTargets is idempotent), (b)
 * deregister a target no longer registered (ELBv2 refuses with InvalidTarget: the entry is dropped
 * and the reconcile takes the cold path, which reads the truth), or (c) miss a target someone else
 * registered (the deep drift check finds it). What a stale entry can delay is an update: if another
 * container moved the targets on (slices X, then Y there) and this one then sees X again, its
 * entry says X is in place and it skips, so Y stays until the entry expires; the fingerprint pass
 * sees the record differ meanwhile. An entry lives at most `ttlMs` (LBC: 5 minutes), is
 * dropped whenever a reconcile of its stack takes the full path or fails, and the cache holds at
 * most `maxEntries` stacks (least recently used out first), so a container's memory stays bounded.
 */
import type { TargetDescription } from '@aws-sdk/client-elastic-load-balancing-v2';

export interface CachedGroup {
  arn: string;
  /** What this container registered (or read and then changed): Id, Port, AvailabilityZone. */
  registered: TargetDescription[];
}

export interface CachedStack {
  /** The structure fingerprint the stack had when its targets were set. */
  fingerprint: string;
  loadBalancer: { arn: string; dnsName: string };
  /** The load balancer's targets records (`targets/<group>` tag → fingerprint), as written. */
  records: Record<string, string>;
  /** By target group name; a group absent here is read from ELBv2 when it changes. */
  groups: Record<string, CachedGroup>;
}

export interface TargetCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

export const TARGET_CACHE_DEFAULTS = { maxEntries: 1000, ttlMs: 5 * 60_000 } as const;

export class TargetCache {
  private readonly entries = new Map<string, { at: number; value: CachedStack }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: TargetCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? TARGET_CACHE_DEFAULTS.maxEntries;
    this.ttlMs = options.ttlMs ?? TARGET_CACHE_DEFAULTS.ttlMs;
    this.now = options.now ?? (() => Date.now());
  }

  /** The stack's entry if it is recent and was set for this structure; otherwise none (and forgotten). */
  get(stackId: string, fingerprint: string): CachedStack | undefined {
    const e = this.entries.get(stackId);
    if (!e) return undefined;
    if (this.now() - e.at > this.ttlMs || e.value.fingerprint !== fingerprint) {
      this.entries.delete(stackId);
      return undefined;
    }
    // Most recently used last: the first key is the one evicted.
    this.entries.delete(stackId);
    this.entries.set(stackId, e);
    return e.value;
  }

  set(stackId: string, value: CachedStack): void {
    this.entries.delete(stackId);
    this.entries.set(stackId, { at: this.now(), value });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  forget(stackId: string): void {
    this.entries.delete(stackId);
  }

  get size(): number {
    return this.entries.size;
  }
}
