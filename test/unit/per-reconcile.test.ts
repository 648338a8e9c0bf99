import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../lib/log/logger.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { perReconcile } from '../../lib/provider/per-reconcile.js';

const reconcile = (): ProviderContext => ({ signal: new AbortController().signal, logger: silentLogger });

describe('perReconcile', () => {
  it('keeps one value per reconcile, made at its first use', () => {
    let made = 0;
    const seen = perReconcile(() => {
      made++;
      return new Set<string>();
    });
    const first = reconcile();
    const second = reconcile();
    expect(made).toBe(0);
    seen(first).add('a');
    expect(seen(first).has('a')).toBe(true);
    expect(made).toBe(1);
    // Another reconcile starts from nothing.
    expect(seen(second).has('a')).toBe(false);
    expect(made).toBe(2);
  });
});
