/**
 * The accelerator's lifecycle, called by whoever deploys the regional stacks (the seam with
 * lib/providers/aws/regions/): `reconcileAccelerator` before the regional deploys (only dials
 * going to 0) and after them (everything), `deleteAccelerator` before the regional stacks are
 * deleted. Model (model.ts) → plan (plan.ts) → apply (here), like the ELBv2 stack.
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
import { InProgressError, InvalidObjectError, RetryLaterError, errorMessage } from '../../../errors.js';
import type { Logger } from '../../../log/logger.js';
import { call, checkAborted, isAwsError } from '../deploy/context.js';
import { formatPlan, operationSubject } from '../deploy/operations.js';
import { resolvePlanned } from '../deploy/refs.js';
import type { Stack } from '../model/types.js';
import { isOwnedBy, isOwnerOf, STACK_TAG, type StackOwner } from '../tagging.js';
import type { GaApi } from './ga-api.js';
import type { AcceleratorSettings } from './keys.js';
import { ACCELERATOR_LIMIT_EXCEEDED, acceleratorFingerprint, buildAccelerator } from './model.js';
import {
  deleteAcceleratorOps,
  disableAccelerator,
  matchListener,
  planAccelerator,
  planDialsDown,
  RETIRING_TAG,
} from './plan.js';
import type { AcceleratorRecord, AcceleratorRecordStore } from './record.js';
import { confirmedAccelerator, reportRecord } from './record-check.js';
import {
  GA_QUOTAS,
  type AcceleratorOperation,
  type AcceleratorPhase,
  type ActualAccelerator,
  type ActualListener,
  type DesiredAccelerator,
  type GaCall,
  type RegionalEndpoint,
} from './types.js';

/** How long a reconcile waiting for GA's DEPLOYED waits before it looks again, unless configured. */
export { ACCELERATOR_RETRY_SECONDS } from './keys.js';
export const ACCELERATOR_DELETING = 'AcceleratorDeleting';
/** The reason while a drained Region's targets wait for GA to deploy its dial at 0. */
export const ACCELERATOR_DIAL_DEPLOYING = 'AcceleratorDialDeploying';

export interface AcceleratorContext {
  /** The GA API, its client loaded at the first call (lazy-parts.ts). */
  ga(): Promise<GaApi>;
  records: AcceleratorRecordStore;
  owner: StackOwner;
  signal: AbortSignal;
  logger: Logger;
  defaultTags: Readonly<Record<string, string>>;
  externalManagedTags: readonly string[];
  dryRun: boolean;
  /** Read GA instead of trusting the record (the periodic resync's drift check). */
  resync: boolean;
  /** How soon a reconcile waiting on GA comes back (globalAccelerator.pollSeconds). */
  pollSeconds: number;
  now?: () => Date;
  /** A Warning Event on the object (a record that was not trusted: record-check.ts). */
  announce?: (reason: string, message: string) => Promise<void>;
}

/** What the object's status shows: the accelerator's DNS name and static IP addresses. */
export interface AcceleratorStatus {
  dnsName: string;
  ips: string[];
}

export interface AcceleratorResult {
  /** Undefined when the stack has no accelerator (yet: a dry run that would create it). */
  status?: AcceleratorStatus;
  plan: AcceleratorOperation[];
  /** The accelerator the `after` phase brings GA to (what a topology draws); none when retired. */
  desired?: DesiredAccelerator;
}

const statusOf = (a: ActualAccelerator | undefined): AcceleratorStatus | undefined =>
  a?.dnsName ? { dnsName: a.dnsName.toLowerCase(), ips: [...a.ips] } : undefined;

/** The stack's accelerators (ours by tags: only the accelerator carries any) and the account's count. */
async function listOwned(
  ga: GaApi,
  ctx: AcceleratorContext,
): Promise<{ owned: ActualAccelerator[]; total: number }> {
  const all = await ga.listAccelerators(ctx);
  const owned: ActualAccelerator[] = [];
  for (const a of all) {
    const tags = await ga.tagsOf(a.arn, ctx);
    if (isOwnedBy(tags, ctx.owner)) owned.push({ ...a, tags });
  }
  owned.sort((x, y) => (x.createdAt ?? 0) - (y.createdAt ?? 0));
  return { owned, total: all.length };
}

/** Every accelerator of this owner (any stack), for the orphan sweep. */
export async function listOwnerAccelerators(
  ga: GaApi,
  ctx: { signal: AbortSignal },
  owner: Pick<StackOwner, 'ownerId' | 'instanceId'>,
): Promise<Array<ActualAccelerator & { stackId: string }>> {
  const out: Array<ActualAccelerator & { stackId: string }> = [];
  for (const a of await ga.listAccelerators(ctx)) {
    const tags = await ga.tagsOf(a.arn, ctx);
    const stackId = tags[STACK_TAG];
    if (isOwnerOf(tags, owner) && stackId) out.push({ ...a, tags, stackId });
  }
  return out;
}

/** What applying a plan made: ARNs by placeholder, and a created accelerator. */
interface Applied {
  arns: Map<string, string>;
  created?: ActualAccelerator;
  /** Accelerators whose DeleteAccelerator succeeded (or that GA no longer had). */
  deleted: Set<string>;
}

/** GA's answers that a later step resolves: the accelerator is not (yet) disabled or emptied. */
const NOT_YET = [
  'AcceleratorNotDisabledException',
  'AssociatedListenerFoundException',
  'AssociatedEndpointGroupFoundException',
];
/** What is already gone is done. */
const GONE = ['AcceleratorNotFoundException', 'ListenerNotFoundException', 'EndpointGroupNotFoundException'];

async function applyOps(
  ga: GaApi,
  ctx: AcceleratorContext,
  plan: readonly AcceleratorOperation[],
): Promise<Applied> {
  const arns = new Map<string, string>();
  const deleted = new Set<string>();
  let created: ActualAccelerator | undefined;
  for (const op of plan) {
    for (const planned of op.calls) {
      checkAborted(ctx);
      // The action and its input stay paired; only the input's placeholders change.
      const c = { ...planned, input: resolvePlanned<unknown>(planned.input, { arns }) } as GaCall;
      try {
        const out = await call(ctx, c.action, (o) => ga.send(c, o), 'Global Accelerator');
        if (c.produces && out.arn) arns.set(c.produces, out.arn);
        if (c.action === 'CreateAccelerator' && out.accelerator) created = out.accelerator;
        if (c.action === 'DeleteAccelerator') deleted.add(c.input.AcceleratorArn ?? '');
      } catch (err) {
        if (GONE.some((code) => isAwsError(err, code))) {
          if (c.action.startsWith('Delete')) {
            if (c.action === 'DeleteAccelerator') deleted.add(c.input.AcceleratorArn ?? '');
            continue;
          }
          // Deleted behind our back (the record was forgotten before this apply): the next
          // reconcile reads GA and starts from what is there.
          throw new RetryLaterError(
            `Global Accelerator no longer has what ${operationSubject(op)} changes (${errorMessage(err)}); reading it again`,
            { cause: err, retryAfterSeconds: 1 },
          );
        }
        if (NOT_YET.some((code) => isAwsError(err, code))) {
          throw new InProgressError(
            `Global Accelerator is not done with ${operationSubject(op)} yet (${errorMessage(err)}); next step in about ${ctx.pollSeconds} s`,
            { cause: err, retryAfterSeconds: ctx.pollSeconds, reason: ACCELERATOR_DELETING },
          );
        }
        throw err;
      }
    }
  }
  return { arns, deleted, ...(created ? { created } : {}) };
}

/** The accelerator as GA holds it after `plan` was applied to `current` (what the record keeps). */
function stateAfter(
  desired: DesiredAccelerator,
  current: ActualAccelerator | undefined,
  applied: Applied,
): ActualAccelerator | undefined {
  const base = applied.created ?? current;
  if (!base) return undefined;
  const listeners = current && !applied.created ? (current.listeners ?? []) : [];
  return {
    ...base,
    name: desired.name,
    enabled: true,
    tags: { ...desired.tags },
    listeners: desired.listeners.map((l): ActualListener => {
      const a = matchListener(listeners, l);
      return {
        arn: a?.arn ?? applied.arns.get(`listener/${l.id}`) ?? '',
        protocol: l.protocol,
        portRanges: [{ from: l.port, to: l.port }],
        clientAffinity: l.clientAffinity,
        endpointGroups: l.endpointGroups.map((g) => ({
          arn:
            a?.endpointGroups.find((x) => x.region === g.region)?.arn ??
            applied.arns.get(`group/${g.id}`) ??
            '',
          region: g.region,
          dial: g.dial,
          healthCheck: { ...g.healthCheck },
          endpoints: g.endpoints.map((e) => ({ ...e })),
        })),
      };
    }),
  };
}

/**
 * One step of retiring `a`: disable (and, with `mark`, mark) it, or once GA has deployed that,
 * delete it all. Without `mark` (the orphan sweep) a disabled accelerator is taken as retiring.
 */
async function retireStep(
  ga: GaApi,
  ctx: AcceleratorContext,
  a: ActualAccelerator,
  why: string,
  mark = true,
): Promise<{ plan: AcceleratorOperation[]; waiting: boolean }> {
  if (a.enabled || (mark && a.tags[RETIRING_TAG] === undefined)) {
    return { plan: [disableAccelerator(a, why, (ctx.now ?? (() => new Date()))(), mark)], waiting: true };
  }
  if (a.status !== 'DEPLOYED') return { plan: [], waiting: true };
  const listeners = await ga.listeners(a.arn, ctx);
  // Deleting listeners is a change GA deploys again: the accelerator goes at the step after.
  return { plan: deleteAcceleratorOps(a, listeners), waiting: listeners.length > 0 };
}

function logPlan(ctx: AcceleratorContext, plan: readonly AcceleratorOperation[], phase: string): void {
  if (plan.length === 0) return;
  ctx.logger.info(ctx.dryRun ? 'accelerator change plan (dry run: not applied)' : 'accelerator change plan', {
    stack: ctx.owner.stackId,
    phase,
    operations: formatPlan(plan),
  });
}

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

/** The Regions of the groups a `before` plan lowers (each operation is one desired group's). */
function loweredRegions(desired: DesiredAccelerator, plan: readonly AcceleratorOperation[]): string[] {
  const ids = new Set(plan.map((o) => o.id));
  const groups = desired.listeners.flatMap((l) => l.endpointGroups).filter((g) => ids.has(g.id));
  return [...new Set(groups.map((g) => g.region))].sort();
}

/**
 * A drained Region's targets wait for GA: until it has deployed the dial at 0, clients still reach
 * the Region. `lowered`: this pass set the dial (the step, told once as a Normal Event).
 */
function dialDeploying(regions: readonly string[], lowered: boolean, pollSeconds: number): InProgressError {
  const where = `the traffic dial of ${regions.join(', ')}`;
  const next = `its targets are deregistered once that is deployed; next step in about ${pollSeconds} s`;
  const done = `Global Accelerator: ${where} set to 0; ${next}`;
  return new InProgressError(
    lowered ? done : `Global Accelerator: ${where} at 0 is not deployed yet (IN_PROGRESS); ${next}`,
    {
      retryAfterSeconds: pollSeconds,
      reason: ACCELERATOR_DIAL_DEPLOYING,
      ...(lowered ? { step: done } : {}),
    },
  );
}

/**
 * `before`: the dials of Regions going to 0, planned against the record; when GA does not confirm
 * the record (record-check.ts), or there is none while a Region is drained, against the stack's
 * accelerator as GA holds it, and the record is forgotten (the `after` phase reads GA and writes
 * a true one). A drained Region's deploy goes on only once GA has deployed its dial at 0: this
 * throws InProgressError until then (the record's `lowered` says which Regions still wait, so a
 * no-op reconcile of a drained Region makes no GA call once the wait is over).
 */
async function lowerDials(
  ctx: AcceleratorContext,
  desired: DesiredAccelerator,
  record: AcceleratorRecord | undefined,
  drained: ReadonlySet<string>,
): Promise<AcceleratorResult | undefined> {
  const recorded = record?.accelerator;
  if (!record || !recorded) {
    return drained.size > 0 && !ctx.dryRun ? lowerFromGa(ctx, await ctx.ga(), desired, drained) : undefined;
  }
  const plan = planDialsDown(desired, recorded);
  logPlan(ctx, plan, 'before');
  if (ctx.dryRun) return { plan, status: statusOf(recorded)! };
  if (plan.length === 0) {
    await awaitLowered(ctx, record, recorded, drained);
    return { plan, status: statusOf(recorded)! };
  }
  const ga = await ctx.ga();
  if (!(await confirmedAccelerator(ga, ctx, recorded))) {
    await ctx.records.forget(ctx.owner.stackId);
    return lowerFromGa(ctx, ga, desired, drained);
  }
  await ctx.records.forget(ctx.owner.stackId);
  await applyOps(ga, ctx, plan);
  const lowered = new Set(
    plan.flatMap((o) =>
      o.calls.flatMap((c) => (c.action === 'UpdateEndpointGroup' ? [c.input.EndpointGroupArn] : [])),
    ),
  );
  const listeners = (recorded.listeners ?? []).map((l) => ({
    ...l,
    endpointGroups: l.endpointGroups.map((g) => (lowered.has(g.arn) ? { ...g, dial: 0 } : g)),
  }));
  const waiting = loweredRegions(desired, plan).filter((r) => drained.has(r));
  const pending = [...new Set([...(record.lowered ?? []), ...waiting])].sort();
  // The desired accelerator is not applied yet, and the record no longer holds the one its
  // fingerprint names: none, so the `after` phase plans (also when the drain is undone first).
  await ctx.records.write(ctx.owner.stackId, {
    ...record,
    fingerprint: '',
    accelerator: { ...recorded, listeners },
    ...(pending.length > 0 ? { lowered: pending } : {}),
  });
  // GA answers every change IN_PROGRESS: no need to ask before waiting.
  if (waiting.length > 0) throw dialDeploying(waiting, true, ctx.pollSeconds);
  return { plan, status: statusOf(recorded)! };
}

/**
 * Nothing to lower: the drained Regions whose dial an earlier pass lowered wait until GA has
 * deployed it (one DescribeAccelerator per pass while they wait); then the record forgets them.
 */
async function awaitLowered(
  ctx: AcceleratorContext,
  record: AcceleratorRecord,
  recorded: ActualAccelerator,
  drained: ReadonlySet<string>,
): Promise<void> {
  const waiting = (record.lowered ?? []).filter((r) => drained.has(r));
  if (waiting.length === 0) return;
  const now = await (await ctx.ga()).describeAccelerator(recorded.arn, ctx);
  // Gone: nothing sends the Region traffic any more.
  if (now && now.status !== 'DEPLOYED') throw dialDeploying(waiting, false, ctx.pollSeconds);
  const { lowered: _deployed, ...rest } = record;
  const left = (record.lowered ?? []).filter((r) => !waiting.includes(r));
  await ctx.records.write(ctx.owner.stackId, { ...rest, ...(left.length > 0 ? { lowered: left } : {}) });
}

/** `before` against GA itself (no record to trust): lower, or wait for a dial at 0 still deploying. */
async function lowerFromGa(
  ctx: AcceleratorContext,
  ga: GaApi,
  desired: DesiredAccelerator,
  drained: ReadonlySet<string>,
): Promise<AcceleratorResult | undefined> {
  const { owned } = await listOwned(ga, ctx);
  const actual = owned.find((a) => a.tags[RETIRING_TAG] === undefined);
  if (!actual) return undefined;
  const current = { ...actual, listeners: await ga.listeners(actual.arn, ctx) };
  const plan = planDialsDown(desired, current);
  logPlan(ctx, plan, 'before');
  await applyOps(ga, ctx, plan);
  const waiting = loweredRegions(desired, plan).filter((r) => drained.has(r));
  if (waiting.length > 0) throw dialDeploying(waiting, true, ctx.pollSeconds);
  if (current.status !== 'DEPLOYED') {
    const atZero = current.listeners.flatMap((l) =>
      l.endpointGroups.filter((g) => g.dial === 0 && drained.has(g.region)).map((g) => g.region),
    );
    if (atZero.length > 0) throw dialDeploying([...new Set(atZero)].sort(), false, ctx.pollSeconds);
  }
  return { plan, status: statusOf(current)! };
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
