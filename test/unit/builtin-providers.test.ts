import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../lib/log/logger.js';
import {
  initMultiClusterProvider,
  registeredProviderNames,
  resetRegistry,
} from '../../lib/provider/registry.js';
import { AWS_PROVIDER_NAME } from '../../lib/providers/aws/index.js';
import { BUILTIN_PROVIDERS, registerBuiltinProviders } from '../../lib/providers/builtin.js';
import { FAKE_PROVIDER_NAME } from '../../lib/providers/fake/provider.js';
import type { KubeClient } from '../../lib/kube/client.js';

describe('Function: registerBuiltinProviders', () => {
  afterEach(() => resetRegistry());

  it('registers the built-in providers under their own names (written out so as not to import them)', () => {
    expect(Object.keys(BUILTIN_PROVIDERS).sort()).toEqual([AWS_PROVIDER_NAME, FAKE_PROVIDER_NAME].sort());
    registerBuiltinProviders();
    expect(registeredProviderNames()).toEqual(['aws', 'fake']);
    registerBuiltinProviders(); // a warm container or a second test: harmless
    expect(registeredProviderNames()).toEqual(['aws', 'fake']);
  });

  it('registers only the providers an entry point names', async () => {
    registerBuiltinProviders(['fake']);
    expect(registeredProviderNames()).toEqual(['fake']);
    const deps = { kube: {} as KubeClient, logger: new MemoryLogger() };
    await expect(initMultiClusterProvider('aws', undefined, deps)).rejects.toThrow(
      'unknown multicluster provider "aws" (registered: fake)',
    );
    const fake = await initMultiClusterProvider('fake', undefined, deps);
    expect(fake?.providerName()).toBe(FAKE_PROVIDER_NAME);
  });

  it("loads the aws provider's module only when it is built, and passes its config errors on", async () => {
    registerBuiltinProviders(['aws']);
    const deps = { kube: {} as KubeClient, logger: new MemoryLogger() };
    await expect(initMultiClusterProvider('aws', undefined, deps)).rejects.toThrow(
      /could not init multicluster provider "aws": the aws provider needs a configuration file/,
    );
  });
});
