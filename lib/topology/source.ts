/**
 * The topology of one object as it stands in the Karmada API. Without a provider: the desired
 * stack from the AWS provider's model (the Services and EndpointSlices it reads), as if deployed.
 * With one: the change plan from what AWS holds now (a dry run: Describe calls only), drawn over
 * the stack it plans to, in every Region that serves the object (a multi-Region provider: each
 * Region's load balancer with its own clusters' targets), with the Global Accelerator in front
 * when the object has one.
 */
import { errorMessage } from '../errors.js';
import type { EndpointSlice, MultiClusterIngress, MultiClusterService } from '../karmada/types.js';
import type { KubeClient } from '../kube/client.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import type { ProviderContext } from '../provider/contract.js';
import {
  buildIngressStack,
  buildServiceStack,
  type AwsProvider,
  type AwsProviderConfig,
} from '../providers/aws/index.js';
import { readIngressInputs, readServiceInputs } from '../providers/aws/inputs.js';
import { sliceCluster } from '../providers/aws/regions/partition.js';
import type { MultiRegionProvider } from '../providers/aws/regions/provider.js';
import { blockedOf, buildTopology, failedTopology, objectOf } from './build.js';
import { frontDoorOf } from './front-door.js';
import type { RegionNode, Topology } from './types.js';

/** A provider whose plan the picture shows: one Region's, or one over several (`regions:`). */
export type TopologyProvider = AwsProvider | MultiRegionProvider;

export interface TopologySourceDeps {
  kube: KubeClient;
  config: AwsProviderConfig;
  /** When set, pending changes come from its plan against what AWS holds. */
  provider?: TopologyProvider;
  signal?: AbortSignal;
  logger?: Logger;
}

type Obj = MultiClusterIngress | MultiClusterService;

const overRegions = (p: TopologyProvider): p is MultiRegionProvider => 'parts' in p;

export async function topologyOf(obj: Obj, deps: TopologySourceDeps): Promise<Topology> {
  try {
    const provider = deps.provider;
    if (!provider) return await modelled(obj, deps);
    const ctx: ProviderContext = {
      signal: deps.signal ?? AbortSignal.timeout(30_000),
      logger: deps.logger ?? silentLogger,
      resync: true,
    };
    return overRegions(provider)
      ? await planned(obj, provider, ctx, deps.kube)
      : await plannedInOneRegion(obj, provider, ctx, deps);
  } catch (err) {
    return failedTopology(obj, errorMessage(err));
  }
}

/** The EndpointSlices the object's stack is built from (which cluster each address is in). */
async function slicesOf(kube: KubeClient, obj: Obj): Promise<EndpointSlice[]> {
  return obj.kind === 'MultiClusterService'
    ? (await readServiceInputs(kube, obj as MultiClusterService)).endpointSlices
    : (await readIngressInputs(kube, obj as MultiClusterIngress)).endpointSlices;
}

/** The model's stack as if deployed (no AWS to ask: the fake provider's picture). */
async function modelled(obj: Obj, deps: TopologySourceDeps): Promise<Topology> {
  const config = deps.config;
  if (obj.kind === 'MultiClusterService') {
    const mcs = obj as MultiClusterService;
    const inputs = await readServiceInputs(deps.kube, mcs);
    const stack = buildServiceStack({ mcs, ...inputs, config });
    return buildTopology({
      object: obj,
      stack,
      endpointSlices: inputs.endpointSlices,
      region: config.region,
    });
  }
  const mci = obj as MultiClusterIngress;
  const inputs = await readIngressInputs(deps.kube, mci);
  const stack = buildIngressStack({ mci, ...inputs, config });
  return buildTopology({ object: obj, stack, endpointSlices: inputs.endpointSlices, region: config.region });
}

async function plannedInOneRegion(
  obj: Obj,
  provider: AwsProvider,
  ctx: ProviderContext,
  deps: TopologySourceDeps,
): Promise<Topology> {
  const result = await provider.plan(ctx, obj);
  const { target } = result;
  const topology = buildTopology({
    object: obj,
    stack: target.stack,
    endpointSlices: await slicesOf(deps.kube, obj),
    region: deps.config.region,
    plan: result.plan,
    ...(target.dnsName !== undefined ? { dnsName: target.dnsName } : {}),
  });
  const door = frontDoorOf({
    ...target.accelerator,
    ...(result.accelerator ? { plan: result.accelerator } : {}),
  });
  return door ? { ...topology, frontDoors: [door] } : topology;
}

/** Every Region that serves the object, each from its own plan; a Region's failure is told, not hidden. */
async function planned(
  obj: Obj,
  provider: MultiRegionProvider,
  ctx: ProviderContext,
  kube: KubeClient,
): Promise<Topology> {
  const plans = await provider.plan(ctx, obj);
  const slices = await slicesOf(kube, obj);
  const clusters = await provider.clusters.read(ctx, kube);
  const regions: RegionNode[] = [];
  const errors: string[] = [];
  for (const p of plans) {
    if (!p.result) {
      errors.push(`${p.region}: ${p.error ?? 'no plan'}`);
      continue;
    }
    const { target, plan } = p.result;
    if (!target.served) continue;
    const here = slices.filter((s) => {
      const cluster = sliceCluster(s);
      return cluster !== undefined && clusters.regionOf(cluster) === p.region;
    });
    const t = buildTopology({
      object: obj,
      stack: target.stack,
      endpointSlices: here,
      region: p.region,
      plan,
      ...(target.dnsName !== undefined ? { dnsName: target.dnsName } : {}),
    });
    if (t.error !== undefined) errors.push(`${p.region}: ${t.error}`);
    regions.push(...t.regions);
  }
  // Each Region's dial going to 0 comes before its deploy; the rest of the accelerator after all.
  const door = frontDoorOf({
    ...plans.front,
    plan: [...plans.flatMap((p) => p.result?.accelerator ?? []), ...(plans.accelerator ?? [])],
  });
  return {
    object: objectOf(obj),
    frontDoors: door ? [door] : [],
    regions,
    blockedClusters: blockedOf(obj),
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  };
}
