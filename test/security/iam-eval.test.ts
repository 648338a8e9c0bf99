/**
 * The IAM evaluator the security tests rely on (./iam-eval.ts), against the rules of the IAM User
 * Guide ("Condition operators", "Multivalued context keys"): if it were more lenient or stricter
 * than IAM, the tests built on it would prove nothing. Each case is one the generated policies use.
 */
import { describe, expect, it } from 'vitest';
import { arnMatch, isAllowed, trustAllows, type Request, type Statement } from './iam-eval.js';

const allow = (Condition: Statement['Condition']): Statement[] => [
  { Effect: 'Allow', Action: 'ec2:DeleteTags', Resource: '*', ...(Condition ? { Condition } : {}) },
];
const req = (context: Request['context']): Request => ({ action: 'ec2:DeleteTags', resource: 'x', context });

describe('the IAM evaluator’s condition operators', () => {
  it('Null: true for a key that is absent or an empty list, false for a key with a value', () => {
    const absent = allow({ Null: { 'aws:TagKeys': 'true' } });
    const present = allow({ Null: { 'aws:TagKeys': 'false' } });
    expect(isAllowed(absent, req({}))).toBe(true);
    expect(isAllowed(absent, req({ 'aws:TagKeys': [] }))).toBe(true);
    expect(isAllowed(absent, req({ 'aws:TagKeys': ['a'] }))).toBe(false);
    expect(isAllowed(present, req({}))).toBe(false);
    expect(isAllowed(present, req({ 'aws:TagKeys': [] }))).toBe(false);
    expect(isAllowed(present, req({ 'aws:TagKeys': ['a'] }))).toBe(true);
    expect(isAllowed(present, req({ 'aws:ResourceTag/owner': 'x' }))).toBe(false);
  });

  it('ForAllValues holds for no value at all; ForAnyValue never does', () => {
    const all = allow({ 'ForAllValues:StringNotEquals': { 'aws:TagKeys': ['owner'] } });
    const any = allow({ 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['team'] } });
    expect(isAllowed(all, req({}))).toBe(true);
    expect(isAllowed(all, req({ 'aws:TagKeys': [] }))).toBe(true);
    expect(isAllowed(all, req({ 'aws:TagKeys': ['team', 'env'] }))).toBe(true);
    expect(isAllowed(all, req({ 'aws:TagKeys': ['team', 'owner'] }))).toBe(false);
    expect(isAllowed(any, req({}))).toBe(false);
    expect(isAllowed(any, req({ 'aws:TagKeys': [] }))).toBe(false);
    expect(isAllowed(any, req({ 'aws:TagKeys': ['env', 'team'] }))).toBe(true);
    expect(isAllowed(any, req({ 'aws:TagKeys': ['env'] }))).toBe(false);
  });

  it('a missing key fails a positive operator and satisfies a negated one or …IfExists', () => {
    expect(isAllowed(allow({ StringEquals: { k: 'v' } }), req({}))).toBe(false);
    expect(isAllowed(allow({ StringNotEquals: { k: 'v' } }), req({}))).toBe(true);
    expect(isAllowed(allow({ StringEqualsIfExists: { k: 'v' } }), req({}))).toBe(true);
    expect(isAllowed(allow({ StringEqualsIfExists: { k: 'v' } }), req({ k: 'w' }))).toBe(false);
    expect(isAllowed(allow({ ArnEquals: { 'ec2:Vpc': 'arn:aws:ec2:*:*:vpc/vpc-1' } }), req({}))).toBe(false);
    expect(isAllowed(allow({ ArnNotEquals: { 'ec2:Vpc': 'arn:aws:ec2:*:*:vpc/vpc-1' } }), req({}))).toBe(
      true,
    );
  });

  it('ArnEquals and ArnLike match each of the six parts on its own, case-sensitively', () => {
    const vpc = 'arn:aws:ec2:eu-west-1:123456789012:vpc/vpc-0abc';
    for (const op of ['ArnEquals', 'ArnLike']) {
      expect(isAllowed(allow({ [op]: { 'ec2:Vpc': vpc } }), req({ 'ec2:Vpc': vpc })), op).toBe(true);
      expect(
        isAllowed(allow({ [op]: { 'ec2:Vpc': 'arn:aws:ec2:*:*:vpc/*' } }), req({ 'ec2:Vpc': vpc })),
        op,
      ).toBe(true);
      expect(
        isAllowed(
          allow({ [op]: { 'ec2:Vpc': vpc } }),
          req({ 'ec2:Vpc': vpc.replace('eu-west-1', 'us-east-1') }),
        ),
        op,
      ).toBe(false);
    }
    // A wildcard stays inside its part: "*" in the Region cannot swallow the next part too.
    expect(
      arnMatch(
        'arn:aws:ec2:*:123456789012:vpc/vpc-0abc',
        'arn:aws:ec2:eu-west-1:1:123456789012:vpc/vpc-0abc',
      ),
    ).toBe(false);
    expect(arnMatch('arn:aws:ec2:*:*:VPC/vpc-0abc', 'arn:aws:ec2:eu-west-1:123456789012:vpc/vpc-0abc')).toBe(
      false,
    );
    // The resource part keeps its own colons.
    expect(
      arnMatch(
        'arn:aws:logs:*:*:log-group:/aws/lambda/f:*',
        'arn:aws:logs:eu-west-1:1:log-group:/aws/lambda/f:x',
      ),
    ).toBe(true);
    expect(arnMatch('arn:aws:ec2:*:*:vpc/*', 'not-an-arn')).toBe(false);
  });

  it('refuses an operator it does not know instead of guessing', () => {
    expect(() => isAllowed(allow({ NumericLessThan: { n: '1' } }), req({ n: '0' }))).toThrow(/not supported/);
    expect(() => isAllowed(allow({ 'ForAllValues:Null': { k: 'true' } }), req({}))).toThrow(
      /not an IAM operator/,
    );
  });

  it('a trust policy names who may assume the role; conditions as above', () => {
    const trust = [
      {
        Effect: 'Allow' as const,
        Principal: { Service: 'pods.eks.amazonaws.com' },
        Action: ['sts:AssumeRole'],
        Condition: { StringEquals: { 'aws:RequestTag/kubernetes-namespace': 'ns' } },
      },
    ];
    const context = { 'aws:RequestTag/kubernetes-namespace': 'ns' };
    expect(trustAllows(trust, { service: 'pods.eks.amazonaws.com', action: 'sts:AssumeRole', context })).toBe(
      true,
    );
    expect(trustAllows(trust, { service: 'lambda.amazonaws.com', action: 'sts:AssumeRole', context })).toBe(
      false,
    );
    expect(trustAllows(trust, { service: 'pods.eks.amazonaws.com', action: 'sts:TagSession', context })).toBe(
      false,
    );
    expect(trustAllows(trust, { service: 'pods.eks.amazonaws.com', action: 'sts:AssumeRole' })).toBe(false);
  });
});
