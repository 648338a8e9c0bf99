import {
  CreateRuleCommand,
  DescribeRulesCommand,
  ModifyRuleCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Action } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  addRule,
  createAlb,
  createHttpListener,
  createHttpsListener,
  createTg,
  notFound404,
  path,
  sdkError,
  useSim,
} from './elbv2-sim-fixtures.js';

const oidc: Action = {
  Type: 'authenticate-oidc',
  Order: 1,
  AuthenticateOidcConfig: {
    Issuer: 'https://idp.example.com',
    AuthorizationEndpoint: 'https://idp.example.com/authorize',
    TokenEndpoint: 'https://idp.example.com/token',
    UserInfoEndpoint: 'https://idp.example.com/userinfo',
    ClientId: 'client-1',
    ClientSecret: 's3cret',
  },
};

describe('ELBv2 simulator: forward actions', () => {
  const ctx = useSim();

  it('keeps weights 0-999 and stickiness, and reports a weighted forward only as ForwardConfig', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const [a, b] = [await createTg(ctx.client, 'a'), await createTg(ctx.client, 'b')];
    const rule = await addRule(ctx.client, listener, 1, [
      {
        Type: 'forward',
        ForwardConfig: {
          TargetGroups: [
            { TargetGroupArn: a.TargetGroupArn, Weight: 999 },
            { TargetGroupArn: b.TargetGroupArn, Weight: 0 },
          ],
          TargetGroupStickinessConfig: { Enabled: true, DurationSeconds: 604800 },
        },
      },
    ]);
    expect(rule.Actions).toEqual([
      {
        Type: 'forward',
        Order: 1,
        ForwardConfig: {
          TargetGroups: [
            { TargetGroupArn: a.TargetGroupArn, Weight: 999 },
            { TargetGroupArn: b.TargetGroupArn, Weight: 0 },
          ],
          TargetGroupStickinessConfig: { Enabled: true, DurationSeconds: 604800 },
        },
      },
    ]);
    const weight = (w: number) =>
      addRule(ctx.client, listener, 2, [
        {
          Type: 'forward',
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: a.TargetGroupArn, Weight: w }] },
        },
      ]);
    expect((await sdkError(weight(1000))).message).toContain('between 0 and 999');
    const sticky = (s: { Enabled: boolean; DurationSeconds?: number }) =>
      addRule(ctx.client, listener, 3, [
        {
          Type: 'forward',
          ForwardConfig: {
            TargetGroups: [{ TargetGroupArn: a.TargetGroupArn }],
            TargetGroupStickinessConfig: s,
          },
        },
      ]);
    expect((await sdkError(sticky({ Enabled: true }))).message).toContain('duration must be specified');
    expect((await sdkError(sticky({ Enabled: true, DurationSeconds: 604801 }))).message).toContain(
      'between 1 and 604800',
    );
  });

  it('forwards to at most 5 target groups, each at most once', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const tgs = [];
    for (let i = 0; i < 6; i++) tgs.push(await createTg(ctx.client, `tg-${i}`));
    const forward = (arns: string[]): Action[] => [
      {
        Type: 'forward',
        ForwardConfig: { TargetGroups: arns.map((TargetGroupArn) => ({ TargetGroupArn, Weight: 1 })) },
      },
    ];
    const five = await addRule(
      ctx.client,
      listener,
      1,
      forward(tgs.slice(0, 5).map((t) => t.TargetGroupArn!)),
    );
    expect(five.Actions![0]!.ForwardConfig!.TargetGroups).toHaveLength(5);
    const six = await sdkError(addRule(ctx.client, listener, 2, forward(tgs.map((t) => t.TargetGroupArn!))));
    expect(six.name).toBe('ValidationError');
    expect(six.message).toContain('at most 5 target groups');
    const twice = await sdkError(
      addRule(ctx.client, listener, 3, forward([tgs[0]!.TargetGroupArn!, tgs[0]!.TargetGroupArn!])),
    );
    expect(twice.message).toContain('more than once');
  });

  it('accepts TargetGroupArn together with a ForwardConfig naming the same single group, and nothing else', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const [a, b] = [await createTg(ctx.client, 'a'), await createTg(ctx.client, 'b')];
    const same = await addRule(ctx.client, listener, 1, [
      {
        Type: 'forward',
        TargetGroupArn: a.TargetGroupArn,
        ForwardConfig: { TargetGroups: [{ TargetGroupArn: a.TargetGroupArn }] },
      },
    ]);
    expect(same.Actions![0]).toMatchObject({ TargetGroupArn: a.TargetGroupArn });
    const other = await sdkError(
      addRule(ctx.client, listener, 2, [
        {
          Type: 'forward',
          TargetGroupArn: a.TargetGroupArn,
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: b.TargetGroupArn }] },
        },
      ]),
    );
    expect(other.name).toBe('ValidationError');
    const none = await sdkError(addRule(ctx.client, listener, 3, [{ Type: 'forward' }]));
    expect(none.message).toContain('Member must not be null');
    const misplaced = await sdkError(
      addRule(ctx.client, listener, 4, [{ ...notFound404, TargetGroupArn: a.TargetGroupArn }]),
    );
    expect(misplaced.message).toContain("only for 'forward' actions");
  });
});

describe('ELBv2 simulator: redirect and fixed-response actions', () => {
  const ctx = useSim();

  it('keeps every RedirectConfig field with the #{...} placeholders the API allows', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const rule = await addRule(ctx.client, listener, 1, [
      {
        Type: 'redirect',
        RedirectConfig: {
          Protocol: 'HTTPS',
          Port: '8443',
          Host: 'www.#{host}',
          Path: '/new/#{path}',
          Query: '#{query}&from=#{host}',
          StatusCode: 'HTTP_302',
        },
      },
    ]);
    expect(rule.Actions![0]!.RedirectConfig).toEqual({
      Protocol: 'HTTPS',
      Port: '8443',
      Host: 'www.#{host}',
      Path: '/new/#{path}',
      Query: '#{query}&from=#{host}',
      StatusCode: 'HTTP_302',
    });
    const redirect = (c: Record<string, string>, priority = 2) =>
      addRule(ctx.client, listener, priority, [
        { Type: 'redirect', RedirectConfig: { StatusCode: 'HTTP_301', ...c } },
      ]);
    expect((await sdkError(redirect({ Host: '#{path}.example.com' }))).message).toContain("'#{path}'");
    expect((await sdkError(redirect({ Path: 'no-slash' }))).message).toContain("must start with '/'");
    expect((await sdkError(redirect({ Port: '70000' }))).message).toContain('between 1 and 65535');
    expect((await sdkError(redirect({ Protocol: 'FTP' }))).message).toContain('HTTP, HTTPS or #{protocol}');
    expect((await sdkError(redirect({ Query: '?a=b', Path: '/x' }))).message).toContain(
      "must not start with '?'",
    );
    const loop = await sdkError(redirect({ Query: 'changed=1' }));
    expect(loop.name).toBe('InvalidLoadBalancerActionException');
  });

  it('refuses to redirect HTTPS to HTTP', async () => {
    const listener = await createHttpsListener(ctx.client, await createAlb(ctx.client));
    const err = await sdkError(
      addRule(ctx.client, listener, 1, [
        { Type: 'redirect', RedirectConfig: { Protocol: 'HTTP', Port: '80', StatusCode: 'HTTP_301' } },
      ]),
    );
    expect(err.name).toBe('InvalidLoadBalancerActionException');
    expect(err.message).toContain('HTTPS to HTTP');
  });

  it('checks fixed-response status codes, content types and body size', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    const fixed = (c: { StatusCode: string; ContentType?: string; MessageBody?: string }) =>
      addRule(ctx.client, listener, 1, [{ Type: 'fixed-response', FixedResponseConfig: c }]);
    expect((await sdkError(fixed({ StatusCode: '302' }))).message).toContain('2XX, 4XX or 5XX');
    expect((await sdkError(fixed({ StatusCode: '200', ContentType: 'text/xml' }))).message).toContain('enum');
    expect((await sdkError(fixed({ StatusCode: '200', MessageBody: 'x'.repeat(1025) }))).message).toContain(
      '1024',
    );
    const ok = await fixed({
      StatusCode: '503',
      ContentType: 'application/json',
      MessageBody: '{"down":true}',
    });
    expect(ok.Actions![0]!.FixedResponseConfig).toEqual({
      StatusCode: '503',
      ContentType: 'application/json',
      MessageBody: '{"down":true}',
    });
  });
});

describe('ELBv2 simulator: authentication actions and action order', () => {
  const ctx = useSim();

  it('stores OIDC with AWS defaults, hides the client secret, and keeps it for UseExistingClientSecret', async () => {
    const listener = await createHttpsListener(ctx.client, await createAlb(ctx.client));
    const rule = await addRule(ctx.client, listener, 1, [oidc, { ...notFound404, Order: 2 }]);
    expect(rule.Actions![0]).toEqual({
      Type: 'authenticate-oidc',
      Order: 1,
      AuthenticateOidcConfig: {
        Issuer: 'https://idp.example.com',
        AuthorizationEndpoint: 'https://idp.example.com/authorize',
        TokenEndpoint: 'https://idp.example.com/token',
        UserInfoEndpoint: 'https://idp.example.com/userinfo',
        ClientId: 'client-1',
        SessionCookieName: 'AWSELBAuthSessionCookie',
        Scope: 'openid',
        SessionTimeout: 604800,
        OnUnauthenticatedRequest: 'authenticate',
      },
    });
    const { ClientSecret: _secret, ...withoutSecret } = oidc.AuthenticateOidcConfig!;
    await ctx.client.send(
      new ModifyRuleCommand({
        RuleArn: rule.RuleArn,
        Actions: [
          {
            ...oidc,
            AuthenticateOidcConfig: {
              ...withoutSecret,
              UseExistingClientSecret: true,
              Scope: 'openid email',
            },
          },
          { ...notFound404, Order: 2 },
        ],
      }),
    );
    const described = (await ctx.client.send(new DescribeRulesCommand({ RuleArns: [rule.RuleArn!] })))
      .Rules![0]!;
    expect(described.Actions![0]!.AuthenticateOidcConfig!.Scope).toBe('openid email');
    const stored = ctx.sim.state.store.rules.get(rule.RuleArn!)!.actions[0]!;
    expect(stored.AuthenticateOidcConfig!.ClientSecret).toBe('s3cret');

    const noSecret = await sdkError(
      addRule(ctx.client, listener, 2, [
        { ...oidc, AuthenticateOidcConfig: withoutSecret },
        { ...notFound404, Order: 2 },
      ]),
    );
    expect(noSecret.message).toContain("'authenticateOidcConfig.clientSecret'");
    const plainHttp = await sdkError(
      addRule(ctx.client, listener, 3, [
        {
          ...oidc,
          AuthenticateOidcConfig: { ...oidc.AuthenticateOidcConfig!, TokenEndpoint: 'http://idp/token' },
        },
        { ...notFound404, Order: 2 },
      ]),
    );
    expect(plainHttp.message).toContain('HTTPS URL');
  });

  it('stores Cognito and JWT validation actions with their checks', async () => {
    const listener = await createHttpsListener(ctx.client, await createAlb(ctx.client));
    const cognito = await addRule(ctx.client, listener, 1, [
      {
        Type: 'authenticate-cognito',
        Order: 1,
        AuthenticateCognitoConfig: {
          UserPoolArn: 'arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_abc123',
          UserPoolClientId: 'abc',
          UserPoolDomain: 'auth.example.com',
          OnUnauthenticatedRequest: 'deny',
          AuthenticationRequestExtraParams: { prompt: 'login' },
        },
      },
      { ...notFound404, Order: 2 },
    ]);
    expect(cognito.Actions![0]!.AuthenticateCognitoConfig).toMatchObject({
      OnUnauthenticatedRequest: 'deny',
      AuthenticationRequestExtraParams: { prompt: 'login' },
      SessionTimeout: 604800,
    });
    const jwt: Action = {
      Type: 'jwt-validation',
      Order: 1,
      JwtValidationConfig: {
        JwksEndpoint: 'https://idp.example.com/.well-known/jwks.json',
        Issuer: 'https://idp.example.com',
        AdditionalClaims: [{ Format: 'string-array', Name: 'groups', Values: ['admins', 'ops'] }],
      },
    };
    const rule = await addRule(ctx.client, listener, 2, [jwt, { ...notFound404, Order: 2 }]);
    expect(rule.Actions![0]).toEqual(jwt);
    const reserved = await sdkError(
      addRule(ctx.client, listener, 3, [
        {
          ...jwt,
          JwtValidationConfig: {
            ...jwt.JwtValidationConfig!,
            AdditionalClaims: [{ Format: 'single-string', Name: 'exp', Values: ['1'] }],
          },
        },
        { ...notFound404, Order: 2 },
      ]),
    );
    expect(reserved.message).toContain("'exp' is validated by default");
  });

  it('orders actions by Order, needs Order for several, one terminal action last and one authentication', async () => {
    const https = await createHttpsListener(ctx.client, await createAlb(ctx.client));
    const reversed = await addRule(ctx.client, https, 1, [
      { ...notFound404, Order: 20 },
      { ...oidc, Order: 10 },
    ]);
    expect(reversed.Actions!.map((a) => [a.Type, a.Order])).toEqual([
      ['authenticate-oidc', 10],
      ['fixed-response', 20],
    ]);
    const noOrder = await sdkError(
      addRule(ctx.client, https, 2, [{ ...oidc, Order: undefined }, notFound404]),
    );
    expect(noOrder.message).toContain('order must be specified');
    const authLast = await sdkError(
      addRule(ctx.client, https, 3, [
        { ...notFound404, Order: 1 },
        { ...oidc, Order: 2 },
      ]),
    );
    expect(authLast.name).toBe('InvalidLoadBalancerActionException');
    const twoTerminal = await sdkError(
      addRule(ctx.client, https, 4, [
        { ...notFound404, Order: 1 },
        { ...notFound404, Order: 2 },
      ]),
    );
    expect(twoTerminal.name).toBe('InvalidLoadBalancerActionException');
    const twoAuth = await sdkError(
      addRule(ctx.client, https, 5, [oidc, { ...oidc, Order: 2 }, { ...notFound404, Order: 3 }]),
    );
    expect(twoAuth.message).toContain('only one authentication action');
    const six = await sdkError(
      addRule(
        ctx.client,
        https,
        6,
        Array.from({ length: 6 }, (_, i) => ({ ...notFound404, Order: i + 1 })),
      ),
    );
    expect(six.name).toBe('TooManyActionsException');

    const http = await createHttpListener(ctx.client, await createAlb(ctx.client, 'plain'));
    const onHttp = await sdkError(addRule(ctx.client, http, 1, [oidc, { ...notFound404, Order: 2 }]));
    expect(onHttp.name).toBe('InvalidLoadBalancerActionException');
    expect(onHttp.message).toContain('only on HTTPS listeners');
  });

  it('round-trips an authenticate action through the default rule (listener DefaultActions)', async () => {
    const listener = await createHttpsListener(ctx.client, await createAlb(ctx.client), 443, [
      oidc,
      { ...notFound404, Order: 2 },
    ]);
    expect(listener.DefaultActions!.map((a) => a.Type)).toEqual(['authenticate-oidc', 'fixed-response']);
    expect(listener.DefaultActions![0]!.AuthenticateOidcConfig!.ClientSecret).toBeUndefined();
    const rules = await ctx.client.send(
      new CreateRuleCommand({
        ListenerArn: listener.ListenerArn,
        Priority: 1,
        Conditions: path('/x'),
        Actions: [oidc, { ...notFound404, Order: 2 }],
      }),
    );
    expect(rules.Rules![0]!.Actions).toHaveLength(2);
  });
});
