/**
 * Builds the multi-Region provider from a configuration with `regions:` (factory.ts loads this
 * module only then): per Region its clients and its AwsProvider, which claims the owner ID in
 * its Region before its first ELBv2 call (owner-claim.ts: claims are per account and Region).
 */
import type { ProviderDependencies } from '../../../provider/contract.js';
import {
  configuredRegions,
  createElbv2Client,
  createTaggingClient,
  regionalConfig,
  type AwsProviderConfig,
} from '../config.js';
import type { DeploymentIdentity } from '../instance.js';
import { claimBeforeFirstCall, claimOwnerId } from '../owner-claim.js';
import { AwsProvider, type AwsProviderOptions } from '../provider.js';
import { AcceleratorOverRegions } from '../accelerator/over-regions.js';
import { RegionalDeploys, type AcceleratorSeam } from './accelerator-seam.js';
import { ClusterRegionSource } from './cluster-regions.js';
import { RegionMarkers } from './markers.js';
import { regionShare } from './partition.js';
import { Turns } from './turns.js';
import { MultiRegionProvider, UnknownClusters, type RegionalPart } from './provider.js';

/** What a Region's part is given besides its configuration (tests pass simulator clients). */
export type RegionalOptions = Omit<AwsProviderOptions, 'regional' | 'instanceId'>;

/**
 * The provider over every configured Region. `options(region, config)`: the clients of one Region
 * (by default built from its configuration, with the owner claim before the first call).
 */
export function buildMultiRegionProvider(
  config: AwsProviderConfig,
  deps: ProviderDependencies,
  identity: Pick<DeploymentIdentity, 'instanceId'>,
  options: (region: string, regional: AwsProviderConfig) => RegionalOptions = (_region, regional) =>
    defaultClients(regional, identity, deps),
  /** Global Accelerator in front of the regional load balancers (accelerator-seam.ts). */
  accelerator?: AcceleratorSeam,
): MultiRegionProvider {
  const regions = configuredRegions(config);
  const names = regions.map((r) => r.region);
  const clusters = new ClusterRegionSource(deps.kube, config.clusterRegions, names);
  const markers = new RegionMarkers(deps.kube, config.recordNamespace, config.ownerId);
  const unknown = new UnknownClusters();
  const deploys = new RegionalDeploys(names);
  const turns = new Turns();
  const parts: RegionalPart[] = regions.map((r, i) => {
    const regional = regionalConfig(config, r);
    const primary = i === 0;
    return {
      region: r.region,
      provider: new AwsProvider(regional, deps, {
        ...options(r.region, regional),
        ...(identity.instanceId !== undefined ? { instanceId: identity.instanceId } : {}),
        regional: {
          region: r.region,
          primary,
          markers,
          deployed: (ctx, deploy) => deploys.note(ctx, deploy),
          frontDoorTurn: (ctx, stackId, work) => turns.take(ctx, stackId, work),
          share: async (slices, kube, ctx, named) => {
            const share = regionShare(slices, await clusters.read(ctx, kube), r.region, primary, named);
            if (ctx) unknown.note(ctx, share.unknown);
            return share;
          },
        },
      }),
    };
  });
  // One accelerator per stack over every Region: the primary part's GA client serves them all.
  const seam =
    accelerator ??
    (parts[0] ? new AcceleratorOverRegions(parts[0].provider.accelerators, config) : undefined);
  return new MultiRegionProvider(config, parts, { clusters, markers, unknown, deploys }, deps, seam);
}

function defaultClients(
  regional: AwsProviderConfig,
  identity: Pick<DeploymentIdentity, 'instanceId'>,
  deps: ProviderDependencies,
): RegionalOptions {
  const client = createElbv2Client(regional);
  claimBeforeFirstCall(client, () =>
    claimOwnerId(
      createElbv2Client(regional),
      { ownerId: regional.ownerId, ...identity },
      regional.vpc.id,
      deps.logger,
    ),
  );
  return { client, tagging: createTaggingClient(regional) };
}
