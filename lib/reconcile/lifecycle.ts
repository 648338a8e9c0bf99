/**
 * The load-balancer lifecycle shared by the MultiClusterIngress and MultiClusterService
 * controllers (upstream sections 5.1 and 5.2), as one stateless pass over one object:
 *
 *   read → (being deleted, or no longer ours?) → ensureDeleted → remove finalizer
 *        → otherwise: add finalizer → get → update | ensure → write status if it changed.
 *
 * Every write carries the resourceVersion read, so a concurrent writer makes ours fail with 409
 * and we re-read instead of acting on stale state; the finalizer is removed only after
 * ensureDeleted succeeded.
 */
import {
  findCause,
  errorMessage,
  InProgressError,
  InvalidObjectError,
  NotServedError,
  OwnershipConflictError,
  RetryLaterError,
} from '../errors.js';
import { retryOnConflict } from '../kube/conflict.js';
import { hasFinalizer, withoutFinalizer } from '../kube/finalizers.js';
import { isBeingDeleted, type KubeObject, type ResourceType } from '../kube/types.js';
import type { Balancer, MultiClusterProvider, ProviderContext } from '../provider/contract.js';
import { nextCondition, type ConditionStore, type ConditionUpdate } from './conditions.js';
import {
  clearsStatusAfterDelete,
  lifecycleAction,
  providerCall,
  recordsServedEvent,
  statusNeedsWrite,
  withOurMetadata,
} from './lifecycle-decisions.js';
import type { Logger } from '../log/logger.js';
import { lazy } from '../util/lazy.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

/** Worded only on the warning path: a chunk of its own in the function bundles, read at the first warning. */
const nextSteps = lazy(
  () => import('./next-steps.js'),
  'the next steps of warnings (reconcile/next-steps.ts)',
);

/**
 * `message` followed by what to do next (next-steps.ts). The warning goes out even when the next
 * steps cannot be loaded: without its next step, and the log says why.
 */
async function withNextStep(log: Logger, reason: string, message: string, cause?: unknown): Promise<string> {
  try {
    return (await nextSteps()).withNextStep(reason, message, cause);
  } catch (err) {
    log.error('warning sent without its next step', { reason, error: errorMessage(err) });
    return message;
  }
}

export interface LifecycleSpec<T extends KubeObject, S> {
  controller: string;
  type: ResourceType;
  finalizer: string;
  balancer: Balancer<T, S>;
  /** Whether this object should have a load balancer from us (class match, LoadBalancer type). */
  wants(obj: T): Promise<{ wants: boolean; detail: string }>;
  /** Throws InvalidObjectError when the object cannot be served. */
  validate(obj: T): void;
  /** The object's metadata as we keep it (index labels), applied together with the finalizer. */
  decorate?(obj: T): T;
  /**
   * After the provider served the object: it without the bookkeeping that no longer applies (the
   * finalizers of IngressGroups it has left), or undefined when there is none to drop.
   */
  settle?(obj: T): T | undefined;
  /** Our finalizers besides `finalizer` that the object carries: removed with it after a deletion. */
  extraFinalizers?(obj: T): string[];
  /**
   * Locks what the object's reconcile shares with other objects' (the IngressGroups it is or was
   * in) for the rest of the pass; undefined when it shares nothing.
   */
  lockShared?(obj: T): Promise<{ release(): Promise<void> } | undefined>;
  /** Status bookkeeping that must happen before the provider sees the object (traffic blocking). */
  prepare?(obj: T): Promise<T>;
  loadBalancerStatus(obj: T): S | undefined;
  /** A copy of `obj` whose status carries `status` as its load balancer status (or none). */
  withLoadBalancerStatus(obj: T, status: S | undefined): T;
  describe(status: S | undefined): string;
  /** Where the LoadBalancerReady condition is kept. */
  condition: ConditionStore<T>;
}

/** What a controller reports when the provider does not serve its kind (upstream refuses to start). */
export function unsupportedKind(
  controller: string,
  namespace: string,
  name: string,
  provider: Pick<MultiClusterProvider, 'providerName'>,
  kind: string,
): ReconcileResult {
  return {
    controller,
    key: `${namespace}/${name}`,
    outcome: 'ignored',
    detail: `provider "${provider.providerName()}" does not support ${kind} load balancers`,
  };
}

/** A copy of `obj` whose `status.loadBalancer` is `status`, or has none when it is undefined. */
export function withStatusLoadBalancer<S, T extends KubeObject & { status?: { loadBalancer?: S } }>(
  obj: T,
  status: S | undefined,
): T {
  const { loadBalancer: _old, ...rest } = obj.status ?? {};
  return { ...obj, status: status === undefined ? rest : { ...rest, loadBalancer: status } };
}

export async function reconcileLifecycle<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  namespace: string | undefined,
  name: string,
): Promise<ReconcileResult> {
  const key = namespace ? `${namespace}/${name}` : name;
  const result = (outcome: ReconcileResult['outcome'], detail?: string): ReconcileResult => ({
    controller: spec.controller,
    key,
    outcome,
    ...(detail ? { detail } : {}),
  });
  const log = deps.logger.child({ controller: spec.controller, key });
  const ctx: ProviderContext = { signal: deps.signal, logger: log, resync: deps.resync ?? false };

  const obj = await deps.kube.get<T>(spec.type, namespace, name);
  if (!obj) return result('gone');
  // A provider announces disruptive changes (a load balancer replaced) before making them.
  const announced = obj;
  ctx.announce = async (reason, message, type = 'Warning') =>
    deps.events.record(
      announced,
      type,
      reason,
      type === 'Warning' ? await withNextStep(log, reason, message) : message,
    );
  const details: string[] = [];
  ctx.detail = (line) => {
    if (!details.includes(line)) details.push(line);
  };

  const deleting = isBeingDeleted(obj);
  const decision = deleting ? { wants: false, detail: 'being deleted' } : await spec.wants(obj);
  const action = lifecycleAction({
    deleting,
    wanted: decision.wants,
    finalized: hasFinalizer(obj, spec.finalizer),
  });

  if (action === 'ignore') {
    log.debug('not ours, nothing to do', { detail: decision.detail });
    return result('ignored', decision.detail);
  }
  const shared = await spec.lockShared?.(obj);
  try {
    return await serve(
      deps,
      spec,
      log,
      ctx,
      obj,
      { action, deleting, detail: decision.detail },
      result,
      details,
    );
  } finally {
    await shared
      ?.release()
      .catch((err: unknown) => log.warn('could not release a shared lock', { error: err }));
  }
}

/** The pass after the decision: delete, or add our metadata and ensure/update, then report. */
async function serve<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  log: Logger,
  ctx: ProviderContext,
  read: T,
  pass: { action: 'delete' | 'ensure'; deleting: boolean; detail: string },
  result: (outcome: ReconcileResult['outcome'], detail?: string) => ReconcileResult,
  details: readonly string[] = [],
): Promise<ReconcileResult> {
  let obj = read;
  const { action, deleting } = pass;
  const decision = { detail: pass.detail };
  if (action === 'delete') {
    log.info('deleting load balancer', { detail: decision.detail });
    try {
      await spec.balancer.ensureDeleted(ctx, obj);
    } catch (err) {
      // Waiting on the cloud is progress: the step this pass took is news (Normal), a pass that
      // only found the cloud busy is not, and neither is a failure.
      const waiting = findCause(err, InProgressError);
      if (waiting) {
        if (waiting.step) await deps.events.record(obj, 'Normal', waiting.reason, waiting.step);
        throw err;
      }
      await deps.events.record(
        obj,
        'Warning',
        'DeleteLoadBalancerFailed',
        await withNextStep(
          log,
          'DeleteLoadBalancerFailed',
          `Failed to delete load balancer: ${errorMessage(err)}`,
          err,
        ),
      );
      throw err;
    }
    const removed = await removeFinalizer(deps, spec, obj, deleting);
    await deps.events.record(
      removed ?? obj,
      'Normal',
      'DeletedLoadBalancer',
      deleting ? 'Deleted load balancer' : `Deleted load balancer: ${decision.detail}`,
    );
    log.info('load balancer deleted, finalizer removed');
    return result('deleted', decision.detail);
  }

  // An object that cannot be served is told so (Event + condition) and not retried until it
  // changes (or the resync comes): an invalid object, or a name another resource holds.
  const refuse = async (
    target: T,
    problem: { reason: string; message: string; field?: string | undefined },
    why: string,
    logged: Record<string, unknown> = {},
  ): Promise<ReconcileResult> => {
    const message = await withNextStep(log, problem.reason, problem.message);
    await deps.events.record(target, 'Warning', problem.reason, message);
    const condition: ConditionUpdate = { status: 'False', reason: problem.reason, message };
    // Served by no load balancer (an IngressGroup member left out): a status naming one goes.
    if (problem instanceof NotServedError) await writeStatus(deps, spec, target, undefined, condition, true);
    else await reportCondition(deps, spec, target, condition);
    log.warn(why, { field: problem.field, error: problem.message, ...logged });
    return { ...result('invalid', problem.message), reason: problem.reason };
  };

  try {
    spec.validate(obj);
  } catch (err) {
    const invalid = findCause(err, InvalidObjectError);
    if (!invalid) throw err;
    return refuse(obj, invalid, 'object is invalid, not reconciled');
  }

  const decorate = spec.decorate?.bind(spec);
  if (withOurMetadata(obj, spec.finalizer, decorate)) {
    const hadFinalizer = hasFinalizer(obj, spec.finalizer);
    const written = await writeWithRetry(deps, spec, obj, 'update', (current) =>
      withOurMetadata(current, spec.finalizer, decorate),
    );
    if (!written) return result('gone');
    obj = written;
    if (!hadFinalizer) log.info('finalizer added', { finalizer: spec.finalizer });
  }
  if (spec.prepare) obj = await spec.prepare(obj);

  let status: S | undefined;
  let created: boolean;
  let unchanged = false;
  ctx.unchanged = () => {
    unchanged = true;
  };
  try {
    const call = providerCall(await spec.balancer.get(ctx, obj));
    created = call === 'ensure';
    status = await spec.balancer[call](ctx, obj);
  } catch (err) {
    const invalid = findCause(err, InvalidObjectError);
    if (invalid) return refuse(obj, invalid, 'provider rejected the object');
    const conflict = findCause(err, OwnershipConflictError);
    if (conflict) {
      return refuse(obj, conflict, 'a name the object needs is taken, not reconciled', {
        holder: conflict.holder,
      });
    }
    // Waiting on the cloud (a drained Region's dial deploying before its targets go) is progress,
    // as on the delete path: the step is a Normal Event, the condition stays as it is.
    const waiting = findCause(err, InProgressError);
    if (waiting) {
      if (waiting.step) await deps.events.record(obj, 'Normal', waiting.reason, waiting.step);
      throw err;
    }
    const message = await withNextStep(
      log,
      'SyncLoadBalancerFailed',
      `Failed to ensure load balancer: ${errorMessage(err)}`,
      err,
    );
    await deps.events.record(obj, 'Warning', 'SyncLoadBalancerFailed', message);
    // A throttled reconcile shows as such in the condition (reason `Throttled`).
    const reason = findCause(err, RetryLaterError)?.reason ?? 'SyncLoadBalancerFailed';
    await reportCondition(deps, spec, obj, {
      status: 'False',
      reason,
      message,
    }).catch((e: unknown) => log.warn('could not report the condition', { error: e }));
    throw err;
  }

  // What the provider has finished with (the finalizers of groups the object left) goes now.
  const settled = spec.settle?.(obj);
  if (settled) {
    const written = await writeWithRetry(deps, spec, obj, 'update', (current) => spec.settle?.(current));
    if (written) obj = written;
  }
  const statusChanged = statusNeedsWrite(spec.loadBalancerStatus(obj), status);
  if (recordsServedEvent({ created, unchanged, statusChanged })) {
    await deps.events.record(
      obj,
      'Normal',
      created ? 'EnsuredLoadBalancer' : 'UpdatedLoadBalancer',
      `${created ? 'Created' : 'Updated'} load balancer${status === undefined ? '' : `: ${spec.describe(status)}`}`,
    );
  }
  const ready: ConditionUpdate = {
    status: 'True',
    reason: created ? 'LoadBalancerCreated' : 'LoadBalancerUpdated',
    message: `Load balancer ready: ${spec.describe(status)}${details.map((d) => `; ${d}`).join('')}`,
  };
  const written = await writeStatus(deps, spec, obj, status, ready);
  if (written.gone) {
    // Deleted (or deleted and created anew under its name) while the provider worked: nothing of
    // this pass belongs on what is there now, and what it made is the orphan sweep's.
    log.info('object gone while its load balancer was served; status not written');
    return result('gone', 'the object was deleted while its load balancer was served');
  }
  log.info(created ? 'load balancer created' : 'load balancer updated', {
    statusWritten: written.object !== undefined,
  });
  return result(
    created ? 'created' : 'updated',
    status === undefined ? 'provider reported no status' : undefined,
  );
}

/**
 * Applies `change` to the object and writes it (main resource or status), re-reading and
 * re-applying on 409 Conflict. `change` returns undefined when there is nothing to write.
 * Resolves to the object as written (or as read when nothing was written), undefined if it is gone:
 * deleted, or deleted and created anew under the same name (another UID), which is another object
 * that nothing read for this one may be written onto.
 */
async function writeWithRetry<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  obj: T,
  target: 'update' | 'status',
  change: (current: T) => T | undefined,
): Promise<T | undefined> {
  let first: T | undefined = obj;
  return retryOnConflict(async () => {
    const current =
      first ?? (await deps.kube.get<T>(spec.type, obj.metadata.namespace, obj.metadata.name ?? ''));
    first = undefined;
    if (!current || current.metadata.uid !== obj.metadata.uid) return undefined;
    const next = change(current);
    if (!next) return current;
    return target === 'update'
      ? deps.kube.update<T>(spec.type, next)
      : deps.kube.updateStatus<T>(spec.type, next);
  });
}

/**
 * Writes the load balancer status (unless `status` is undefined: the provider has nothing to
 * report yet) and, when it lives in status, the condition, in one write when either changed.
 */
async function writeStatus<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  obj: T,
  status: S | undefined,
  condition?: ConditionUpdate,
  clear = false,
): Promise<{ object?: T; gone: boolean }> {
  let wrote = false;
  const written = await writeWithRetry(deps, spec, obj, 'status', (current) => {
    let next = current;
    if (statusNeedsWrite(spec.loadBalancerStatus(current), status, clear)) {
      next = spec.withLoadBalancerStatus(next, status);
    }
    if (condition && spec.condition.target === 'status') {
      const c = nextCondition(
        spec.condition.get(current),
        condition,
        current.metadata.generation,
        new Date(),
      );
      if (c) next = spec.condition.set(next, c);
    }
    wrote = next !== current;
    return wrote ? next : undefined;
  });
  if (!written) return { gone: true };
  if (condition && spec.condition.target === 'update') await reportCondition(deps, spec, written, condition);
  // The object as the status write left it (a condition kept in metadata is written after it).
  return { ...(wrote ? { object: written } : {}), gone: false };
}

/** Records the LoadBalancerReady condition where the kind keeps it, when it changed. */
async function reportCondition<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  obj: T,
  update: ConditionUpdate,
): Promise<void> {
  if (spec.condition.target === 'status') {
    await writeStatus(deps, spec, obj, undefined, update);
    return;
  }
  await writeWithRetry(deps, spec, obj, 'update', (current) => {
    const c = nextCondition(spec.condition.get(current), update, current.metadata.generation, new Date());
    return c ? spec.condition.set(current, c) : undefined;
  });
}

/** Removes our finalizer (and, for a live object, its load balancer status); the object may then vanish. */
async function removeFinalizer<T extends KubeObject, S>(
  deps: ReconcileDeps,
  spec: LifecycleSpec<T, S>,
  obj: T,
  deleting: boolean,
): Promise<T | undefined> {
  // The status first, while our finalizer still marks the object as ours: should the invocation
  // stop between the two writes, the next reconcile finds the finalizer and finishes. The other
  // way round, it would find an object that is not ours and leave the stale status for ever.
  const cleared = clearsStatusAfterDelete(deleting, spec.loadBalancerStatus(obj))
    ? await writeStatus(deps, spec, obj, undefined, undefined, true)
    : undefined;
  if (cleared?.gone) return undefined;
  return writeWithRetry(deps, spec, cleared?.object ?? obj, 'update', (current) => {
    const ours = [spec.finalizer, ...(spec.extraFinalizers?.(current) ?? [])].filter((f) =>
      hasFinalizer(current, f),
    );
    return ours.length ? ours.reduce((o, f) => withoutFinalizer(o, f), current) : undefined;
  });
}
