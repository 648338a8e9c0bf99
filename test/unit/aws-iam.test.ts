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
import { EC2_ACTIONS, TAGGING_ACTIONS } from '../../lib/providers/aws/iam.js';
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

describe('IAM policy for the ELBv2 calls', () => {
  it('lists exactly the actions the code calls', () => {
    const inPolicy = elbv2PolicyStatements('o')
      .flatMap((s) => s.Action)
      .map((a) => a.replace(/^(elasticloadbalancing|tag|ec2):/, ''));
    const code = actionsInCode();
    expect(code.length).toBeGreaterThan(20);
    expect([...new Set(inPolicy)].sort()).toStrictEqual(code);
    expect(
      [
        ...ELBV2_DESCRIBE_ACTIONS,
        ...ELBV2_MUTATING_ACTIONS,
        ...TAGGING_ACTIONS,
        ...EC2_ACTIONS,
        ...EC2_MUTATING_ACTIONS,
      ].sort(),
    ).toStrictEqual(code);
    expect(
      inPolicy.filter((a, i, all) => all.indexOf(a) === i && TAGGING_ACTIONS.includes(a as never)),
    ).toEqual(['GetResources']);
  });

  it('gives every mutating action a statement scoped to a resource type and an owner-tag condition', () => {
    const statements = elbv2PolicyStatements('team-a');
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
    const sweep = elbv2PolicyStatements('o', 'sweep').flatMap((s) => s.Action);
    const reconcile = new Set(elbv2PolicyStatements('o', 'reconcile').flatMap((s) => s.Action));
    expect(sweep.filter((a) => !/:(Describe|Delete)/.test(a))).toEqual([]);
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

  it('infra/iam/ is what scripts/gen-iam.ts writes', () => {
    for (const [path, make] of Object.entries(GENERATED)) {
      const committed: unknown = JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
      expect(committed, path).toStrictEqual(JSON.parse(JSON.stringify(make())));
    }
  });
});
