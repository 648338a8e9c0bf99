/**
 * A tenant policy that allows everything the annotations can ask for: for the tests of the model,
 * the deploy and the accelerator, which use schemes, subnets, security groups, certificates,
 * Elastic IPs, OIDC providers and accelerators the closed default refuses
 * (lib/providers/aws/tenant-policy.ts). The tenant policy's own tests state theirs.
 */
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';

export const ALLOW_ALL: TenantPolicy = {
  rules: [
    {
      name: 'tests-allow-all',
      schemes: ['internal', 'internet-facing'],
      subnets: ['*'],
      securityGroups: ['*'],
      certificates: { allowed: [{ arn: '*' }] },
      // Prefix lists are named by ID (no patterns): the ones the tests use.
      inboundCidrs: ['0.0.0.0/0', '::/0', 'pl-0123abcd', 'pl-0123456789abcdef0'],
      eipAllocations: ['*'],
      globalAccelerator: true,
      oidc: [{ issuer: '*', endpoints: ['*'] }],
    },
  ],
};
