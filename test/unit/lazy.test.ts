import { describe, expect, it } from 'vitest';
import { lazy, ModuleLoadError } from '../../lib/util/lazy.js';

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

describe('Function: lazy, naming what it loads', () => {
  it('rejects a module that cannot be loaded with a ModuleLoadError naming the part and the cause', async () => {
    const get = lazy(() => import('./no-such-module-of-ours.js' as string), 'the example part');
    const err = await get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModuleLoadError);
    expect((err as ModuleLoadError).name).toBe('ModuleLoadError');
    expect((err as Error).message).toMatch(/^could not load the example part: .*no-such-module-of-ours/);
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  it('resolves to the module when it loads', async () => {
    const get = lazy(() => import('../../lib/util/equal.js'), 'the equality helpers');
    expect((await get()).semanticEqual({ a: 1 }, { a: 1 })).toBe(true);
  });
});
