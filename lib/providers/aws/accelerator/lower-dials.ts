/**
 * The accelerator's `before` phase: the dials of Regions going to 0, before those Regions' targets
 * are deregistered (a drained Region keeps its clients until GA has deployed its dial at 0).
 */
import { InProgressError } from '../../../errors.js';
import { applyOps, listOwned, logPlan, statusOf, type AcceleratorResult } from './apply.js';
import type { AcceleratorContext } from './context.js';
import type { GaApi } from './ga-api.js';
import { actualSettings, matchListener, RETIRING_TAG } from './plan.js';
import type { AcceleratorRecord } from './record.js';
import { confirmedAccelerator } from './record-check.js';
import type { AcceleratorOperation, ActualAccelerator, DesiredAccelerator } from './types.js';

/** The reason while a drained Region's targets wait for GA to deploy its dial at 0. */
export const ACCELERATOR_DIAL_DEPLOYING = 'AcceleratorDialDeploying';

/**
 * The `before` phase: only the dials going to 0 (a Region whose clusters Karmada is draining), so
 * clients move to other Regions before the regional deploy drains its targets. Everything else of
 * the group stays as GA has it; the `after` phase brings the rest.
 */
export function planDialsDown(
  desired: DesiredAccelerator,
  current: ActualAccelerator,
): AcceleratorOperation[] {
  const plan: AcceleratorOperation[] = [];
  for (const l of desired.listeners) {
    const a = matchListener(current.listeners ?? [], l);
    for (const g of l.endpointGroups) {
      const ag = a?.endpointGroups.find((x) => x.region === g.region);
      if (!ag || g.dial !== 0 || ag.dial === 0) continue;
      plan.push({
        op: 'modify',
        resource: 'EndpointGroup',
        id: g.id,
        detail: `traffic dial ${ag.dial} → 0 before ${g.region}'s targets drain`,
        // The group as GA has it, but for the dial: nothing else changes before the regional deploy.
        calls: [
          {
            action: 'UpdateEndpointGroup',
            input: { EndpointGroupArn: ag.arn, ...actualSettings(ag), TrafficDialPercentage: 0 },
          },
        ],
      });
    }
  }
  return plan;
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
export async function lowerDials(
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
