/**
 * The IAM backstop of the tenant policy, checked at package time (infra/serverless/package-checks.ts):
 * serverless.yml's `awsAllowedSchemes`, `awsAllowedSubnets` and `awsAllowedSecurityGroups` pin
 * ELBv2's Scheme, Subnet and SecurityGroup condition keys, and must be exactly what the policy
 * (closed default included) can let some object have, over every configured Region:
 * - narrower, and IAM refuses what the policy allows (AccessDenied on a create the check passed);
 * - wider or empty, and IAM does not back the policy.
 * A value the policy allows that is not known before the functions run (a subnet discovered by its
 * role tags or named by its Name tag, a managed security group, a `*` pattern) cannot be pinned:
 * the parameter must then stay empty, and the check says why.
 * Pure: the parsed configuration and the parameters' text in, the problems out. Not part of any
 * function bundle.
 */
import { configuredRegions, type AwsProviderConfig } from './config.js';
import { POLICY_KINDS, type TenantRule } from './tenant-policy.js';

export interface IamPinParams {
  awsAllowedSchemes: string;
  awsAllowedSubnets: string;
  awsAllowedSecurityGroups: string;
}

/** What the policy allows for one field: the values, or why they are not known at package time. */
type Allowed = { values: Set<string> } | { unknown: string };

const PINNED_FIELDS = [
  ['awsAllowedSchemes', 'schemes'],
  ['awsAllowedSubnets', 'subnets'],
  ['awsAllowedSecurityGroups', 'securityGroups'],
] as const;

/** Whether some object can fall to the default for `field`: no rule setting it holds every object of a kind. */
function defaultReachable(rules: readonly TenantRule[], field: keyof TenantRule): boolean {
  return POLICY_KINDS.some(
    (kind) =>
      !rules.some(
        (r) =>
          r[field] !== undefined &&
          !r.namespaceSelector &&
          !r.ingressClasses &&
          (r.kinds ?? POLICY_KINDS).includes(kind),
      ),
  );
}

function allowedBy(config: AwsProviderConfig, field: 'schemes' | 'subnets' | 'securityGroups'): Allowed {
  const rules = config.tenantPolicy?.rules ?? [];
  const values = new Set<string>();
  for (const rule of rules) {
    for (const v of rule[field] ?? []) {
      if (field === 'securityGroups' && v === 'managed')
        return {
          unknown: `rule "${rule.name}" allows the managed security group, whose ID is known only once it is created`,
        };
      if (v.includes('*')) return { unknown: `rule "${rule.name}" allows ${field} by the pattern "${v}"` };
      values.add(v);
    }
  }
  if (!defaultReachable(rules, field)) return { values };
  for (const region of configuredRegions(config)) {
    const at = config.regions ? ` in ${region.region}` : '';
    if (field === 'schemes') {
      values.add('internal');
      values.add(region.scheme);
    } else if (field === 'subnets') {
      if (!region.subnets)
        return { unknown: `the configuration${at} has no subnets: they are discovered by LBC's role tags` };
      const name = region.subnets.find((s) => !s.startsWith('subnet-'));
      if (name !== undefined)
        return { unknown: `the configuration${at} names the subnet "${name}" by its Name tag` };
      region.subnets.forEach((s) => values.add(s));
    } else {
      if (!region.securityGroups)
        return { unknown: `the configuration${at} has no securityGroups: load balancers get managed ones` };
      region.securityGroups.forEach((g) => values.add(g));
    }
  }
  return { values };
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const sorted = (values: Iterable<string>) => [...values].sort();

/**
 * What is wrong with the IAM pins for this configuration's tenant policy, one line each with the
 * parameter to set; empty when they match.
 */
export function iamPinIssues(config: AwsProviderConfig, params: IamPinParams): string[] {
  const issues: string[] = [];
  for (const [param, field] of PINNED_FIELDS) {
    const given = new Set(list(params[param]));
    const allowed = allowedBy(config, field);
    if ('unknown' in allowed) {
      if (given.size > 0)
        issues.push(
          `${param} is "${params[param]}", but ${allowed.unknown}: IAM cannot pin ${field} the functions only learn at run time, and would refuse them. Leave ${param} empty, or name ${field} by ID in the configuration and the tenant policy`,
        );
      continue;
    }
    const want = sorted(allowed.values);
    // Both schemes pinned is no pin: an empty parameter says the same.
    if (field === 'schemes' && given.size === 0 && want.length === 2) continue;
    const missing = want.filter((v) => !given.has(v));
    const extra = sorted(given).filter((v) => !allowed.values.has(v));
    if (missing.length === 0 && extra.length === 0) continue;
    const why =
      given.size === 0
        ? 'it is empty, so IAM does not back the tenant policy'
        : [
            missing.length ? `IAM would refuse ${missing.join(', ')}, which the policy allows` : '',
            extra.length ? `IAM would allow ${extra.join(', ')}, which the policy refuses` : '',
          ]
            .filter(Boolean)
            .join('; ');
    issues.push(`${param}: ${why}. Set --param="${param}=${want.join(',')}"`);
  }
  return issues;
}
