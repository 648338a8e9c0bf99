import type { FaultKind } from './faults.js';

export interface ActionCounters {
  /** Every request received for the action, whatever happened to it. */
  calls: number;
  ok: number;
  /** Error responses produced by the simulated service (validation, not found, ...), by code. */
  errors: number;
  errorCodes: Record<string, number>;
  /** Injected faults, by kind (scripted failures count under `scripted`). */
  faults: Record<FaultKind, number>;
  faulted: number;
}

export type CallOutcome = 'ok' | 'error' | 'fault';

export interface CallRecord {
  seq: number;
  action: string;
  outcome: CallOutcome;
  code?: string;
  fault?: FaultKind;
}

const emptyFaults = (): Record<FaultKind, number> => ({
  throttle: 0,
  internal: 0,
  unavailable: 0,
  drop: 0,
  dropAfterCommit: 0,
  scripted: 0,
});

const HISTORY_LIMIT = 10_000;

/** Per-action call counters and a bounded call history, read and reset by tests and benchmarks. */
export class CallCounters {
  private counters = new Map<string, ActionCounters>();
  private log: CallRecord[] = [];
  private seq = 0;

  private entry(action: string): ActionCounters {
    let c = this.counters.get(action);
    if (!c) {
      c = { calls: 0, ok: 0, errors: 0, errorCodes: {}, faults: emptyFaults(), faulted: 0 };
      this.counters.set(action, c);
    }
    return c;
  }

  record(action: string, outcome: CallOutcome, detail: { code?: string; fault?: FaultKind } = {}): void {
    const c = this.entry(action);
    c.calls++;
    if (outcome === 'ok') c.ok++;
    if (outcome === 'error') {
      c.errors++;
      const code = detail.code ?? 'Unknown';
      c.errorCodes[code] = (c.errorCodes[code] ?? 0) + 1;
    }
    if (outcome === 'fault' && detail.fault) {
      c.faulted++;
      c.faults[detail.fault]++;
    }
    this.log.push({ seq: ++this.seq, action, outcome, ...detail });
    if (this.log.length > HISTORY_LIMIT) this.log.splice(0, this.log.length - HISTORY_LIMIT);
  }

  /** Counters for one action (zeros if it was never called). */
  get(action: string): ActionCounters {
    return structuredClone(
      this.counters.get(action) ?? {
        calls: 0,
        ok: 0,
        errors: 0,
        errorCodes: {},
        faults: emptyFaults(),
        faulted: 0,
      },
    );
  }

  /** All counters keyed by action, keys sorted. */
  all(): Record<string, ActionCounters> {
    return Object.fromEntries([...this.counters.keys()].sort().map((k) => [k, this.get(k)]));
  }

  /** Total requests, optionally for a subset of actions. */
  total(...actions: string[]): number {
    const keys = actions.length > 0 ? actions : [...this.counters.keys()];
    return keys.reduce((n, k) => n + (this.counters.get(k)?.calls ?? 0), 0);
  }

  history(): CallRecord[] {
    return this.log.map((r) => ({ ...r }));
  }

  reset(): void {
    this.counters = new Map();
    this.log = [];
  }
}
