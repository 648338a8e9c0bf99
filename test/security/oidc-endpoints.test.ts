/**
 * Issue 27, High 2 (its allow-list part): the ALB posts the OIDC client secret to the token
 * endpoint auth-idp-oidc names, so a tenant that points `tokenEndpoint` at itself is sent the
 * secret. Now no tenant-chosen OIDC provider is used unless the tenant policy's `oidc` lists its
 * issuer, and every endpoint (authorization, token, user info) matches that provider's patterns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../lib/kube/types.js';
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';
import { A, CERT, mci, startPolicyEnv, type PolicyEnv, type Reconciled } from './policy-env.js';

let env: PolicyEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const SECRET: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'oidc', namespace: 'default' },
  data: {
    clientID: Buffer.from('my-client').toString('base64'),
    clientSecret: Buffer.from('the-client-secret').toString('base64'),
  },
} as KubeObject;

const IDP = {
  issuer: 'https://idp.example.com',
  authorizationEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  userInfoEndpoint: 'https://idp.example.com/userinfo',
  secretName: 'oidc',
};

const withOidc = (name: string, idp: Record<string, string>) =>
  mci(name, {
    [A('listen-ports')]: '[{"HTTPS":443}]',
    [A('certificate-arn')]: CERT,
    [A('auth-type')]: 'oidc',
    [A('auth-idp-oidc')]: JSON.stringify(idp),
  });

/** Certificates allowed, so that only the OIDC provider is in question. */
const certs = { certificates: { allowed: [{ arn: CERT }] } };

function expectRefused(r: Reconciled, ...parts: string[]): void {
  expect(r.outcome, JSON.stringify(r)).toBe('invalid');
  expect(r.condition).toMatchObject({ status: 'False', reason: 'TenantPolicyViolation' });
  for (const p of [A('auth-idp-oidc'), ...parts]) expect(r.condition.message).toContain(p);
  expect(env!.mutating()).toEqual([]);
}

describe('OIDC providers are the operator’s to allow (issue 27, High 2)', () => {
  it('by default no tenant-chosen OIDC provider is used', async () => {
    env = await startPolicyEnv(
      { tenantPolicy: { rules: [{ name: 'certs', ...certs }] } },
      { objects: [SECRET] },
    );
    expectRefused(await env.reconcile(withOidc('default-closed', IDP)), 'default');
  });

  it('a token endpoint outside the allowed provider’s is refused; the allowed provider is served', async () => {
    const policy: TenantPolicy = {
      rules: [
        {
          name: 'corporate-idp',
          ...certs,
          oidc: [{ issuer: 'https://idp.example.com', endpoints: ['https://idp.example.com/*'] }],
        },
      ],
    };
    env = await startPolicyEnv({ tenantPolicy: policy }, { objects: [SECRET] });
    expectRefused(
      await env.reconcile(withOidc('exfil', { ...IDP, tokenEndpoint: 'https://tenant.example.net/steal' })),
      'https://tenant.example.net/steal',
      'rule "corporate-idp"',
    );
    expectRefused(
      await env.reconcile(withOidc('other-issuer', { ...IDP, issuer: 'https://tenant.example.net' })),
      'issuer',
      'rule "corporate-idp"',
    );
    const r = await env.reconcile(withOidc('fine', IDP));
    expect(r.outcome, JSON.stringify(r)).not.toBe('invalid');
  });
});
