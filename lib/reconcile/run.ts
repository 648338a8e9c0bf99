/**
 * Runs one reconcile request under the per-object lock and dispatches it to its controller.
 */
import { isConflict } from '../kube/client.js';
import { acquireLock } from './lock.js';
import { reconcileMultiClusterIngress, type MciOptions } from './mci.js';
import { reconcileMultiClusterService } from './mcs.js';
import { requestKey, type ReconcileRequest } from './route.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

export interface RunOptions {
  /** Namespace of the per-object lock Leases; no locking when undefined. */
  lockNamespace?: string;
  /** Identity written into the lock (the invocation's request id). */
  holder: string;
  /** How long a lock lives if its holder dies: the function timeout. */
  lockSeconds: number;
  /** How long to wait for another invocation to finish with the same object. */
  lockWaitMs?: number;
  mci?: MciOptions;
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
    if (request.controller === 'multiclusteringress') {
      return await reconcileMultiClusterIngress(deps, request.namespace, request.name, options.mci);
    }
    return await reconcileMultiClusterService(deps, request.namespace, request.name);
  } finally {
    await lock?.release().catch((err: unknown) => {
      // A lock someone took over after ours expired is theirs now; anything else only delays the next holder.
      if (!isConflict(err)) deps.logger.warn('could not release reconcile lock', { error: err });
    });
  }
}
