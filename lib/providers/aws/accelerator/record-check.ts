/**
 * Whether an accelerator record may be acted on. The record is a ConfigMap that anyone who may
 * write ConfigMaps in the record namespace can write too, so before a change is planned against
 * it (which would send its ARNs to GA), GA confirms it: the accelerator carries this stack's
 * ownership tags (owner, instance, stack), and each listener and endpoint group it lists lies under
 * that accelerator's ARN (GA names them `<accelerator>/listener/<id>` and
 * `<listener>/endpoint-group/<id>`; only the accelerator carries tags, so the ARN is what makes a
 * child ours). One ListTagsForResource per check. A record that fails is reported (a log line with
 * the details, and a Warning Event that names nothing of anyone else's) and GA is read instead.
 */
import { isAwsError } from '../deploy/context.js';
import { isOwnedBy } from '../tagging.js';
import type { GaApi } from './ga-api.js';
import type { AcceleratorContext } from './context.js';
import type { ActualAccelerator } from './types.js';
import { announceBestEffort } from '../../../provider/announce.js';

export const ACCELERATOR_RECORD_REJECTED = 'AcceleratorRecordRejected';

const ACCELERATOR_ARN = /^arn:aws[a-z-]*:globalaccelerator::\d{12}:accelerator\/[A-Za-z0-9-]+$/;
const CHILD_ID = /^[A-Za-z0-9-]+$/;

/** Whether `arn` is `<parent>/<kind>/<id>`, one level under `parent`. */
function under(arn: string, parent: string, kind: string): boolean {
  const prefix = `${parent}/${kind}/`;
  return arn.startsWith(prefix) && CHILD_ID.test(arn.slice(prefix.length));
}

/** What in the record's accelerator is not under its ARN (pure), or undefined when all of it is. */
export function structureProblem(a: Readonly<ActualAccelerator>): string | undefined {
  if (!ACCELERATOR_ARN.test(a.arn)) return `accelerator ARN ${a.arn} is not a Global Accelerator ARN`;
  for (const l of a.listeners ?? []) {
    if (!under(l.arn, a.arn, 'listener')) return `listener ${l.arn} is not under accelerator ${a.arn}`;
    for (const g of l.endpointGroups) {
      if (!under(g.arn, l.arn, 'endpoint-group'))
        return `endpoint group ${g.arn} is not under listener ${l.arn}`;
    }
  }
  return undefined;
}

/** Tells that a record was not trusted: the details to the log, a plain Warning to the object. */
export async function reportRecord(ctx: AcceleratorContext, why: string, what: string): Promise<void> {
  ctx.logger.warn('accelerator record ignored: it names what is not this stack’s; reading GA instead', {
    stack: ctx.owner.stackId,
    why,
  });
  await announceBestEffort(ctx, 'an ignored accelerator record', {
    reason: ACCELERATOR_RECORD_REJECTED,
    message: `the accelerator record of this object names ${what} that is not this object's; it was ignored, and Global Accelerator read instead`,
  });
}

/**
 * Whether `arn` is an accelerator of this stack as GA tags it: `gone` when GA has none with that
 * ARN (a stale record, not a forged one), else whether its tags are this stack's.
 */
export async function ownedAccelerator(
  ga: GaApi,
  ctx: AcceleratorContext,
  arn: string,
): Promise<'ours' | 'not-ours' | 'gone'> {
  try {
    return isOwnedBy(await ga.tagsOf(arn, ctx), ctx.owner) ? 'ours' : 'not-ours';
  } catch (err) {
    if (isAwsError(err, 'AcceleratorNotFoundException')) return 'gone';
    throw err;
  }
}

/**
 * The record's accelerator when GA confirms it is this stack's (structure and tags), else
 * undefined (reported when it is someone else's; a stale one, gone from GA, is only logged).
 */
export async function confirmedAccelerator(
  ga: GaApi,
  ctx: AcceleratorContext,
  a: ActualAccelerator,
): Promise<ActualAccelerator | undefined> {
  const problem = structureProblem(a);
  if (problem) {
    await reportRecord(ctx, problem, 'a listener or endpoint group');
    return undefined;
  }
  const owned = await ownedAccelerator(ga, ctx, a.arn);
  if (owned === 'ours') return a;
  if (owned === 'gone') {
    ctx.logger.info('the accelerator record names an accelerator GA no longer has; reading GA', {
      stack: ctx.owner.stackId,
      arn: a.arn,
    });
    return undefined;
  }
  await reportRecord(
    ctx,
    `accelerator ${a.arn} does not carry this stack's ownership tags`,
    'an accelerator',
  );
  return undefined;
}
