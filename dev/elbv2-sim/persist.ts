/**
 * Keeps the simulator's resources in a JSON file, as the Kubernetes API stand-in keeps its
 * objects, so `npm start` can be stopped and resumed without recreating every load balancer.
 * Saved (debounced) after every call that can change state, and on close; written to a temporary
 * file and renamed, so a crash mid-write never leaves a truncated file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  ListenerRecord,
  LoadBalancerRecord,
  RuleRecord,
  TargetGroupRecord,
  TargetRecord,
} from './state/model.js';
import type { Store } from './state/store.js';

const FORMAT = 'elbv2-sim/v1';

type Saved<T, K extends keyof T> = Omit<T, K> & { [P in K]: Array<[string, unknown]> };

interface SavedState {
  format: typeof FORMAT;
  /** The seed of the ID stream that made these resources: the next run draws from another. */
  idSeed: number;
  lastSeq: number;
  loadBalancers: Array<Saved<LoadBalancerRecord, 'attributes'>>;
  targetGroups: Array<Saved<TargetGroupRecord, 'attributes' | 'targets'>>;
  listeners: ListenerRecord[];
  rules: RuleRecord[];
  tags: Array<[string, Array<[string, string]>]>;
}

/** The file's ID seed, or undefined without a (valid) file: read before the store is built. */
export function savedIdSeed(file: string): number | undefined {
  const saved = readSaved(file);
  // A new seed per restore: the ID stream of the same seed would hand out the same ARNs again.
  return saved ? (Math.imul(saved.idSeed ^ saved.lastSeq, 0x9e3779b1) >>> 0) + 1 : undefined;
}

function readSaved(file: string): SavedState | undefined {
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedState>;
  if (saved.format !== FORMAT) {
    throw new Error(
      `${file}: not an ELBv2 simulator state file (format ${String(saved.format)}); delete it or use --fresh`,
    );
  }
  return saved as SavedState;
}

export class SimPersistence {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly store: Store,
    private readonly idSeed: number,
    private readonly debounceMs = 200,
  ) {}

  /** Loads the file into the (empty) store if it exists; returns whether it did. */
  load(): boolean {
    const saved = readSaved(this.file);
    if (!saved) return false;
    const s = this.store;
    for (const lb of saved.loadBalancers)
      s.loadBalancers.set(lb.arn, { ...lb, attributes: new Map(lb.attributes as Array<[string, string]>) });
    for (const tg of saved.targetGroups) {
      s.targetGroups.set(tg.arn, {
        ...tg,
        attributes: new Map(tg.attributes as Array<[string, string]>),
        targets: new Map(tg.targets as Array<[string, TargetRecord]>),
      });
    }
    for (const l of saved.listeners) s.listeners.set(l.arn, l);
    for (const r of saved.rules) s.rules.set(r.arn, r);
    for (const [arn, tags] of saved.tags) s.tags.set(arn, new Map(tags));
    s.continueSeqFrom(saved.lastSeq);
    return true;
  }

  /** A call that may have changed something was served. */
  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const s = this.store;
    const state: SavedState = {
      format: FORMAT,
      idSeed: this.idSeed,
      lastSeq: s.lastSeq,
      loadBalancers: [...s.loadBalancers.values()].map((lb) => ({ ...lb, attributes: [...lb.attributes] })),
      targetGroups: [...s.targetGroups.values()].map((tg) => ({
        ...tg,
        attributes: [...tg.attributes],
        targets: [...tg.targets],
      })),
      listeners: [...s.listeners.values()],
      rules: [...s.rules.values()],
      tags: [...s.tags].map(([arn, tags]) => [arn, [...tags]]),
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 1));
    renameSync(tmp, this.file);
  }
}
