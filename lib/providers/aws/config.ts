/**
 * The AWS provider's configuration file (YAML or JSON) and the ELBv2 client built from it.
 * Validated with zod/mini so that the Lambda bundle stays small; every error names the field.
 */
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod/mini';
import { ProviderConfigError, errorMessage } from '../../errors.js';
import { RESERVED_TAG_KEYS, TAG_PREFIX } from './tagging.js';

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

// ownerId goes into a tag and the name hash: keep it a DNS label so it reads well everywhere.
const dnsLabel = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(63),
    z.regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label: lower-case letters, digits and "-"'),
  );
const nonEmpty = z.string().check(z.minLength(1));
const positiveInt = z.int().check(z.positive());

const healthCheckSchema = z.strictObject({
  path: z.optional(z.string().check(z.startsWith('/'))),
  port: z.optional(
    z.union([z.literal('traffic-port'), z.int().check(z.minimum(1), z.maximum(65535))], {
      error: 'must be "traffic-port" or a port number',
    }),
  ),
  protocol: z.optional(z.enum(['HTTP', 'HTTPS'])),
  intervalSeconds: z.optional(z.int().check(z.minimum(5), z.maximum(300))),
  timeoutSeconds: z.optional(z.int().check(z.minimum(2), z.maximum(120))),
  healthyThresholdCount: z.optional(z.int().check(z.minimum(2), z.maximum(10))),
  unhealthyThresholdCount: z.optional(z.int().check(z.minimum(2), z.maximum(10))),
  matcher: z.optional(
    z.string().check(z.regex(/^\d{3}([-,]\d{3})*$/, 'must be HTTP codes like "200" or "200-399"')),
  ),
});

const configSchema = z.strictObject({
  region: nonEmpty,
  endpoint: z.optional(z.url()),
  // The Resource Groups Tagging API's endpoint (local simulators; AWS's regional one when unset).
  taggingEndpoint: z.optional(z.url()),
  vpc: z.strictObject({
    id: nonEmpty,
    cidrs: z.array(z.cidrv4()).check(z.minLength(1)),
  }),
  subnets: z.array(nonEmpty).check(z.minLength(1)),
  securityGroups: z.optional(z.array(nonEmpty)),
  scheme: z._default(z.enum(['internal', 'internet-facing']), 'internal'),
  ownerId: dnsLabel,
  defaultTags: z.optional(
    z.record(z.string().check(z.minLength(1), z.maxLength(128)), z.string().check(z.maxLength(256))),
  ),
  // LBC's --external-managed-tags: keys other tools set on our resources, never removed by us.
  externalManagedTags: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(128)))),
  healthCheck: z.optional(healthCheckSchema),
  maxAttempts: z._default(positiveInt.check(z.maximum(20)), DEFAULT_MAX_ATTEMPTS),
  maxCallsPerSecond: z.optional(z.number().check(z.positive(), z.maximum(1000))),
  dryRun: z._default(z.boolean(), false),
});

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
  taggingEndpoint?: string;
  vpc: { id: string; cidrs: string[] };
  subnets: string[];
  securityGroups?: string[];
  scheme: 'internal' | 'internet-facing';
  ownerId: string;
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
}

// zod/mini ships without locale messages ("Invalid input"): say what was wrong ourselves.
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : `expected ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `needs at least ${issue.minimum} item(s)`
        : `must be ${issue.inclusive === false ? '>' : '>='} ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `allows at most ${issue.maximum} item(s)`
        : `must be ${issue.inclusive === false ? '<' : '<='} ${issue.maximum}`;
    case 'invalid_format':
      return issue.message && issue.message !== 'Invalid input'
        ? issue.message
        : `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

function formatIssues(error: z.core.$ZodError): string {
  return error.issues
    .map(
      (issue) =>
        `${issue.path.length ? issue.path.map(String).join('.') : '(root)'}: ${describeIssue(issue)}`,
    )
    .join('; ');
}

/** Parses and validates the configuration file's text. Throws ProviderConfigError. */
export function parseAwsConfig(text: string | undefined): AwsProviderConfig {
  if (text == null || text.trim() === '') {
    throw new ProviderConfigError(
      'the aws provider needs a configuration file (region, vpc, subnets, ownerId)',
    );
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
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ProviderConfigError(`invalid aws provider configuration: ${formatIssues(result.error)}`, {
      cause: result.error,
    });
  }
  const cfg = result.data;
  const defaultTags = cfg.defaultTags ?? {};
  for (const key of Object.keys(defaultTags)) {
    // Ownership tags decide what we may delete; letting configuration override them would be a foot-gun.
    if (RESERVED_TAG_KEYS.includes(key) || key.startsWith('aws:')) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: defaultTags.${key}: reserved tag key`,
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
    if (RESERVED_TAG_KEYS.includes(key) || key.startsWith(`${TAG_PREFIX}/`)) {
      throw new ProviderConfigError(
        `invalid aws provider configuration: externalManagedTags: ${key} is one of our own tag keys`,
      );
    }
  }
  return {
    region: cfg.region,
    ...(cfg.endpoint !== undefined ? { endpoint: cfg.endpoint } : {}),
    ...(cfg.taggingEndpoint !== undefined ? { taggingEndpoint: cfg.taggingEndpoint } : {}),
    vpc: { id: cfg.vpc.id, cidrs: [...cfg.vpc.cidrs] },
    subnets: [...cfg.subnets],
    ...(cfg.securityGroups !== undefined ? { securityGroups: [...cfg.securityGroups] } : {}),
    scheme: cfg.scheme,
    ownerId: cfg.ownerId,
    defaultTags: { ...defaultTags },
    ...(cfg.externalManagedTags !== undefined ? { externalManagedTags: [...cfg.externalManagedTags] } : {}),
    healthCheck: { ...DEFAULT_HEALTH_CHECK, ...cfg.healthCheck },
    maxAttempts: cfg.maxAttempts,
    ...(cfg.maxCallsPerSecond !== undefined ? { maxCallsPerSecond: cfg.maxCallsPerSecond } : {}),
    dryRun: cfg.dryRun,
  };
}

/**
 * The ELBv2 client: adaptive retry (client-side rate limiting on throttling, since the ELBv2 API
 * bucket is shared by the whole account) with a bounded number of attempts, so that a Lambda gives
 * up and requeues instead of sleeping through its timeout.
 */
export function createElbv2Client(config: AwsProviderConfig): ElasticLoadBalancingV2Client {
  return new ElasticLoadBalancingV2Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    retryMode: 'adaptive',
    maxAttempts: config.maxAttempts,
  });
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
