/**
 * The ELBv2 and EC2 simulators linked as one account (a load balancer may only name groups EC2
 * has, and a group in use, or just let go of, cannot be deleted), and a provider that manages
 * security groups (the configuration names none): the managed-group tests' world, ALB and NLB.
 */
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { elbv2ClientFor, SIM_NETWORK, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider } from '../../lib/providers/aws/index.js';
import { startAwsEnv, type AwsEnv } from './aws-env.js';

export interface ManagedGroupEnv {
  e: AwsEnv;
  ec2: Ec2Simulator;
  provider: AwsProvider;
  ctx(resync?: boolean): ProviderContext;
  /** Every group but the VPC's default one. */
  managed(): ReturnType<Ec2Simulator['state']['securityGroups']['all']>;
  close(): Promise<void>;
}

/**
 * `releaseAttempts`: how many DeleteSecurityGroup calls a deleted load balancer's interfaces still
 * refuse (default 1). A reconcile makes two (resourceInUseAttempts), so 2 outlasts one reconcile.
 */
export async function startManagedGroupEnv(
  objects: KubeObject[],
  { releaseAttempts = 1 }: { releaseAttempts?: number } = {},
): Promise<ManagedGroupEnv> {
  const e = await startAwsEnv(objects);
  const ec2 = await startEc2Simulator({ elbv2: e.sim, releaseAttempts, inProcess: true });
  const { securityGroups: _none, ...config } = e.config;
  const provider = new AwsProvider(
    config,
    { kube: e.kube, logger: e.logger },
    {
      client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }),
      tagging: taggingClientFor(e.sim),
      ec2: ec2ClientFor(ec2, { retryDelayMs: 1 }),
      deploy: { resourceInUseAttempts: 2, resourceInUseDelayMs: 1 },
    },
  );
  return {
    e,
    ec2,
    provider,
    ctx: (resync = false) => ({ ...e.ctx, signal: new AbortController().signal, resync }),
    managed: () =>
      ec2.state.securityGroups.all().filter((g) => g.groupId !== SIM_NETWORK.defaultSecurityGroupId),
    close: async () => {
      await e.close();
      await ec2.close();
    },
  };
}
