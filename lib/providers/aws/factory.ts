/**
 * The AWS provider's factory alone. The function bundles import this module lazily, and a lazily
 * imported module keeps every export it has: importing `index.ts` would carry the IAM policy
 * generator, the plan printer and the model builders' re-exports into every cold start.
 */
import { ProviderConfigError } from '../../errors.js';
import type { MultiClusterProvider, ProviderDependencies, ProviderFactory } from '../../provider/contract.js';
import { createElbv2Client, createTaggingClient, parseAwsConfig, type AwsProviderConfig } from './config.js';
import { deployedValues, deploymentIdentity } from './instance.js';
import { claimBeforeFirstCall, claimOwnerId } from './owner-claim.js';
import { AwsProvider } from './provider.js';

/**
 * ProviderFactory: parses and validates the configuration file, then builds the provider. The
 * deployment's per-container ELBv2 rate (ELBV2_CALLS_PER_SECOND_PER_CONTAINER, derived from its
 * budget share in serverless.yml) caps the file's `maxCallsPerSecond`: the lower one wins.
 */
export const createAwsProvider: ProviderFactory = async (configText, deps) => {
  // Parsed first: a bad file is refused here, before anything is read from Karmada.
  const config = withContainerRate(await parseAwsConfig(configText), process.env);
  return withIdentity(config, deps);
};

/**
 * Checks the configuration and the Karmada it reaches against what was deployed (instance.ts),
 * then builds the provider, whose first ELBv2 call waits for the claim of the owner ID
 * (owner-claim.ts).
 */
async function withIdentity(
  config: AwsProviderConfig,
  deps: ProviderDependencies,
): Promise<MultiClusterProvider> {
  const identity = await deploymentIdentity(config.ownerId, deps.kube, deployedValues(process.env));
  if (config.regions) {
    // Its own chunk: a one-Region deployment never loads it.
    const { buildMultiRegionProvider } = await import('./regions/build.js');
    return buildMultiRegionProvider(config, deps, identity);
  }
  const client = createElbv2Client(config);
  claimBeforeFirstCall(client, () =>
    claimOwnerId(createElbv2Client(config), identity, config.vpc.id, deps.logger),
  );
  return new AwsProvider(config, deps, {
    client,
    tagging: createTaggingClient(config),
    ...(identity.instanceId !== undefined ? { instanceId: identity.instanceId } : {}),
  });
}

export function withContainerRate(config: AwsProviderConfig, env: NodeJS.ProcessEnv): AwsProviderConfig {
  const raw = env.ELBV2_CALLS_PER_SECOND_PER_CONTAINER?.trim();
  if (!raw) return config;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate <= 0)
    throw new ProviderConfigError(
      `ELBV2_CALLS_PER_SECOND_PER_CONTAINER must be a positive number, got "${raw}"`,
    );
  return { ...config, maxCallsPerSecond: Math.min(rate, config.maxCallsPerSecond ?? Infinity) };
}
