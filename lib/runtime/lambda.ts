/**
 * Lambda plumbing shared by the function entry points: middy with an early-timeout AbortSignal,
 * Powertools' Lambda context on every log line, the kubeconfig read from AWS Secrets Manager or
 * SSM Parameter Store (kubeconfig-cache.ts: kept across invocations, read again before its
 * short-lived token expires and after a 401; each store's SDK client loaded only where
 * configured), and one Kubernetes client and one Runtime per container. A rotated token reaches
 * the same client (RefreshingKubeClient); only another server or user rebuilds them. The Runtime's
 * provider is one the entry point registered (lib/providers/builtin.ts).
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { createLogger, powertoolsOf, type Logger } from '../log/logger.js';
import { lazy } from '../util/lazy.js';
import { publishMetrics } from '../metrics/index.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient, loadKubeConfig, type KubeConfigSource } from '../kube/client-node.js';
import type { KubeClient } from '../kube/client.js';
import { RefreshingKubeClient } from '../kube/refreshing-client.js';
import { safeErrorLine } from '../log/redact.js';
import { KubeconfigCache, type KubeconfigStore } from './kubeconfig-cache.js';
import { loadRuntimeConfig } from './config.js';
import { withInvocationSignal } from './invocation-signal.js';
import { createRuntimeWith, type Runtime } from './runtime.js';

export const logger: Logger = createLogger();

/** Stop a few seconds before Lambda's own timeout so that work in flight can be abandoned cleanly. */
const EARLY_TIMEOUT_MS = 3_000;
/**
 * How long a fetched kubeconfig is reused before it is read again, at most. The token rotator
 * (lib/maintenance/token-rotation.ts) keeps every token it writes valid for longer than this plus
 * its own period, so a cached copy never holds an expired token.
 */
export const KUBECONFIG_CACHE_MS = 5 * 60_000;
/** A copy whose token expires within this is read again, whatever its age. */
export const KUBECONFIG_EXPIRY_MARGIN_MS = 60_000;
/** After a 401 the store is read again at once, but not more often than this. */
const KUBECONFIG_MIN_REFETCH_MS = 10_000;

type KubeconfigContext = Context & { kubeconfig?: string };

let kubeCache:
  | {
      fingerprint: string;
      config: KubeConfig;
      /** The fetched kubeconfig's text, as the store gave it. */
      text?: string;
      kube: RefreshingKubeClient;
    }
  | undefined;
let runtimeCache: { kube: KubeClient; runtime: Promise<Runtime> } | undefined;
/** The configured store's cache (KUBECONFIG_SECRET_ID or KUBECONFIG_PARAMETER), set by lambdaHandler. */
let kubeconfigCache: KubeconfigCache | undefined;

function kubeconfigSource(context: KubeconfigContext): KubeConfigSource {
  if (process.env.KUBECONFIG) return { file: process.env.KUBECONFIG };
  const fetched = context.kubeconfig;
  if (typeof fetched === 'string' && fetched) return { text: fetched, fetched: true };
  if (process.env.KUBERNETES_SERVICE_HOST) return { inCluster: true };
  throw new Error(
    'no kubeconfig: set KUBECONFIG_SECRET_ID (Secrets Manager), KUBECONFIG_PARAMETER (SSM) or KUBECONFIG (a file path)',
  );
}

const fingerprintOf = (source: KubeConfigSource): string =>
  createHash('sha256').update(JSON.stringify(source)).digest('hex');

/**
 * Whether `next` is `current` with another credential only: same server, CA, TLS settings and user
 * name. Anything more (another API server, another identity) builds a new client and Runtime, so
 * the start-up checks (the Karmada instance) run again.
 */
function sameIdentity(current: KubeConfig, next: KubeConfig): boolean {
  const [a, b] = [current.getCurrentCluster(), next.getCurrentCluster()];
  return (
    a !== null &&
    b !== null &&
    a.server === b.server &&
    a.caData === b.caData &&
    a.caFile === b.caFile &&
    a.skipTLSVerify === b.skipTLSVerify &&
    a.tlsServerName === b.tlsServerName &&
    current.getCurrentUser()?.name === next.getCurrentUser()?.name &&
    current.getContextObject(current.currentContext)?.namespace ===
      next.getContextObject(next.currentContext)?.namespace
  );
}

/**
 * After a 401: the store's newer kubeconfig, if it only changes the credential. The one in use
 * is kept otherwise; the next invocation picks up a changed identity and rebuilds.
 */
async function reauthenticate(): Promise<KubeClient | undefined> {
  const current = kubeCache;
  if (!kubeconfigCache || current?.text === undefined) return undefined;
  const refused = current.config;
  const fresh = await kubeconfigCache.refresh(current.text).catch((error: unknown) => {
    logger.error('the Karmada API server refused the kubeconfig (401) and reading it again failed', {
      store: kubeconfigCache?.store.name,
      error: safeErrorLine(error),
    });
    return undefined;
  });
  if (!fresh) {
    logger.warn('the Karmada API server refused the kubeconfig (401) and the store has no newer one', {
      store: kubeconfigCache.store.name,
    });
    return undefined;
  }
  const source: KubeConfigSource = { text: fresh.text, fetched: true };
  const config = loadKubeConfig(source);
  if (kubeCache !== current || !sameIdentity(refused, config)) return undefined;
  const inner = createKubeClient(config);
  kubeCache = { ...current, fingerprint: fingerprintOf(source), config, text: fresh.text };
  current.kube.use(inner);
  logger.info('kubeconfig read again after a 401: the rotated credential is in use', {
    store: kubeconfigCache.store.name,
  });
  return inner;
}

/** The container's Kubernetes client; a bad kubeconfig fails here, with a clear message. */
export function kubeFor(context: Context): KubeClient {
  const source = kubeconfigSource(context as KubeconfigContext);
  const fingerprint = fingerprintOf(source);
  if (kubeCache?.fingerprint === fingerprint) return kubeCache.kube;
  const config = loadKubeConfig(source);
  const text = 'text' in source ? { text: source.text } : {};
  if (kubeCache && sameIdentity(kubeCache.config, config)) {
    // A rotated token: the same client (and Runtime) goes on with it.
    kubeCache.kube.use(createKubeClient(config));
    kubeCache = { fingerprint, config, kube: kubeCache.kube, ...text };
    return kubeCache.kube;
  }
  kubeCache = {
    fingerprint,
    config,
    kube: new RefreshingKubeClient(createKubeClient(config), reauthenticate),
    ...text,
  };
  return kubeCache.kube;
}

/**
 * The container's Runtime, with the provider MULTICLUSTER_PROVIDER names (registered by the entry
 * point); a bad configuration fails here, with a clear message, at the first invocation.
 */
export async function runtimeFor(context: Context): Promise<Runtime> {
  const kube = kubeFor(context);
  if (runtimeCache?.kube !== kube) {
    const runtime = createRuntimeWith(loadRuntimeConfig(), kube, logger);
    // A failed start is not kept: the next invocation tries again (the secret may have been fixed).
    runtime.catch(() => {
      if (runtimeCache?.runtime === runtime) runtimeCache = undefined;
    });
    runtimeCache = { kube, runtime };
  }
  return runtimeCache.runtime;
}

export type Handler<E, R> = (event: E, context: Context, opts: { signal: AbortSignal }) => Promise<R>;

export interface LambdaHandlerOptions {
  /** Read the functions' kubeconfig (default). The token rotator reads its own credential instead. */
  kubeconfig?: boolean;
}

export function lambdaHandler<E, R>(handler: Handler<E, R>, options: LambdaHandlerOptions = {}) {
  // middy's own signal is shared by every invocation in the process: each gets its own instead.
  const fn = middy<E, R, Error, Context>({ timeoutEarlyInMillis: EARLY_TIMEOUT_MS }).handler(
    (event, context) =>
      withInvocationSignal(context, EARLY_TIMEOUT_MS, (signal) => handler(event, context, { signal })),
  );
  const pt = powertoolsOf(logger);
  if (pt) fn.use(injectLambdaContext(pt, { resetKeys: true }));
  fn.use(publishMetrics());
  // An explicit kubeconfig file (local runs, `osls invoke local`) wins over a stored secret.
  if (process.env.KUBECONFIG || options.kubeconfig === false) return fn;
  const store = kubeconfigStore();
  if (store) {
    kubeconfigCache ??= new KubeconfigCache(store, {
      maxAgeMs: KUBECONFIG_CACHE_MS,
      expiryMarginMs: KUBECONFIG_EXPIRY_MARGIN_MS,
      minRefetchMs: KUBECONFIG_MIN_REFETCH_MS,
    });
    const cache = kubeconfigCache;
    // Read while the container initialises; a failure surfaces at the first invocation.
    cache.get().catch(() => undefined);
    fn.use({
      before: async (request) => {
        (request.context as KubeconfigContext).kubeconfig = (await cache.get()).text;
      },
    });
  }
  return fn;
}

/** The configured kubeconfig store, its SDK client loaded at the first read. */
function kubeconfigStore(): KubeconfigStore | undefined {
  const secretId = process.env.KUBECONFIG_SECRET_ID;
  const parameter = process.env.KUBECONFIG_PARAMETER;
  if (secretId) {
    const store = lazy(async () =>
      (await import('./kubeconfig-secrets-manager.js')).secretsManagerKubeconfig(secretId),
    );
    return { name: `secret ${secretId}`, read: async () => (await store()).read() };
  }
  if (parameter) {
    // The roles grant exactly `parameter<name>` (serverless.yml's kubeconfigParameter): a full name.
    if (!parameter.startsWith('/')) {
      throw new Error(
        `KUBECONFIG_PARAMETER must be the parameter's full name, starting with "/": got "${parameter}"`,
      );
    }
    const store = lazy(async () => (await import('./kubeconfig-ssm.js')).ssmKubeconfig(parameter));
    return { name: `parameter ${parameter}`, read: async () => (await store()).read() };
  }
  return undefined;
}
