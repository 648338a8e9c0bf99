/**
 * The accelerator's lifecycle, called by whoever deploys the regional stacks (the seam with
 * lib/providers/aws/regions/): `reconcileAccelerator` before the regional deploys (only dials
 * going to 0) and after them (everything), `deleteAccelerator` before the regional stacks are
 * deleted. Model (model.ts) → plan (plan.ts) → apply (apply.ts), like the ELBv2 stack; the
 * `before` phase is lower-dials.ts.
 *
 * Deleting an accelerator takes GA several steps: disable it, wait until its status is DEPLOYED,
 * delete its endpoint groups and listeners, then it. A function never waits inside one
 * invocation: each step is one reconcile, and while GA works `deleteAccelerator` throws
 * RetryLaterError (the finalizer stays until the accelerator is gone). An accelerator the stack
 * stops wanting, or replaces (IP address type), is retired the same way without holding anything
 * up: the reconcile disables it and tags it RETIRING_TAG, and a later reconcile or the orphan
 * sweep takes the next steps. A drain waits the same way: the `before` phase that lowers a drained
 * Region's dial throws InProgressError, and so does each pass after it until GA reports DEPLOYED;
 * only then does the Region's deploy deregister its targets (lowerDials).
 */
import { InProgressError, InvalidObjectError } from '../../../errors.js';
import type { Stack } from '../model/types.js';
import { isOwnedBy } from '../tagging.js';
import type { AcceleratorContext } from './context.js';
import type { AcceleratorSettings } from './keys.js';
import { ACCELERATOR_LIMIT_EXCEEDED, acceleratorFingerprint, buildAccelerator } from './model.js';
import { planAccelerator, RETIRING_TAG } from './plan.js';
import type { AcceleratorRecord } from './record.js';
import { confirmedAccelerator, reportRecord } from './record-check.js';
import {
  GA_QUOTAS,
  type AcceleratorOperation,
  type AcceleratorPhase,
  type ActualAccelerator,
  type DesiredAccelerator,
  type RegionalEndpoint,
} from './types.js';
import {
  ACCELERATOR_DELETING,
  applyOps,
  listOwned,
  logPlan,
  retireStep,
  stateAfter,
  statusOf,
  type AcceleratorResult,
} from './apply.js';
import { lowerDials } from './lower-dials.js';

export type { AcceleratorContext } from './context.js';

/** How long a reconcile waiting for GA's DEPLOYED waits before it looks again, unless configured. */
export { ACCELERATOR_RETRY_SECONDS } from './keys.js';
export { ACCELERATOR_DELETING, type AcceleratorResult, type AcceleratorStatus } from './apply.js';
export { listOwnerAccelerators } from './apply.js';
export { ACCELERATOR_DIAL_DEPLOYING } from './lower-dials.js';

/** The desired accelerator, or undefined when the stack wants none; checks the quotas it can alone. */
function desiredOf(
  ctx: AcceleratorContext,
  settings: AcceleratorSettings | undefined,
  stack: Stack,
  endpoints: readonly RegionalEndpoint[],
): DesiredAccelerator | undefined {
  return settings
    ? buildAccelerator({ owner: ctx.owner, settings, stack, endpoints, defaultTags: ctx.defaultTags })
    : undefined;
}

/**
 * Brings the stack's accelerator in line with `settings` (undefined: it wants none) over the
 * regional load balancers `endpoints`. `before`: only the dials of Regions going to 0, against the
 * record (nothing when there is none yet). `after`: everything; a no-op when the record holds the
 * desired accelerator (no GA call), else planned against the record, or against GA on a resync
 * or without one.
 */
export async function reconcileAccelerator(
  ctx: AcceleratorContext,
  settings: AcceleratorSettings | undefined,
  stack: Stack,
  endpoints: readonly RegionalEndpoint[],
  phase: AcceleratorPhase,
): Promise<AcceleratorResult | undefined> {
  const desired = desiredOf(ctx, settings, stack, endpoints);
  // Nothing to lower for a stack that wants no accelerator (one it had is retired `after`).
  if (phase === 'before' && !desired) return undefined;
  const record = await ctx.records.read(ctx.owner.stackId);
  if (!desired && !record) return undefined;
  if (phase === 'before' && desired) {
    const drained = new Set(endpoints.filter((e) => e.drained).map((e) => e.region));
    return lowerDials(ctx, desired, record, drained);
  }
  const fingerprint = desired ? acceleratorFingerprint(desired) : '';
  if (!ctx.resync && record && desired && record.fingerprint === fingerprint && !record.retiring?.length) {
    return {
      plan: [],
      desired,
      ...(record.accelerator ? { status: statusOf(record.accelerator)! } : {}),
    };
  }
  const ga = await ctx.ga();
  let current: ActualAccelerator | undefined;
  let retire: ActualAccelerator[] = [];
  // The record is planned against only once GA confirms it is this stack's (record-check.ts).
  const confirmed =
    !ctx.resync && desired && record?.accelerator
      ? await confirmedAccelerator(ga, ctx, record.accelerator)
      : undefined;
  if (confirmed) {
    current = confirmed;
    for (const arn of record?.retiring ?? []) {
      const a = await ga.describeAccelerator(arn, ctx);
      if (!a) continue;
      const tags = await ga.tagsOf(arn, ctx);
      if (isOwnedBy(tags, ctx.owner)) retire.push({ ...a, tags });
      else await reportRecord(ctx, `retiring accelerator ${arn} is not this stack's`, 'an accelerator');
    }
  } else {
    const { owned, total } = await listOwned(ga, ctx);
    // The oldest one not being retired; any other (a create whose answer was lost) is retired.
    current = desired ? owned.find((a) => a.tags[RETIRING_TAG] === undefined) : undefined;
    retire = owned.filter((a) => a !== current);
    if (current) current = { ...current, listeners: await ga.listeners(current.arn, ctx) };
    if (desired && !current && total >= GA_QUOTAS.acceleratorsPerAccount) {
      throw new InvalidObjectError(
        `the account has ${total} accelerators (ours being deleted count until they are gone), Global Accelerator's default quota: no new one can be created`,
        { field: 'metadata.annotations', reason: ACCELERATOR_LIMIT_EXCEEDED },
      );
    }
  }
  const plan = desired
    ? planAccelerator(desired, current, { externalManagedTags: ctx.externalManagedTags })
    : [];
  const why = desired ? 'a second accelerator of the stack' : 'the stack no longer wants an accelerator';
  const steps = await Promise.all(retire.map((a) => retireStep(ga, ctx, a, why)));
  plan.push(...steps.flatMap((s) => s.plan));
  logPlan(ctx, plan, phase);
  const wanted = desired ? { desired } : {};
  if (ctx.dryRun) return { plan, ...wanted, ...(current ? { status: statusOf(current)! } : {}) };
  // Forgotten first: if this apply stops half-way, no record claims what GA may not hold.
  if (plan.length > 0 && record) await ctx.records.forget(ctx.owner.stackId);
  const applied = await applyOps(ga, ctx, plan);
  const after = desired ? stateAfter(desired, current, applied) : undefined;
  const retiring = retire.map((a) => a.arn).filter((arn) => !applied.deleted.has(arn));
  if (after || retiring.length > 0) {
    if (plan.length > 0 || !record || ctx.resync || record.fingerprint !== fingerprint) {
      await ctx.records.write(ctx.owner.stackId, {
        fingerprint,
        ...(after ? { accelerator: after } : {}),
        ...(retiring.length > 0 ? { retiring } : {}),
      });
    }
  } else if (record) {
    await ctx.records.forget(ctx.owner.stackId);
  }
  return { plan, ...wanted, ...(after ? { status: statusOf(after)! } : {}) };
}

/**
 * Takes every accelerator of the stack one step closer to gone (see the module comment); throws
 * RetryLaterError while one is left, so the finalizer stays. `wanted`: the object asks for an
 * accelerator (then GA is read even without a record, which a lost one would otherwise hide).
 * A dry run returns the next step's operations.
 */
export async function deleteAccelerator(
  ctx: AcceleratorContext,
  /** The stack's accelerator record, read by the caller (forgotten once nothing is left). */
  record: AcceleratorRecord | undefined,
  /** Mark each one retiring as it is disabled: not for the orphan sweep (retireStep). */
  mark = true,
): Promise<AcceleratorOperation[]> {
  const ga = await ctx.ga();
  const { owned } = await listOwned(ga, ctx);
  const steps = await Promise.all(owned.map((a) => retireStep(ga, ctx, a, 'its object is deleted', mark)));
  const plan = steps.flatMap((s) => s.plan);
  logPlan(ctx, plan, 'delete');
  if (ctx.dryRun) return plan;
  const applied = await applyOps(ga, ctx, plan);
  const left = owned.filter((a) => !applied.deleted.has(a.arn));
  if (left.length > 0) {
    // Progress, not failure: each step is told once (the Normal Event), a pass that only found GA
    // still deploying is not.
    const done = owned.flatMap((a, i) => {
      const step = steps[i]?.plan ?? [];
      if (step.length === 0 || applied.deleted.has(a.arn)) return [];
      return step.some((op) => op.resource === 'Accelerator')
        ? [`${a.name} disabled; Global Accelerator deletes it once that is deployed`]
        : [
            `the listeners and endpoint groups of ${a.name} deleted; the accelerator goes once that is deployed`,
          ];
    });
    const next = `next step in about ${ctx.pollSeconds} s`;
    const names = left.map((a) => `${a.name} (${a.arn})`).join(', ');
    throw new InProgressError(
      `Global Accelerator: deleting ${names}: ${done.length > 0 ? done.join('; ') : 'still deploying (IN_PROGRESS)'}; ${next}`,
      {
        retryAfterSeconds: ctx.pollSeconds,
        reason: ACCELERATOR_DELETING,
        ...(done.length > 0 ? { step: `Global Accelerator: ${done.join('; ')}; ${next}` } : {}),
      },
    );
  }
  if (record) await ctx.records.forget(ctx.owner.stackId);
  return plan;
}

/**
 * A retiring accelerator of a live object, one step further (the orphan sweep's pass); once it
 * is gone, the stack's record forgets it.
 */
export async function retireOne(
  ctx: AcceleratorContext,
  a: ActualAccelerator,
): Promise<AcceleratorOperation[]> {
  const ga = await ctx.ga();
  // Marked already by the reconcile that retired it; the sweep adds no tag.
  const { plan } = await retireStep(ga, ctx, a, 'retired', false);
  logPlan(ctx, plan, 'sweep');
  if (ctx.dryRun) return plan;
  const applied = await applyOps(ga, ctx, plan);
  if (!applied.deleted.has(a.arn)) return plan;
  // Gone: the stack's record forgets it (and goes, when that was all it held).
  const record = await ctx.records.read(ctx.owner.stackId);
  if (!record?.retiring?.includes(a.arn)) return plan;
  const retiring = record.retiring.filter((arn) => arn !== a.arn);
  if (!record.accelerator && retiring.length === 0) await ctx.records.forget(ctx.owner.stackId);
  else {
    const { retiring: _gone, ...rest } = record;
    await ctx.records.write(ctx.owner.stackId, { ...rest, ...(retiring.length > 0 ? { retiring } : {}) });
  }
  return plan;
}
