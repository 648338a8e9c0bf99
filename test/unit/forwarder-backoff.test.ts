import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../lib/forwarder/backoff.js';

describe('Function: backoffDelay', () => {
  const opts = { initialMs: 100, maxMs: 10_000 };

  it('grows exponentially between half and all of the cap', () => {
    expect(backoffDelay(0, opts, () => 0)).toBe(50);
    expect(backoffDelay(0, opts, () => 1)).toBe(100);
    expect(backoffDelay(3, opts, () => 0)).toBe(400);
    expect(backoffDelay(3, opts, () => 1)).toBe(800);
  });

  it('never exceeds the maximum, even after very many attempts', () => {
    for (const attempt of [10, 100, 10_000]) {
      expect(backoffDelay(attempt, opts, () => 1)).toBe(10_000);
      expect(backoffDelay(attempt, opts, () => 0)).toBe(5_000);
    }
  });

  it('jitters: different random draws give different delays', () => {
    const delays = new Set(Array.from({ length: 20 }, () => backoffDelay(5, opts)));
    expect(delays.size).toBeGreaterThan(10);
  });
});
