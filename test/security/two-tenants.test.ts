/**
 * Issue 27's scenario: two tenants share IngressGroup `shop`. `strict` is pinned to internal load
 * balancers, no accelerator and its own identity provider; `open` may go public, use an
 * accelerator and its own identity provider. Each tries every bypass the review found, against the
 * whole deployment (the functions' reconcile, the AWS provider from its configuration file, the
 * ELBv2, EC2 and Global Accelerator simulators): each is refused where it is tried, told why, and
 * the other tenant keeps exactly what it had.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectedSlice, serveService } from '../../dev/local/scenario.js';
import type { MultiClusterIngress, Secret } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';
import { notify } from '../support/harness.js';
import { A, CERT, GA, startPolicyEnv, type PolicyEnv } from './policy-env.js';

const STACK = 'multicluster.karmada.io/stack';
const SHARED = 'mci-group/_shared/shop';
const SECRET = 'strict-oidc-client-secret.example';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const POLICY: TenantPolicy = {
  rules: [
    {
      name: 'strict-internal',
      namespaceSelector: { matchLabels: { exposure: 'strict' } },
      schemes: ['internal'],
      globalAccelerator: false,
      certificates: { allowed: [{ arn: CERT }] },
      oidc: [{ issuer: 'https://idp.strict.example', endpoints: ['https://idp.strict.example/*'] }],
    },
    {
      name: 'open-public',
      namespaceSelector: { matchExpressions: [{ key: 'exposure', operator: 'NotIn', values: ['strict'] }] },
      schemes: ['internal', 'internet-facing'],
      globalAccelerator: true,
      certificates: { allowed: [{ arn: CERT }] },
      oidc: [{ issuer: 'https://idp.open.example', endpoints: ['https://idp.open.example/*'] }],
    },
  ],
  sharedGroups: [{ name: 'shop', namespaces: ['strict', 'open'] }],
};

const namespace = (name: string, labels: Record<string, string> = {}) =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }) as KubeObject;
const inNamespace = (obj: KubeObject, ns: string) =>
  ({ ...obj, metadata: { ...obj.metadata, namespace: ns } }) as KubeObject;
const secret = (ns: string, value: string): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'oidc', namespace: ns, uid: `oidc-${ns}` },
  data: { clientID: b64(`${ns}-client`), clientSecret: b64(value) },
});

const oidc = (issuer: string, tokenEndpoint = `${issuer}/token`) => ({
  [A('listen-ports')]: '[{"HTTPS":443}]',
  [A('certificate-arn')]: CERT,
  [A('auth-type')]: 'oidc',
  [A('auth-idp-oidc')]: JSON.stringify({
    issuer,
    authorizationEndpoint: `${issuer}/authorize`,
    tokenEndpoint,
    userInfoEndpoint: `${issuer}/userinfo`,
    secretName: 'oidc',
  }),
});

function member(ns: string, name: string, annotations: Record<string, string>, path: string): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace: ns, annotations: { [A('group.name')]: 'shop', ...annotations } },
    spec: {
      rules: [
        {
          http: {
            paths: [
              { path, pathType: 'Prefix', backend: { service: { name: 'serve', port: { number: 80 } } } },
            ],
          },
        },
      ],
    },
  } as KubeObject;
}

let env: PolicyEnv;
/** strict's member, served before any bypass is tried. */
const STRICT = member('strict', 's', oidc('https://idp.strict.example'), '/s');

beforeEach(async () => {
  env = await startPolicyEnv(
    { tenantPolicy: POLICY },
    {
      objects: [
        namespace('strict', { exposure: 'strict' }),
        namespace('open'),
        secret('strict', SECRET),
        secret('open', 'open-oidc-client-secret.example'),
        ...['strict', 'open'].flatMap((ns, i) => [
          inNamespace(serveService(), ns),
          inNamespace(collectedSlice('member1', [`10.1.${i}.11`]), ns),
        ]),
      ],
    },
  );
  await settle(STRICT);
  expect(await condition('strict', 's')).toMatchObject({ status: 'True' });
  expect(group().schemes).toEqual(['internal']);
}, 60_000);
afterEach(async () => {
  await env.close();
});

/** Seeds or updates the objects, then delivers them together until the group settles. */
async function settle(...objects: KubeObject[]) {
  for (const obj of objects) {
    const stored = await env.h.kube.get<KubeObject>(
      Resources.MultiClusterIngress,
      obj.metadata.namespace,
      obj.metadata.name ?? '',
    );
    if (stored) {
      await env.h.kube.update(Resources.MultiClusterIngress, {
        ...stored,
        metadata: { ...stored.metadata, annotations: obj.metadata.annotations },
        spec: (obj as MultiClusterIngress).spec,
      } as KubeObject);
    } else await env.h.seed([obj]);
  }
  const all = [STRICT, ...objects.filter((o) => o !== STRICT)];
  for (let i = 0; i < 3; i++) await env.h.deliver(...all.map((o) => notify(o, 'modified')));
}

async function condition(ns: string, name: string) {
  const stored = await env.h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, ns, name);
  return JSON.parse(stored?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '{}') as {
    status?: string;
    reason?: string;
    message?: string;
  };
}

async function hostname(ns: string, name: string) {
  const stored = await env.h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, ns, name);
  return stored?.status?.loadBalancer?.ingress?.[0]?.hostname;
}

/** The shared group's ALB: its schemes, its rules as `<priority> <path>`, its OIDC token endpoints. */
function group() {
  const snap = env.sim.snapshot();
  const stackOf = new Map(snap.tags.map((t) => [t.ResourceArn, t.Tags[STACK]]));
  const lbs = snap.loadBalancers.filter((lb) => stackOf.get(lb.LoadBalancerArn ?? '') === SHARED);
  const listeners = new Set(
    snap.listeners
      .filter((l) => lbs.some((lb) => lb.LoadBalancerArn === l.LoadBalancerArn))
      .map((l) => l.ListenerArn),
  );
  const rules = [...env.sim.state.store.rules.values()].filter(
    (r) => listeners.has(r.listenerArn) && r.priority !== 'default',
  );
  return {
    schemes: lbs.map((lb) => lb.Scheme),
    rules: rules
      .map((r) => ({
        priority: Number(r.priority),
        path: r.conditions.flatMap((c) => c.PathPatternConfig?.Values ?? c.Values ?? [])[0],
      }))
      .sort((a, b) => a.priority - b.priority)
      .map((r) => `${r.priority} ${r.path}`),
    tokenEndpoints: rules.flatMap((r) =>
      r.actions.flatMap((a) => (a.AuthenticateOidcConfig ? [a.AuthenticateOidcConfig.TokenEndpoint] : [])),
    ),
    /** Everything the ALB's rules hold but the OIDC actions' client secrets. */
    publicText: JSON.stringify(
      rules.map((r) =>
        r.actions.map((a) => {
          if (!a.AuthenticateOidcConfig) return a;
          const { ClientSecret: _secret, ...rest } = a.AuthenticateOidcConfig;
          return { ...a, AuthenticateOidcConfig: rest };
        }),
      ),
    ),
  };
}

/** strict's member is exactly as it was before the bypass: internal, first, served, its own IdP. */
async function expectStrictUntouched() {
  const g = group();
  expect(g.schemes).toEqual(['internal']);
  expect(g.rules[0]).toMatch(/^1 \/s/);
  expect(g.tokenEndpoints.every((e) => e === 'https://idp.strict.example/token')).toBe(true);
  expect(await condition('strict', 's')).toMatchObject({ status: 'True' });
  expect(env.ga.snapshot()).toEqual([]);
}

describe('two tenants sharing one IngressGroup, one strict, one open (issue 27)', () => {
  it('open cannot jump ahead with group.order -1000 and turn the group internet-facing', async () => {
    await settle(
      member('open', 'o', { [A('group.order')]: '-1000', [A('scheme')]: 'internet-facing' }, '/o'),
    );
    expect(await condition('open', 'o')).toMatchObject({ status: 'False', reason: 'IngressGroupConflict' });
    expect(await hostname('open', 'o')).toBeUndefined();
    await expectStrictUntouched();
  });

  it("open cannot take strict's path", async () => {
    // On strict's listener (HTTPS:443): routes overlap where a request could match both.
    await settle(
      member('open', 'o', { [A('listen-ports')]: '[{"HTTPS":443}]', [A('certificate-arn')]: CERT }, '/s'),
    );
    expect(await condition('open', 'o')).toMatchObject({
      status: 'False',
      reason: 'IngressGroupRouteTaken',
    });
    // Named by its own route only: nothing of strict's member is told to open.
    expect((await condition('open', 'o')).message).not.toContain('strict/s');
    await expectStrictUntouched();
  });

  it('open cannot put an accelerator (public anycast addresses) in front of the shared ALB', async () => {
    await settle(member('open', 'o', { [GA]: 'true' }, '/o'));
    expect(await condition('open', 'o')).toMatchObject({ status: 'False' });
    await expectStrictUntouched();
  });

  it('strict cannot ask for an accelerator itself', async () => {
    await settle({
      ...STRICT,
      metadata: { ...STRICT.metadata, annotations: { ...STRICT.metadata.annotations, [GA]: 'true' } },
    } as KubeObject);
    expect(await condition('strict', 's')).toMatchObject({
      status: 'False',
      reason: 'TenantPolicyViolation',
    });
    expect(env.ga.snapshot()).toEqual([]);
  });

  it("open cannot make the ALB serve strict's client secret through placeholder-shaped text", async () => {
    const key = A('actions.steal');
    await settle(
      member(
        'open',
        'o',
        {
          [A('listen-ports')]: '[{"HTTPS":443}]',
          [A('certificate-arn')]: CERT,
          [key]: JSON.stringify({
            type: 'fixed-response',
            fixedResponseConfig: {
              contentType: 'text/plain',
              statusCode: '200',
              messageBody: '{{secret:strict/oidc}}',
            },
          }),
        },
        '/steal',
      ),
    );
    const refused = await condition('open', 'o');
    expect(refused).toMatchObject({ status: 'False', reason: 'InvalidAnnotation' });
    expect(refused.message).toContain(key);
    expect(group().publicText).not.toContain(SECRET);
    await expectStrictUntouched();
  });

  it('open cannot point its identity provider anywhere but its own', async () => {
    await settle(
      member('open', 'o', oidc('https://idp.open.example', 'https://collector.attacker.example/token'), '/o'),
    );
    const refused = await condition('open', 'o');
    expect(refused).toMatchObject({ status: 'False' });
    expect(refused.message).toContain('https://collector.attacker.example/token');
    await expectStrictUntouched();
  });

  it("strict cannot use open's identity provider", async () => {
    await settle({
      ...STRICT,
      metadata: {
        ...STRICT.metadata,
        annotations: { ...STRICT.metadata.annotations, ...oidc('https://idp.open.example') },
      },
    } as KubeObject);
    const refused = await condition('strict', 's');
    expect(refused).toMatchObject({ status: 'False', reason: 'TenantPolicyViolation' });
    expect(refused.message).toContain('strict-internal');
    expect(group().tokenEndpoints).not.toContain('https://idp.open.example/token');
  });

  it('open, served alone on its own path, is still served next to strict, after it', async () => {
    await settle(member('open', 'o', {}, '/o'));
    expect(await condition('open', 'o')).toMatchObject({ status: 'True' });
    // Join order: strict's rules first, open's after them.
    const paths = group().rules.map((r) => r.split(' ')[1]);
    expect(paths.indexOf('/o')).toBeGreaterThan(paths.lastIndexOf('/s'));
    await expectStrictUntouched();
  });
});
