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
import { TAGGING_ACTIONS } from '../../lib/providers/aws/iam.js';
import { policyDocument } from '../../scripts/gen-iam.js';

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
      .map((a) => a.replace(/^(elasticloadbalancing|tag):/, ''));
    const code = actionsInCode();
    expect(code.length).toBeGreaterThan(20);
    expect([...new Set(inPolicy)].sort()).toStrictEqual(code);
    expect([...ELBV2_DESCRIBE_ACTIONS, ...ELBV2_MUTATING_ACTIONS, ...TAGGING_ACTIONS].sort()).toStrictEqual(
      code,
    );
  });

  it('allows Describe* on any resource, and every mutation only on our tagged resources', () => {
    const statements = elbv2PolicyStatements('team-a');
    for (const s of statements) {
      // Reads: ELBv2's Describe* and the Tagging API's GetResources (neither is resource-scoped).
      const describes = s.Action.every(
        (a) => a.startsWith('elasticloadbalancing:Describe') || a === 'tag:GetResources',
      );
      if (describes) {
        expect(s.Condition).toBeUndefined();
        continue;
      }
      // Every non-describe statement is pinned to the owner tag, on the request or the resource.
      const conditions = JSON.stringify(s.Condition);
      expect(conditions).toMatch(
        new RegExp(`aws:(Request|Resource)Tag/${OWNER_TAG.replace('/', '\\/')}":"team-a"`),
      );
    }
    const create = statements.find((s) => s.Sid === 'ElbV2CreateTaggedAsOurs');
    expect(create?.Action.every((a) => /:Create/.test(a))).toBe(true);
    expect(create?.Condition).toStrictEqual({ StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: 'team-a' } });
    const tagOnCreate = statements.find((s) => s.Sid === 'ElbV2TagOnCreate');
    expect(tagOnCreate?.Action).toStrictEqual(['elasticloadbalancing:AddTags']);
    expect(tagOnCreate?.Condition?.StringEquals?.['elasticloadbalancing:CreateAction']).toStrictEqual([
      'CreateListener',
      'CreateLoadBalancer',
      'CreateRule',
      'CreateTargetGroup',
    ]);
    const owned = statements.find((s) => s.Sid === 'ElbV2ChangeOwned');
    expect(owned?.Condition).toStrictEqual({ StringEquals: { [`aws:ResourceTag/${OWNER_TAG}`]: 'team-a' } });
    expect(owned?.Action.some((a) => /:Create/.test(a))).toBe(false);
  });

  it('infra/iam/elbv2-policy.json is what scripts/gen-iam.ts writes', () => {
    const committed: unknown = JSON.parse(
      readFileSync(new URL('../../infra/iam/elbv2-policy.json', import.meta.url), 'utf8'),
    );
    expect(committed).toStrictEqual(policyDocument());
  });
});
