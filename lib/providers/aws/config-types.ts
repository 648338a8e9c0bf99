/**
 * The AWS provider configuration's types (config.ts parses the file into them): types only, so
 * the model, the clients and the Regions name the configuration without importing its parser and
 * the ELBv2 client it builds.
 */
import type { TenantPolicy } from './tenant-policy-types.js';

/** Global Accelerator in front of the load balancers (lib/providers/aws/accelerator/). */
export interface GlobalAcceleratorConfig {
  /** Whether an object without the global-accelerator annotation gets an accelerator (false). */
  enabled: boolean;
  /** GA's endpoint (local simulators; AWS's, in us-west-2, when unset). */
  endpoint?: string;
  /**
   * How soon a reconcile that waits on GA (a change deploying, IN_PROGRESS) comes back to look
   * again (30 s: GA deploys in minutes, and each look is a call).
   */
  pollSeconds?: number;
}

export type HealthCheckConfig = {
  path: string;
  port: 'traffic-port' | number;
  protocol: 'HTTP' | 'HTTPS';
  intervalSeconds: number;
  timeoutSeconds: number;
  healthyThresholdCount: number;
  unhealthyThresholdCount: number;
  matcher: string;
};

/**
 * One Region's load balancers (lib/providers/aws/regions/): the fields of AwsProviderConfig that
 * differ between Regions. A one-Region file's top level is one of these.
 */
export interface RegionConfig {
  region: string;
  endpoint?: string;
  taggingEndpoint?: string;
  ec2Endpoint?: string;
  wafv2Endpoint?: string;
  acmEndpoint?: string;
  vpc: { id: string; cidrs?: string[]; ipv6Cidrs?: string[] };
  subnets?: string[];
  securityGroups?: string[];
  scheme: 'internal' | 'internet-facing';
}

export interface AwsProviderConfig {
  /**
   * Only in a file with `regions:`: every Region's load balancers, the primary first (whose values
   * are also the top-level fields below). Absent: the one Region of the top-level fields, and
   * every member cluster's endpoints are served there (no Cluster object is read).
   */
  regions?: RegionConfig[];
  /** A member cluster's Region over its Cluster object's `spec.region` (only with `regions`). */
  clusterRegions?: Record<string, string>;
  region: string;
  endpoint?: string;
  /** The Resource Groups Tagging API's endpoint (local simulators; AWS's regional one when unset). */
  taggingEndpoint?: string;
  /** The EC2 API's endpoint (local simulators; AWS's regional one when unset). */
  ec2Endpoint?: string;
  /** The WAFv2 API's endpoint (local simulators; AWS's regional one when unset). */
  wafv2Endpoint?: string;
  /** The Shield API's endpoint (local simulators; AWS's, in us-east-1, when unset). */
  shieldEndpoint?: string;
  /** The ACM API's endpoint (local simulators; AWS's regional one when unset). */
  acmEndpoint?: string;
  /**
   * The target groups' VPC. `cidrs` is an override: when absent, its IPv4 and IPv6 CIDRs and its
   * subnets are read from EC2 (vpc-network.ts); when present, they are exactly these and EC2 is
   * never called. `ipv6Cidrs`: the VPC's IPv6 blocks, for dualstack load balancers' IPv6 targets,
   * over what EC2 states (absent with `cidrs`: none known, so every IPv6 target is registered as
   * outside the VPC, with zone `all`).
   */
  vpc: { id: string; cidrs?: string[]; ipv6Cidrs?: string[] };
  /**
   * The load balancers' subnets (IDs or `Name` tags) when their annotation lists none. Absent:
   * each load balancer's are discovered among the VPC's subnets by LBC's role tags
   * (model/subnets.ts), which takes EC2's subnets: not with `vpc.cidrs`.
   */
  subnets?: string[];
  securityGroups?: string[];
  scheme: 'internal' | 'internet-facing';
  ownerId: string;
  /**
   * The namespace on the Karmada API server where each stack's targets record is kept
   * (deploy/target-records.ts): one the deployment owns, by default the reconcile locks' one.
   */
  recordNamespace: string;
  defaultTags: Record<string, string>;
  /**
   * Tag keys other tools (cost allocation, security scanners) manage on our load balancers, target
   * groups, listeners and rules (LBC's `--external-managed-tags`). Every other tag key the spec
   * (defaultTags + the tags annotation) does not ask for is removed; these are left alone, and
   * neither defaultTags nor an annotation may set them.
   */
  externalManagedTags?: string[];
  /** Always complete: the file's values over LBC's defaults. */
  healthCheck: HealthCheckConfig;
  maxAttempts: number;
  /** Cap on ELBv2 calls per second for the whole function container (unset: no cap). */
  maxCallsPerSecond?: number;
  /** Compute and log change plans, never call a mutating ELBv2 action. */
  dryRun?: boolean;
  /** What tenants may ask for (tenant-policy.ts); absent: anything the configuration allows. */
  tenantPolicy?: TenantPolicy;
  /**
   * Global Accelerator: absent, GA is never called (nor its client loaded) unless an object asks
   * for an accelerator with its annotation; the orphan sweep lists accelerators only with it.
   */
  globalAccelerator?: GlobalAcceleratorConfig;
}
