/**
 * The JSON Schema of the aws provider's configuration file. Not loaded at run time:
 * scripts/gen-validators.ts compiles it into lib/generated/aws-config-validator.js (and the
 * tenant policy into tenant-policy-validator.js), so the bundles
 * carry a small validator and no schema library. config.ts words the errors and checks what a
 * schema cannot say well (the endpoint URL, reserved tag keys).
 */
const nonEmpty = { type: 'string', minLength: 1 } as const;

/** IPv4 CIDR: four octets 0-255 and a prefix length 0-32. */
export const CIDR_V4 =
  '^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])/(?:3[0-2]|[12]?[0-9])$';
/** IPv6 CIDR in text form (`2600:1f18::/56`): hex groups and colons, a prefix length 0-128. */
export const CIDR_V6 = '^(?=.*:)[0-9a-fA-F:]{2,39}/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9])$';
// ownerId goes into a tag and the name hash: keep it a DNS label so it reads well everywhere.
export const DNS_LABEL = '^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$';
/** A tenant policy's inbound source: an IPv4 or IPv6 CIDR, or a managed prefix list's ID. */
const INBOUND_SOURCE = `(?:${CIDR_V4})|(?:${CIDR_V6})|(?:^pl-[0-9a-f]{8,17}$)`;
export const HTTP_CODES = '^[0-9]{3}(?:[-,][0-9]{3})*$';

const healthCheck = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', pattern: '^/' },
    port: {
      anyOf: [{ const: 'traffic-port' }, { type: 'integer', minimum: 1, maximum: 65535 }],
    },
    protocol: { enum: ['HTTP', 'HTTPS'] },
    intervalSeconds: { type: 'integer', minimum: 5, maximum: 300 },
    timeoutSeconds: { type: 'integer', minimum: 2, maximum: 120 },
    healthyThresholdCount: { type: 'integer', minimum: 2, maximum: 10 },
    unhealthyThresholdCount: { type: 'integer', minimum: 2, maximum: 10 },
    matcher: { type: 'string', pattern: HTTP_CODES },
  },
} as const;

const names = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const keyPatterns = {
  type: 'object',
  additionalProperties: false,
  properties: { allow: names, deny: names },
} as const;

/** The JSON Schema of `tenantPolicy` (tenant-policy.ts reads it; its rules are described there). */
export const TENANT_POLICY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: {
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          // Required with ingressClasses (tenant-policy.ts says why; a schema cannot word it well).
          kinds: {
            type: 'array',
            minItems: 1,
            items: { enum: ['MultiClusterIngress', 'MultiClusterService'] },
          },
          ingressClasses: names,
          namespaceSelector: {
            type: 'object',
            additionalProperties: false,
            properties: {
              matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
              matchExpressions: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['key', 'operator'],
                  properties: {
                    key: { type: 'string', minLength: 1 },
                    operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
                    values: names,
                  },
                },
              },
            },
          },
          schemes: { type: 'array', items: { enum: ['internal', 'internet-facing'] } },
          subnets: names,
          securityGroups: names,
          certificates: {
            type: 'object',
            additionalProperties: false,
            required: ['allowed'],
            properties: {
              allowed: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['arn'],
                  properties: { arn: { type: 'string', minLength: 1 }, names },
                },
              },
              matchHosts: { type: 'boolean' },
            },
          },
          sslPolicies: names,
          attributes: keyPatterns,
          tags: keyPatterns,
          maxLoadBalancersPerNamespace: { type: 'integer', minimum: 0 },
          inboundCidrs: { type: 'array', items: { type: 'string', pattern: INBOUND_SOURCE } },
          eipAllocations: names,
          globalAccelerator: { type: 'boolean' },
          requireWebAcl: { type: 'boolean' },
          oidc: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['issuer', 'endpoints'],
              properties: {
                issuer: { type: 'string', minLength: 1 },
                endpoints: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
              },
            },
          },
        },
      },
    },
    sharedGroups: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'namespaces'],
        properties: {
          // LBC's rule for group names (karmada/ingress-group.ts).
          name: { type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' },
          namespaces: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
} as const;

/**
 * One Region's load balancers: where they are and how they are reached. The top level of a
 * one-Region file, or each entry of `regions` (config.ts checks that the top level then leaves
 * them out). Shield's endpoint is not among them: its API lives in us-east-1 whatever the Regions.
 */
const REGION_PROPERTIES = {
  region: nonEmpty,
  endpoint: { type: 'string' },
  // The Resource Groups Tagging API's endpoint (local simulators; AWS's regional one when unset).
  taggingEndpoint: { type: 'string' },
  // The EC2 API's endpoint (local simulators; AWS's regional one when unset).
  ec2Endpoint: { type: 'string' },
  // The WAFv2 and ACM endpoints (local simulators; AWS's regional ones when unset).
  wafv2Endpoint: { type: 'string' },
  acmEndpoint: { type: 'string' },
  vpc: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: nonEmpty,
      // An override: without it the VPC's CIDRs (primary and secondary) and subnets are read
      // from EC2 (DescribeVpcs, DescribeSubnets); with it EC2 is never called.
      cidrs: { type: 'array', minItems: 1, items: { type: 'string', pattern: CIDR_V4 } },
      // The VPC's IPv6 blocks: IPv6 targets outside them are registered with zone `all`.
      ipv6Cidrs: { type: 'array', items: { type: 'string', pattern: CIDR_V6 } },
    },
  },
  // IDs or names; absent: each load balancer's are discovered by LBC's role tags (model/subnets.ts).
  subnets: { type: 'array', minItems: 1, items: nonEmpty },
  securityGroups: { type: 'array', items: nonEmpty },
  scheme: { enum: ['internal', 'internet-facing'] },
} as const;

/** One entry of `regions`. */
export const REGION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['region', 'vpc'],
  properties: REGION_PROPERTIES,
} as const;

export const AWS_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  // `region` and `vpc` too, unless `regions` lists them (config.ts says which is missing).
  required: ['ownerId'],
  properties: {
    ...REGION_PROPERTIES,
    // Shield's endpoint (local simulators; AWS's, in us-east-1, where its API lives, when unset).
    shieldEndpoint: { type: 'string' },
    // Several Regions, each with its own load balancers (lib/providers/aws/regions/); the first
    // is the primary one. Instead of the top-level region, endpoints, vpc, subnets,
    // securityGroups and scheme.
    regions: { type: 'array', minItems: 1, items: REGION_SCHEMA },
    // A member cluster's Region over its Cluster object's spec.region (only with `regions`).
    clusterRegions: { type: 'object', additionalProperties: nonEmpty },
    ownerId: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS_LABEL },
    // Where the targets records (deploy/target-records.ts) live on the Karmada API server.
    recordNamespace: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS_LABEL },
    defaultTags: {
      type: 'object',
      propertyNames: { minLength: 1, maxLength: 128 },
      additionalProperties: { type: 'string', maxLength: 256 },
    },
    // LBC's --external-managed-tags: keys other tools set on our resources, never removed by us.
    externalManagedTags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 128 } },
    healthCheck,
    maxAttempts: { type: 'integer', exclusiveMinimum: 0, maximum: 20 },
    maxCallsPerSecond: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
    dryRun: { type: 'boolean' },
    // Its rules are checked by their own validator (TENANT_POLICY_CONFIG_SCHEMA below), which a
    // container loads only when its configuration has a tenant policy.
    tenantPolicy: { type: 'object' },
    // Global Accelerator in front (lib/providers/aws/accelerator/): `enabled` is the default for
    // objects without the multicluster.karmada.io/global-accelerator annotation.
    globalAccelerator: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        endpoint: { type: 'string' },
        pollSeconds: { type: 'number', exclusiveMinimum: 0, maximum: 900 },
      },
    },
  },
} as const;

/**
 * The tenant policy's part of the configuration, validated over the whole file so that errors
 * name their field from the file's root (`tenantPolicy.rules.0.name`), as the main schema's do.
 */
export const TENANT_POLICY_CONFIG_SCHEMA = {
  type: 'object',
  properties: { tenantPolicy: TENANT_POLICY_SCHEMA },
} as const;
