/**
 * Authentication on an MCI's HTTPS listener against the ELBv2 simulator: OIDC with its client
 * Secret from Kubernetes (created, changed, rotated, removed), Cognito on one backend Service,
 * jwt-validation, and the bad inputs (a missing Secret or key, bad JSON, auth on plain HTTP), each
 * refused naming its key before any AWS call. The client secret is never in a log, the plan, the
 * fingerprint or an announcement, and is sent to ELBv2, which never returns it.
 */
import type { Action } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress, Secret } from '../../lib/karmada/types.js';
import { stackFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { CERT_A, startAwsEnv, type AwsEnv } from './aws-env.js';
import { EMPTY_SIM_STATE } from '../support/elbv2-state.js';

const A = 'alb.ingress.kubernetes.io/';
const SECRET_1 = 'first-very-secret-value';
const SECRET_2 = 'rotated-very-secret-value';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const oidcSecret = (clientSecret: string | undefined, name = 'oidc'): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'default', uid: `secret-${name}` },
  data: {
    clientID: b64('my-client'),
    ...(clientSecret !== undefined ? { clientSecret: b64(clientSecret) } : {}),
  },
});
const IDP = {
  issuer: 'https://idp.example.com',
  authorizationEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  userInfoEndpoint: 'https://idp.example.com/userinfo',
  secretName: 'oidc',
};
const https = { [`${A}listen-ports`]: '[{"HTTPS":443}]', [`${A}certificate-arn`]: CERT_A };
const oidc = (more: Record<string, string> = {}) => ({
  ...https,
  [`${A}auth-type`]: 'oidc',
  [`${A}auth-idp-oidc`]: JSON.stringify(IDP),
  ...more,
});
const mciWith = (annotations: Record<string, string>): MultiClusterIngress => {
  const m = minimalIngress();
  return {
    ...m,
    metadata: { ...m.metadata, annotations },
    spec: {
      ...m.spec,
      rules: [
        { http: { paths: [path('/app', 'Prefix', 'serve', 80), path('/admin', 'Prefix', 'admin', 80)] } },
      ],
    },
  };
};

let env: AwsEnv;
beforeEach(async () => {
  env = await startAwsEnv([
    service('serve'),
    service('admin'),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'], ports: [{ port: 8080 }] }),
    collectedSlice('member1', 'admin', { addresses: ['10.0.1.11'], ports: [{ port: 8080 }] }),
    oidcSecret(SECRET_1),
  ]);
});
afterEach(async () => {
  await env.close();
});

const lb = () => env.provider.ingress;
const rules = () => env.sim.snapshot().rules.filter((r) => !r.IsDefault);
const authOf = (actions: Action[] | undefined) => actions?.find((a) => a.Type !== 'forward');
/** What the simulator holds of a rule (its secret included), not what DescribeRules shows. */
async function storedSecretOf(rulePath: string): Promise<string | undefined> {
  for (const rule of env.sim.state.store.rules.values()) {
    const c = rule.conditions.find((x) => x.Field === 'path-pattern');
    const values = c?.PathPatternConfig?.Values ?? c?.Values ?? [];
    if (values.includes(rulePath))
      return rule.actions.find((a) => a.AuthenticateOidcConfig)?.AuthenticateOidcConfig?.ClientSecret;
  }
  return undefined;
}
function expectNoSecretAnywhere(...extra: unknown[]) {
  const text = JSON.stringify([env.logger.lines, env.announced, env.sim.snapshot(), ...extra]);
  expect(text).not.toContain(SECRET_1);
  expect(text).not.toContain(SECRET_2);
  expect(text).not.toContain(b64(SECRET_1));
}

describe('OIDC authentication (simulator)', () => {
  it('creates authenticate-oidc before each forward; a rotated Secret updates every rule; removal leaves plain forwards', async () => {
    const m = mciWith(oidc({ [`${A}auth-scope`]: 'openid email', [`${A}auth-session-timeout`]: '3600' }));
    const plan = await lb().plan(env.ctx, m);
    await lb().ensure(env.ctx, m);
    expect(rules()).toHaveLength(2);
    for (const r of rules()) {
      expect(r.Actions?.map((a) => [a.Type, a.Order])).toStrictEqual([
        ['authenticate-oidc', 1],
        ['forward', 2],
      ]);
      // DescribeRules never returns the client secret.
      expect(Object.keys(authOf(r.Actions)?.AuthenticateOidcConfig ?? {})).not.toContain('ClientSecret');
      expect(authOf(r.Actions)?.AuthenticateOidcConfig).toEqual({
        Issuer: IDP.issuer,
        AuthorizationEndpoint: IDP.authorizationEndpoint,
        TokenEndpoint: IDP.tokenEndpoint,
        UserInfoEndpoint: IDP.userInfoEndpoint,
        ClientId: 'my-client',
        SessionCookieName: 'AWSELBAuthSessionCookie',
        Scope: 'openid email',
        SessionTimeout: 3600,
        OnUnauthenticatedRequest: 'authenticate',
      });
    }
    // The listener's default action (404) is not authenticated: there is no default backend.
    expect(env.sim.snapshot().listeners[0]?.DefaultActions?.map((a) => a.Type)).toStrictEqual([
      'fixed-response',
    ]);
    expect(await storedSecretOf('/app')).toBe(SECRET_1);
    expect(env.state()).toStrictEqual(await env.expectedForMci(m));
    // A no-op and a resync change nothing.
    const before = env.sim.snapshot();
    expect(await env.measured(() => lb().update(env.ctx, m))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
    await lb().update({ ...env.ctx, resync: true }, m);
    expect(env.mutatingCalls()).toStrictEqual([]);
    expect(env.sim.snapshot()).toStrictEqual(before);

    // Rotation: the Secret changes, so the stack does, and every rule is given the new secret.
    env.kube.put(oidcSecret(SECRET_2));
    env.sim.calls.reset();
    await lb().update(env.ctx, m);
    expect(env.mutatingCalls().filter((c) => c === 'ModifyRule')).toHaveLength(2);
    expect(await storedSecretOf('/app')).toBe(SECRET_2);
    expect(await storedSecretOf('/admin')).toBe(SECRET_2);
    await lb().update(env.ctx, m);
    expect(env.mutatingCalls().filter((c) => c === 'ModifyRule')).toHaveLength(2);

    // Removed: plain forwards again.
    const plain = mciWith(https);
    await lb().update(env.ctx, plain);
    expect(rules().map((r) => r.Actions?.map((a) => a.Type))).toStrictEqual(Array(2).fill(['forward']));
    expect(env.state()).toStrictEqual(await env.expectedForMci(plain));
    expectNoSecretAnywhere(plan, stackFingerprint);
    await lb().ensureDeleted(env.ctx, plain);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('a backend Service overrides the MCI: Cognito on /admin, OIDC on /app, and the default backend authenticates too', async () => {
    const admin = service('admin');
    admin.metadata.annotations = {
      [`${A}auth-type`]: 'cognito',
      [`${A}auth-idp-cognito`]: JSON.stringify({
        userPoolARN: 'arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_abc',
        userPoolClientID: 'pool-client',
        userPoolDomain: 'auth.example.com',
      }),
      [`${A}auth-on-unauthenticated-request`]: 'deny',
    };
    env.kube.put(admin);
    const m = mciWith(oidc());
    m.spec = { ...m.spec, defaultBackend: { service: { name: 'serve', port: { number: 80 } } } };
    await lb().ensure(env.ctx, m);
    const byPath = new Map(
      rules().map((r) => [
        r.Conditions?.find((c) => c.Field === 'path-pattern')?.Values?.[0],
        authOf(r.Actions),
      ]),
    );
    expect(byPath.get('/app')?.Type).toBe('authenticate-oidc');
    expect(byPath.get('/admin')).toMatchObject({
      Type: 'authenticate-cognito',
      AuthenticateCognitoConfig: { UserPoolClientId: 'pool-client', OnUnauthenticatedRequest: 'deny' },
    });
    expect(env.sim.snapshot().listeners[0]?.DefaultActions?.map((a) => a.Type)).toStrictEqual([
      'authenticate-oidc',
      'forward',
    ]);
    expect(env.state()).toStrictEqual(await env.expectedForMci(m));
    await lb().ensureDeleted(env.ctx, m);
    expect(env.sim.snapshot()).toStrictEqual(EMPTY_SIM_STATE);
  });

  it('jwt-validation in front of every forward', async () => {
    const jwt = {
      jwksEndpoint: 'https://idp.example.com/jwks',
      issuer: 'https://idp.example.com',
      additionalClaims: [{ name: 'scope', format: 'space-separated-values', values: ['read'] }],
    };
    const m = mciWith({ ...https, [`${A}jwt-validation`]: JSON.stringify(jwt) });
    await lb().ensure(env.ctx, m);
    for (const r of rules()) {
      expect(authOf(r.Actions)).toMatchObject({
        Type: 'jwt-validation',
        JwtValidationConfig: { JwksEndpoint: jwt.jwksEndpoint, Issuer: jwt.issuer },
      });
    }
    const before = env.sim.snapshot();
    await lb().update({ ...env.ctx, resync: true }, m);
    expect(env.sim.snapshot()).toStrictEqual(before);
  });
});

describe('authentication: bad input is refused naming the key, before any AWS call', () => {
  async function expectRefused(m: MultiClusterIngress, field: string, reason: string, message: RegExp) {
    env.sim.calls.reset();
    const err = await lb()
      .ensure(env.ctx, m)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err).toMatchObject({ field, reason });
    expect((err as Error).message).toMatch(message);
    expect(env.sim.calls.total()).toBe(0);
  }

  it('a missing Secret, a Secret without clientSecret, bad JSON, auth on HTTP, auth with jwt-validation', async () => {
    await expectRefused(
      mciWith(oidc({ [`${A}auth-idp-oidc`]: JSON.stringify({ ...IDP, secretName: 'nope' }) })),
      `${A}auth-idp-oidc`,
      'AuthSecretNotFound',
      /Secret default\/nope does not exist/,
    );
    env.kube.put(oidcSecret(undefined));
    await expectRefused(mciWith(oidc()), `${A}auth-idp-oidc`, 'InvalidAuthSecret', /has no clientSecret key/);
    env.kube.put(oidcSecret(SECRET_1));
    await expectRefused(
      mciWith(oidc({ [`${A}auth-idp-oidc`]: '{"issuer": "https://idp.example.com",' })),
      `${A}auth-idp-oidc`,
      'InvalidAnnotation',
      /is not valid JSON/,
    );
    await expectRefused(
      mciWith(oidc({ [`${A}auth-idp-oidc`]: JSON.stringify({ ...IDP, tokenEndpoint: 'http://idp/token' }) })),
      `${A}auth-idp-oidc`,
      'InvalidAnnotation',
      /tokenEndpoint: must be a full https:\/\/ URL/,
    );
    await expectRefused(
      mciWith({ ...oidc(), [`${A}listen-ports`]: '[{"HTTP":80},{"HTTPS":443}]' }),
      `${A}auth-type`,
      'InvalidAnnotation',
      /authentication needs HTTPS, but listener HTTP:80 would serve spec\.rules\[0\]\.http\.paths\[\d\] without it/,
    );
    await expectRefused(
      mciWith(oidc({ [`${A}jwt-validation`]: '{"jwksEndpoint":"https://idp/jwks","issuer":"x"}' })),
      `${A}jwt-validation`,
      'InvalidAnnotation',
      /cannot be combined with .*auth-type: oidc/,
    );
    expectNoSecretAnywhere();
  });

  it('with ssl-redirect the HTTP listener only redirects, so authentication is served', async () => {
    const m = mciWith({
      ...oidc(),
      [`${A}listen-ports`]: '[{"HTTP":80},{"HTTPS":443}]',
      [`${A}ssl-redirect`]: '443',
    });
    await lb().ensure(env.ctx, m);
    expect(rules().every((r) => authOf(r.Actions)?.Type === 'authenticate-oidc')).toBe(true);
  });
});
