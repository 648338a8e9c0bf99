/**
 * The reference AWS provider: register `createAwsProvider` as `aws`.
 *
 * Layout (LBC's model/deploy split):
 * - config.ts: configuration file → validated config; the ELBv2 client (adaptive retry).
 * - tagging.ts / naming.ts: ownership tags and stack IDs; deterministic 32-character names.
 * - model/: pure MultiClusterIngress → Stack (load balancer, target groups, listeners, rules).
 * - deploy/: one module per resource type, run by deployer.ts in LBC's order.
 * - inputs.ts: reads Services and collected EndpointSlices; provider.ts: the contract.
 */
import type { ProviderFactory } from '../../provider/contract.js';
import { createElbv2Client, parseAwsConfig } from './config.js';
import { AwsProvider } from './provider.js';

/** ProviderFactory: parses and validates the configuration file, then builds the provider. */
export const createAwsProvider: ProviderFactory = (configText, deps) => {
  const config = parseAwsConfig(configText);
  return new AwsProvider(config, deps, { client: createElbv2Client(config) });
};

export { AwsProvider, AWS_PROVIDER_NAME, ingressStatus, type AwsProviderOptions } from './provider.js';
export { parseAwsConfig, createElbv2Client, DEFAULT_HEALTH_CHECK, type AwsProviderConfig } from './config.js';
export { buildIngressStack, type IngressStackInput, type ModelConfig } from './model/ingress.js';
export type { Stack, StackResource } from './model/types.js';
export { OWNER_TAG, STACK_TAG, RESOURCE_TAG, stackId } from './tagging.js';
