/**
 * The target groups' VPC as the targets need it: its IPv4 CIDRs (an address inside is "in the
 * VPC" and keeps its zone; one outside is registered with zone `all`, as LBC does in
 * pkg/targetgroupbinding/resource_manager.go `generateOverrideAzFn`), and its subnets with their
 * Availability Zones (an endpoint's zone counts only if it is one of them).
 *
 * Read from EC2 (DescribeVpcs, DescribeSubnets) unless the configuration lists `vpc.cidrs`: then
 * that list is the whole answer and EC2 is never called (the operator's override, for a role
 * without ec2:Describe* or a VPC whose CIDRs are to be narrowed). A configured list that misses a
 * secondary CIDR (EKS custom networking's pod range, say) would register in-VPC pods as off-VPC
 * targets, which AWS refuses for an address in one of the VPC's subnets.
 *
 * The answer is kept per container (bounded, and for `ttlMs`, LBC's 10 minutes) so that a reconcile
 * costs no EC2 call, and a CIDR associated later is seen within the TTL. The EC2 client (about
 * 1 MiB of bundle) is loaded at the first read only (lazy-parts.ts).
 */
import type { Logger } from '../../log/logger.js';

export interface VpcSubnet {
  id: string;
  /** IPv4 CIDR block. */
  cidr: string;
  zone: string;
  /**
   * What subnet discovery and names (model/subnets.ts) read, as EC2 states it: the subnet's tags
   * (`Name`, LBC's role tags), its free addresses and whether it has an associated IPv6 block.
   */
  tags?: Readonly<Record<string, string>>;
  availableAddresses?: number;
  ipv6?: boolean;
}

export interface VpcNetwork {
  /** Associated IPv4 CIDR blocks: the primary one and every secondary one. */
  cidrs: readonly string[];
  /** Associated IPv6 CIDR blocks. */
  ipv6Cidrs: readonly string[];
  /** Every subnet of the VPC (empty when the CIDRs were configured: then nothing is known of them). */
  subnets: readonly VpcSubnet[];
}

/** Reads one VPC's network; the EC2 implementation is ec2/vpc-reader.ts. */
export type VpcNetworkReader = (vpcId: string, ctx: { signal: AbortSignal }) => Promise<VpcNetwork>;

export interface VpcNetworkCacheOptions {
  /** How long an answer is used (default 10 minutes, LBC's VPC info cache TTL). */
  ttlMs?: number;
  /** At most this many VPCs are kept (default 16; the oldest goes first). */
  maxEntries?: number;
  now?: () => number;
}

export const DEFAULT_NETWORK_TTL_MS = 10 * 60_000;

interface Entry {
  at: number;
  value: Promise<VpcNetwork>;
}

/**
 * The per-container cache. Concurrent reconciles share one read in flight; a failed read is not
 * kept (the next reconcile tries again), and an answer past its TTL is read again.
 */
export class VpcNetworkCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly read: VpcNetworkReader,
    options: VpcNetworkCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_NETWORK_TTL_MS;
    this.maxEntries = Math.max(1, options.maxEntries ?? 16);
    this.now = options.now ?? (() => Date.now());
  }

  get(vpcId: string, ctx: { signal: AbortSignal }): Promise<VpcNetwork> {
    const found = this.entries.get(vpcId);
    if (found && this.now() - found.at < this.ttlMs) return found.value;
    this.entries.delete(vpcId);
    const value = this.read(vpcId, ctx);
    const entry = { at: this.now(), value };
    this.entries.set(vpcId, entry);
    value.catch(() => {
      if (this.entries.get(vpcId) === entry) this.entries.delete(vpcId);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return value;
  }

  /** How many VPCs are kept now. */
  get size(): number {
    return this.entries.size;
  }
}

/** The network a configured `vpc.cidrs` list stands for: those CIDRs, no subnet known. */
export function configuredNetwork(cidrs: readonly string[]): VpcNetwork {
  return { cidrs: [...cidrs], ipv6Cidrs: [], subnets: [] };
}

/** The Availability Zones of the VPC: those its subnets are in. */
export function zonesOf(network: Pick<VpcNetwork, 'subnets'>): Set<string> {
  return new Set(network.subnets.map((s) => s.zone));
}

/**
 * The network source of one provider: the configured list when there is one, else EC2 through
 * the cache. `load` gives the EC2 reader, loaded at the first call.
 */
export class VpcNetworkSource {
  private readonly cache: VpcNetworkCache | undefined;

  constructor(
    private readonly vpc: { id: string; cidrs?: readonly string[] },
    load: () => Promise<VpcNetworkReader>,
    options: VpcNetworkCacheOptions = {},
    private readonly logger?: Pick<Logger, 'info'>,
  ) {
    this.cache =
      vpc.cidrs === undefined
        ? new VpcNetworkCache(async (vpcId, ctx) => {
            const network = await (await load())(vpcId, ctx);
            this.logger?.info('read the VPC network from EC2', {
              vpcId,
              cidrs: network.cidrs,
              zones: [...zonesOf(network)].sort(),
            });
            return network;
          }, options)
        : undefined;
  }

  /** Whether the network comes from EC2 (no configured CIDR list). */
  get fromEc2(): boolean {
    return this.cache !== undefined;
  }

  network(ctx: { signal: AbortSignal }): Promise<VpcNetwork> {
    if (!this.cache) return Promise.resolve(configuredNetwork(this.vpc.cidrs ?? []));
    return this.cache.get(this.vpc.id, ctx);
  }
}
