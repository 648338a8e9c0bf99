/**
 * The AWS provider as its factory builds it (lib/providers/aws/factory.ts: the configuration file
 * parsed, the deployment identity, the owner claim before the first ELBv2 call, one part per
 * Region), with every AWS client reaching the in-process simulators its configuration names
 * (dev/shared/in-process.ts `serveInProcess`): the clients are the provider's own (its retry
 * modes, attempts and metrics middleware), only their requestHandler is the in-process one. A
 * component test runs the provider through processBatch with `startHarness({ inProcess: true,
 * provider: 'aws' })` and simulators started with `inProcess: true`, and no socket.
 */
import type { ProviderDependencies, ProviderFactory } from '../../lib/provider/contract.js';
import { isProviderRegistered, registerMultiClusterProvider } from '../../lib/provider/registry.js';
import { createGaClient } from '../../lib/providers/aws/accelerator/ga-client.js';
import {
  createElbv2Client,
  createTaggingClient,
  parseAwsConfig,
  type AwsProviderConfig,
} from '../../lib/providers/aws/config.js';
import { createEc2Client } from '../../lib/providers/aws/ec2/vpc-reader.js';
import { createAcmClient } from '../../lib/providers/aws/edge/acm-client.js';
import { createShieldClient } from '../../lib/providers/aws/edge/shield-client.js';
import { createWafv2Client } from '../../lib/providers/aws/edge/wafv2-client.js';
import { withContainerRate } from '../../lib/providers/aws/factory.js';
import {
  deployedValues,
  deploymentIdentity,
  type DeploymentIdentity,
} from '../../lib/providers/aws/instance.js';
import { claimBeforeFirstCall, claimOwnerId } from '../../lib/providers/aws/owner-claim.js';
import { AwsProvider, type AwsProviderOptions } from '../../lib/providers/aws/provider.js';
import { buildMultiRegionProvider } from '../../lib/providers/aws/regions/build.js';
import { inProcessRoutes } from '../../dev/shared/in-process.js';

/** The provider name the harness runs instead of `aws` when it runs in process. */
export const AWS_IN_PROCESS = 'aws-in-process';

/**
 * A client built by the provider's own function, its requests routed to the in-process servers
 * by their endpoint's host. The SDK reads `config.requestHandler` when a command is first sent,
 * so setting it before any call is the same as passing it to the constructor.
 */
function routed<C extends { config: { requestHandler: unknown } }>(client: C): C {
  client.config.requestHandler = inProcessRoutes;
  return client;
}

/** Every client the provider (or one Region's part) uses, each only when its endpoint is configured. */
function clientsFor(
  config: AwsProviderConfig,
  identity: Pick<DeploymentIdentity, 'ownerId' | 'instanceId'>,
  deps: ProviderDependencies,
): Omit<AwsProviderOptions, 'regional' | 'instanceId'> {
  const client = routed(createElbv2Client(config));
  claimBeforeFirstCall(client, () =>
    claimOwnerId(routed(createElbv2Client(config)), identity, config.vpc.id, deps.logger),
  );
  const edge = {
    ...(config.wafv2Endpoint ? { wafv2: routed(createWafv2Client(config)) } : {}),
    ...(config.shieldEndpoint ? { shield: routed(createShieldClient(config)) } : {}),
    ...(config.acmEndpoint ? { acm: routed(createAcmClient(config)) } : {}),
  };
  return {
    client,
    tagging: routed(createTaggingClient(config)),
    ...(config.ec2Endpoint ? { ec2: routed(createEc2Client(config)) } : {}),
    ...(Object.keys(edge).length > 0 ? { edge } : {}),
    ...(config.globalAccelerator?.endpoint ? { ga: routed(createGaClient(config)) } : {}),
  };
}

const createInProcessAwsProvider: ProviderFactory = async (text, deps) => {
  const config = withContainerRate(await parseAwsConfig(text), process.env);
  const identity = await deploymentIdentity(config.ownerId, deps.kube, deployedValues(process.env));
  if (config.regions) {
    return buildMultiRegionProvider(config, deps, identity, (_region, regional) =>
      clientsFor(regional, { ...identity, ownerId: regional.ownerId }, deps),
    );
  }
  return new AwsProvider(config, deps, {
    ...clientsFor(config, identity, deps),
    ...(identity.instanceId !== undefined ? { instanceId: identity.instanceId } : {}),
  });
};

export function registerInProcessAws(): void {
  if (!isProviderRegistered(AWS_IN_PROCESS)) {
    registerMultiClusterProvider(AWS_IN_PROCESS, createInProcessAwsProvider);
  }
}
