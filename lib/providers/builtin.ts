/**
 * The providers this project ships, registered explicitly by each entry point (no import side
 * effects). Registering twice is harmless here so that a warm container or a test can call it again.
 */
import { isProviderRegistered, registerMultiClusterProvider } from '../provider/registry.js';
import { AWS_PROVIDER_NAME, createAwsProvider } from './aws/index.js';
import { createFakeProvider, FAKE_PROVIDER_NAME } from './fake/provider.js';

export function registerBuiltinProviders(): void {
  if (!isProviderRegistered(FAKE_PROVIDER_NAME))
    registerMultiClusterProvider(FAKE_PROVIDER_NAME, createFakeProvider);
  if (!isProviderRegistered(AWS_PROVIDER_NAME))
    registerMultiClusterProvider(AWS_PROVIDER_NAME, createAwsProvider);
}
