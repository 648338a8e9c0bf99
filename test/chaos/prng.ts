/**
 * The suite's only source of randomness. Every decision (which operation, which fault, how long a
 * delay) is drawn from a seeded stream, so a failing seed can be replayed; separate streams per
 * concern keep, say, the workload identical when fault rates change.
 */

/** mulberry32: tiny, fast, and plenty for picking operations and faults. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Another stream derived from this seed and a label, independent of draws made here. */
  static derive(seed: number, label: string): Rng {
    let h = seed >>> 0;
    for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x9e3779b1) >>> 0;
    return new Rng(h ^ 0x5bd1e995);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `{ a: 3, b: 1 }` yields `a` three times as often as `b`. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}
