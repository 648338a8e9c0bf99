/**
 * The functions' Karmada credential is a short-lived ServiceAccount token, not a token that never
 * expires. The scheduled `token` function mints a new one through the TokenRequest API
 * (`POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`, with expirationSeconds and
 * audiences), checks that the API server accepts it, and writes the kubeconfig around it into the
 * functions' secret; the functions read it again before their copy's token expires
 * (lib/runtime/kubeconfig-cache.ts). The rotator has an identity of its own (a ServiceAccount that
 * may only create tokens for the functions' ServiceAccount and for itself), so the reconciling
 * functions, which read tenant input, can never mint tokens; it renews its own token the same way,
 * into a secret only it can read.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { AuthenticationV1TokenRequest, CoreV1Api, type V1TokenRequestSpec } from '@kubernetes/client-node';
import { loadKubeConfig } from '../kube/client-node.js';
import type { Logger } from '../log/logger.js';
import { safeErrorLine } from '../log/redact.js';
import { ConfigError } from '../runtime/config.js';

/** The ServiceAccounts infra/functions-rbac/ creates on the Karmada API server. */
export const TOKEN_NAMESPACE = 'karmada-system';
export const FUNCTIONS_SERVICE_ACCOUNT = 'multicluster-cloud-provider-functions';
export const ROTATOR_SERVICE_ACCOUNT = 'multicluster-cloud-provider-token-rotator';

/** kube-apiserver refuses shorter tokens. */
const MIN_EXPIRATION_SECONDS = 600;

export interface TokenRotationConfig {
  /** KUBECONFIG_SECRET_ID: the functions' kubeconfig secret, written with each new token. */
  functionsSecretId: string;
  /** TOKEN_ROTATOR_SECRET_ID: the rotator's own kubeconfig secret, read, then written. */
  rotatorSecretId: string;
  /** TOKEN_EXPIRATION_SECONDS (default 3600): each token's lifetime. */
  expirationSeconds: number;
  /** TOKEN_ROTATION_PERIOD_MINUTES (default 15): how often the schedule runs this. */
  periodSeconds: number;
  /** TOKEN_AUDIENCES, comma-separated; empty: the API server's own (its --api-audiences). */
  audiences: string[];
}

/**
 * A token must outlive two periods (so one failed run costs nothing), the functions' cache of the
 * kubeconfig and their margin before expiry: then no function ever holds an expired token while
 * the rotator runs.
 */
export function requiredLifetimeSeconds(
  periodSeconds: number,
  cacheSeconds: number,
  marginSeconds: number,
): number {
  return Math.max(MIN_EXPIRATION_SECONDS, 2 * periodSeconds + cacheSeconds + marginSeconds);
}

const positiveInteger = (env: NodeJS.ProcessEnv, key: string, fallback: number): number => {
  const raw = env[key]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new ConfigError(`${key} must be a positive whole number, got "${raw}"`);
  return value;
};

export function loadTokenRotationConfig(
  env: NodeJS.ProcessEnv,
  functionsCache: { cacheSeconds: number; marginSeconds: number },
): TokenRotationConfig {
  const functionsSecretId = env.KUBECONFIG_SECRET_ID?.trim();
  if (!functionsSecretId) {
    throw new ConfigError(
      'KUBECONFIG_SECRET_ID is not set: token rotation writes the functions’ kubeconfig to Secrets Manager (serverless.yml’s kubeconfigSecretId); a kubeconfig in SSM (kubeconfigParameter) is renewed by you',
    );
  }
  const rotatorSecretId = env.TOKEN_ROTATOR_SECRET_ID?.trim();
  if (!rotatorSecretId) {
    throw new ConfigError(
      'TOKEN_ROTATOR_SECRET_ID is not set: the secret holding the token rotator’s own kubeconfig (serverless.yml’s tokenRotatorSecretId)',
    );
  }
  if (rotatorSecretId === functionsSecretId) {
    throw new ConfigError(
      'TOKEN_ROTATOR_SECRET_ID must differ from KUBECONFIG_SECRET_ID: the functions may not read the rotator’s credential',
    );
  }
  const expirationSeconds = positiveInteger(env, 'TOKEN_EXPIRATION_SECONDS', 3600);
  const periodSeconds = positiveInteger(env, 'TOKEN_ROTATION_PERIOD_MINUTES', 15) * 60;
  const needed = requiredLifetimeSeconds(
    periodSeconds,
    functionsCache.cacheSeconds,
    functionsCache.marginSeconds,
  );
  if (expirationSeconds < needed) {
    throw new ConfigError(
      `TOKEN_EXPIRATION_SECONDS (${expirationSeconds}) is too short for a rotation every ${periodSeconds / 60} minutes: a token must outlive two periods, the functions’ ${functionsCache.cacheSeconds} s cache and ${functionsCache.marginSeconds} s margin (at least ${needed})`,
    );
  }
  const audiences = (env.TOKEN_AUDIENCES ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return { functionsSecretId, rotatorSecretId, expirationSeconds, periodSeconds, audiences };
}

/** Where the kubeconfigs are kept (Secrets Manager in the deployment). */
export interface KubeconfigSecrets {
  read(secretId: string): Promise<string>;
  write(secretId: string, text: string): Promise<void>;
}

export interface MintedToken {
  serviceAccount: string;
  expiresAt: string;
}

export interface TokenRotationResult {
  functions: MintedToken;
  rotator: MintedToken;
}

/** A kubeconfig (JSON, which every kubeconfig reader takes) for `user` on `base`'s current cluster. */
export function kubeconfigFor(base: KubeConfig, user: string, token: string): string {
  const cluster = base.getCurrentCluster();
  if (!cluster) throw new Error('the rotator’s kubeconfig has no current cluster');
  const namedCluster: Record<string, unknown> = { server: cluster.server };
  if (cluster.caData) namedCluster['certificate-authority-data'] = cluster.caData;
  if (cluster.tlsServerName) namedCluster['tls-server-name'] = cluster.tlsServerName;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'karmada', cluster: namedCluster }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'karmada', context: { cluster: 'karmada', user } }],
    'current-context': 'karmada',
  });
}

async function mint(
  api: CoreV1Api,
  serviceAccount: string,
  config: TokenRotationConfig,
): Promise<{ token: string; expiresAt: Date }> {
  const spec: V1TokenRequestSpec = {
    audiences: config.audiences,
    expirationSeconds: config.expirationSeconds,
  };
  const body = new AuthenticationV1TokenRequest();
  body.apiVersion = 'authentication.k8s.io/v1';
  body.kind = 'TokenRequest';
  body.spec = spec;
  let answer: AuthenticationV1TokenRequest;
  try {
    answer = await api.createNamespacedServiceAccountToken({
      name: serviceAccount,
      namespace: TOKEN_NAMESPACE,
      body,
    });
  } catch (err) {
    throw new Error(
      `TokenRequest for ${TOKEN_NAMESPACE}/${serviceAccount} failed: ${safeErrorLine(err)} (is the rotator's own token still valid? see "The functions' Karmada token" in the README)`,
    );
  }
  const token = answer.status?.token;
  const expiresAt = answer.status?.expirationTimestamp;
  if (!token || !expiresAt)
    throw new Error(`TokenRequest for ${TOKEN_NAMESPACE}/${serviceAccount} returned no token`);
  return { token, expiresAt: new Date(expiresAt) };
}

/** The lifetime the API server gave must still cover what the functions need (it may cut it). */
function checkLifetime(
  serviceAccount: string,
  expiresAt: Date,
  config: TokenRotationConfig,
  now: number,
): void {
  const seconds = Math.floor((expiresAt.getTime() - now) / 1000);
  // The API server cuts a request above its --service-account-max-token-expiration to that maximum.
  if (seconds < config.expirationSeconds - 60) {
    throw new Error(
      `the API server issued ${TOKEN_NAMESPACE}/${serviceAccount} a token valid for ${seconds} s, not the ${config.expirationSeconds} s asked for (its --service-account-max-token-expiration?): lower tokenExpirationSeconds and tokenRotationMinutes together`,
    );
  }
}

/**
 * One rotation: a new token for the functions, checked against the API server, then written;
 * then a new token for the rotator itself. Nothing is written for a token the server refuses.
 */
export async function rotateTokens(
  secrets: KubeconfigSecrets,
  config: TokenRotationConfig,
  logger: Logger,
  now: () => number = Date.now,
): Promise<TokenRotationResult> {
  const own = loadKubeConfig({ text: await secrets.read(config.rotatorSecretId), fetched: true });
  const api = own.makeApiClient(CoreV1Api);

  const functions = await mint(api, FUNCTIONS_SERVICE_ACCOUNT, config);
  checkLifetime(FUNCTIONS_SERVICE_ACCOUNT, functions.expiresAt, config, now());
  const functionsText = kubeconfigFor(own, FUNCTIONS_SERVICE_ACCOUNT, functions.token);
  // The functions' first read: their RBAC grants exactly this (the Karmada instance check).
  const check = loadKubeConfig({ text: functionsText, fetched: true }).makeApiClient(CoreV1Api);
  try {
    await check.readNamespace({ name: 'kube-system' });
  } catch (err) {
    throw new Error(
      `the new token of ${TOKEN_NAMESPACE}/${FUNCTIONS_SERVICE_ACCOUNT} does not work (${safeErrorLine(err)}); the functions' secret is unchanged (TOKEN_AUDIENCES must be among the API server's --api-audiences)`,
    );
  }
  await secrets.write(config.functionsSecretId, functionsText);
  logger.info('functions token rotated', {
    serviceAccount: `${TOKEN_NAMESPACE}/${FUNCTIONS_SERVICE_ACCOUNT}`,
    expiresAt: functions.expiresAt.toISOString(),
  });

  const rotator = await mint(api, ROTATOR_SERVICE_ACCOUNT, config);
  checkLifetime(ROTATOR_SERVICE_ACCOUNT, rotator.expiresAt, config, now());
  await secrets.write(config.rotatorSecretId, kubeconfigFor(own, ROTATOR_SERVICE_ACCOUNT, rotator.token));
  logger.info('rotator token renewed', {
    serviceAccount: `${TOKEN_NAMESPACE}/${ROTATOR_SERVICE_ACCOUNT}`,
    expiresAt: rotator.expiresAt.toISOString(),
  });
  return {
    functions: { serviceAccount: FUNCTIONS_SERVICE_ACCOUNT, expiresAt: functions.expiresAt.toISOString() },
    rotator: { serviceAccount: ROTATOR_SERVICE_ACCOUNT, expiresAt: rotator.expiresAt.toISOString() },
  };
}
