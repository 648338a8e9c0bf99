/**
 * Issue 27, Medium 4: the tenant policy was open by default. Without a `tenantPolicy` a tenant
 * could ask for any scheme, subnet, security group and certificate; no rule governed the managed
 * security group's sources (0.0.0.0/0 by default), the Elastic IPs an NLB takes (any unassociated
 * one of the account), or a web ACL; and rules naming ingressClasses silently never applied to
 * MultiClusterServices. Now the configuration's values are the default where no rule says
 * otherwise, the new rule fields govern the rest, and a rule says which kinds it holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';
import {
  A,
  CERT,
  mci,
  mcs,
  N,
  PRIVATE,
  PUBLIC,
  startPolicyEnv,
  type PolicyEnv,
  type Reconciled,
} from './policy-env.js';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';

let env: PolicyEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Refused as a tenant-policy violation naming `key` (and `rule`), with nothing changed in AWS. */
function expectRefused(r: Reconciled, key: string, rule = 'default'): void {
  expect(r.outcome, JSON.stringify(r)).toBe('invalid');
  expect(r.condition).toMatchObject({ status: 'False', reason: 'TenantPolicyViolation' });
  expect(r.condition.message).toContain(key);
  expect(r.condition.message).toContain(rule);
  expect(r.warnings.find((w) => w.reason === 'TenantPolicyViolation')?.message).toContain(key);
  expect(env!.mutating()).toEqual([]);
}

const served = (r: Reconciled) => expect(r.outcome, JSON.stringify(r)).not.toBe('invalid');

/** A policy that opens what the default closes for scheme and subnets, and sets nothing else. */
const PUBLIC_OK: TenantPolicy = {
  rules: [{ name: 'public-ok', schemes: ['internal', 'internet-facing'], subnets: [...PRIVATE, ...PUBLIC] }],
};

describe('without a tenant policy, only what the configuration gives (issue 27, Medium 4)', () => {
  it('refuses a scheme, subnets, security groups and a certificate the configuration does not name', async () => {
    env = await startPolicyEnv({});
    expectRefused(await env.reconcile(mci('public', { [A('scheme')]: 'internet-facing' })), A('scheme'));
    expectRefused(await env.reconcile(mci('subnets', { [A('subnets')]: PUBLIC.join(',') })), A('subnets'));
    expectRefused(
      await env.reconcile(mci('sgs', { [A('security-groups')]: 'sg-0fedcba9876543210' })),
      A('security-groups'),
    );
    expectRefused(
      await env.reconcile(
        mci('cert', { [A('listen-ports')]: '[{"HTTPS":443}]', [A('certificate-arn')]: CERT }),
      ),
      A('certificate-arn'),
    );
    expectRefused(await env.reconcile(mcs('serve', { [N('scheme')]: 'internet-facing' })), N('scheme'));
    // What the configuration gives is served.
    served(await env.reconcile(mci('plain', {})));
  });

  it('refuses Elastic IPs no rule lists, on an NLB and on a frontend NLB', async () => {
    env = await startPolicyEnv({ tenantPolicy: PUBLIC_OK });
    const eips = 'eipalloc-0aaaaaaaaaaaaaaa1,eipalloc-0aaaaaaaaaaaaaaa2';
    expectRefused(
      await env.reconcile(
        mcs('serve', {
          [N('scheme')]: 'internet-facing',
          [N('subnets')]: PUBLIC.slice(0, 2).join(','),
          [N('eip-allocations')]: eips,
        }),
      ),
      N('eip-allocations'),
    );
    expectRefused(
      await env.reconcile(
        mci('front', {
          [A('enable-frontend-nlb')]: 'true',
          [A('frontend-nlb-scheme')]: 'internet-facing',
          [A('frontend-nlb-subnets')]: PUBLIC.slice(0, 2).join(','),
          [A('frontend-nlb-eip-allocations')]: eips,
        }),
      ),
      A('frontend-nlb-eip-allocations'),
    );
  });
});

describe('the new rule fields', () => {
  it('inboundCidrs: the managed security group opens only to sources within them', async () => {
    env = await startPolicyEnv({
      securityGroups: null,
      tenantPolicy: { rules: [{ name: 'office-only', inboundCidrs: ['10.0.0.0/8'] }] },
    });
    // The managed group's default is 0.0.0.0/0.
    expectRefused(await env.reconcile(mci('open', {})), A('inbound-cidrs'), 'rule "office-only"');
    expectRefused(
      await env.reconcile(mci('wide', { [A('inbound-cidrs')]: '10.0.0.0/8,192.0.2.0/24' })),
      A('inbound-cidrs'),
      'rule "office-only"',
    );
    expectRefused(
      await env.reconcile(
        mcs('serve', { 'service.beta.kubernetes.io/load-balancer-source-ranges': '0.0.0.0/0' }),
      ),
      'load-balancer-source-ranges',
      'rule "office-only"',
    );
    served(await env.reconcile(mci('narrow', { [A('inbound-cidrs')]: '10.1.0.0/16' })));
  });

  it('eipAllocations: the listed Elastic IPs only', async () => {
    env = await startPolicyEnv({
      tenantPolicy: { rules: [{ ...PUBLIC_OK.rules[0]!, eipAllocations: ['eipalloc-0bbbbbbbbbbbbbbb*'] }] },
    });
    expectRefused(
      await env.reconcile(
        mcs('serve', {
          [N('scheme')]: 'internet-facing',
          [N('subnets')]: PUBLIC[0]!,
          [N('eip-allocations')]: 'eipalloc-0aaaaaaaaaaaaaaa1',
        }),
      ),
      N('eip-allocations'),
      'rule "public-ok"',
    );
  });

  it('requireWebAcl: an ALB without a web ACL is refused', async () => {
    env = await startPolicyEnv({ tenantPolicy: { rules: [{ name: 'waf', requireWebAcl: true }] } });
    expectRefused(await env.reconcile(mci('bare', {})), A('wafv2-acl-arn'), 'rule "waf"');
  });
});

describe('rules say which kinds they hold', () => {
  it('a rule naming ingressClasses must say whether MultiClusterServices are held too', async () => {
    const file = (rule: Record<string, unknown>) =>
      JSON.stringify({
        region: 'us-east-1',
        vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr] },
        subnets: PRIVATE,
        ownerId: 'karmada-prod',
        tenantPolicy: { rules: [{ name: 'classes', schemes: ['internal'], ...rule }] },
      });
    await expect(parseAwsConfig(file({ ingressClasses: ['public'] }))).rejects.toThrow(
      /tenantPolicy\.rules\.0\.kinds: required with ingressClasses/,
    );
    const both = await parseAwsConfig(
      file({ ingressClasses: ['public'], kinds: ['MultiClusterIngress', 'MultiClusterService'] }),
    );
    expect(both.tenantPolicy?.rules[0]?.kinds).toEqual(['MultiClusterIngress', 'MultiClusterService']);
  });

  it('a rule of both kinds with ingressClasses holds every MultiClusterService of its namespaces', async () => {
    env = await startPolicyEnv({
      tenantPolicy: {
        rules: [
          {
            name: 'everyone-may-be-public',
            schemes: ['internal', 'internet-facing'],
            subnets: [...PRIVATE, ...PUBLIC],
          },
          {
            name: 'public-class-internal',
            kinds: ['MultiClusterIngress', 'MultiClusterService'],
            ingressClasses: ['karmada'],
            schemes: ['internal'],
          },
        ],
      },
    });
    expectRefused(
      await env.reconcile(mcs('serve', { [N('scheme')]: 'internet-facing' })),
      N('scheme'),
      'rule "public-class-internal"',
    );
  });
});
