/**
 * A per-object lock held in a coordination.k8s.io Lease, so that two invocations reconciling the
 * same object (a duplicated notification, a direct invoke racing the queue) never interleave:
 * one acquires, the other gets LockHeldError (a RetryLaterError) and is redelivered. Acquisition relies only on the
 * API server's concurrency control: `create` fails with AlreadyExists, and taking over an expired
 * Lease is an update guarded by its resourceVersion. An invocation that dies holding the lock
 * loses it when the Lease expires (the function timeout).
 */
import { createHash } from 'node:crypto';
import type { KubeClient } from '../kube/client.js';
import { isAlreadyExists, isConflict } from '../kube/client.js';
import { Resources } from '../kube/resources.js';
import type { KubeObject } from '../kube/types.js';
import { LockHeldError } from '../errors.js';
import { sleep } from '../util/sleep.js';

interface Lease extends KubeObject {
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
  };
}

export interface LockOptions {
  namespace: string;
  holder: string;
  durationSeconds: number;
  /** How long to wait for a held lock before giving up with LockHeldError. */
  waitMs?: number;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface Lock {
  release(): Promise<void>;
}

export function lockName(key: string): string {
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const readable = key
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `mcp-${readable}-${hash}`.replace(/-+/g, '-');
}

function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function expired(lease: Lease, now: Date): boolean {
  const renew = Date.parse(lease.spec.renewTime ?? lease.spec.acquireTime ?? '');
  const duration = (lease.spec.leaseDurationSeconds ?? 0) * 1000;
  return !Number.isFinite(renew) || renew + duration < now.getTime();
}

/**
 * Acquires the lock, waiting up to `waitMs` for a holder to finish: reconciles of one object are
 * short, and waiting briefly is cheaper than a redelivery.
 */
export async function acquireLock(kube: KubeClient, key: string, options: LockOptions): Promise<Lock> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  const local = await awaitLocalHolder(kube, key, options, deadline);
  try {
    const lock = await acquireLease(kube, key, options, deadline);
    return {
      async release() {
        try {
          await lock.release();
        } finally {
          local.release();
        }
      },
    };
  } catch (err) {
    local.release();
    throw err;
  }
}

async function acquireLease(
  kube: KubeClient,
  key: string,
  options: LockOptions,
  deadline: number,
): Promise<Lock> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tryAcquire(kube, key, options);
    } catch (err) {
      if (!(err instanceof LockHeldError) || Date.now() >= deadline || options.signal?.aborted) throw err;
      // Each look is two API calls (a create refused, a read): looking every 100 ms while many
      // objects wait was most of the API server's load under contention. Back off instead.
      const pause = Math.min(MAX_POLL_MS, FIRST_POLL_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())), options.signal);
    }
  }
}

interface LocalHold {
  holder: string;
  /** When the Lease this process holds (or is taking) expires, by the holder's clock. */
  expiresAt: number;
  done: Promise<void>;
}

/** Until `hold` is released, `ms` pass or `signal` aborts, whichever is first; leaves no timer or listener. */
function released(hold: LocalHold, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    void hold.done.then(done);
  });
}

/**
 * The locks this process holds or is taking, per API client: the reconciles of one invocation
 * (a batch's objects run side by side) and of one container wait for each other here, woken when
 * the holder releases, instead of polling the Lease (two API calls a look). Other processes still
 * meet the Lease.
 */
const localHolds = new WeakMap<KubeClient, Map<string, LocalHold>>();

async function awaitLocalHolder(
  kube: KubeClient,
  key: string,
  options: LockOptions,
  deadline: number,
): Promise<{ release(): void }> {
  const holds = localHolds.get(kube) ?? new Map<string, LocalHold>();
  localHolds.set(kube, holds);
  const now = () => (options.now ?? (() => new Date()))().getTime();
  for (;;) {
    const held = holds.get(key);
    // An expired hold is ignored as the expired Lease is: its holder may be gone.
    if (!held || held.expiresAt < now()) break;
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) {
      throw new LockHeldError(`${key} is being reconciled by ${held.holder}`, { retryAfterSeconds: 2 });
    }
    await released(held, left, options.signal);
  }
  let release!: () => void;
  const hold: LocalHold = {
    holder: options.holder,
    expiresAt: now() + options.durationSeconds * 1000,
    done: new Promise<void>((resolve) => (release = resolve)),
  };
  holds.set(key, hold);
  return {
    release() {
      if (holds.get(key) === hold) holds.delete(key);
      release();
    },
  };
}

/** The first look again at a held lock, and the longest pause between looks. */
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1_000;

async function tryAcquire(kube: KubeClient, key: string, options: LockOptions): Promise<Lock> {
  const now = (options.now ?? (() => new Date()))();
  const name = lockName(key);
  const spec = {
    holderIdentity: options.holder,
    leaseDurationSeconds: options.durationSeconds,
    acquireTime: microTime(now),
    renewTime: microTime(now),
  };
  const fresh: Lease = {
    metadata: { name, namespace: options.namespace, labels: { 'multicluster.karmada.io/lock': 'true' } },
    spec,
  };
  let held: Lease;
  try {
    held = await kube.create<Lease>(Resources.Lease, fresh);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const current = await kube.get<Lease>(Resources.Lease, options.namespace, name);
    if (current && !expired(current, now)) {
      throw new LockHeldError(
        `${key} is being reconciled by ${current.spec.holderIdentity ?? 'another invocation'}`,
        {
          retryAfterSeconds: 2,
        },
      );
    }
    try {
      held = current
        ? await kube.update<Lease>(Resources.Lease, { ...current, spec })
        : await kube.create<Lease>(Resources.Lease, fresh);
    } catch (e) {
      if (isConflict(e))
        throw new LockHeldError(`${key} was locked by another invocation`, { retryAfterSeconds: 2 });
      throw e;
    }
  }
  return {
    async release() {
      // Preconditions make sure we never delete a Lease someone took over after ours expired.
      await kube.delete(Resources.Lease, options.namespace, name, {
        uid: held.metadata.uid,
        resourceVersion: held.metadata.resourceVersion,
      });
    },
  };
}
