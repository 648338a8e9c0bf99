/**
 * The AWS provider's configuration file (YAML or JSON) and the ELBv2 client built from it.
 * Validated by a validator generated from config-schema.ts (no schema library in the bundle);
 * every error names the field.
 */
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { ProviderConfigError, errorMessage } from '../../errors.js';
import { validateAwsConfigSchema } from '../../generated/aws-config-validator.js';
import { parseYaml } from '../../util/yaml.js';
import { configIssues, type FieldMessages } from '../config-issues.js';
import { metrics } from '../../metrics/index.js';
import { ELBV2_CALL_METRICS, elbv2CallMetrics } from '../../metrics/elbv2.js';
import { isThrottling } from './deploy/context.js';
import { parseIPv6 } from './model/ip.js';
import { reservedTagOwner } from './reserved-tags.js';
import { RESERVED_TAG_KEYS, TAG_PREFIX } from './tagging.js';
import type { TenantPolicy } from './tenant-policy.js';
import { lazy } from '../../util/lazy.js';

/** The tenant policy's validator and checks: a chunk of its own, read only when one is configured. */
const tenantPolicyModule = lazy(() => import('./tenant-policy.js'));

/** LBC's ALB target group health-check defaults (alb.ingress.kubernetes.io/healthcheck-*). */
export const DEFAULT_HEALTH_CHECK = {
  path: '/',
  port: 'traffic-port',
  protocol: 'HTTP',
  intervalSeconds: 15,
  timeoutSeconds: 5,
  healthyThresholdCount: 2,
  unhealthyThresholdCount: 2,
  matcher: '200',
} as const;

const DEFAULT_MAX_ATTEMPTS = 5;
/** serverless.yml's lockNamespace: a namespace the deployment owns (infra/functions-rbac/common). */
export const DEFAULT_RECORD_NAMESPACE = 'multicluster-cloud-provider-locks';

/** What the schema's patterns and unions mean, by field (config-schema.ts). */
const MESSAGES: FieldMessages = {
  ownerId: 'must be a DNS label: lower-case letters, digits and "-"',
  'vpc.cidrs.*': 'must be a valid cidrv4',
  'vpc.ipv6Cidrs.*': 'must be a valid IPv6 CIDR like 2600:1f18:e1b5:5000::/56',
  'regions.*.vpc.cidrs.*': 'must be a valid cidrv4',
  'regions.*.vpc.ipv6Cidrs.*': 'must be a valid IPv6 CIDR like 2600:1f18:e1b5:5000::/56',
  'healthCheck.path': 'must start with "/"',
  'healthCheck.port': 'must be "traffic-port" or a port number',
  'healthCheck.matcher': 'must be HTTP codes like "200" or "200-399"',
};

/** One Region's part of the file (top-level in a one-Region file, an entry of `regions` otherwise). */
type RegionFile = Omit<RegionConfig, 'scheme'> & Partial<Pick<RegionConfig, 'scheme'>>;

/** The fields of one Region: in `regions` each entry has them, and the top level none. */
const REGION_FIELDS = [
  'region',
  'endpoint',
  'taggingEndpoint',
  'ec2Endpoint',
  'wafv2Endpoint',
  'acmEndpoint',
  'vpc',
  'subnets',
  'securityGroups',
  'scheme',
] as const;

/** The file as the schema admits it. */
type ConfigFile = RegionFile & {
  regions?: RegionFile[];
  clusterRegions?: Record<string, string>;
  shieldEndpoint?: string;
  ownerId: string;
  recordNamespace?: string;
  defaultTags?: Record<string, string>;
  externalManagedTags?: string[];
  healthCheck?: Partial<HealthCheckConfig>;
  maxAttempts?: number;
  maxCallsPerSecond?: number;
  dryRun?: boolean;
  tenantPolicy?: TenantPolicy;
  globalAccelerator?: Partial<GlobalAcceleratorConfig>;
};

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

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The endpoint fields, each a URL: the top level's and each Region's (Shield's is top-level only). */
const ENDPOINT_FIELDS = [
  'endpoint',
  'taggingEndpoint',
  'ec2Endpoint',
  'wafv2Endpoint',
  'shieldEndpoint',
  'acmEndpoint',
] as const;

/** What `regions` rules out beside the schema: Region fields at the top level, a Region twice, an unknown override. */
function regionsIssues(
  file: Record<string, unknown> & { regions?: unknown; clusterRegions?: unknown },
): string[] {
  const issues: string[] = [];
  for (const key of REGION_FIELDS) {
    if (file[key] !== undefined) issues.push(`${key}: not with regions (each Region names its own)`);
  }
  const names = (file.regions as unknown[]).map((r) => (r as { region?: unknown } | null)?.region);
  names.forEach((name, i) => {
    if (typeof name === 'string' && names.indexOf(name) !== i)
      issues.push(`regions.${i}.region: ${name} is listed twice`);
  });
  const overrides = file.clusterRegions;
  if (overrides !== null && typeof overrides === 'object' && !Array.isArray(overrides)) {
    for (const [cluster, region] of Object.entries(overrides)) {
      if (typeof region === 'string' && region !== '' && !names.includes(region)) {
        issues.push(`clusterRegions.${cluster}: ${region} is not one of the configured regions`);
      }
    }
  }
  return issues;
}

/** What the schema cannot say about one Region's network. Throws ProviderConfigError. */
function checkRegionNetwork(r: RegionFile, at: string): void {
  if (r.subnets === undefined && r.vpc.cidrs !== undefined) {
    throw new ProviderConfigError(
      `invalid aws provider configuration: ${at}subnets: required with ${at}vpc.cidrs (subnet discovery reads the VPC's subnets from EC2, which vpc.cidrs keeps out)`,
    );
  }
  r.vpc.ipv6Cidrs?.forEach((cidr, i) => {
    // The schema checks the characters; whether the groups make an address takes a parser.
    if (parseIPv6(cidr.split('/')[0]) === undefined) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: ${at}vpc.ipv6Cidrs.${i}: ${MESSAGES['vpc.ipv6Cidrs.*'] ?? ''}`,
      );
    }
  });
}

/** One Region's part of the file with its defaults, every list copied. */
function regionConfig(r: RegionFile): RegionConfig {
  return {
    region: r.region,
    ...(r.endpoint !== undefined ? { endpoint: r.endpoint } : {}),
    ...(r.taggingEndpoint !== undefined ? { taggingEndpoint: r.taggingEndpoint } : {}),
    ...(r.ec2Endpoint !== undefined ? { ec2Endpoint: r.ec2Endpoint } : {}),
    ...(r.wafv2Endpoint !== undefined ? { wafv2Endpoint: r.wafv2Endpoint } : {}),
    ...(r.acmEndpoint !== undefined ? { acmEndpoint: r.acmEndpoint } : {}),
    vpc: {
      id: r.vpc.id,
      ...(r.vpc.cidrs !== undefined ? { cidrs: [...r.vpc.cidrs] } : {}),
      ...(r.vpc.ipv6Cidrs !== undefined ? { ipv6Cidrs: [...r.vpc.ipv6Cidrs] } : {}),
    },
    ...(r.subnets !== undefined ? { subnets: [...r.subnets] } : {}),
    ...(r.securityGroups !== undefined ? { securityGroups: [...r.securityGroups] } : {}),
    scheme: r.scheme ?? 'internal',
  };
}

/** The configured Regions, the primary first: `regions`, or the top level's one. */
export function configuredRegions(config: AwsProviderConfig): RegionConfig[] {
  if (config.regions) return config.regions;
  const {
    region,
    endpoint,
    taggingEndpoint,
    ec2Endpoint,
    wafv2Endpoint,
    acmEndpoint,
    vpc,
    subnets,
    securityGroups,
    scheme,
  } = config;
  return [
    {
      region,
      ...(endpoint !== undefined ? { endpoint } : {}),
      ...(taggingEndpoint !== undefined ? { taggingEndpoint } : {}),
      ...(ec2Endpoint !== undefined ? { ec2Endpoint } : {}),
      ...(wafv2Endpoint !== undefined ? { wafv2Endpoint } : {}),
      ...(acmEndpoint !== undefined ? { acmEndpoint } : {}),
      vpc,
      ...(subnets !== undefined ? { subnets } : {}),
      ...(securityGroups !== undefined ? { securityGroups } : {}),
      scheme,
    },
  ];
}

/**
 * The configuration one Region's part of the provider runs with: the shared fields, that Region's
 * in place of the primary's, and no `regions` (the part serves one Region).
 */
export function regionalConfig(config: AwsProviderConfig, region: RegionConfig): AwsProviderConfig {
  const {
    regions: _regions,
    clusterRegions: _overrides,
    region: _region,
    endpoint: _endpoint,
    taggingEndpoint: _tagging,
    ec2Endpoint: _ec2,
    wafv2Endpoint: _wafv2,
    acmEndpoint: _acm,
    vpc: _vpc,
    subnets: _subnets,
    securityGroups: _groups,
    scheme: _scheme,
    ...shared
  } = config;
  return { ...shared, ...region };
}

/**
 * Parses and validates the configuration file's text. Rejects with ProviderConfigError.
 * Asynchronous because a tenant policy's validator is loaded only when the file has one.
 */
export async function parseAwsConfig(text: string | undefined): Promise<AwsProviderConfig> {
  if (text == null || text.trim() === '') {
    throw new ProviderConfigError('the aws provider needs a configuration file (region, vpc, ownerId)');
  }
  let raw: unknown;
  try {
    // YAML is a superset of JSON, so one parser serves both formats.
    raw = parseYaml(text);
  } catch (err) {
    throw new ProviderConfigError(`aws provider configuration is not valid YAML/JSON: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  const issues = configIssues(validateAwsConfigSchema, raw, MESSAGES);
  const file = raw as
    | (Record<string, unknown> & { regions?: unknown; clusterRegions?: unknown; tenantPolicy?: unknown })
    | null;
  const urlIssues = (part: Record<string, unknown> | null | undefined, at: string) => {
    for (const key of ENDPOINT_FIELDS) {
      const url = part?.[key];
      if (typeof url === 'string' && !isUrl(url)) issues.push(`${at}${key}: must be a valid url`);
    }
  };
  urlIssues(file, '');
  if (Array.isArray(file?.regions)) {
    issues.push(...regionsIssues(file));
    file.regions.forEach((r, i) => {
      if (r !== null && typeof r === 'object') urlIssues(r as Record<string, unknown>, `regions.${i}.`);
    });
  } else if (file !== null && typeof file === 'object') {
    for (const key of ['region', 'vpc'] as const)
      if (file[key] === undefined) issues.push(`${key}: required`);
    if (file.clusterRegions !== undefined) issues.push('clusterRegions: only with regions');
  }
  const ga = file?.globalAccelerator as { endpoint?: unknown } | null | undefined;
  const gaEndpoint = ga?.endpoint;
  if (typeof gaEndpoint === 'string' && !isUrl(gaEndpoint))
    issues.push('globalAccelerator.endpoint: must be a valid url');
  // Not an object: the main schema said so already.
  const policy = file?.tenantPolicy;
  if (policy !== null && typeof policy === 'object' && !Array.isArray(policy)) {
    issues.push(...(await tenantPolicyModule()).tenantPolicyIssues(raw));
  }
  if (issues.length) {
    throw new ProviderConfigError(`invalid aws provider configuration: ${issues.join('; ')}`);
  }
  const cfg = raw as ConfigFile;
  const regionFiles = cfg.regions ?? [cfg];
  regionFiles.forEach((r, i) => checkRegionNetwork(r, cfg.regions ? `regions.${i}.` : ''));
  const regions = regionFiles.map(regionConfig);
  const primary = regions[0] as RegionConfig;
  const defaultTags = cfg.defaultTags ?? {};
  for (const key of Object.keys(defaultTags)) {
    // Ownership tags decide what we (and other controllers) may delete: configuration cannot set them.
    const owner = reservedTagOwner(key);
    if (owner) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: defaultTags.${key}: reserved tag key (${owner})`,
      );
    }
    // Two owners of one key would flap it; LBC refuses the same overlap.
    if (cfg.externalManagedTags?.includes(key)) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: defaultTags.${key}: listed in externalManagedTags`,
      );
    }
  }
  for (const key of cfg.externalManagedTags ?? []) {
    if (RESERVED_TAG_KEYS.includes(key) || key.toLowerCase().startsWith(`${TAG_PREFIX}/`)) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: externalManagedTags: ${key} is one of our own tag keys`,
      );
    }
  }
  const { region, endpoint, taggingEndpoint, ec2Endpoint, wafv2Endpoint, acmEndpoint, ...network } = primary;
  return {
    ...(cfg.regions ? { regions } : {}),
    ...(cfg.clusterRegions ? { clusterRegions: { ...cfg.clusterRegions } } : {}),
    region,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(taggingEndpoint !== undefined ? { taggingEndpoint } : {}),
    ...(ec2Endpoint !== undefined ? { ec2Endpoint } : {}),
    ...(wafv2Endpoint !== undefined ? { wafv2Endpoint } : {}),
    ...(cfg.shieldEndpoint !== undefined ? { shieldEndpoint: cfg.shieldEndpoint } : {}),
    ...(acmEndpoint !== undefined ? { acmEndpoint } : {}),
    ...network,
    ownerId: cfg.ownerId,
    recordNamespace: cfg.recordNamespace ?? DEFAULT_RECORD_NAMESPACE,
    defaultTags: { ...defaultTags },
    ...(cfg.externalManagedTags !== undefined ? { externalManagedTags: [...cfg.externalManagedTags] } : {}),
    healthCheck: { ...DEFAULT_HEALTH_CHECK, ...cfg.healthCheck },
    maxAttempts: cfg.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    ...(cfg.maxCallsPerSecond !== undefined ? { maxCallsPerSecond: cfg.maxCallsPerSecond } : {}),
    dryRun: cfg.dryRun ?? false,
    ...(cfg.tenantPolicy !== undefined ? { tenantPolicy: cfg.tenantPolicy } : {}),
    ...(cfg.globalAccelerator !== undefined
      ? {
          globalAccelerator: {
            enabled: cfg.globalAccelerator.enabled ?? false,
            ...(cfg.globalAccelerator.endpoint !== undefined
              ? { endpoint: cfg.globalAccelerator.endpoint }
              : {}),
            ...(cfg.globalAccelerator.pollSeconds !== undefined
              ? { pollSeconds: cfg.globalAccelerator.pollSeconds }
              : {}),
          },
        }
      : {}),
  };
}

/**
 * The ELBv2 client: adaptive retry (client-side rate limiting on throttling, since the ELBv2 API
 * bucket is shared by the whole account) with a bounded number of attempts, so that a Lambda gives
 * up and requeues instead of sleeping through its timeout.
 */
export function createElbv2Client(config: AwsProviderConfig): ElasticLoadBalancingV2Client {
  const client = new ElasticLoadBalancingV2Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    retryMode: 'adaptive',
    maxAttempts: config.maxAttempts,
  });
  // Every attempt, by action, and the throttled ones: the Elbv2Calls / Elbv2Throttles metrics.
  client.middlewareStack.add(elbv2CallMetrics(metrics, isThrottling), ELBV2_CALL_METRICS);
  return client;
}

/**
 * The Resource Groups Tagging API client: a stack's resources by their tags, outside the ELBv2
 * request budget. Standard retry mode: a failure only sends the reconcile the ELBv2 way.
 */
export function createTaggingClient(config: AwsProviderConfig): ResourceGroupsTaggingAPIClient {
  return new ResourceGroupsTaggingAPIClient({
    region: config.region,
    ...(config.taggingEndpoint ? { endpoint: config.taggingEndpoint } : {}),
    maxAttempts: 2,
  });
}
