/**
 * Runs one reconcile request under the per-object lock and dispatches it to its controller.
 */
import { isConflict } from '../kube/client.js';
import { acquireLock, type Lock } from './lock.js';
import { reconcileMultiClusterIngress, type MciOptions } from './mci.js';
import { requestKey, type ControllerName, type ReconcileRequest } from './requests.js';
import { prepareTrafficBlock } from './traffic-block.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';
import { lazy } from '../util/lazy.js';

/**
 * The controllers other than the MCI's (lazy-controllers.ts), loaded at the first request for any
 * of them. A chunk that cannot be loaded fails the request with a ModuleLoadError naming it (log
 * line, retry).
 */
const otherControllers = lazy(
  () => import('./lazy-controllers.js'),
  'the controllers other than the MultiClusterIngress one (reconcile/lazy-controllers.ts)',
);

export interface RunOptions {
  /** Namespace of the per-object lock Leases; no locking when undefined. */
  lockNamespace?: string;
  /** Identity written into the lock (the invocation's request id). */
  holder: string;
  /** How long a lock lives if its holder dies: the function timeout. */
  lockSeconds: number;
  /** How long to wait for another invocation to finish with the same object. */
  lockWaitMs?: number;
  /** Defaults to traffic blocking (status.trafficBlockClusters) as the `prepare` hook. */
  mci?: MciOptions;
}

type Reconciler = (deps: ReconcileDeps, r: ReconcileRequest, o: RunOptions) => Promise<ReconcileResult>;

/** One entry per upstream controller. */
const CONTROLLERS: Record<ControllerName, Reconciler> = {
  multiclusteringress: (deps, r, o) =>
    reconcileMultiClusterIngress(deps, r.namespace, r.name, {
      prepare: prepareTrafficBlock,
      ...(o.lockNamespace ? { lockShared: (keys) => acquireLocks(deps, keys, o) } : {}),
      ...o.mci,
    }),
  multiclusterservice: async (deps, r) =>
    (await otherControllers()).reconcileMultiClusterService(deps, r.namespace, r.name),
  'mci-service-locations': async (deps, r) =>
    (await otherControllers()).reconcileServiceLocations(deps, r.namespace, r.name),
  'serviceexport-propagation': async (deps, r) =>
    (await otherControllers()).reconcileServiceExport(deps, r.namespace, r.name),
  'crd-installation': async (deps) => (await otherControllers()).reconcileCrdInstallation(deps),
};

/**
 * The locks of `keys` (one Lease each, as the per-object lock), taken in sorted order so two
 * reconciles that share several never wait for each other in a circle; all or none.
 */
async function acquireLocks(
  deps: ReconcileDeps,
  keys: readonly string[],
  options: RunOptions,
): Promise<{ release(): Promise<void> }> {
  const held: Lock[] = [];
  const release = async () => {
    for (const lock of held.reverse()) {
      await lock.release().catch((err: unknown) => {
        if (!isConflict(err)) deps.logger.warn('could not release a shared lock', { error: err });
      });
    }
  };
  try {
    for (const key of [...new Set(keys)].sort()) {
      held.push(
        await acquireLock(deps.kube, key, {
          namespace: options.lockNamespace ?? '',
          holder: options.holder,
          durationSeconds: options.lockSeconds,
          waitMs: options.lockWaitMs ?? 5_000,
          signal: deps.signal,
        }),
      );
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { release };
}

export async function runRequest(
  deps: ReconcileDeps,
  request: ReconcileRequest,
  options: RunOptions,
): Promise<ReconcileResult> {
  const lock = options.lockNamespace
    ? await acquireLock(deps.kube, requestKey(request), {
        namespace: options.lockNamespace,
        holder: options.holder,
        durationSeconds: options.lockSeconds,
        waitMs: options.lockWaitMs ?? 5_000,
        signal: deps.signal,
      })
    : undefined;
  try {
    return await CONTROLLERS[request.controller](deps, request, options);
  } finally {
    await lock?.release().catch((err: unknown) => {
      // A lock someone took over after ours expired is theirs now; anything else only delays the next holder.
      if (!isConflict(err)) deps.logger.warn('could not release reconcile lock', { error: err });
    });
  }
}
