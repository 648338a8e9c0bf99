/**
 * Every annotation that can widen what a load balancer exposes, with the tenant-policy rule field
 * that governs it and what holds where no applicable rule sets that field (tenant-policy.ts's
 * closed default). scripts/gen-readme-keys.ts writes it into the README's "Tenant policy";
 * test/unit/tenant-policy-table.test.ts builds a stack with each key and checks that the check
 * refuses it naming that key, so the table cannot drift from the code. Not part of any bundle.
 */
import { GA_KEYS } from './accelerator/keys.js';
import { ALB_KEYS, NLB_KEYS } from './model/annotations/keys.js';

export interface ExposureRow {
  /** What it widens, as the README says it. */
  what: string;
  keys: readonly string[];
  /** The rule field (or fields) that governs it. */
  rule: string;
  /** Where no applicable rule sets that field. */
  byDefault: string;
}

const F = ALB_KEYS.frontendNlb;

export const EXPOSURE_ROWS: readonly ExposureRow[] = [
  {
    what: 'scheme',
    keys: [ALB_KEYS.scheme, NLB_KEYS.scheme, F.scheme],
    rule: '`schemes`',
    byDefault: 'the configuration’s `scheme`, or internal',
  },
  {
    what: 'subnets',
    keys: [ALB_KEYS.subnets, NLB_KEYS.subnets, F.subnets],
    rule: '`subnets`',
    byDefault: 'the configuration’s `subnets`, else those tagged with LBC’s role tag for the scheme',
  },
  {
    what: 'security groups',
    keys: [ALB_KEYS.securityGroups, NLB_KEYS.securityGroups, F.securityGroups],
    rule: '`securityGroups` (`managed` allows the managed group)',
    byDefault: 'the configuration’s `securityGroups`, else the managed group',
  },
  {
    what: 'inbound sources',
    keys: [
      ALB_KEYS.inboundCidrs,
      ALB_KEYS.securityGroupPrefixLists,
      NLB_KEYS.sourceRanges,
      NLB_KEYS.securityGroupPrefixLists,
      NLB_KEYS.disableNlbSecurityGroups,
    ],
    rule: '`inboundCidrs` (CIDRs, prefix list IDs; an NLB without security groups is refused)',
    byDefault: 'any: the managed group opens to 0.0.0.0/0 (and ::/0 when dualstack)',
  },
  {
    what: 'Elastic IPs',
    keys: [NLB_KEYS.eipAllocations, F.eipAllocations],
    rule: '`eipAllocations`',
    byDefault: 'none',
  },
  {
    what: 'accelerator',
    keys: [GA_KEYS.enabled],
    rule: '`globalAccelerator`, else the rule’s `schemes` (allowed with internet-facing)',
    byDefault:
      'none without `globalAccelerator` in the configuration; with it, where it is `enabled` for every object or the scheme is internet-facing',
  },
  {
    what: 'frontend NLB',
    keys: [F.enable],
    rule: '`schemes`, `subnets`, `securityGroups`, `eipAllocations` (its `frontend-nlb-` keys above), `attributes`, `tags`',
    byDefault: 'as for the ALB',
  },
  {
    what: 'auth endpoints',
    keys: [ALB_KEYS.authIdpOidc],
    rule: '`oidc` (issuer, and patterns for its authorization, token and user-info endpoints)',
    byDefault: 'no OIDC identity provider',
  },
  {
    what: 'certificates',
    keys: [ALB_KEYS.certificates, NLB_KEYS.certificates],
    rule: '`certificates`',
    byDefault: 'discovered certificates only (no annotation may name one)',
  },
  {
    what: 'web ACL',
    keys: [ALB_KEYS.wafv2AclArn, ALB_KEYS.wafv2AclName],
    rule: '`requireWebAcl` (ALBs)',
    byDefault: 'not required',
  },
];
