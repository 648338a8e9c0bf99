import { describe, expect, it } from 'vitest';
import { lazy } from '../../lib/util/lazy.js';

describe('Function: lazy', () => {
  it('loads at the first call, not before, and only once however many callers wait', async () => {
    let loads = 0;
    const get = lazy(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    expect(await get()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let loads = 0;
    const get = lazy(async () => {
      loads++;
      if (loads === 1) throw new Error('chunk missing');
      return 'ok';
    });
    await expect(get()).rejects.toThrow('chunk missing');
    expect(await get()).toBe('ok');
    expect(await get()).toBe('ok');
    expect(loads).toBe(2);
  });
});
