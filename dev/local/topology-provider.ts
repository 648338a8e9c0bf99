/**
 * The provider the topology page plans with in `npm start`: the same configuration the function
 * reads (pipeline.providerConfigText), over the same simulators, so the page shows what the
 * function does: over several Regions, each Region's load balancer and the accelerator in front.
 * A plan is a dry run: no owner claim, nothing created.
 */
import { ec2ClientFor } from '../ec2-sim/index.js';
import { elbv2ClientFor, taggingClientFor } from '../elbv2-sim/index.js';
import { gaClientFor } from '../ga-sim/index.js';
import { silentLogger } from '../../lib/log/logger.js';
import { AwsProvider, parseAwsConfig, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { buildMultiRegionProvider } from '../../lib/providers/aws/regions/build.js';
import type { TopologyProvider } from '../../lib/topology/source.js';
import type { Pipeline, RegionSimulators } from './pipeline.js';
import { simulatorConfigText } from './sim-config.js';

export interface TopologySource {
  config: AwsProviderConfig;
  /** Absent with the fake provider: the page draws what the AWS provider would build. */
  provider?: TopologyProvider;
  note: string;
}

export async function topologySourceFor(pipeline: Pipeline): Promise<TopologySource> {
  const primary = pipeline.regions[0];
  if (!primary) {
    return {
      config: await parseAwsConfig(simulatorConfigText('local')),
      note: 'fake provider: the load balancers the aws provider would build for these objects',
    };
  }
  const config = await parseAwsConfig(pipeline.providerConfigText);
  const deps = { kube: pipeline.kube, logger: silentLogger };
  const ga = pipeline.ga ? { ga: gaClientFor(pipeline.ga) } : {};
  const clients = (r: RegionSimulators) => ({
    client: elbv2ClientFor(r.elbv2),
    tagging: taggingClientFor(r.elbv2),
    ec2: ec2ClientFor(r.ec2),
    ...ga,
  });
  const names = pipeline.regions.map((r) => r.region);
  const note = `aws provider: the simulators of ${names.join(' and ')}${pipeline.ga ? ', Global Accelerator in front' : ''}; dashed boxes are changes still to be applied`;
  if (!config.regions) return { config, provider: new AwsProvider(config, deps, clients(primary)), note };
  const provider = buildMultiRegionProvider(config, deps, {}, (region) => {
    const r = pipeline.regions.find((x) => x.region === region);
    if (!r) throw new Error(`the local configuration names Region ${region}, which has no simulators`);
    return clients(r);
  });
  return { config, provider, note };
}
