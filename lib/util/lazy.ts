/**
 * A value loaded at its first use and then kept, for code that only some containers need: an
 * optional AWS SDK client, a provider, the kubeconfig fetcher. Written as a dynamic `import()`,
 * the loaded code is a chunk of its own in the function bundles (scripts/function-build.ts), so a
 * container that never calls the loader never reads it. A failed load is forgotten, so the next
 * call tries again instead of keeping the error for the container's lifetime.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (!loaded) {
      const attempt = load();
      loaded = attempt;
      attempt.catch(() => {
        if (loaded === attempt) loaded = undefined;
      });
    }
    return loaded;
  };
}
