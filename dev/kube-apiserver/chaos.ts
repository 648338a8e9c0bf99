export interface ConflictInjection {
  /** Fraction of eligible writes that fail, 0..1. */
  probability: number;
  /** Seed for a reproducible sequence of failures. */
  seed?: number;
  /** Only writes whose path passes this test are eligible (default: all PUT/PATCH, status included). */
  pathFilter?: (path: string) => boolean;
}

/** mulberry32: small, seedable, good enough to pick which writes fail. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Makes a fraction of updates fail with 409 Conflict, to exercise clients' retry paths. */
export class ConflictInjector {
  private settings: ConflictInjection | undefined;
  private random: () => number = Math.random;
  /** How many writes have been failed on purpose since the last configure(). */
  injected = 0;

  configure(settings: ConflictInjection | null | undefined): void {
    this.settings = settings && settings.probability > 0 ? settings : undefined;
    this.random = settings?.seed != null ? mulberry32(settings.seed) : Math.random;
    this.injected = 0;
  }

  shouldFail(method: string, path: string): boolean {
    const s = this.settings;
    if (!s || (method !== 'PUT' && method !== 'PATCH')) return false;
    if (s.pathFilter && !s.pathFilter(path)) return false;
    const fail = this.random() < s.probability;
    if (fail) this.injected++;
    return fail;
  }
}
