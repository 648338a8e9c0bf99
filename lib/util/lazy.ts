/**
 * A value loaded at its first use and then kept, for code that only some containers need: an
 * optional AWS SDK client, a provider, the kubeconfig fetcher, a part of our code only a rarer path
 * runs. Written as a dynamic `import()`, the loaded code is a chunk of its own in the function
 * bundles (scripts/function-build.ts), so a container that never calls the loader never reads it.
 * A failed load is forgotten, so the next call tries again instead of keeping the error for the
 * container's lifetime.
 */
import { errorMessage } from '../errors.js';

/**
 * A part of the function's package could not be loaded (a chunk missing or unreadable): the
 * message names the part, so the log line or condition that reports it says what is broken.
 */
export class ModuleLoadError extends Error {
  override name = 'ModuleLoadError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
  }
}

/** `what` names the loaded part in the error a failed load rejects with. */
export function lazy<T>(load: () => Promise<T>, what?: string): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (!loaded) {
      const attempt =
        what === undefined
          ? load()
          : load().catch((err: unknown) => {
              throw new ModuleLoadError(`could not load ${what}: ${errorMessage(err)}`, { cause: err });
            });
      loaded = attempt;
      attempt.catch(() => {
        if (loaded === attempt) loaded = undefined;
      });
    }
    return loaded;
  };
}
