import { seededRandom } from '../../lib/util/random.js';

export interface ConflictInjection {
  /** Fraction of eligible writes that fail, 0..1. */
  probability: number;
  /** Seed for a reproducible sequence of failures. */
  seed?: number;
  /** Only writes whose path passes this test are eligible (default: all PUT/PATCH, status included). */
  pathFilter?: (path: string) => boolean;
}

/** Makes a fraction of updates fail with 409 Conflict, to exercise clients' retry paths. */
export class ConflictInjector {
  private settings: ConflictInjection | undefined;
  private random: () => number = Math.random;
  /** How many writes have been failed on purpose since the last configure(). */
  injected = 0;

  configure(settings: ConflictInjection | null | undefined): void {
    this.settings = settings && settings.probability > 0 ? settings : undefined;
    this.random = settings?.seed != null ? seededRandom(settings.seed) : Math.random;
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
