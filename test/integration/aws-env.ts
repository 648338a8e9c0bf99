/**
 * A simulator + in-memory Kubernetes + AWS provider environment shared by the part-2 integration
 * tests (NLB, annotations, drift, plans, limits, throttling).
 */
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  type Elbv2Simulator,
  type Elbv2SimulatorOptions,
} from '../../dev/elbv2-sim/index.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import {
  AwsProvider,
  buildIngressStack,
  buildServiceStack,
  DEFAULT_HEALTH_CHECK,
  DEFAULT_RECORD_NAMESPACE,
  ELBV2_MUTATING_ACTIONS,
  type AwsProviderConfig,
} from '../../lib/providers/aws/index.js';
import { readIngressInputs, readServiceInputs } from '../../lib/providers/aws/inputs.js';
import type { ElbQuotas } from '../../lib/providers/aws/model/limits.js';
import { withKarmadaCollection } from '../../dev/local/karmada-collection.js';
import { MemoryKube } from '../support/memory-kube.js';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { callCounts, expectedSummary, summarize } from './aws-alb-support.js';

export const simConfig: AwsProviderConfig = {
  region: 'us-east-1',
  vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr] },
  subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
  securityGroups: [SIM_NETWORK.defaultSecurityGroupId],
  scheme: 'internal',
  ownerId: 'karmada-test',
  recordNamespace: DEFAULT_RECORD_NAMESPACE,
  defaultTags: { team: 'platform' },
  healthCheck: { ...DEFAULT_HEALTH_CHECK },
  maxAttempts: 3,
  // These tests are about the model and the deploy, with annotations the closed default refuses.
  tenantPolicy: ALLOW_ALL,
};

export const PUBLIC_SUBNETS = SIM_NETWORK.subnets.filter((s) => s.public).map((s) => s.subnetId);
export const CERT_A = 'arn:aws:acm:us-east-1:123456789012:certificate/aaaa-1111';
export const CERT_B = 'arn:aws:acm:us-east-1:123456789012:certificate/bbbb-2222';
export const CERT_C = 'arn:aws:acm:us-east-1:123456789012:certificate/cccc-3333';

export interface AwsEnv {
  sim: Elbv2Simulator;
  kube: MemoryKube;
  provider: AwsProvider;
  config: AwsProviderConfig;
  logger: MemoryLogger;
  ctx: ProviderContext;
  /** What the provider announced; `type` only on a Normal Event (Warning is the default). */
  announced: Array<{ reason: string; message: string; type?: 'Normal' }>;
  /** Runs `fn` and returns the ELBv2 calls it made, by action. */
  measured(fn: () => Promise<unknown>): Promise<Record<string, number>>;
  /** Successful mutating calls since the last reset, in order. */
  mutatingCalls(): string[];
  /** `accountQuotas`: the account's, when the stack is over AWS's defaults. */
  expectedForMci(
    mci: MultiClusterIngress,
    accountQuotas?: ElbQuotas,
  ): Promise<ReturnType<typeof expectedSummary>>;
  expectedForMcs(mcs: MultiClusterService): Promise<ReturnType<typeof expectedSummary>>;
  state(): ReturnType<typeof summarize>;
  close(): Promise<void>;
}

export async function startAwsEnv(
  objects: KubeObject[],
  o: { config?: Partial<AwsProviderConfig>; sim?: Elbv2SimulatorOptions; maxAttempts?: number } = {},
): Promise<AwsEnv> {
  // In process: the real SDK client and the simulator's wire protocol, no socket (a component test).
  const sim = await startElbv2Simulator({ ...o.sim, inProcess: true });
  // The slices among them are Karmada's: each comes with the Work it was derived from.
  const kube = new MemoryKube(withKarmadaCollection(objects));
  const config = { ...simConfig, ...o.config };
  const logger = new MemoryLogger();
  const provider = new AwsProvider(
    config,
    { kube, logger },
    {
      client: elbv2ClientFor(sim, { maxAttempts: o.maxAttempts ?? config.maxAttempts, retryDelayMs: 1 }),
      deploy: { resourceInUseAttempts: 5, resourceInUseDelayMs: 5 },
    },
  );
  const announced: AwsEnv['announced'] = [];
  const ctx: ProviderContext = {
    signal: new AbortController().signal,
    logger,
    announce: async (reason, message, type) => {
      announced.push({ reason, message, ...(type === 'Normal' ? { type } : {}) });
    },
  };
  const mutating = new Set<string>(ELBV2_MUTATING_ACTIONS);
  return {
    sim,
    kube,
    provider,
    config,
    logger,
    ctx,
    announced,
    async measured(fn) {
      sim.calls.reset();
      await fn();
      return callCounts(sim.calls.all());
    },
    mutatingCalls: () =>
      sim.calls
        .history()
        .filter((r) => r.outcome === 'ok' && mutating.has(r.action))
        .map((r) => r.action),
    expectedForMci: async (mci, accountQuotas) =>
      expectedSummary(
        buildIngressStack({
          mci,
          ...(await readIngressInputs(kube, mci)),
          config: accountQuotas ? { ...config, accountQuotas } : config,
        }),
      ),
    expectedForMcs: async (mcs) =>
      expectedSummary(buildServiceStack({ mcs, ...(await readServiceInputs(kube, mcs)), config })),
    state: () => summarize(sim.snapshot()),
    close: () => sim.close(),
  };
}

/** A MultiClusterService of type LoadBalancer named like its Service. */
export function mcs(
  name: string,
  spec: Partial<MultiClusterService['spec']> = {},
  annotations?: Record<string, string>,
): MultiClusterService {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name, namespace: 'default', uid: `mcs-${name}`, ...(annotations ? { annotations } : {}) },
    spec: { types: ['LoadBalancer'], ...spec },
  };
}

/** The attributes of the simulator's first load balancer, as a record. */
export function loadBalancerAttributesOf(sim: Elbv2Simulator): Record<string, string | undefined> {
  return Object.fromEntries(
    (
      sim.state.describeLoadBalancerAttributes({
        LoadBalancerArn: sim.snapshot().loadBalancers[0]?.LoadBalancerArn,
      }).Attributes ?? []
    ).map((a) => [a.Key, a.Value]),
  );
}
