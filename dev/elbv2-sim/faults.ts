import { statusForCode } from './errors.js';
import { Prng } from './prng.js';

/** Probabilities (0..1) of each injected fault, plus added latency, for one action or globally. */
export interface FaultRates {
  /** HTTP 400 `Throttling` / "Rate exceeded": the SDK classifies it as a throttling error and retries. */
  throttle?: number;
  /** HTTP 500 `InternalFailure`. */
  internal?: number;
  /** HTTP 503 `ServiceUnavailable`. */
  unavailable?: number;
  /** Socket destroyed before the request is processed: nothing changed server-side. */
  drop?: number;
  /** Request processed and committed, then the socket is destroyed: the client cannot know it worked. */
  dropAfterCommit?: number;
  /** Added before processing: a fixed delay or a uniform [min, max] range. */
  latencyMs?: number | readonly [number, number];
}

export type FaultKind = 'throttle' | 'internal' | 'unavailable' | 'drop' | 'dropAfterCommit' | 'scripted';

/** A scripted failure: an error response with any code, or one of the connection faults. */
export type ScriptedFailure =
  { code: string; message?: string; status?: number } | { drop: true } | { dropAfterCommit: true };

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'error'; fault: FaultKind; code: string; message: string; status: number }
  | { kind: 'drop'; fault: FaultKind }
  | { kind: 'dropAfterCommit'; fault: FaultKind };

export interface FaultOptions extends FaultRates {
  perAction?: Record<string, FaultRates>;
}

const MESSAGES: Record<string, string> = {
  Throttling: 'Rate exceeded',
  InternalFailure: 'An internal error occurred',
  ServiceUnavailable: 'Service is unavailable',
};

/**
 * Fault injection. Each request consumes exactly one fault draw and (for range latency) one
 * latency draw from a seeded PRNG, so the same seed and the same request sequence give the
 * same faults on every run.
 */
export class Faults {
  private rng: Prng;
  private global: FaultRates = {};
  private readonly perAction = new Map<string, FaultRates>();
  private readonly scripted = new Map<string, ScriptedFailure[]>();

  constructor(seed = 1, options: FaultOptions = {}) {
    this.rng = new Prng(seed);
    const { perAction, ...global } = options;
    this.global = global;
    for (const [action, rates] of Object.entries(perAction ?? {})) this.perAction.set(action, rates);
  }

  /** Replaces the global rates (applied to every action without its own override). */
  set(rates: FaultRates): void {
    this.global = { ...rates };
  }

  /** Per-action rates, merged over the global ones; undefined removes the override. */
  setForAction(action: string, rates: FaultRates | undefined): void {
    if (rates) this.perAction.set(action, { ...rates });
    else this.perAction.delete(action);
  }

  /** Fails the next `count` calls of `action` (or of any action with '*'); queued, first in first out. */
  failNext(action: string, count: number, failure: ScriptedFailure = { code: 'Throttling' }): void {
    const queue = this.scripted.get(action) ?? [];
    for (let i = 0; i < count; i++) queue.push(failure);
    this.scripted.set(action, queue);
  }

  /** Scripted failures still queued for an action. */
  pending(action: string): number {
    return this.scripted.get(action)?.length ?? 0;
  }

  reseed(seed: number): void {
    this.rng = new Prng(seed);
  }

  /** Removes every rate, override and scripted failure (the PRNG keeps its position). */
  clear(): void {
    this.global = {};
    this.perAction.clear();
    this.scripted.clear();
  }

  rates(action: string): FaultRates {
    return { ...this.global, ...this.perAction.get(action) };
  }

  latencyFor(action: string): number {
    const latency = this.rates(action).latencyMs;
    if (latency === undefined) return 0;
    if (typeof latency === 'number') return latency;
    return latency[0] + this.rng.next() * (latency[1] - latency[0]);
  }

  decide(action: string): FaultDecision {
    const roll = this.rng.next();
    const script = this.scripted.get(action)?.shift() ?? this.scripted.get('*')?.shift();
    if (script) return fromScript(script);
    const r = this.rates(action);
    const bands: [number | undefined, () => FaultDecision][] = [
      [r.drop, () => ({ kind: 'drop', fault: 'drop' })],
      [r.dropAfterCommit, () => ({ kind: 'dropAfterCommit', fault: 'dropAfterCommit' })],
      [r.throttle, () => errorDecision('throttle', 'Throttling')],
      [r.internal, () => errorDecision('internal', 'InternalFailure')],
      [r.unavailable, () => errorDecision('unavailable', 'ServiceUnavailable')],
    ];
    let edge = 0;
    for (const [p, make] of bands) {
      edge += p ?? 0;
      if (roll < edge) return make();
    }
    return { kind: 'none' };
  }
}

function errorDecision(fault: FaultKind, code: string, message?: string, status?: number): FaultDecision {
  return {
    kind: 'error',
    fault,
    code,
    message: message ?? MESSAGES[code] ?? code,
    status: status ?? statusForCode(code),
  };
}

function fromScript(script: ScriptedFailure): FaultDecision {
  if ('drop' in script) return { kind: 'drop', fault: 'scripted' };
  if ('dropAfterCommit' in script) return { kind: 'dropAfterCommit', fault: 'scripted' };
  return errorDecision('scripted', script.code, script.message, script.status);
}
