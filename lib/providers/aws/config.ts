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
  'healthCheck.path': 'must start with "/"',
  'healthCheck.port': 'must be "traffic-port" or a port number',
  'healthCheck.matcher': 'must be HTTP codes like "200" or "200-399"',
};

/** The file as the schema admits it. */
interface ConfigFile {
  region: string;
  endpoint?: string;
  taggingEndpoint?: string;
  ec2Endpoint?: string;
  wafv2Endpoint?: string;
  shieldEndpoint?: string;
  acmEndpoint?: string;
  vpc: { id: string; cidrs?: string[]; ipv6Cidrs?: string[] };
  subnets?: string[];
  securityGroups?: string[];
  scheme?: 'internal' | 'internet-facing';
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
}

/** Global Accelerator in front of the load balancers (lib/providers/aws/accelerator/). */
export interface GlobalAcceleratorConfig {
  /** Whether an object without the global-accelerator annotation gets an accelerator (false). */
  enabled: boolean;
  /** GA's endpoint (local simulators; AWS's, in us-west-2, when unset). */
  endpoint?: string;
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

export interface AwsProviderConfig {
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
  const file = raw as {
    endpoint?: unknown;
    taggingEndpoint?: unknown;
    ec2Endpoint?: unknown;
    wafv2Endpoint?: unknown;
    shieldEndpoint?: unknown;
    acmEndpoint?: unknown;
    tenantPolicy?: unknown;
    globalAccelerator?: { endpoint?: unknown } | null;
  } | null;
  for (const key of [
    'endpoint',
    'taggingEndpoint',
    'ec2Endpoint',
    'wafv2Endpoint',
    'shieldEndpoint',
    'acmEndpoint',
  ] as const) {
    const url = file?.[key];
    if (typeof url === 'string' && !isUrl(url)) issues.push(`${key}: must be a valid url`);
  }
  const gaEndpoint = file?.globalAccelerator?.endpoint;
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
  if (cfg.subnets === undefined && cfg.vpc.cidrs !== undefined) {
    throw new ProviderConfigError(
      "invalid aws provider configuration: subnets: required with vpc.cidrs (subnet discovery reads the VPC's subnets from EC2, which vpc.cidrs keeps out)",
    );
  }
  cfg.vpc.ipv6Cidrs?.forEach((cidr, i) => {
    // The schema checks the characters; whether the groups make an address takes a parser.
    if (parseIPv6(cidr.split('/')[0]) === undefined) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: vpc.ipv6Cidrs.${i}: ${MESSAGES['vpc.ipv6Cidrs.*'] ?? ''}`,
      );
    }
  });
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
  return {
    region: cfg.region,
    ...(cfg.endpoint !== undefined ? { endpoint: cfg.endpoint } : {}),
    ...(cfg.taggingEndpoint !== undefined ? { taggingEndpoint: cfg.taggingEndpoint } : {}),
    ...(cfg.ec2Endpoint !== undefined ? { ec2Endpoint: cfg.ec2Endpoint } : {}),
    ...(cfg.wafv2Endpoint !== undefined ? { wafv2Endpoint: cfg.wafv2Endpoint } : {}),
    ...(cfg.shieldEndpoint !== undefined ? { shieldEndpoint: cfg.shieldEndpoint } : {}),
    ...(cfg.acmEndpoint !== undefined ? { acmEndpoint: cfg.acmEndpoint } : {}),
    vpc: {
      id: cfg.vpc.id,
      ...(cfg.vpc.cidrs !== undefined ? { cidrs: [...cfg.vpc.cidrs] } : {}),
      ...(cfg.vpc.ipv6Cidrs !== undefined ? { ipv6Cidrs: [...cfg.vpc.ipv6Cidrs] } : {}),
    },
    ...(cfg.subnets !== undefined ? { subnets: [...cfg.subnets] } : {}),
    ...(cfg.securityGroups !== undefined ? { securityGroups: [...cfg.securityGroups] } : {}),
    scheme: cfg.scheme ?? 'internal',
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
