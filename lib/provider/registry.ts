/**
 * The provider registry (Go: plugins.go). Providers are registered explicitly by each entry point
 * (`registerBuiltinProviders`), never by import side effects, so a bundle only carries what its
 * entry point registers.
 */
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../errors.js';
import type { MultiClusterProvider, ProviderDependencies, ProviderFactory } from './contract.js';

const factories = new Map<string, ProviderFactory>();

export function registerMultiClusterProvider(name: string, factory: ProviderFactory): void {
  if (!name) throw new Error('a multicluster provider needs a name');
  if (factories.has(name)) throw new Error(`multicluster provider "${name}" was registered twice`);
  factories.set(name, factory);
}

export function registeredProviderNames(): string[] {
  return [...factories.keys()].sort();
}

export function isProviderRegistered(name: string): boolean {
  return factories.has(name);
}

/** Forgets every registration; for tests. */
export function resetRegistry(): void {
  factories.clear();
}

/**
 * Builds the named provider with the configuration file at `configPath` (if any).
 * An empty name means "no provider" and yields `undefined`.
 */
export async function initMultiClusterProvider(
  name: string,
  configPath: string | undefined,
  deps: ProviderDependencies,
): Promise<MultiClusterProvider | undefined> {
  if (!name) return undefined;
  const factory = factories.get(name);
  if (!factory) {
    const known = registeredProviderNames();
    throw new Error(
      `unknown multicluster provider "${name}" (registered: ${known.length ? known.join(', ') : 'none'})`,
    );
  }
  let config: string | undefined;
  if (configPath) {
    try {
      config = await readFile(configPath, 'utf8');
    } catch (err) {
      throw new Error(
        `couldn't open multicluster provider configuration "${configPath}": ${errorMessage(err)}`,
        {
          cause: err,
        },
      );
    }
  }
  let provider: MultiClusterProvider;
  try {
    provider = await factory(config, deps);
  } catch (err) {
    throw new Error(`could not init multicluster provider "${name}": ${errorMessage(err)}`, { cause: err });
  }
  if (!provider) throw new Error(`unknown multicluster provider "${name}"`);
  return provider;
}
