/**
 * Kills function invocations midway, right after an AWS call, as a Lambda timeout or crash would:
 * each invocation runs in an AsyncLocalStorage context with a kill plan, and the ELBv2 client's
 * `send` (patched on the prototype, so the provider's own client is affected without any change
 * to it) lets the Nth call reach AWS and then fails it and every later call of that invocation.
 * The function server answers such an invocation with 502 whatever the handler returned, so the
 * sender redelivers. (Unlike a real crash, the handler's `finally` blocks and Kubernetes writes
 * still run; the lock lease is released rather than left to expire.)
 *
 * The same patch counts the SDK's own retries (`$metadata.attempts`), for the report.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';

export interface KillPlan {
  /** Fail the invocation right after this many ELBv2 calls; undefined: never. */
  afterCalls?: number;
  calls: number;
  killed: boolean;
}

export class InvocationKilledError extends Error {
  override name = 'InvocationKilledError';
}

export interface Elbv2Instrumentation {
  readonly context: AsyncLocalStorage<KillPlan>;
  /** Invocations killed so far. */
  kills: number;
  /** Extra attempts the SDK's retry strategy made (throttling, 5xx, dropped connections). */
  sdkRetries: number;
  calls: number;
  uninstall(): void;
}

type Send = (this: ElasticLoadBalancingV2Client, ...args: unknown[]) => Promise<unknown>;

function attemptsOf(value: unknown): number {
  const meta = (value as { $metadata?: { attempts?: number } } | undefined)?.$metadata;
  return meta?.attempts ?? 1;
}

export function instrumentElbv2(): Elbv2Instrumentation {
  const proto = ElasticLoadBalancingV2Client.prototype as unknown as { send: Send };
  const original = proto.send;
  const context = new AsyncLocalStorage<KillPlan>();
  const stats: Elbv2Instrumentation = {
    context,
    kills: 0,
    sdkRetries: 0,
    calls: 0,
    uninstall: () => {
      proto.send = original;
    },
  };
  proto.send = async function (this: ElasticLoadBalancingV2Client, ...args: unknown[]) {
    const plan = context.getStore();
    if (plan?.killed) throw new InvocationKilledError('invocation was killed');
    stats.calls++;
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await original.apply(this, args) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    stats.sdkRetries += attemptsOf(outcome.ok ? outcome.value : outcome.error) - 1;
    if (plan && plan.afterCalls !== undefined && ++plan.calls >= plan.afterCalls && !plan.killed) {
      plan.killed = true;
      stats.kills++;
      throw new InvocationKilledError(`invocation killed after ELBv2 call ${plan.calls}`);
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  return stats;
}
