/**
 * Keeps the simulator's resources in a JSON file, as the Kubernetes API stand-in keeps its
 * objects, so `npm start` can be stopped and resumed without recreating every load balancer.
 * Every `Map` the store holds (load balancers, target groups, listeners, rules, trust stores, tags,
 * and whatever is added later) is saved, with the Maps inside its records; saved (debounced) after
 * every call that can change state, and on close; written to a temporary file and renamed, so a
 * crash mid-write never leaves a truncated file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What can be saved: a store whose state is its own `Map` properties of JSON-able records, and a
 * sequence number that orders what it made (the ELBv2 store; the Global Accelerator simulator's).
 */
export interface PersistableStore {
  readonly lastSeq: number;
  continueSeqFrom(seq: number): void;
}

/** A state file's format tag, and what an error calls a file of it. */
export interface StateFileFormat {
  id: string;
  label: string;
}

const ELBV2_FORMAT: StateFileFormat = { id: 'elbv2-sim/v1', label: 'an ELBv2 simulator state file' };

interface SavedState {
  format: string;
  /** The seed of the ID stream that made these resources: the next run draws from another. */
  idSeed: number;
  lastSeq: number;
  /** Each of the store's Maps, by property name (Maps inside as `{ $map: entries }`). */
  maps: Record<string, unknown>;
}

const encode = (_key: string, value: unknown): unknown =>
  value instanceof Map ? { $map: [...(value as Map<unknown, unknown>).entries()] } : value;

const decode = (_key: string, value: unknown): unknown =>
  value !== null &&
  typeof value === 'object' &&
  '$map' in value &&
  Array.isArray((value as { $map: unknown }).$map)
    ? new Map((value as { $map: Array<[unknown, unknown]> }).$map)
    : value;

function readSaved(file: string, format: StateFileFormat): SavedState | undefined {
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8'), decode) as Partial<SavedState>;
  if (saved.format !== format.id) {
    throw new Error(
      `${file}: not ${format.label} (format ${String(saved.format)}); delete it or use --fresh`,
    );
  }
  return saved as SavedState;
}

/** The file's ID seed, or undefined without a file: read before the store is built. */
export function savedIdSeed(file: string, format: StateFileFormat = ELBV2_FORMAT): number | undefined {
  const saved = readSaved(file, format);
  // A new seed per restore: the ID stream of the same seed would hand out the same ARNs again.
  return saved ? (Math.imul(saved.idSeed ^ saved.lastSeq, 0x9e3779b1) >>> 0) + 1 : undefined;
}

/** The store's Maps, by property name. */
function mapsOf(store: PersistableStore): Array<[string, Map<unknown, unknown>]> {
  return Object.entries(store).filter((e): e is [string, Map<unknown, unknown>] => e[1] instanceof Map);
}

export class SimPersistence {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly store: PersistableStore,
    private readonly idSeed: number,
    private readonly debounceMs = 200,
    private readonly format: StateFileFormat = ELBV2_FORMAT,
  ) {}

  /** Loads the file into the (empty) store if it exists; returns whether it did. */
  load(): boolean {
    const saved = readSaved(this.file, this.format);
    if (!saved) return false;
    for (const [name, map] of mapsOf(this.store)) {
      const restored = saved.maps[name];
      if (!(restored instanceof Map)) continue;
      map.clear();
      for (const [k, v] of restored) map.set(k, v);
    }
    this.store.continueSeqFrom(saved.lastSeq);
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
    const state: SavedState = {
      format: this.format.id,
      idSeed: this.idSeed,
      lastSeq: this.store.lastSeq,
      maps: Object.fromEntries(mapsOf(this.store)),
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, encode, 1));
    renameSync(tmp, this.file);
  }
}
