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
import { resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../elbv2-sim/index.js';
import { startEc2Simulator, type Ec2Simulator } from '../ec2-sim/index.js';
import { startAcmSimulator, type AcmSimulator } from '../acm-sim/index.js';
import { startShieldSimulator, type ShieldSimulator } from '../shield-sim/index.js';
import { startWafv2Simulator, type Wafv2Simulator } from '../wafv2-sim/index.js';
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
  /** `fake` (default) or `aws`, which runs against the ELBv2 simulator started here. */
  provider?: 'fake' | 'aws';
  /** The ELBv2 simulator's port (provider `aws`); 0 picks a free one. */
  elbv2Port?: number;
}

export interface Pipeline {
  api: KubeApiServer;
  /** The ELBv2 simulator, when the provider is `aws`. */
  elbv2?: Elbv2Simulator;
  /** The EC2 simulator beside it (the VPC's CIDRs and subnets), when the provider is `aws`. */
  ec2?: Ec2Simulator;
  /** The WAFv2, Shield and ACM simulators beside it (the ALBs' edge), when the provider is `aws`. */
  edge?: EdgeSimulators;
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
  const edge = {
    wafv2: await startWafv2Simulator({ loadBalancers, region: elbv2.region }),
    shield: await startShieldSimulator({ loadBalancers }),
    acm: await startAcmSimulator(),
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
    ...(options.persist ? { persistFile: join(stateDir, 'api-objects.json') } : {}),
  });
  const kubeconfigPath = api.writeKubeconfig(join(stateDir, 'kubeconfig.yaml'));
  const provider = options.provider ?? 'fake';
  const elbv2 =
    provider === 'aws'
      ? await startElbv2Simulator({
          port: options.elbv2Port ?? 0,
          ...(options.persist ? { persistFile: join(stateDir, 'elbv2-state.json') } : {}),
        })
      : undefined;
  // Stateless (it serves the network both simulators share): nothing to persist, any free port.
  const ec2 = elbv2 ? await startEc2Simulator() : undefined;
  const edge = elbv2 ? await startEdgeSimulators(elbv2) : undefined;
  const cloudConfig = join(stateDir, `${provider}-provider.yaml`);
  writeFileSync(
    cloudConfig,
    elbv2 ? awsConfigFor(elbv2, {}, ec2, edge) : `stateFile: ${join(stateDir, 'fake-load-balancers.json')}\n`,
  );
  if (elbv2) {
    // The SDK insists on credentials; the simulator ignores them.
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    process.env.AWS_REGION ??= elbv2.region;
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
    ...(elbv2 ? { elbv2 } : {}),
    ...(ec2 ? { ec2 } : {}),
    ...(edge ? { edge } : {}),
    functionUrl: fn.url,
    kubeconfigPath,
    kube,
    kubeConfig,
    ...(forwarder ? { forwarder } : {}),
    async close() {
      await forwarder?.shutdown();
      await fn.close();
      await api.close();
      await elbv2?.close();
      await ec2?.close();
      await edge?.wafv2.close();
      await edge?.shield.close();
      await edge?.acm.close();
    },
  };
}

/** Creates each object unless it exists (a resumed run keeps what the user changed). */
export async function seed(kube: KubeClient, objects: KubeObject[]): Promise<void> {
  for (const obj of objects) {
    const type = resourceFor(obj.apiVersion ?? '', obj.kind ?? '');
    if (!type) throw new Error(`no resource type for ${obj.apiVersion} ${obj.kind}`);
    const existing = await kube.get(type, obj.metadata.namespace, obj.metadata.name ?? '');
    if (existing) continue;
    const { status, ...rest } = obj as KubeObject & { status?: unknown };
    const created = await kube.create(type, rest as KubeObject);
    if (status && type.statusSubresource) await kube.updateStatus(type, { ...created, status } as KubeObject);
  }
}

/**
 * An AWS provider configuration for the ELBv2 simulator's account, VPC and subnets. With an EC2
 * simulator the VPC's CIDRs are read from it (no `vpc.cidrs`); without, they are configured.
 */
export function awsConfigFor(
  sim: Elbv2Simulator,
  extra: Record<string, unknown> = {},
  ec2?: Pick<Ec2Simulator, 'url'>,
  edge?: { [K in keyof EdgeSimulators]: Pick<EdgeSimulators[K], 'url'> },
): string {
  return JSON.stringify(
    {
      region: sim.region,
      endpoint: sim.url,
      taggingEndpoint: sim.url,
      ownerId: 'local',
      // Where the stand-in keeps its locks too (it starts with default and karmada-system).
      recordNamespace: 'karmada-system',
      ...(ec2
        ? { ec2Endpoint: ec2.url, vpc: { id: sim.network.vpcId } }
        : { vpc: { id: sim.network.vpcId, cidrs: [sim.network.vpcCidr] } }),
      subnets: sim.network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
      securityGroups: [sim.network.defaultSecurityGroupId],
      ...(edge
        ? { wafv2Endpoint: edge.wafv2.url, shieldEndpoint: edge.shield.url, acmEndpoint: edge.acm.url }
        : {}),
      ...extra,
    },
    null,
    2,
  );
}
