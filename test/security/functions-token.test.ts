/**
 * Issue 27, Medium 5: the functions' Karmada token never expired (the walkthrough created a
 * `kubernetes.io/service-account-token` Secret). Now:
 * - nothing the README or infra/ has an operator apply creates a never-expiring token;
 * - the API stand-in issues TokenRequest tokens and refuses them (401) once expired, or once their
 *   ServiceAccount is gone, as kube-apiserver does;
 * - the scheduled `token` function (functions/token.ts) mints the functions' next token, checks it,
 *   writes their kubeconfig secret and renews its own, with exactly the RBAC and IAM it is given;
 * - a function container picks a rotated token up without a new instance: its cached kubeconfig is
 *   read again before the token expires, and at once after a 401.
 * Everything runs for real: the handlers, client-node over HTTPS against the stand-in, the AWS SDK
 * against the Secrets Manager simulator.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { parse, parseAllDocuments, type ScalarTag } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { seed } from '../../dev/local/pipeline.js';
import { ingressClass, minimalIngress, serveService } from '../../dev/local/scenario.js';
import {
  startSecretsManagerSimulator,
  type SecretsManagerSimulator,
} from '../../dev/secretsmanager-sim/index.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import {
  FUNCTIONS_SERVICE_ACCOUNT,
  loadTokenRotationConfig,
  ROTATOR_SERVICE_ACCOUNT,
  TOKEN_NAMESPACE,
} from '../../lib/maintenance/token-rotation.js';
import { TOKEN_ROTATOR_SECRET_ACTIONS } from '../../lib/maintenance/token-secrets.js';
import { KubeconfigCache } from '../../lib/runtime/kubeconfig-cache.js';
import { KUBECONFIG_CACHE_MS, KUBECONFIG_EXPIRY_MARGIN_MS } from '../../lib/runtime/lambda.js';
import { readmeSection } from '../support/readme.js';
import { localhostCertificate } from '../support/tls.js';
import { ACCOUNT, isAllowed, resolveCfn, type Statement } from './iam-eval.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FUNCTIONS_SECRET = 'multicluster-cloud-provider/kubeconfig';
const ROTATOR_SECRET = 'multicluster-cloud-provider/token-rotator-kubeconfig';
const FUNCTIONS_USER = `system:serviceaccount:${TOKEN_NAMESPACE}:${FUNCTIONS_SERVICE_ACCOUNT}`;
const ROTATOR_USER = `system:serviceaccount:${TOKEN_NAMESPACE}:${ROTATOR_SERVICE_ACCOUNT}`;

const SERVICE_ACCOUNT: ResourceType = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
};

/** serverless.yml as the framework reads it: the short CloudFormation tags in their long form. */
const cfnTags: ScalarTag[] = ['Sub', 'Ref', 'GetAtt'].map((name) => ({
  tag: `!${name}`,
  resolve: (value: string) => ({ [name === 'Ref' ? 'Ref' : `Fn::${name}`]: value }),
}));

/** The RBAC verb and resource of a request (as test/security/rbac.test.ts maps them). */
const accessOf = (r: { method: string; path: string }): string => {
  const m = /^\/api\/v1\/namespaces\/[^/]+\/serviceaccounts\/[^/]+\/token$/.exec(r.path);
  return m && r.method === 'POST' ? 'create /serviceaccounts/token' : `${r.method} ${r.path}`;
};

const docs = (path: string) =>
  parseAllDocuments(readFileSync(join(ROOT, path), 'utf8')).map((d) => d.toJS() as Record<string, any>);

const tls = localhostCertificate();
let api: KubeApiServer;
let sm: SecretsManagerSimulator;
let admin: KubeClient;

/** One HTTPS request to the stand-in, trusting its certificate: status and parsed body. */
function call(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${api.url}${path}`,
      {
        method,
        ca: tls.cert,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** What `kubectl create token <sa> --duration <s>` asks the API server for. */
async function createToken(serviceAccount: string, expirationSeconds: number, audiences?: string[]) {
  const res = await call(
    'POST',
    `/api/v1/namespaces/${TOKEN_NAMESPACE}/serviceaccounts/${serviceAccount}/token`,
    'dev-token',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds, ...(audiences ? { audiences } : {}) },
    },
  );
  return { status: res.status, ...(res.body.status as { token: string; expirationTimestamp: string }) };
}

/** GET kube-system with `token`: the status the server answers. */
async function statusWith(token: string): Promise<number> {
  return (await call('GET', '/api/v1/namespaces/kube-system', token)).status;
}

const tokenIn = (kubeconfigText: string): string => {
  const kc = loadKubeConfig({ text: kubeconfigText, fetched: true });
  return kc.getCurrentUser()!.token!;
};

/** The ServiceAccounts as infra/functions-rbac/common ships them. */
function shippedServiceAccounts(): KubeObject[] {
  return [
    ...docs('infra/functions-rbac/common/serviceaccount.yaml'),
    ...docs('infra/functions-rbac/common/token-rotator.yaml'),
  ].filter((d) => d.kind === 'ServiceAccount') as KubeObject[];
}

beforeAll(async () => {
  // Fetched kubeconfigs must name an https:// server with its CA; only issued tokens authenticate.
  api = await startKubeApiServer({ tls, acceptAnyToken: false });
  admin = createKubeClient(loadKubeConfig({ text: api.kubeConfig(), fetched: true }));
  await seed(admin, [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } } as KubeObject,
    ingressClass(),
    serveService(),
    minimalIngress(),
  ]);
  for (const sa of shippedServiceAccounts()) await admin.create(SERVICE_ACCOUNT, sa);
  sm = await startSecretsManagerSimulator();
  // The walkthrough's bootstrap: a first token for each, by `kubectl create token`.
  for (const [secret, sa] of [
    [ROTATOR_SECRET, ROTATOR_SERVICE_ACCOUNT],
    [FUNCTIONS_SECRET, FUNCTIONS_SERVICE_ACCOUNT],
  ] as const) {
    const { token } = await createToken(sa, 3600);
    sm.state.create(secret, api.kubeConfigWithToken(token));
  }
  Object.assign(process.env, {
    AWS_REGION: sm.region,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: sm.url,
    MULTICLUSTER_PROVIDER: 'fake',
    PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
    KUBECONFIG_SECRET_ID: FUNCTIONS_SECRET,
    TOKEN_ROTATOR_SECRET_ID: ROTATOR_SECRET,
    // A short lifetime, so that expiry happens within the test: it still outlives two periods
    // plus the functions' cache and margin (the configuration refuses less).
    TOKEN_EXPIRATION_SECONDS: '1200',
    TOKEN_ROTATION_PERIOD_MINUTES: '5',
    LOG_LEVEL: 'ERROR',
  });
  delete process.env.KUBECONFIG;
}, 30_000);
afterAll(async () => {
  await api?.close();
  await sm?.close();
});
afterEach(() => vi.useRealTimers());

describe('the walkthrough creates no token that never expires', () => {
  it('no kubernetes.io/service-account-token Secret in the deploy walkthrough or in infra/functions-rbac', () => {
    const deploy = readmeSection('Deploy to AWS');
    expect(deploy).not.toContain('kubernetes.io/service-account-token');
    // The bootstrap tokens are TokenRequest tokens with a lifetime.
    expect(deploy).toMatch(
      /for sa in multicluster-cloud-provider-functions multicluster-cloud-provider-token-rotator; do\n\s+TOKEN=\$\(kubectl [^)]*create token "\$sa" --duration=\d+h\)/,
    );
    for (const dir of [
      'infra/functions-rbac',
      'infra/functions-rbac/common',
      'infra/functions-rbac/per-namespace',
    ]) {
      const [k] = docs(`${dir}/kustomization.yaml`);
      for (const file of (k?.resources ?? []) as string[]) {
        if (!file.endsWith('.yaml')) continue;
        for (const d of docs(`${dir}/${file}`))
          expect(d.type, `${dir}/${file}`).not.toBe('kubernetes.io/service-account-token');
      }
    }
  });
});

describe('the API stand-in: TokenRequest tokens expire, and authentication honours it', () => {
  it('a token works until its expiry and gets 401 after; a recreated ServiceAccount voids its tokens', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const minted = await createToken(FUNCTIONS_SERVICE_ACCOUNT, 600);
    expect(minted.status).toBe(201);
    expect(new Date(minted.expirationTimestamp).getTime() - Date.now()).toBeGreaterThan(598_000);
    expect(await statusWith(minted.token)).toBe(200);
    vi.setSystemTime(Date.now() + 599_000);
    expect(await statusWith(minted.token)).toBe(200);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await statusWith(minted.token)).toBe(401);
    vi.useRealTimers();

    expect((await createToken(FUNCTIONS_SERVICE_ACCOUNT, 599)).status).toBe(422);
    // A token signed by someone else, or for an audience the server does not serve, is refused.
    const good = (await createToken(FUNCTIONS_SERVICE_ACCOUNT, 600)).token;
    const [h, p] = good.split('.');
    expect(await statusWith(`${h}.${p}.${Buffer.from('forged').toString('base64url')}`)).toBe(401);
    expect(await statusWith((await createToken(FUNCTIONS_SERVICE_ACCOUNT, 600, ['elsewhere'])).token)).toBe(
      401,
    );
    expect(await statusWith('any-string')).toBe(401);
  });
});

describe('the token function', () => {
  it('mints the functions’ token (TokenRequest), checks it, writes their secret and renews its own', async () => {
    const before = {
      functions: sm.state.current(FUNCTIONS_SECRET),
      rotator: sm.state.current(ROTATOR_SECRET),
    };
    api.requests.reset();
    sm.state.log.length = 0;
    const { handler } = await import('../../functions/token.js');
    const result = await handler({}, lambdaContext('token'));

    const functionsText = sm.state.current(FUNCTIONS_SECRET);
    const rotatorText = sm.state.current(ROTATOR_SECRET);
    expect(functionsText).not.toBe(before.functions);
    expect(rotatorText).not.toBe(before.rotator);
    const expiresIn = new Date(result.functions.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(1190_000);
    expect(expiresIn).toBeLessThanOrEqual(1200_000);
    expect(await statusWith(tokenIn(functionsText))).toBe(200);
    expect(api.requests.entries.find((r) => r.status === 200 && r.user === FUNCTIONS_USER)).toBeTruthy();

    // RBAC: what the rotator's identity did is what its Role grants, by name.
    const asRotator = api.requests.entries.filter((r) => r.user === ROTATOR_USER);
    expect(new Set(asRotator.map(accessOf))).toEqual(new Set(['create /serviceaccounts/token']));
    const names = [...new Set(asRotator.map((r) => r.path.split('/')[6]))].sort();
    expect(names).toEqual([FUNCTIONS_SERVICE_ACCOUNT, ROTATOR_SERVICE_ACCOUNT].sort());
    const role = docs('infra/functions-rbac/common/token-rotator.yaml').find((d) => d.kind === 'Role')!;
    expect(role.metadata.namespace).toBe(TOKEN_NAMESPACE);
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: names, verbs: ['create'] },
    ]);
    const binding = docs('infra/functions-rbac/common/token-rotator.yaml').find(
      (d) => d.kind === 'RoleBinding',
    )!;
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: ROTATOR_SERVICE_ACCOUNT, namespace: TOKEN_NAMESPACE },
    ]);
    // The functions' own RBAC grants no token minting.
    for (const file of ['clusterrole.yaml', 'common/lease-role.yaml', 'per-namespace/cluster-scoped.yaml']) {
      expect(JSON.stringify(docs(`infra/functions-rbac/${file}`)), file).not.toContain('serviceaccounts');
    }

    // IAM: what it called on which secret is what TokenFunctionRole grants, on exactly those secrets.
    const byName = (arn: string) => arn.replace(/^.*:secret:/, '').replace(/-[A-Za-z0-9]{6}$/, '');
    const called = new Set(sm.state.log.map((c) => `secretsmanager:${c.action} ${byName(c.arn)}`));
    expect(called).toEqual(
      new Set([
        ...TOKEN_ROTATOR_SECRET_ACTIONS.own.map((a) => `${a} ${ROTATOR_SECRET}`),
        ...TOKEN_ROTATOR_SECRET_ACTIONS.functions.map((a) => `${a} ${FUNCTIONS_SECRET}`),
      ]),
    );
    const sls = parse(readFileSync(join(ROOT, 'serverless.yml'), 'utf8'), { customTags: cfnTags }) as Record<
      string,
      any
    >;
    expect(sls.functions.token.role).toBe('TokenFunctionRole');
    const statements = sls.resources.Resources.TokenFunctionRole.Properties.Policies.flatMap(
      (p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement,
    ) as Array<Record<string, any>>;
    const grants = JSON.stringify(statements);
    expect(statements.find((s) => s.Sid === 'RenewOwnKubeconfig')).toMatchObject({
      Action: [...TOKEN_ROTATOR_SECRET_ACTIONS.own],
      Resource: [{ 'Fn::Sub': expect.stringContaining(':secret:${param:tokenRotatorSecretId}-??????') }],
    });
    const functionsGrant = statements.find((s) => s['Fn::If'])!['Fn::If'][1];
    expect(functionsGrant).toMatchObject({
      Sid: 'WriteFunctionsKubeconfig',
      Action: [...TOKEN_ROTATOR_SECRET_ACTIONS.functions],
    });
    expect(JSON.stringify(functionsGrant.Resource)).toContain(':secret:${param:kubeconfigSecretId}-??????');
    // As IAM evaluates it (conditions from the generated roles' file, which serverless.yml includes).
    const conditions = JSON.parse(
      readFileSync(join(ROOT, 'infra/iam/function-roles.json'), 'utf8'),
    ).Conditions;
    const iamRole = resolveCfn(statements, ACCOUNT, conditions) as Statement[];
    const arn = (name: string) =>
      `arn:aws:secretsmanager:${ACCOUNT.region}:${ACCOUNT.accountId}:secret:${name}-AbCdEf`;
    const may = (action: string, name: string) =>
      isAllowed(iamRole, { action: `secretsmanager:${action}`, resource: arn(name) });
    expect(may('GetSecretValue', ROTATOR_SECRET)).toBe(true);
    expect(may('PutSecretValue', ROTATOR_SECRET)).toBe(true);
    expect(may('PutSecretValue', FUNCTIONS_SECRET)).toBe(true);
    expect(may('GetSecretValue', FUNCTIONS_SECRET)).toBe(false);
    expect(may('PutSecretValue', `${FUNCTIONS_SECRET}-admin`)).toBe(false);
    expect(may('PutSecretValue', 'someone-else/kubeconfig')).toBe(false);
    // No other secret, no other action, and never a read of the functions' credential.
    expect(grants.match(/secretsmanager:\w+/g)!.sort()).toEqual(
      [
        'secretsmanager:GetSecretValue',
        'secretsmanager:PutSecretValue',
        'secretsmanager:PutSecretValue',
      ].sort(),
    );
  });

  it('writes nothing when the API server refuses the new token (an audience it does not serve)', async () => {
    const before = sm.state.current(FUNCTIONS_SECRET);
    process.env.TOKEN_AUDIENCES = 'https://elsewhere.example.com';
    try {
      const { handler } = await import('../../functions/token.js');
      await expect(handler({}, lambdaContext('token'))).rejects.toThrow(
        /does not work.*functions' secret is unchanged/,
      );
    } finally {
      delete process.env.TOKEN_AUDIENCES;
    }
    expect(sm.state.current(FUNCTIONS_SECRET)).toBe(before);
  });

  it('refuses a lifetime that two rotations and the functions’ cache would outlast', () => {
    const cache = {
      cacheSeconds: KUBECONFIG_CACHE_MS / 1000,
      marginSeconds: KUBECONFIG_EXPIRY_MARGIN_MS / 1000,
    };
    const env = { KUBECONFIG_SECRET_ID: 'a', TOKEN_ROTATOR_SECRET_ID: 'b' };
    expect(
      loadTokenRotationConfig({ ...env, TOKEN_ROTATION_PERIOD_MINUTES: '15' }, cache).expirationSeconds,
    ).toBe(3600);
    expect(() =>
      loadTokenRotationConfig(
        { ...env, TOKEN_EXPIRATION_SECONDS: '1800', TOKEN_ROTATION_PERIOD_MINUTES: '15' },
        cache,
      ),
    ).toThrow(/too short.*at least 2160/);
    expect(() => loadTokenRotationConfig({ ...env, TOKEN_ROTATOR_SECRET_ID: 'a' }, cache)).toThrow(
      /must differ/,
    );
  });
});

describe('a function container picks up a rotated token without a new instance', () => {
  const notification = () =>
    makeNotification(
      'modified',
      resourceFor('networking.karmada.io/v1alpha1', 'MultiClusterIngress')!,
      minimalIngress(),
    );
  const functionReads = () =>
    sm.state.log.filter(
      (c) => c.action === 'GetSecretValue' && c.arn.includes(`:secret:${FUNCTIONS_SECRET}-`),
    ).length;

  it('reads the secret again before its token expires, and at once after a 401, keeping its Runtime', async () => {
    const { handler: rotate } = await import('../../functions/token.js');
    vi.useFakeTimers({ toFake: ['Date'] });
    await rotate({}, lambdaContext('token'));
    const first = sm.state.current(FUNCTIONS_SECRET);
    sm.state.log.length = 0;
    // The container starts (and reads its kubeconfig while it initialises).
    const { handler: invoke } = await import('../../functions/invoke.js');
    const { runtimeFor } = await import('../../lib/runtime/lambda.js');

    await expect(invoke(notification(), lambdaContext('invoke'))).resolves.toMatchObject({
      results: [{ ok: true }],
    });
    expect(functionReads()).toBe(1);
    const runtime = await runtimeFor({ ...lambdaContext('invoke'), kubeconfig: first } as never);

    // One period later the rotator writes the next token; the first one is still valid for a while.
    vi.setSystemTime(Date.now() + 5 * 60_000);
    await rotate({}, lambdaContext('token'));
    const second = sm.state.current(FUNCTIONS_SECRET);
    expect(second).not.toBe(first);
    // Just before the first token expires: the container's copy is read again, the second token used.
    vi.setSystemTime(Date.now() + 14 * 60_000 + 30_000);
    expect(await statusWith(tokenIn(first))).toBe(200);
    await expect(invoke(notification(), lambdaContext('invoke'))).resolves.toMatchObject({
      results: [{ ok: true }],
    });
    expect(functionReads()).toBe(2);
    vi.setSystemTime(Date.now() + 60_000);
    // The first token has expired: the server refuses it; the container never sends it again.
    expect(await statusWith(tokenIn(first))).toBe(401);
    api.requests.reset();
    await expect(invoke(notification(), lambdaContext('invoke'))).resolves.toMatchObject({
      results: [{ ok: true }],
    });
    expect(api.requests.entries.filter((r) => r.status === 401)).toEqual([]);

    // The functions' ServiceAccount is recreated (as after a restore): every token it had is void,
    // though the container's copy is fresh. The rotator mints a token for the new one.
    await admin.delete(SERVICE_ACCOUNT, TOKEN_NAMESPACE, FUNCTIONS_SERVICE_ACCOUNT);
    await admin.create(
      SERVICE_ACCOUNT,
      shippedServiceAccounts().find((s) => s.metadata.name === FUNCTIONS_SERVICE_ACCOUNT)!,
    );
    expect(await statusWith(tokenIn(second))).toBe(401);
    await rotate({}, lambdaContext('token'));
    const third = sm.state.current(FUNCTIONS_SECRET);
    sm.state.log.length = 0;
    api.requests.reset();
    await expect(invoke(notification(), lambdaContext('invoke'))).resolves.toMatchObject({
      results: [{ ok: true }],
    });
    // A 401, one read of the secret, and the same requests again with the new token.
    expect(api.requests.entries.filter((r) => r.status === 401).length).toBeGreaterThan(0);
    expect(functionReads()).toBe(1);
    expect(api.requests.entries.filter((r) => r.status < 300).length).toBeGreaterThan(0);
    // The container's Runtime (its provider, its caches) lived through all three tokens.
    expect(await runtimeFor({ ...lambdaContext('invoke'), kubeconfig: third } as never)).toBe(runtime);
  }, 30_000);
});

describe('the kubeconfig cache never outlives the token it holds', () => {
  const jwt = (exp: number) =>
    `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.sig`;
  const kubeconfig = (exp: number) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'k', cluster: { server: 'https://karmada.example.com' } }],
      users: [{ name: 'u', user: { token: jwt(exp) } }],
      contexts: [{ name: 'k', context: { cluster: 'k', user: 'u' } }],
      'current-context': 'k',
    });

  it('reads the store again a margin before the token’s expiry, even within its maximum age', async () => {
    let now = 1_000_000_000_000;
    let stored = kubeconfig(now / 1000 + 180);
    let reads = 0;
    const cache = new KubeconfigCache(
      { name: 'test', read: async () => (reads++, stored) },
      { maxAgeMs: 3_600_000, expiryMarginMs: 60_000, minRefetchMs: 10_000, now: () => now },
    );
    expect((await cache.get()).tokenExpiresAt).toBe(now + 180_000);
    now += 100_000;
    await cache.get();
    expect(reads).toBe(1);
    stored = kubeconfig(now / 1000 + 3600);
    now += 21_000; // 59 s left on the first token: inside the margin
    expect((await cache.get()).text).toBe(stored);
    expect(reads).toBe(2);
    // After a 401 the same text is not taken for new; within minRefetchMs the store is spared.
    expect(await cache.refresh(stored)).toBeUndefined();
    expect(reads).toBe(2);
    now += 10_000;
    expect(await cache.refresh(stored)).toBeUndefined();
    expect(reads).toBe(3);
  });
});
