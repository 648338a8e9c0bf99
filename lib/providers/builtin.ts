/**
 * The providers this project ships. An entry point registers those it can run (no import side
 * effects); each is imported only when MULTICLUSTER_PROVIDER names it, so in the function bundles
 * a provider and its SDK clients are a chunk of their own that other configurations never read.
 * Registering twice is harmless here so that a warm container or a test can call it again.
 */
import type { ProviderFactory } from '../provider/contract.js';
import { isProviderRegistered, registerMultiClusterProvider } from '../provider/registry.js';

// The names are written out rather than imported: importing a constant from a provider's module
// would load the whole provider with it. A unit test checks them against the providers' own.
export const BUILTIN_PROVIDERS = {
  aws: async (config, deps) => (await import('./aws/factory.js')).createAwsProvider(config, deps),
  fake: async (config, deps) => (await import('./fake/provider.js')).createFakeProvider(config, deps),
} as const satisfies Record<string, ProviderFactory>;

export type BuiltinProviderName = keyof typeof BUILTIN_PROVIDERS;

/** Registers the named built-in providers (all of them by default). */
export function registerBuiltinProviders(
  names: readonly BuiltinProviderName[] = Object.keys(BUILTIN_PROVIDERS) as BuiltinProviderName[],
): void {
  for (const name of names) {
    if (!isProviderRegistered(name)) registerMultiClusterProvider(name, BUILTIN_PROVIDERS[name]);
  }
}
