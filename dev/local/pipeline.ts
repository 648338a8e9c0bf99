/**
 * The local pipeline – the deployed pipeline minus AWS: the Kubernetes API stand-in, the cluster
 * watch forwarder, and the HTTP function running the deployed handler code behind the forwarder's
 * HTTP sink; optionally seeded with the upstream README's scenario. `npm start` and end-to-end
 * tests use it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { startKubeApiServer, type KubeApiServer } from '../kube-apiserver/index.js';
import { createKubeClient } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources, resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { withKarmadaCollection } from './karmada-collection.js';
import { SIM_REGION, startElbv2Simulator, type Elbv2Simulator } from '../elbv2-sim/index.js';
import { startEc2Simulator, type Ec2Simulator } from '../ec2-sim/index.js';
import { startAcmSimulator, type AcmSimulator } from '../acm-sim/index.js';
import { startShieldSimulator, type ShieldSimulator } from '../shield-sim/index.js';
import { startWafv2Simulator, type Wafv2Simulator } from '../wafv2-sim/index.js';
import { endpointsIn, startGaSimulator, type GaSimulator } from '../ga-sim/index.js';
import { startFunctionServer, type FunctionServer } from './function-server.js';
import { INGRESS_CLASS_CONTROLLER, upstreamScenario } from './scenario.js';
import { Forwarder } from '../../lib/forwarder/forwarder.js';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { createLogger } from '../../lib/log/logger.js';

export interface PipelineOptions {
  /** Where state (API objects, fake load balancers, kubeconfig) is kept. */
  stateDir: string;
  /** API server port; 0 picks a free one. */
  apiPort?: number;
  /** Keep API objects in stateDir across runs. */
  persist?: boolean;
  /** Create the upstream scenario's objects at start. */
  seed?: boolean;
  /** LOG_LEVEL of the functions. */
  logLevel?: string;
  /** What delivers notifications to the function: the cluster watch forwarder, or nothing (callers POST). */
  notificationSource?: 'forwarder' | 'none';
  /** `fake` (default) or `aws`, which runs against the simulators started here. */
  provider?: 'fake' | 'aws';
  /**
   * Provider `aws`: the Regions, the primary first, each with its ELBv2, EC2 and edge simulators
   * (default: SIM_REGION alone). One Region is today's one-Region configuration; several are the
   * multi-Region provider's (`regions:`), with Global Accelerator in front of every object.
   */
  regions?: readonly string[];
  /** The primary Region's ELBv2 simulator port (provider `aws`); 0 picks a free one. */
  elbv2Port?: number;
  /** The other Regions' ELBv2 simulator ports, by Region (absent or 0: a free one). */
  elbv2Ports?: Readonly<Record<string, number>>;
  /** The Global Accelerator simulator's port (absent or 0: a free one). */
  gaPort?: number;
  /**
   * Called when a port asked for is taken: true takes a free one instead, false fails the start
   * (EADDRINUSE), as a taken port does without it. `what` names the simulator (`ELBv2 us-east-1`,
   * `Global Accelerator`).
   */
  portTaken?: (what: string, port: number) => boolean;
}

/** One Region's simulators (provider `aws`). */
export interface RegionSimulators {
  region: string;
  elbv2: Elbv2Simulator;
  /** The VPC's CIDRs and subnets in this Region. */
  ec2: Ec2Simulator;
  /** WAFv2, Shield and ACM over this Region's load balancers. */
  edge: EdgeSimulators;
}

export interface Pipeline {
  api: KubeApiServer;
  /** Every Region's simulators, the primary first, when the provider is `aws` (else empty). */
  regions: readonly RegionSimulators[];
  /** The primary Region's ELBv2 simulator, when the provider is `aws`. */
  elbv2?: Elbv2Simulator;
  /** The EC2 simulator beside it (the VPC's CIDRs and subnets), when the provider is `aws`. */
  ec2?: Ec2Simulator;
  /** The WAFv2, Shield and ACM simulators beside it (the ALBs' edge), when the provider is `aws`. */
  edge?: EdgeSimulators;
  /**
   * The Global Accelerator simulator (its API in us-west-2) over every Region's load balancers,
   * when the provider is `aws`. With one Region an object annotated
   * `multicluster.karmada.io/global-accelerator: "true"` gets an accelerator there; with several,
   * every object does unless annotated "false".
   */
  ga?: GaSimulator;
  /** The provider configuration the function reads (CLOUD_CONFIG), as written. */
  providerConfigText: string;
  functionUrl: string;
  kubeconfigPath: string;
  kube: KubeClient;
  kubeConfig: KubeConfig;
  /** The cluster watch forwarder delivering notifications to the function (HTTP sink). */
  forwarder?: Forwarder;
  close(): Promise<void>;
}

export interface EdgeSimulators {
  wafv2: Wafv2Simulator;
  shield: ShieldSimulator;
  acm: AcmSimulator;
}

export const LOCAL_WEB_ACL = 'local-web-acl';
export const LOCAL_CERTIFICATE_DOMAIN = '*.example.com';

/** The edge simulators over the ELBv2 simulator's load balancers (stateless: fixtures are made by hand). */
export async function startEdgeSimulators(elbv2: Elbv2Simulator): Promise<EdgeSimulators> {
  const loadBalancers = (arn: string) => elbv2.state.store.loadBalancers.get(arn);
  // Served as the ELBv2 simulator is: over HTTP, or in process.
  const inProcess = elbv2.requestHandler !== undefined;
  const edge = {
    wafv2: await startWafv2Simulator({ loadBalancers, region: elbv2.region, inProcess }),
    shield: await startShieldSimulator({ loadBalancers, inProcess }),
    acm: await startAcmSimulator({ region: elbv2.region, inProcess }),
  };
  // Something to try: `alb.ingress.kubernetes.io/wafv2-acl-name: local-web-acl`, and HTTPS for
  // a host under example.com without a certificate-arn.
  edge.wafv2.state.addWebAcl(LOCAL_WEB_ACL);
  edge.acm.state.addCertificate(LOCAL_CERTIFICATE_DOMAIN);
  return edge;
}

export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const stateDir = resolve(options.stateDir);
  mkdirSync(stateDir, { recursive: true });
  const api = await startKubeApiServer({
    port: options.apiPort ?? 0,
    ...(options.persist ? { persistFile: apiObjectsFile(stateDir) } : {}),
  });
  const kubeconfigPath = api.writeKubeconfig(join(stateDir, 'kubeconfig.yaml'));
  const provider = options.provider ?? 'fake';
  const regions = provider === 'aws' ? await startRegions(stateDir, options) : [];
  const primary = regions[0];
  // Accelerators are made and deleted by the provider: kept next to the load balancers they front.
  const ga = primary
    ? await listen('Global Accelerator', options.gaPort ?? 0, options.portTaken, (port) =>
        startGaSimulator({
          port,
          endpoints: endpointsIn(regions.map((r) => r.elbv2)),
          ...(options.persist ? { persistFile: join(stateDir, 'ga-state.json') } : {}),
        }),
      )
    : undefined;
  const cloudConfig = join(stateDir, `${provider}-provider.yaml`);
  const providerConfigText = !primary
    ? `stateFile: ${join(stateDir, 'fake-load-balancers.json')}\n`
    : regions.length === 1
      ? awsConfigFor(primary.elbv2, {}, primary.ec2, primary.edge, ga)
      : localRegionsConfig(regions, ga!);
  writeFileSync(cloudConfig, providerConfigText);
  if (primary) {
    // The SDK insists on credentials; the simulator ignores them.
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    process.env.AWS_REGION ??= primary.region;
  }

  // The function reads its configuration from the environment, exactly as in Lambda.
  process.env.MULTICLUSTER_PROVIDER ??= provider;
  process.env.PROVIDER_INGRESS_CLASS ??= INGRESS_CLASS_CONTROLLER;
  process.env.CLOUD_CONFIG ??= cloudConfig;
  process.env.KUBECONFIG = kubeconfigPath;
  process.env.LOG_LEVEL ??= options.logLevel ?? 'WARN';
  process.env.AWS_LAMBDA_FUNCTION_NAME ??= 'multicluster-cloud-provider-local-http';
  const { handler } = await import('../../functions/http.js');
  const fn: FunctionServer = await startFunctionServer(handler, 'http');

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const kube = createKubeClient(kubeConfig);
  if (options.seed) await seed(kube, upstreamScenario());

  // The deployed pipeline minus AWS: the real forwarder, its HTTP sink pointed at the function.
  const forwarder =
    options.notificationSource === 'none'
      ? undefined
      : new Forwarder({
          api: createKubeApi(kubeConfig),
          sink: new HttpSink({ url: fn.url }),
          identity: 'local',
          coalesceWindowMs: 50,
          resyncPeriodMs: 10 * 60_000,
          logger: createLogger({ serviceName: 'multicluster-forwarder', level: process.env.LOG_LEVEL }),
        });
  await forwarder?.start();
  return {
    api,
    regions,
    ...(primary ? { elbv2: primary.elbv2, ec2: primary.ec2, edge: primary.edge } : {}),
    ...(ga ? { ga } : {}),
    providerConfigText,
    functionUrl: fn.url,
    kubeconfigPath,
    kube,
    kubeConfig,
    ...(forwarder ? { forwarder } : {}),
    async close() {
      await forwarder?.shutdown();
      await fn.close();
      await api.close();
      for (const r of regions) await closeRegion(r);
      await ga?.close();
    },
  };
}

/** Where a persisted run keeps the API objects. */
export function apiObjectsFile(stateDir: string): string {
  return join(stateDir, 'api-objects.json');
}

const sameLabels = (a: KubeObject, b: KubeObject) =>
  JSON.stringify(a.metadata.labels ?? {}) === JSON.stringify(b.metadata.labels ?? {});

/**
 * Creates each object unless it exists. For a state directory, only a fresh one (no
 * apiObjectsFile yet) is seeded: a restart keeps what the user changed, deleted objects included.
 * A derived EndpointSlice among them comes with what Karmada holds beside it, its execution
 * namespace and Work (karmada-collection.ts): the scenario's slices are Karmada's. A test of a
 * hand-written slice creates that slice itself.
 */
export async function seed(kube: KubeClient, objects: KubeObject[]): Promise<void> {
  for (const obj of withKarmadaCollection(objects)) {
    const type = resourceFor(obj.apiVersion ?? '', obj.kind ?? '');
    if (!type) throw new Error(`no resource type for ${obj.apiVersion} ${obj.kind}`);
    const existing = await kube.get(type, obj.metadata.namespace, obj.metadata.name ?? '');
    if (existing && obj.kind === 'Work' && !sameLabels(existing, obj)) {
      // Two slices whose Works would share a name (a slice moved to another namespace after its
      // Work was named): one of them would not be Karmada's.
      throw new Error(
        `Work ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''} exists for another EndpointSlice`,
      );
    }
    if (existing) continue;
    const { status, ...rest } = obj as KubeObject & { status?: unknown };
    const created = await kube.create(type, rest as KubeObject);
    if (status && type.statusSubresource) await kube.updateStatus(type, { ...created, status } as KubeObject);
  }
}

/**
 * The scenario's Clusters' `spec.region` where they have none (seeded by a run before Regions:
 * the multi-Region provider would leave their endpoints out), and what is wrong with the others:
 * a Region not among `configured`. Returns lines to tell.
 */
export async function checkClusterRegions(
  kube: KubeClient,
  seeded: Readonly<Record<string, string>>,
  configured: readonly string[],
): Promise<string[]> {
  const lines: string[] = [];
  const clusters = await kube.list<KubeObject & { spec?: { region?: string } }>(Resources.Cluster);
  for (const c of clusters.items) {
    const name = c.metadata.name ?? '';
    const region = c.spec?.region;
    const wanted = seeded[name];
    if (!region && wanted) {
      await kube.update(Resources.Cluster, { ...c, spec: { ...c.spec, region: wanted } } as KubeObject);
      lines.push(`Cluster ${name} had no spec.region (seeded by an earlier run): set to ${wanted}`);
    } else if (region && !configured.includes(region)) {
      lines.push(
        `Cluster ${name} is in ${region}, not among --regions: its endpoints are left out (kubectl edit cluster ${name} moves it)`,
      );
    }
  }
  return lines;
}

/** The ELBv2 simulator's state file of a Region: SIM_REGION's is the one a one-Region run kept. */
export function elbv2StateFile(stateDir: string, region: string): string {
  return join(stateDir, region === SIM_REGION ? 'elbv2-state.json' : `elbv2-${region}-state.json`);
}

/** Each Region's ELBv2 (persisted), EC2 and edge simulators, the primary first. */
async function startRegions(stateDir: string, options: PipelineOptions): Promise<RegionSimulators[]> {
  const started: RegionSimulators[] = [];
  try {
    for (const [i, region] of (options.regions ?? [SIM_REGION]).entries()) {
      const port = (i === 0 ? options.elbv2Port : undefined) ?? options.elbv2Ports?.[region] ?? 0;
      const elbv2 = await listen(`ELBv2 ${region}`, port, options.portTaken, (p) =>
        startElbv2Simulator({
          port: p,
          region,
          // IDs of their own in each Region (the seed also makes them), as AWS's are.
          seed: 1 + i,
          ...(options.persist ? { persistFile: elbv2StateFile(stateDir, region) } : {}),
        }),
      );
      // Stateless (it serves the Region's network the ELBv2 simulator knows): nothing to persist,
      // any free port.
      const ec2 = await startEc2Simulator({ region });
      started.push({ region, elbv2, ec2, edge: await startEdgeSimulators(elbv2) });
    }
    return started;
  } catch (err) {
    for (const r of started) await closeRegion(r);
    throw err;
  }
}

async function closeRegion(r: RegionSimulators): Promise<void> {
  await r.elbv2.close();
  await r.ec2.close();
  await r.edge.wafv2.close();
  await r.edge.shield.close();
  await r.edge.acm.close();
}

/** Starts a simulator on `port`; when it is taken and `taken` is given, on a free one instead. */
async function listen<T>(
  what: string,
  port: number,
  taken: ((what: string, port: number) => boolean) | undefined,
  start: (port: number) => Promise<T>,
): Promise<T> {
  try {
    return await start(port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0 || !taken?.(what, port)) throw err;
    return start(0);
  }
}

/** A Region's simulators, as far as a provider configuration names them. */
export interface RegionEndpoints {
  region: string;
  elbv2: Pick<Elbv2Simulator, 'url' | 'network'>;
  ec2?: Pick<Ec2Simulator, 'url'>;
  edge?: { [K in keyof EdgeSimulators]: Pick<EdgeSimulators[K], 'url'> };
}

export interface RegionPartOptions {
  /** The VPC's CIDRs written in the file even with an EC2 simulator (without one, always). */
  configuredCidrs?: boolean;
  /** No security groups: stacks that name none get managed ones (EC2's). Default: the VPC's default group. */
  managedSecurityGroups?: boolean;
}

/**
 * One Region's part of a provider configuration over its simulators: the top level of a one-Region
 * file, or an entry of `regions`. With an EC2 simulator the VPC's CIDRs are read from it, unless
 * `configuredCidrs`; without, they are configured.
 */
export function regionPartFor(r: RegionEndpoints, options: RegionPartOptions = {}): Record<string, unknown> {
  const { network } = r.elbv2;
  return {
    region: r.region,
    endpoint: r.elbv2.url,
    taggingEndpoint: r.elbv2.url,
    ...(r.ec2 ? { ec2Endpoint: r.ec2.url } : {}),
    ...(r.edge ? { wafv2Endpoint: r.edge.wafv2.url, acmEndpoint: r.edge.acm.url } : {}),
    vpc: {
      id: network.vpcId,
      ...(r.ec2 && !options.configuredCidrs ? {} : { cidrs: [network.vpcCidr] }),
    },
    subnets: network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    ...(options.managedSecurityGroups ? {} : { securityGroups: [network.defaultSecurityGroupId] }),
  };
}

/**
 * A multi-Region provider configuration over every Region's simulators, the first the primary.
 * Shield's endpoint is one for all Regions (its API is global): the first Region's. `top`: the
 * rest of the file (ownerId, globalAccelerator, ...). The chaos run's configuration is this too.
 */
export function regionsConfigFor(
  regions: readonly RegionEndpoints[],
  options: RegionPartOptions,
  top: Record<string, unknown>,
): string {
  const shield = regions[0]?.edge?.shield.url;
  return JSON.stringify(
    {
      // Where the stand-in keeps its locks too (it starts with default and karmada-system).
      recordNamespace: 'karmada-system',
      ...(shield ? { shieldEndpoint: shield } : {}),
      regions: regions.map((r) => regionPartFor(r, options)),
      ...top,
    },
    null,
    2,
  );
}

/**
 * `npm start`'s configuration over several Regions: the VPCs' CIDRs read from EC2, the default
 * security group, and Global Accelerator in front of every object (an object annotated
 * `multicluster.karmada.io/global-accelerator: "false"` opts out).
 */
export function localRegionsConfig(
  regions: readonly RegionEndpoints[],
  ga: Pick<GaSimulator, 'url' | 'state'>,
): string {
  return regionsConfigFor(
    regions,
    {},
    {
      ownerId: 'local',
      globalAccelerator: { ...localAccelerator(ga), enabled: true },
    },
  );
}

/**
 * The simulator's Global Accelerator, looked at again as soon as its changes deploy (seconds,
 * where AWS takes minutes): a drain or a deletion that waits on GA moves at the simulator's pace.
 */
function localAccelerator(ga: Pick<GaSimulator, 'url' | 'state'>): { endpoint: string; pollSeconds: number } {
  return { endpoint: ga.url, pollSeconds: Math.max(1, Math.ceil(ga.state.deployMs / 1000)) };
}

/**
 * A one-Region AWS provider configuration for the ELBv2 simulator's account, VPC and subnets. With
 * an EC2 simulator the VPC's CIDRs are read from it (no `vpc.cidrs`); without, they are configured.
 */
export function awsConfigFor(
  sim: Pick<Elbv2Simulator, 'url' | 'network' | 'region'>,
  extra: Record<string, unknown> = {},
  ec2?: Pick<Ec2Simulator, 'url'>,
  edge?: RegionEndpoints['edge'],
  ga?: Pick<GaSimulator, 'url' | 'state'>,
): string {
  return JSON.stringify(
    {
      ...regionPartFor({
        region: sim.region,
        elbv2: sim,
        ...(ec2 ? { ec2 } : {}),
        ...(edge ? { edge } : {}),
      }),
      ownerId: 'local',
      // Where the stand-in keeps its locks too (it starts with default and karmada-system).
      recordNamespace: 'karmada-system',
      ...(edge ? { shieldEndpoint: edge.shield.url } : {}),
      ...(ga ? { globalAccelerator: localAccelerator(ga) } : {}),
      ...extra,
    },
    null,
    2,
  );
}
