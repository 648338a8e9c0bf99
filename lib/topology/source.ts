/**
 * The topology of one object as it stands in the Karmada API: its desired stack from the AWS
 * provider's model (the Services and EndpointSlices it reads), and, given a provider, the change
 * plan from what AWS holds now (a dry run: Describe calls only).
 */
import { errorMessage } from '../errors.js';
import type { MultiClusterIngress, MultiClusterService } from '../karmada/types.js';
import type { KubeClient } from '../kube/client.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import {
  buildIngressStack,
  buildServiceStack,
  type AwsProvider,
  type AwsProviderConfig,
} from '../providers/aws/index.js';
import { readIngressInputs, readServiceInputs } from '../providers/aws/inputs.js';
import { buildTopology, failedTopology } from './build.js';
import type { Topology } from './types.js';

export interface TopologySourceDeps {
  kube: KubeClient;
  config: AwsProviderConfig;
  /** When set, pending changes come from its plan against what AWS holds. */
  provider?: AwsProvider;
  signal?: AbortSignal;
  logger?: Logger;
}

export async function topologyOf(
  obj: MultiClusterIngress | MultiClusterService,
  deps: TopologySourceDeps,
): Promise<Topology> {
  try {
    // With a provider, the model it would build: the VPC's network resolved (vpc-network.ts).
    const config = deps.provider
      ? await deps.provider.modelConfig({ signal: deps.signal ?? AbortSignal.timeout(30_000) })
      : deps.config;
    let stack;
    let endpointSlices;
    if (obj.kind === 'MultiClusterService') {
      const mcs = obj as MultiClusterService;
      const inputs = await readServiceInputs(deps.kube, mcs);
      stack = buildServiceStack({ mcs, ...inputs, config });
      endpointSlices = inputs.endpointSlices;
    } else {
      const mci = obj as MultiClusterIngress;
      const inputs = await readIngressInputs(deps.kube, mci);
      stack = buildIngressStack({ mci, ...inputs, config });
      endpointSlices = inputs.endpointSlices;
    }
    const plan = deps.provider
      ? (
          await deps.provider.plan(
            {
              signal: deps.signal ?? AbortSignal.timeout(30_000),
              logger: deps.logger ?? silentLogger,
              resync: true,
            },
            obj,
          )
        ).plan
      : undefined;
    return buildTopology({
      object: obj,
      stack,
      endpointSlices,
      region: deps.config.region,
      ...(plan ? { plan } : {}),
    });
  } catch (err) {
    return failedTopology(obj, errorMessage(err));
  }
}
