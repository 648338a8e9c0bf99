/**
 * One scenario's world on a target: the scenario VPC in each Region (network.ts), the functions'
 * own code path over the Kubernetes API stand-in (test/support/harness.ts: the provider loaded by
 * name from its configuration file, `processBatch`), and the provider configured with the
 * target's gateway in its endpoint fields and nothing else target-specific.
 */
import type { ItemResult } from '../../../lib/runtime/process.js';
import type { KubeObject } from '../../../lib/kube/types.js';
import { notify, startHarness, type Harness } from '../../support/harness.js';
import { ALLOW_ALL } from '../../support/tenant-policy.js';
import { clientsFor, OWNER_ID, type Clients } from './clients.js';
import type { GatewayCall } from './gateway.js';
import { seedNetwork, type Network } from './network.js';
import { observeRegion, type RegionState } from './observe.js';
import { REGIONS, type Target, type TargetKind } from './targets.js';

export interface ConfigOptions {
  /** The Regions, the primary first; one Region (default the first of REGIONS) is the top-level form. */
  regions?: readonly string[];
  /** `configured` (default): the private subnets' IDs; `discovered`: none, so they are found by role tags. */
  subnets?: 'configured' | 'discovered';
  /** `default` (default): the VPC's default group; `managed`: none, so each load balancer gets its own. */
  securityGroups?: 'default' | 'managed';
  /** Anything else of the file (scheme, defaultTags, ...). */
  extra?: Record<string, unknown>;
}

export interface World {
  readonly kind: TargetKind;
  readonly target: Target;
  /** The scenario VPC of each of REGIONS. */
  readonly networks: Readonly<Record<string, Network>>;
  clients(region?: string): Clients;
  /** The functions with the provider configured so; the harness is closed after the scenario. */
  start(options?: ConfigOptions, objects?: KubeObject[]): Promise<Harness>;
  readonly h: Harness;
  /** The configuration file the provider runs with (its text). */
  readonly configText: string;
  /** Delivers notifications for the objects, until a round changes nothing in AWS (at most 6). */
  settle(...objects: KubeObject[]): Promise<ItemResult[]>;
  /** The provider's calls that may change something (gateway.ts), since the last `resetCalls`. */
  mutatingCalls(): GatewayCall[];
  calls(): GatewayCall[];
  resetCalls(): void;
  /** Every Region's state, or the one Region's. */
  observe(regions?: readonly string[]): Promise<Record<string, RegionState>>;
  close(): Promise<void>;
}

/** The provider configuration file for this world: only the network's IDs come from the target. */
export function providerConfigText(
  gatewayUrl: string,
  networks: Readonly<Record<string, Network>>,
  o: ConfigOptions = {},
): string {
  const regions = o.regions ?? [REGIONS[0]];
  const part = (region: string) => {
    const n = networks[region];
    if (!n) throw new Error(`no network in ${region}`);
    return {
      region,
      endpoint: gatewayUrl,
      taggingEndpoint: gatewayUrl,
      ec2Endpoint: gatewayUrl,
      acmEndpoint: gatewayUrl,
      wafv2Endpoint: gatewayUrl,
      vpc: { id: n.vpcId },
      ...(o.subnets === 'discovered' ? {} : { subnets: n.ids('private') }),
      ...(o.securityGroups === 'managed' ? {} : { securityGroups: [n.defaultSecurityGroupId] }),
    };
  };
  const file = {
    ...(regions.length > 1 ? { regions: regions.map(part) } : part(regions[0]!)),
    shieldEndpoint: gatewayUrl,
    ownerId: OWNER_ID,
    // Where the stand-in keeps its locks too (it starts with default and karmada-system).
    recordNamespace: 'karmada-system',
    maxAttempts: 3,
    // The scenarios are about what AWS does, not what tenants may ask for: the closed default
    // would refuse their internet-facing load balancers and imported certificates.
    tenantPolicy: ALLOW_ALL,
    ...o.extra,
  };
  return JSON.stringify(file, null, 2);
}

export async function makeWorld(target: Target): Promise<World> {
  await target.reset();
  const networks: Record<string, Network> = {};
  for (const region of REGIONS)
    networks[region] = await seedNetwork(clientsFor(target.gateway, region).ec2, region);
  target.gateway.resetCalls();
  let harness: Harness | undefined;
  let configText = '';
  const world: World = {
    kind: target.kind,
    target,
    networks,
    clients: (region = REGIONS[0]) => clientsFor(target.gateway, region),
    async start(options = {}, objects = []) {
      configText = providerConfigText(target.gateway.url, networks, options);
      harness = await startHarness({ provider: 'aws', providerConfig: configText, objects });
      return harness;
    },
    get h() {
      if (!harness) throw new Error('start() the world first');
      return harness;
    },
    get configText() {
      return configText;
    },
    async settle(...objects) {
      let results: ItemResult[] = [];
      for (let round = 0; round < 6; round++) {
        const before = target.gateway.mutatingCalls().length;
        results = await world.h.deliver(...objects.map((o) => notify(o, 'modified')));
        const failed = results.filter((r) => !r.ok && r.retryAfterSeconds === undefined);
        if (failed.length) throw new Error(`reconcile failed: ${failed.map((r) => r.error).join('; ')}`);
        const retrying = results.some((r) => !r.ok);
        if (!retrying && target.gateway.mutatingCalls().length === before) return results;
      }
      return results;
    },
    mutatingCalls: () => target.gateway.mutatingCalls(),
    calls: () => target.gateway.calls(),
    resetCalls: () => target.gateway.resetCalls(),
    async observe(regions = REGIONS) {
      const out: Record<string, RegionState> = {};
      for (const region of regions)
        out[region] = await observeRegion(clientsFor(target.gateway, region), networks[region]!);
      return out;
    },
    async close() {
      await harness?.close();
      harness = undefined;
    },
  };
  return world;
}
