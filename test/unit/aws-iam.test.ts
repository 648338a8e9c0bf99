/**
 * The IAM policy is exactly what the code calls: every ELBv2 command constructed anywhere in
 * lib/providers/aws is in the policy, nothing more, and the committed JSON is up to date.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ELBV2_DESCRIBE_ACTIONS,
  ELBV2_MUTATING_ACTIONS,
  elbv2PolicyStatements,
  OWNER_TAG,
} from '../../lib/providers/aws/index.js';
import { EC2_MUTATING_ACTIONS } from '../../lib/providers/aws/deploy/operations.js';
import {
  ACM_ACTIONS,
  EC2_ACTIONS,
  GA_ACTIONS,
  IMPLIED_ACTIONS,
  SHIELD_ACTIONS,
  TAGGING_ACTIONS,
  WAFV2_ACTIONS,
} from '../../lib/providers/aws/iam.js';
import { GENERATED } from '../../scripts/gen-iam.js';

const root = fileURLToPath(new URL('../../lib/providers/aws/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `new DescribeTagsCommand(` → `DescribeTags`, in every provider source file. */
function actionsInCode(): string[] {
  const found = new Set<string>();
  for (const file of sources(root)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/new\s+([A-Z][A-Za-z0-9]*)Command\s*\(/g)) {
      if (m[1]) found.add(m[1]);
    }
  }
  return [...found].sort();
}

/** Every statement there is: a deployment that configures Global Accelerator. */
const ALL = { ownerId: 'team-a', globalAccelerator: true };

describe('IAM policy for the ELBv2 calls', () => {
  it('lists exactly the actions the code calls', () => {
    const inPolicy = elbv2PolicyStatements(ALL)
      .flatMap((s) => s.Action)
      .map((a) => a.replace(/^(elasticloadbalancing|tag|ec2|wafv2|shield|acm|globalaccelerator):/, ''));
    const code = actionsInCode();
    expect(code.length).toBeGreaterThan(20);
    // Besides the commands, the permissions AWS checks under another name for one of them.
    // Global Accelerator's names are prefixed: several are ELBv2's or Shield's too (CreateListener).
    const unprefixed = (a: string) => a.replace(/^globalaccelerator:/, '');
    const implied = Object.keys(IMPLIED_ACTIONS);
    for (const [action, by] of Object.entries(IMPLIED_ACTIONS)) {
      expect(code, `${action} is implied by ${by}`).toContain(by);
      // Shield's implied TagResource is also a command, Global Accelerator's.
      if (!GA_ACTIONS.map(unprefixed).includes(action)) expect(code).not.toContain(action);
    }
    expect([...new Set(inPolicy)].sort()).toStrictEqual([...new Set([...code, ...implied])].sort());
    expect(
      [
        ...new Set([
          ...ELBV2_DESCRIBE_ACTIONS,
          ...ELBV2_MUTATING_ACTIONS,
          ...TAGGING_ACTIONS,
          ...EC2_ACTIONS,
          ...WAFV2_ACTIONS,
          ...SHIELD_ACTIONS,
          ...ACM_ACTIONS,
          ...EC2_MUTATING_ACTIONS,
          ...GA_ACTIONS.map(unprefixed),
        ]),
      ].sort(),
    ).toStrictEqual(code);
    expect(
      inPolicy.filter((a, i, all) => all.indexOf(a) === i && TAGGING_ACTIONS.includes(a as never)),
    ).toEqual(['GetResources']);
  });

  /**
   * The actions no statement scopes by our ownership tag, and why (the Service Authorization
   * Reference offers no condition key for them): each either only reads, or is confined by
   * another permission AWS checks with it.
   */
  const UNSCOPED: Record<string, string> = {
    'wafv2:ListWebACLs': 'lists no resource type; reads the names and ARNs of the Region’s web ACLs',
    'wafv2:GetWebACLForResource': 'no condition key on the load balancer’s tags; only reads',
    'wafv2:AssociateWebACL':
      'no condition key on the load balancer’s tags; WAFv2 also checks elasticloadbalancing:SetWebAcl on the ALB, which is owner-scoped',
    'wafv2:DisassociateWebACL': 'as AssociateWebACL: confined by the owner-scoped SetWebAcl',
    'shield:DescribeProtection': 'by resource ARN the protection is not known yet; only reads',
    'shield:GetSubscriptionState': 'lists no resource type; only reads',
    'shield:ListTagsForResource': 'reads whether a protection is ours, before anything else is done to it',
    'acm:ListCertificates': 'lists no resource type; reads the Region’s issued certificates (discovery)',
    'ec2:CreateSecurityGroup':
      'its vpc half carries no request tags (pinned to the configured VPCs by ec2:Vpc instead); it grants nothing alone, since the new group must be tagged ours (the owner-scoped statement)',
    'acm:DescribeCertificate':
      'the certificates are the account’s, not ours, so there is no tag of ours to scope by; only reads their names',
    'globalaccelerator:ListAccelerators': 'lists no resource type; reads the account’s accelerators',
    'globalaccelerator:ListTagsForResource': 'reads the tags that say which accelerator is ours',
    'globalaccelerator:CreateEndpointGroup':
      'authorised on the listener, a resource type with no condition key (listeners carry no tags)',
    'globalaccelerator:DeleteListener': 'the listener resource type has no condition key',
    'globalaccelerator:UpdateListener': 'the listener resource type has no condition key',
    'globalaccelerator:ListEndpointGroups': 'the listener resource type has no condition key; only reads',
    'globalaccelerator:DeleteEndpointGroup': 'the endpointgroup resource type has no condition key',
    'globalaccelerator:UpdateEndpointGroup': 'the endpointgroup resource type has no condition key',
    'iam:CreateServiceLinkedRole':
      'GA’s own service-linked role, pinned by iam:AWSServiceName to globalaccelerator.amazonaws.com',
  };

  it('scopes by tag every action but the reads and the WAFv2 ones it names, with why', () => {
    const unscoped = elbv2PolicyStatements(ALL)
      .filter((s) => !JSON.stringify(s.Condition ?? {}).includes(OWNER_TAG))
      .flatMap((s) => s.Action)
      .filter(
        (a) =>
          !a.startsWith('elasticloadbalancing:Describe') &&
          !a.startsWith('ec2:Describe') &&
          a !== 'tag:GetResources',
      );
    expect(unscoped.sort()).toStrictEqual(Object.keys(UNSCOPED).sort());
    const setWebAcl = elbv2PolicyStatements(ALL).find((s) =>
      s.Action.includes('elasticloadbalancing:SetWebAcl'),
    );
    expect(JSON.stringify(setWebAcl?.Condition)).toContain(`aws:ResourceTag/${OWNER_TAG}`);
  });

  it('gives every mutating action a statement scoped to a resource type and an owner-tag condition', () => {
    const statements = elbv2PolicyStatements(ALL).filter((s) => !s.Action.some((a) => a in UNSCOPED));
    for (const s of statements) {
      // Reads: ELBv2's and EC2's Describe* and the Tagging API's GetResources (none is
      // resource-scoped; EC2's Describe* cannot be scoped by tag at all).
      const reads = s.Action.every(
        (a) =>
          a.startsWith('elasticloadbalancing:Describe') ||
          a === 'tag:GetResources' ||
          a === 'ec2:DescribeVpcs' ||
          a === 'ec2:DescribeSubnets' ||
          a === 'ec2:DescribeSecurityGroups',
      );
      if (reads) {
        expect(s.Resource).toEqual(['*']);
        expect(s.Condition).toBeUndefined();
        continue;
      }
      if (s.Sid === 'GaCreateAcceleratorTaggedAsOurs') {
        // CreateAccelerator lists no resource type: "*", with our owner tag required in the request.
        expect(s.Action).toEqual(['globalaccelerator:CreateAccelerator']);
        expect(s.Resource).toEqual(['*']);
        expect(s.Condition).toStrictEqual({ StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: 'team-a' } });
        continue;
      }
      if (s.Sid === 'Ec2CreateSecurityGroupInVpc') {
        // The one unscoped mutation: CreateSecurityGroup's vpc resource carries no request tags,
        // and the call is also authorised on the new group, which must be tagged ours.
        expect(s.Action).toEqual(['ec2:CreateSecurityGroup']);
        expect(s.Resource).toEqual([
          { 'Fn::Sub': 'arn:${AWS::Partition}:ec2:${AWS::Region}:${AWS::AccountId}:vpc/*' },
        ]);
        expect(s.Condition).toBeUndefined();
        const group = statements.find((g) => g.Sid === 'Ec2CreateSecurityGroupTaggedAsOurs');
        expect(group?.Condition).toStrictEqual({
          StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: 'team-a' },
        });
        continue;
      }
      expect(s.Resource.length).toBeGreaterThan(0);
      expect(s.Resource).not.toContain('*');
      expect(JSON.stringify(s.Condition)).toMatch(
        new RegExp(`aws:(Request|Resource)Tag/${OWNER_TAG.replace('/', '\\/')}":"team-a"`),
      );
    }
  });

  it('the sweep access lists and deletes only, and is part of what reconcile holds', () => {
    const sweep = elbv2PolicyStatements(ALL, 'sweep').flatMap((s) => s.Action);
    const reconcile = new Set(elbv2PolicyStatements(ALL, 'reconcile').flatMap((s) => s.Action));
    // GA deletes only a disabled accelerator: disabling it (marked as retiring) is a deletion's first step.
    const gaDeletionSteps = ['globalaccelerator:UpdateAccelerator', 'globalaccelerator:TagResource'];
    expect(sweep.filter((a) => !/:(Describe|Delete|List)/.test(a) && !gaDeletionSteps.includes(a))).toEqual(
      [],
    );
    for (const a of sweep) expect(reconcile.has(a), a).toBe(true);
  });

  it('pins scheme, subnets and security groups with ELBv2 condition keys when guardrails are given', () => {
    const [create] = elbv2PolicyStatements({
      ownerId: 'o',
      guardrails: { schemes: ['internal'], subnets: ['subnet-1'], securityGroups: ['sg-1'] },
    }).filter((s) => s.Action.includes('elasticloadbalancing:CreateLoadBalancer'));
    expect(create?.Condition).toStrictEqual({
      StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: 'o' },
      StringLike: { 'elasticloadbalancing:Scheme': ['internal'] },
      'ForAllValues:StringLike': {
        'elasticloadbalancing:Subnet': ['subnet-1'],
        'elasticloadbalancing:SecurityGroup': ['sg-1'],
      },
    });
  });

  it('pins CreateSecurityGroup to the configured VPCs: their ARNs, and ec2:Vpc on both halves', () => {
    const vpcs = [
      { region: 'us-east-1', id: 'vpc-1' },
      { region: 'eu-west-1', id: 'vpc-2' },
    ];
    const statements = elbv2PolicyStatements({ ownerId: 'o', regions: ['us-east-1', 'eu-west-1'], vpcs });
    const arns = vpcs.map((v) => ({
      'Fn::Sub': `arn:\${AWS::Partition}:ec2:${v.region}:\${AWS::AccountId}:vpc/${v.id}`,
    }));
    const inVpc = statements.find((s) => s.Sid === 'Ec2CreateSecurityGroupInVpc');
    expect(inVpc?.Resource).toEqual(arns);
    expect(inVpc?.Condition).toStrictEqual({ ArnEquals: { 'ec2:Vpc': arns } });
    const group = statements.find((s) => s.Sid === 'Ec2CreateSecurityGroupTaggedAsOurs');
    expect(group?.Condition).toStrictEqual({
      StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: 'o' },
      ArnEquals: { 'ec2:Vpc': arns },
    });
  });

  it('infra/iam/ is what scripts/gen-iam.ts writes', () => {
    for (const [path, make] of Object.entries(GENERATED)) {
      const committed: unknown = JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
      expect(committed, path).toStrictEqual(JSON.parse(JSON.stringify(make())));
    }
  });
});
