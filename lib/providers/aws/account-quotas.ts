/**
 * The account's own ELBv2 quotas in the Region (DescribeAccountLimits), read at most once per
 * container and only when a stack is over one of AWS's defaults (model/limits.ts): most quotas are
 * adjustable, so a stack the defaults refuse may fit the account's. The common stack costs no
 * call at all; the first large one costs one page of DescribeAccountLimits per container.
 */
import {
  DescribeAccountLimitsCommand,
  type ElasticLoadBalancingV2Client,
  type Limit,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { RetryLaterError, CancelledError } from '../../errors.js';
import type { Logger } from '../../log/logger.js';
import { call } from './deploy/context.js';
import { ACCOUNT_LIMIT_NAMES, DEFAULT_QUOTAS, QuotaExceededError, type ElbQuotas } from './model/limits.js';

/** The quotas the answer states, AWS's defaults for what it leaves out or cannot be read. */
export function quotasFromLimits(limits: readonly Limit[]): ElbQuotas {
  const byName = new Map(limits.map((l) => [l.Name, Number(l.Max)]));
  const out: ElbQuotas = { ...DEFAULT_QUOTAS };
  for (const [quota, name] of Object.entries(ACCOUNT_LIMIT_NAMES) as Array<[keyof ElbQuotas, string]>) {
    const max = byName.get(name);
    if (max !== undefined && Number.isInteger(max) && max > 0) out[quota] = max;
  }
  return out;
}

export class AccountQuotas {
  private known: Readonly<ElbQuotas> | undefined;

  constructor(private readonly client: ElasticLoadBalancingV2Client) {}

  /** What was read, if anything has been. */
  get read(): Readonly<ElbQuotas> | undefined {
    return this.known;
  }

  /** Every page of DescribeAccountLimits, once; a failed read is not remembered. */
  async load(ctx: { signal: AbortSignal }): Promise<Readonly<ElbQuotas>> {
    if (this.known) return this.known;
    const limits: Limit[] = [];
    let marker: string | undefined;
    do {
      const res = await call(ctx, 'DescribeAccountLimits', (o) =>
        this.client.send(new DescribeAccountLimitsCommand(marker ? { Marker: marker } : {}), o),
      );
      limits.push(...(res.Limits ?? []));
      marker = res.NextMarker;
    } while (marker);
    this.known = quotasFromLimits(limits);
    return this.known;
  }

  /**
   * Builds the stack against what is known (AWS's defaults at first); when that breaks a quota
   * the account reports, reads the account's and builds again. The quota error stands if the
   * account's quota is no higher, or if the quotas cannot be read (logged).
   */
  async within<T>(
    ctx: { signal: AbortSignal; logger: Pick<Logger, 'warn'> } | undefined,
    build: (accountQuotas: Readonly<ElbQuotas> | undefined) => T | Promise<T>,
  ): Promise<T> {
    const known = this.known;
    try {
      // Awaited here: an asynchronous build's QuotaExceededError is caught too.
      return await build(known);
    } catch (err) {
      if (!(err instanceof QuotaExceededError) || known || !ctx || !ACCOUNT_LIMIT_NAMES[err.quota]) throw err;
      let account: Readonly<ElbQuotas>;
      try {
        account = await this.load(ctx);
      } catch (readErr) {
        if (readErr instanceof RetryLaterError || readErr instanceof CancelledError) throw readErr;
        ctx.logger.warn(
          "could not read the account's ELBv2 quotas; the stack was checked against AWS's defaults",
          {
            error: readErr instanceof Error ? readErr.message : String(readErr),
          },
        );
        throw err;
      }
      return build(account);
    }
  }
}
