import { seededRandom } from '../../lib/util/random.js';

/**
 * mulberry32: tiny, fast and good enough for fault dice. Separate instances are used for
 * faults and for IDs so enabling a fault does not change the ARNs a test sees.
 */
export class Prng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += this.int(0, 15).toString(16);
    return out;
  }

  digits(length: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < length; i++) out += String(this.int(0, 9));
    return out;
  }
}
