/**
 * An Event on the object, told best effort as every Event is: failing to record one must not stop
 * the object being served, so a failure becomes a log line naming what could not be told.
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { EventType } from '../kube/events.js';

export interface Announcer {
  logger: Pick<Logger, 'warn'>;
  announce?: (reason: string, message: string, type?: EventType) => Promise<void>;
}

/** Each warning as a log line and a Warning Event (best effort) on the object. */
export async function reportWarnings(
  ctx: Announcer,
  warnings: readonly { reason: string; message: string }[],
): Promise<void> {
  for (const warning of warnings) {
    ctx.logger.warn(warning.message, { reason: warning.reason });
    await announceBestEffort(ctx, 'a warning Event', warning);
  }
}

/** `what`: the Event's subject in the log line when it cannot be recorded ("a drain"). */
export async function announceBestEffort(
  ctx: Announcer,
  what: string,
  event: { reason: string; message: string; type?: EventType },
): Promise<void> {
  try {
    await ctx.announce?.(event.reason, event.message, ...(event.type ? [event.type] : []));
  } catch (err) {
    ctx.logger.warn(`could not announce ${what}`, { reason: event.reason, error: errorMessage(err) });
  }
}
