/**
 * The AWS provider: MultiClusterIngress → Application Load Balancer. Stateless: every call
 * re-reads the object's inputs from Kubernetes and the actual state from AWS (by name and tags).
 */
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { IngressLoadBalancerStatus, MultiClusterIngress } from '../../karmada/types.js';
import type {
  GetResult,
  LoadBalancer,
  MCSLoadBalancer,
  MultiClusterProvider,
  ProviderContext,
  ProviderDependencies,
} from '../../provider/contract.js';
import type { AwsProviderConfig } from './config.js';
import { DEFAULT_DEPLOY_OPTIONS, type DeployContext, type DeployOptions } from './deploy/context.js';
import { deleteStack, deployStack, findOwnedLoadBalancer, listenerPorts } from './deploy/deployer.js';
import { readIngressInputs } from './inputs.js';
import { buildIngressStack, ingressLoadBalancerName, ingressStackOwner } from './model/ingress.js';

export const AWS_PROVIDER_NAME = 'aws';

export interface AwsProviderOptions {
  client: ElasticLoadBalancingV2Client;
  deploy?: Partial<DeployOptions>;
}

/** `{ ingress: [{ hostname, ports }] }` as LBC reports it: the lower-cased DNS name and listener ports. */
export function ingressStatus(dnsName: string, ports: readonly number[]): IngressLoadBalancerStatus {
  return {
    ingress: [
      { hostname: dnsName.toLowerCase(), ports: ports.map((port) => ({ port, protocol: 'TCP' as const })) },
    ],
  };
}

class AwsIngressLoadBalancer implements LoadBalancer {
  constructor(
    private readonly config: AwsProviderConfig,
    private readonly deps: ProviderDependencies,
    private readonly options: AwsProviderOptions,
  ) {}

  private context(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>): DeployContext {
    const owner = ingressStackOwner(mci, this.config.ownerId);
    return {
      client: this.options.client,
      signal: ctx.signal,
      logger: ctx.logger.child({ provider: AWS_PROVIDER_NAME, stack: owner.stackId }),
      owner,
      vpcId: this.config.vpc.id,
      options: { ...DEFAULT_DEPLOY_OPTIONS, ...this.options.deploy },
    };
  }

  async get(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<GetResult<IngressLoadBalancerStatus>> {
    const dctx = this.context(ctx, mci);
    const lb = await findOwnedLoadBalancer(dctx, [
      ingressLoadBalancerName(mci, this.config.ownerId, this.config.scheme),
    ]);
    if (!lb?.LoadBalancerArn) return { exists: false };
    return {
      exists: true,
      status: ingressStatus(lb.DNSName ?? '', await listenerPorts(dctx, lb.LoadBalancerArn)),
    };
  }

  ensure(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<IngressLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, mci);
  }

  update(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<IngressLoadBalancerStatus | undefined> {
    return this.reconcile(ctx, mci);
  }

  async ensureDeleted(ctx: ProviderContext, mci: Readonly<MultiClusterIngress>): Promise<void> {
    // No model here: deletion must work even when the spec no longer builds one. Both schemes'
    // names are tried so a scheme change in the configuration does not strand the old ALB.
    const names = (['internal', 'internet-facing'] as const).map((scheme) =>
      ingressLoadBalancerName(mci, this.config.ownerId, scheme),
    );
    const current = ingressLoadBalancerName(mci, this.config.ownerId, this.config.scheme);
    await deleteStack(this.context(ctx, mci), [current, ...names.filter((n) => n !== current)]);
  }

  // Ensure and update are one level-triggered reconcile: the same desired stack either way.
  private async reconcile(
    ctx: ProviderContext,
    mci: Readonly<MultiClusterIngress>,
  ): Promise<IngressLoadBalancerStatus | undefined> {
    const inputs = await readIngressInputs(this.deps.kube, mci);
    const stack = buildIngressStack({ mci, ...inputs, config: this.config });
    const dctx = this.context(ctx, mci);
    dctx.logger.debug('built model', { stack });
    const result = await deployStack(dctx, stack, { fullSweep: ctx.resync === true });
    return ingressStatus(result.dnsName, result.listenerPorts);
  }
}

export class AwsProvider implements MultiClusterProvider {
  private readonly ingress: AwsIngressLoadBalancer;
  constructor(config: AwsProviderConfig, deps: ProviderDependencies, options: AwsProviderOptions) {
    this.ingress = new AwsIngressLoadBalancer(config, deps, options);
  }
  loadBalancer(): LoadBalancer {
    return this.ingress;
  }
  /** Network load balancers for MultiClusterService come later. */
  mcsLoadBalancer(): MCSLoadBalancer | undefined {
    return undefined;
  }
  providerName(): string {
    return AWS_PROVIDER_NAME;
  }
}
