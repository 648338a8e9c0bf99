/**
 * What the accelerator code asks of Global Accelerator (ga-client.ts implements it with the SDK,
 * in a chunk of its own). Every read and call goes through deploy/context.ts `call`: the abort
 * signal, and throttling or server errors as RetryLaterError.
 */
import type { ActualAccelerator, ActualListener, GaCall } from './types.js';

type Ctx = { signal: AbortSignal };

export interface GaApi {
  /** Every accelerator of the account (without tags). */
  listAccelerators(ctx: Ctx): Promise<ActualAccelerator[]>;
  /** One accelerator (without tags), or null when GA has none with that ARN. */
  describeAccelerator(arn: string, ctx: Ctx): Promise<ActualAccelerator | null>;
  tagsOf(arn: string, ctx: Ctx): Promise<Record<string, string>>;
  /** The accelerator's listeners, each with its endpoint groups. */
  listeners(arn: string, ctx: Ctx): Promise<ActualListener[]>;
  /** One call (its placeholders resolved), unretried (the caller maps errors); a create returns what it made. */
  send(
    c: GaCall,
    o: { abortSignal: AbortSignal },
  ): Promise<{ arn?: string; accelerator?: ActualAccelerator }>;
}
