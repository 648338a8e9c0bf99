/**
 * The AWS provider's factory alone. The function bundles import this module lazily, and a lazily
 * imported module keeps every export it has: importing `index.ts` would carry the IAM policy
 * generator, the plan printer and the model builders' re-exports into every cold start.
 */
import type { ProviderFactory } from '../../provider/contract.js';
import { createElbv2Client, parseAwsConfig } from './config.js';
import { AwsProvider } from './provider.js';

/** ProviderFactory: parses and validates the configuration file, then builds the provider. */
export const createAwsProvider: ProviderFactory = (configText, deps) => {
  const config = parseAwsConfig(configText);
  return new AwsProvider(config, deps, { client: createElbv2Client(config) });
};
