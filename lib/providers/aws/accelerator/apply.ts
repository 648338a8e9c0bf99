/**
 * Applying an accelerator plan to GA, and what the phases share (accelerator/reconcile.ts's
 * `after` and deletion, lower-dials.ts's `before`): the stack's accelerators as GA tags them, the
 * calls in order with GA's "not yet" and "already gone" answers, the state the record keeps, one
 * retiring step, the plan's log line.
 */
import { InProgressError, RetryLaterError, errorMessage } from '../../../errors.js';
import { call, checkAborted, isAwsError } from '../deploy/context.js';
import { formatPlan, operationSubject } from '../deploy/operations.js';
import { resolvePlanned } from '../deploy/refs.js';
import { isOwnedBy, isOwnerOf, STACK_TAG, type StackOwner } from '../tagging.js';
import type { AcceleratorContext } from './context.js';
import type { GaApi } from './ga-api.js';
import { deleteAcceleratorOps, disableAccelerator, matchListener, RETIRING_TAG } from './plan.js';
import type {
  AcceleratorOperation,
  ActualAccelerator,
  ActualListener,
  DesiredAccelerator,
  GaCall,
} from './types.js';

export const ACCELERATOR_DELETING = 'AcceleratorDeleting';

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

export const statusOf = (a: ActualAccelerator | undefined): AcceleratorStatus | undefined =>
  a?.dnsName ? { dnsName: a.dnsName.toLowerCase(), ips: [...a.ips] } : undefined;

/** The stack's accelerators (ours by tags: only the accelerator carries any) and the account's count. */
export async function listOwned(
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

export async function applyOps(
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
export function stateAfter(
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
export async function retireStep(
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

export function logPlan(ctx: AcceleratorContext, plan: readonly AcceleratorOperation[], phase: string): void {
  if (plan.length === 0) return;
  ctx.logger.info(ctx.dryRun ? 'accelerator change plan (dry run: not applied)' : 'accelerator change plan', {
    stack: ctx.owner.stackId,
    phase,
    operations: formatPlan(plan),
  });
}
