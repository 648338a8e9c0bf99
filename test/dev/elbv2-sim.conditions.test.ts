import { ModifyRuleCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { RuleCondition, RuleTransform } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { createAlb, createHttpListener, ruleWith, sdkError, useSim } from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: conditions', () => {
  const ctx = useSim();

  it('reports every condition type the way DescribeRules does', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await ruleWith(ctx.client, l, 1, [
      { Field: 'host-header', Values: ['api.example.com'] },
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-Canary', Values: ['yes'] } },
      { Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['GET'] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'v', Value: '2' }] } },
      { Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.0/8'] } },
    ]);
    expect(rule.Conditions).toEqual([
      {
        Field: 'host-header',
        Values: ['api.example.com'],
        HostHeaderConfig: { Values: ['api.example.com'] },
      },
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-Canary', Values: ['yes'] } },
      { Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['GET'] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'v', Value: '2' }] } },
      { Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.0/8'] } },
    ]);
    const v6 = await ruleWith(ctx.client, l, 2, [
      { Field: 'source-ip', SourceIpConfig: { Values: ['2600:1f18::/32', '192.168.0.0/16'] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Value: 'debug' }] } },
    ]);
    expect(v6.Conditions![1]).toEqual({
      Field: 'query-string',
      QueryStringConfig: { Values: [{ Value: 'debug' }] },
    });
  });

  it('takes regex values for host-header, path-pattern and http-header, never mixed with plain values', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await ruleWith(ctx.client, l, 1, [
      { Field: 'host-header', RegexValues: ['^api\\.example\\.com:8443$'] },
      { Field: 'path-pattern', PathPatternConfig: { RegexValues: ['^/v[0-9]+/users$'] } },
      {
        Field: 'http-header',
        HttpHeaderConfig: { HttpHeaderName: 'User-Agent', RegexValues: ['.+Mobile.+'] },
      },
    ]);
    expect(rule.Conditions).toEqual([
      { Field: 'host-header', HostHeaderConfig: { RegexValues: ['^api\\.example\\.com:8443$'] } },
      { Field: 'path-pattern', PathPatternConfig: { RegexValues: ['^/v[0-9]+/users$'] } },
      {
        Field: 'http-header',
        HttpHeaderConfig: { HttpHeaderName: 'User-Agent', RegexValues: ['.+Mobile.+'] },
      },
    ]);
    const bad = async (c: RuleCondition) => (await sdkError(ruleWith(ctx.client, l, 9, [c]))).message;
    expect(
      await bad({ Field: 'path-pattern', PathPatternConfig: { Values: ['/a'], RegexValues: ['^/b'] } }),
    ).toContain('either values or regular expressions');
    expect(await bad({ Field: 'path-pattern', RegexValues: ['^/(?=admin)'] })).toContain('lookaheads');
    expect(await bad({ Field: 'path-pattern', RegexValues: ['^(a)\\1$'] })).toContain('backreferences');
    expect(await bad({ Field: 'host-header', RegexValues: ['\\p{L}+'] })).toContain('Unicode');
    expect(await bad({ Field: 'path-pattern', RegexValues: ['^/(unclosed'] })).toContain(
      'not a valid regular',
    );
    expect(await bad({ Field: 'http-request-method', RegexValues: ['^G'] })).toContain('not supported');
  });

  it('validates values as the API documents them', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const bad = async (c: RuleCondition[]) => (await sdkError(ruleWith(ctx.client, l, 9, c))).message;
    expect(await bad([{ Field: 'host-header', Values: ['example.com:8443'] }])).toContain('not valid');
    expect(await bad([{ Field: 'host-header', Values: ['localhost'] }])).toContain("at least one '.'");
    expect(await bad([{ Field: 'path-pattern', Values: ['/a b'] }])).toContain('not allowed');
    expect(await bad([{ Field: 'path-pattern', Values: ['/' + 'a'.repeat(128)] }])).toContain(
      'longer than 128',
    );
    expect(
      await bad([{ Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['get'] } }]),
    ).toContain('A-Z');
    expect(await bad([{ Field: 'http-request-method', Values: ['GET'] }])).toContain('only for host-header');
    expect(await bad([{ Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.1'] } }])).toContain('CIDR');
    expect(
      await bad([{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'Host', Values: ['a'] } }]),
    ).toContain('host-header condition');
    expect(
      await bad([{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'Bad Name', Values: ['a'] } }]),
    ).toContain('RFC 7230');
    expect(await bad([{ Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'k' }] } }])).toContain(
      'Member must not be null',
    );
    expect(
      await bad([
        { Field: 'path-pattern', Values: ['/a'] },
        { Field: 'path-pattern', Values: ['/b'] },
      ]),
    ).toContain("only one 'path-pattern'");
    expect(await bad([{ Field: 'cookie', Values: ['a'] }])).toContain('enum');
    // http-header and query-string may repeat.
    const repeated = await ruleWith(ctx.client, l, 1, [
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'A', Values: ['1'] } },
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'B', Values: ['2'] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'a', Value: '1' }] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'b', Value: '2' }] } },
    ]);
    expect(repeated.Conditions).toHaveLength(4);
  });

  it('counts condition values across all conditions: header values, query pairs and regexes each count once', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const five: RuleCondition[] = [
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-A', Values: ['1', '2'] } },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'a', Value: '1' }, { Value: 'b' }] } },
      { Field: 'path-pattern', RegexValues: ['^/x$'] },
    ];
    await ruleWith(ctx.client, l, 1, five);
    const six = await sdkError(
      ruleWith(ctx.client, l, 2, [
        ...five,
        { Field: 'source-ip', SourceIpConfig: { Values: ['10.0.0.0/8'] } },
      ]),
    );
    expect(six.name).toBe('ValidationError');
    expect(six.message).toBe("A rule can only have '5' condition values");
  });

  it('allows 5 wildcards per rule and rejects 6; escaped query wildcards and regexes do not count', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    await ruleWith(ctx.client, l, 1, [
      { Field: 'host-header', Values: ['*.example.*'] },
      { Field: 'path-pattern', Values: ['/a/*/b?'] },
      { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'k*', Value: 'lit\\*' }] } },
    ]);
    const six = await sdkError(
      ruleWith(ctx.client, l, 2, [
        { Field: 'host-header', Values: ['*.example.*'] },
        { Field: 'path-pattern', Values: ['/a/*/b?/*'] },
        { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X', Values: ['*'] } },
      ]),
    );
    expect(six.message).toBe("A rule can only have '5' wildcards");
    await ruleWith(ctx.client, l, 3, [{ Field: 'path-pattern', RegexValues: ['^/a.*b.*c.*d.*e.*f.*$'] }]);
  });

  it('uses the configured limits, so a raised quota is honoured', async () => {
    ctx.sim.state.store.limits.conditionValuesPerRule = 6;
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await ruleWith(ctx.client, l, 1, [
      { Field: 'path-pattern', PathPatternConfig: { Values: ['/1', '/2', '/3', '/4', '/5', '/6'] } },
    ]);
    expect(rule.Conditions![0]!.Values).toHaveLength(6);
  });
});

describe('ELBv2 simulator: transforms', () => {
  const ctx = useSim();
  const hostRewrite: RuleTransform = {
    Type: 'host-header-rewrite',
    HostHeaderRewriteConfig: { Rewrites: [{ Regex: '^(.+)\\.example\\.com$', Replace: '$1.internal' }] },
  };
  const urlRewrite: RuleTransform = {
    Type: 'url-rewrite',
    UrlRewriteConfig: { Rewrites: [{ Regex: '^/api/(.*)$', Replace: '/$1' }] },
  };

  it('stores one host-header rewrite and one URL rewrite per rule', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await ruleWith(ctx.client, l, 1, [{ Field: 'path-pattern', Values: ['/api/*'] }], {
      Transforms: [hostRewrite, urlRewrite],
    });
    expect(rule.Transforms).toEqual([hostRewrite, urlRewrite]);
    const plain = await ruleWith(ctx.client, l, 2, [{ Field: 'path-pattern', Values: ['/b'] }]);
    expect(plain.Transforms).toBeUndefined();

    const bad = async (t: RuleTransform[]) =>
      (
        await sdkError(
          ruleWith(ctx.client, l, 9, [{ Field: 'path-pattern', Values: ['/c'] }], { Transforms: t }),
        )
      ).message;
    expect(await bad([urlRewrite, urlRewrite])).toContain("only one 'url-rewrite'");
    expect(
      await bad([{ Type: 'url-rewrite', HostHeaderRewriteConfig: hostRewrite.HostHeaderRewriteConfig }]),
    ).toContain('cannot be specified');
    expect(await bad([{ Type: 'url-rewrite', UrlRewriteConfig: { Rewrites: [] } }])).toContain(
      'exactly one rewrite',
    );
    expect(
      await bad([
        { Type: 'url-rewrite', UrlRewriteConfig: { Rewrites: [{ Regex: '(?<=x)y', Replace: 'z' }] } },
      ]),
    ).toContain('lookaheads and lookbehinds');
  });

  it('ModifyRule replaces transforms, ResetTransforms removes them, never both at once', async () => {
    const l = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await ruleWith(ctx.client, l, 1, [{ Field: 'path-pattern', Values: ['/api/*'] }], {
      Transforms: [hostRewrite],
    });
    const modified = await ctx.client.send(
      new ModifyRuleCommand({ RuleArn: rule.RuleArn, Transforms: [urlRewrite] }),
    );
    expect(modified.Rules![0]!.Transforms).toEqual([urlRewrite]);
    const both = await sdkError(
      ctx.client.send(
        new ModifyRuleCommand({ RuleArn: rule.RuleArn, Transforms: [urlRewrite], ResetTransforms: true }),
      ),
    );
    expect(both.message).toContain('cannot be specified together');
    const reset = await ctx.client.send(
      new ModifyRuleCommand({ RuleArn: rule.RuleArn, ResetTransforms: true }),
    );
    expect(reset.Rules![0]!.Transforms).toBeUndefined();
    expect(reset.Rules![0]!.Conditions![0]!.Values).toEqual(['/api/*']);
  });
});
