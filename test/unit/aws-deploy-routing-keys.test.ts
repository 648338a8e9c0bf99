/**
 * The canonical forms that make an unchanged rule a no-op: what we send and what DescribeRules
 * reports (ELBv2 adds ForwardConfig to a single forward, fills in redirect defaults, repeats host
 * and path values under `Values`) compare equal; every real difference does not.
 */
import type {
  Action as SdkAction,
  Rule,
  RuleCondition as SdkCondition,
  RuleTransform as SdkTransform,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { actionsKey, conditionsKey, transformsKey } from '../../lib/providers/aws/deploy/actions.js';
import { planListenerRules } from '../../lib/providers/aws/deploy/listener-rule.js';
import { ResourceTypes, type ListenerRuleResource } from '../../lib/providers/aws/model/types.js';

const weighted = (weights: number[], sticky?: { Enabled: boolean; DurationSeconds?: number }): SdkAction => ({
  Type: 'forward',
  ForwardConfig: {
    TargetGroups: weights.map((w, i) => ({ TargetGroupArn: `tg${i}`, Weight: w })),
    ...(sticky ? { TargetGroupStickinessConfig: sticky } : {}),
  },
});

describe('actionsKey', () => {
  it.each([
    {
      name: 'weights in another order',
      a: [weighted([1, 2])],
      b: [
        {
          ...weighted([]),
          ForwardConfig: {
            TargetGroups: [
              { TargetGroupArn: 'tg1', Weight: 2 },
              { TargetGroupArn: 'tg0', Weight: 1 },
            ],
          },
        },
      ],
      equal: true,
    },
    { name: 'another weight', a: [weighted([1, 2])], b: [weighted([1, 3])], equal: false },
    {
      name: 'stickiness off as reported',
      a: [weighted([1, 2])],
      b: [weighted([1, 2], { Enabled: false })],
      equal: true,
    },
    {
      name: 'stickiness on',
      a: [weighted([1, 2])],
      b: [weighted([1, 2], { Enabled: true, DurationSeconds: 60 })],
      equal: false,
    },
    {
      name: 'another stickiness duration',
      a: [weighted([1, 2], { Enabled: true, DurationSeconds: 60 })],
      b: [weighted([1, 2], { Enabled: true, DurationSeconds: 61 })],
      equal: false,
    },
    {
      name: 'one weighted group is a plain forward',
      a: [{ Type: 'forward', TargetGroupArn: 'tg0' }],
      b: [weighted([7])],
      equal: true,
    },
    {
      name: 'one sticky group is not',
      a: [{ Type: 'forward', TargetGroupArn: 'tg0' }],
      b: [weighted([7], { Enabled: true, DurationSeconds: 5 })],
      equal: false,
    },
    {
      name: 'a redirect that leaves host, path and query out equals their defaults',
      a: [{ Type: 'redirect', RedirectConfig: { Path: '/new', StatusCode: 'HTTP_302' } }],
      b: [
        {
          Type: 'redirect',
          RedirectConfig: {
            Protocol: '#{protocol}',
            Port: '#{port}',
            Host: '#{host}',
            Path: '/new',
            Query: '#{query}',
            StatusCode: 'HTTP_302',
          },
        },
      ],
      equal: true,
    },
    {
      name: 'a redirect host',
      a: [{ Type: 'redirect', RedirectConfig: { Host: 'a.example.com', StatusCode: 'HTTP_301' } }],
      b: [{ Type: 'redirect', RedirectConfig: { Host: 'b.example.com', StatusCode: 'HTTP_301' } }],
      equal: false,
    },
    {
      name: 'a redirect query',
      a: [{ Type: 'redirect', RedirectConfig: { Query: 'a=1', StatusCode: 'HTTP_301' } }],
      b: [{ Type: 'redirect', RedirectConfig: { StatusCode: 'HTTP_301' } }],
      equal: false,
    },
    {
      name: 'a redirect path',
      a: [{ Type: 'redirect', RedirectConfig: { Path: '/a', StatusCode: 'HTTP_301' } }],
      b: [{ Type: 'redirect', RedirectConfig: { StatusCode: 'HTTP_301' } }],
      equal: false,
    },
  ] as Array<{ name: string; a: SdkAction[]; b: SdkAction[]; equal: boolean }>)(
    '$name',
    ({ a, b, equal }) => {
      expect(actionsKey(a) === actionsKey(b)).toBe(equal);
    },
  );
});

describe('conditionsKey', () => {
  it.each([
    {
      name: 'regex and plain values differ',
      a: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['^/a$'] } }],
      b: [{ Field: 'path-pattern', PathPatternConfig: { RegexValues: ['^/a$'] } }],
      equal: false,
    },
    {
      name: 'host regex values as a set',
      a: [{ Field: 'host-header', HostHeaderConfig: { RegexValues: ['b', 'a'] } }],
      b: [{ Field: 'host-header', HostHeaderConfig: { RegexValues: ['a', 'b'] } }],
      equal: true,
    },
    {
      name: 'header names in any case',
      a: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-Canary', Values: ['1'] } }],
      b: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'x-canary', Values: ['1'] } }],
      equal: true,
    },
    {
      name: 'header values',
      a: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X', Values: ['1'] } }],
      b: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X', Values: ['2'] } }],
      equal: false,
    },
    {
      name: 'two header conditions in any order',
      a: [
        { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'A', Values: ['1'] } },
        { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'B', Values: ['2'] } },
      ],
      b: [
        { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'B', Values: ['2'] } },
        { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'A', Values: ['1'] } },
      ],
      equal: true,
    },
    {
      name: 'methods as a set',
      a: [{ Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['GET', 'HEAD'] } }],
      b: [{ Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['HEAD', 'GET'] } }],
      equal: true,
    },
    {
      name: 'another method',
      a: [{ Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['GET'] } }],
      b: [{ Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['PUT'] } }],
      equal: false,
    },
    {
      name: 'source CIDRs',
      a: [{ Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.0/8'] } }],
      b: [{ Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.0/16'] } }],
      equal: false,
    },
    {
      name: 'query pairs as a set',
      a: [
        { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'a', Value: '1' }, { Value: 'x' }] } },
      ],
      b: [
        { Field: 'query-string', QueryStringConfig: { Values: [{ Value: 'x' }, { Key: 'a', Value: '1' }] } },
      ],
      equal: true,
    },
    {
      name: 'a query pair without key is not one with an empty key',
      a: [{ Field: 'query-string', QueryStringConfig: { Values: [{ Value: 'x' }] } }],
      b: [{ Field: 'query-string', QueryStringConfig: { Values: [{ Key: '', Value: 'x' }] } }],
      equal: false,
    },
  ] as Array<{ name: string; a: SdkCondition[]; b: SdkCondition[]; equal: boolean }>)(
    '$name',
    ({ a, b, equal }) => {
      expect(conditionsKey(a) === conditionsKey(b)).toBe(equal);
    },
  );
});

describe('transformsKey', () => {
  const url = (regex: string): SdkTransform => ({
    Type: 'url-rewrite',
    UrlRewriteConfig: { Rewrites: [{ Regex: regex, Replace: '/$1' }] },
  });
  const host: SdkTransform = {
    Type: 'host-header-rewrite',
    HostHeaderRewriteConfig: { Rewrites: [{ Regex: 'a', Replace: 'b' }] },
  };
  it.each([
    { name: 'none equal none', a: undefined, b: [], equal: true },
    { name: 'in any order', a: [url('x'), host], b: [host, url('x')], equal: true },
    { name: 'another regex', a: [url('x')], b: [url('y')], equal: false },
    { name: 'one removed', a: [url('x'), host], b: [url('x')], equal: false },
  ] as Array<{ name: string; a: SdkTransform[] | undefined; b: SdkTransform[]; equal: boolean }>)(
    '$name',
    ({ a, b, equal }) => {
      expect(transformsKey(a) === transformsKey(b)).toBe(equal);
    },
  );
});

describe('planListenerRules and transforms', () => {
  const desired = (transforms?: ListenerRuleResource['spec']['transforms']): ListenerRuleResource => ({
    id: 'r',
    type: ResourceTypes.ListenerRule,
    spec: {
      listener: { $ref: '80' },
      priority: 1,
      conditions: [{ field: 'path-pattern', values: ['/a'] }],
      actions: [{ type: 'forward', targetGroup: { $ref: 'tg' } }],
      ...(transforms ? { transforms } : {}),
      tags: {},
    },
  });
  const actual = (transforms?: SdkTransform[]): Rule => ({
    RuleArn: 'arn:r',
    Priority: '1',
    Conditions: [{ Field: 'path-pattern', Values: ['/a'], PathPatternConfig: { Values: ['/a'] } }],
    Actions: [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:tg' }],
    ...(transforms ? { Transforms: transforms } : {}),
  });
  const plan = (d: ListenerRuleResource, a: Rule) =>
    planListenerRules({ externalManagedTags: [] }, 'arn:l', [d], [a], (id) => `arn:${id}`);
  const rewrite = { type: 'url-rewrite' as const, rewrites: [{ regex: '^/a/(.*)$', replace: '/$1' }] };
  const sdkRewrite: SdkTransform = {
    Type: 'url-rewrite',
    UrlRewriteConfig: { Rewrites: [{ Regex: '^/a/(.*)$', Replace: '/$1' }] },
  };

  it('an unchanged transform: nothing to do', () => {
    expect(plan(desired([rewrite]), actual([sdkRewrite]))).toStrictEqual([]);
  });

  it('a new transform: ModifyRule with Transforms', () => {
    const [op] = plan(desired([rewrite]), actual());
    expect(op?.calls[0]).toStrictEqual({
      action: 'ModifyRule',
      input: {
        RuleArn: 'arn:r',
        Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/a'] } }],
        Actions: [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:tg' }],
        Transforms: [sdkRewrite],
      },
    });
    expect(op?.detail).toBe(
      'rule at priority 1 switched in place: path-pattern /a → forward tg; rewrite URL ^/a/(.*)$ → /$1',
    );
  });

  it('a removed transform: ModifyRule with ResetTransforms (ModifyRule alone keeps them)', () => {
    const [op] = plan(desired(), actual([sdkRewrite]));
    expect(op?.calls[0]?.input).toMatchObject({ RuleArn: 'arn:r', ResetTransforms: true });
    expect(op?.calls[0]?.input).not.toHaveProperty('Transforms');
  });
});
