/**
 * A value kept for one reconcile. The lifecycle passes one ProviderContext to every provider call
 * of a reconcile (and the multi-Region provider one scope to every Region's), so the context is
 * the key; the values go with it when the reconcile is over (a WeakMap holds no context alive).
 */
import type { ProviderContext } from './contract.js';

/** `of(ctx)`: this reconcile's value, made by `init` at its first use. */
export function perReconcile<T extends object>(init: () => T): (ctx: ProviderContext) => T {
  const values = new WeakMap<ProviderContext, T>();
  return (ctx) => {
    let value = values.get(ctx);
    if (!value) {
      value = init();
      values.set(ctx, value);
    }
    return value;
  };
}
