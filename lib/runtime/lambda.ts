/**
 * Lambda plumbing shared by the function entry points: middy with an early-timeout AbortSignal,
 * Powertools' Lambda context on every log line, the kubeconfig fetched from AWS Secrets Manager or
 * SSM Parameter Store by the official middy middlewares (cached across invocations, each loaded,
 * with its SDK client, only where configured), and one Kubernetes client and one Runtime per
 * container, rebuilt only when the kubeconfig changes. The Runtime's provider is one the entry
 * point registered (lib/providers/builtin.ts).
 */
import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { createLogger, powertoolsOf, type Logger } from '../log/logger.js';
import { publishMetrics } from '../metrics/index.js';
import { createKubeClient, loadKubeConfig, type KubeConfigSource } from '../kube/client-node.js';
import type { KubeClient } from '../kube/client.js';
import { lazy } from '../util/lazy.js';
import { loadRuntimeConfig } from './config.js';
import { withInvocationSignal } from './invocation-signal.js';
import { createRuntimeWith, type Runtime } from './runtime.js';

export const logger: Logger = createLogger();

/** Stop a few seconds before Lambda's own timeout so that work in flight can be abandoned cleanly. */
const EARLY_TIMEOUT_MS = 3_000;
/** How long a fetched kubeconfig is reused before it is read again (secret rotation). */
const KUBECONFIG_CACHE_MS = 5 * 60_000;

type KubeconfigContext = Context & { kubeconfig?: string | Record<string, unknown> };

let kubeCache: { fingerprint: string; kube: KubeClient } | undefined;
let runtimeCache: { kube: KubeClient; runtime: Promise<Runtime> } | undefined;

function kubeconfigSource(context: KubeconfigContext): KubeConfigSource {
  if (process.env.KUBECONFIG) return { file: process.env.KUBECONFIG };
  const fetched = context.kubeconfig;
  if (typeof fetched === 'string' && fetched) return { text: fetched, fetched: true };
  if (fetched && typeof fetched === 'object') return { text: JSON.stringify(fetched), fetched: true };
  if (process.env.KUBERNETES_SERVICE_HOST) return { inCluster: true };
  throw new Error(
    'no kubeconfig: set KUBECONFIG_SECRET_ID (Secrets Manager), KUBECONFIG_PARAMETER (SSM) or KUBECONFIG (a file path)',
  );
}

/** The container's Kubernetes client; a bad kubeconfig fails here, with a clear message. */
export function kubeFor(context: Context): KubeClient {
  const source = kubeconfigSource(context as KubeconfigContext);
  const fingerprint = createHash('sha256').update(JSON.stringify(source)).digest('hex');
  if (kubeCache?.fingerprint !== fingerprint) {
    kubeCache = { fingerprint, kube: createKubeClient(loadKubeConfig(source)) };
  }
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

export function lambdaHandler<E, R>(handler: Handler<E, R>) {
  // middy's own signal is shared by every invocation in the process: each gets its own instead.
  const fn = middy<E, R, Error, Context>({ timeoutEarlyInMillis: EARLY_TIMEOUT_MS }).handler(
    (event, context) =>
      withInvocationSignal(context, EARLY_TIMEOUT_MS, (signal) => handler(event, context, { signal })),
  );
  const pt = powertoolsOf(logger);
  if (pt) fn.use(injectLambdaContext(pt, { resetKeys: true }));
  fn.use(publishMetrics());
  // An explicit kubeconfig file (local runs, `osls invoke local`) wins over a stored secret.
  if (process.env.KUBECONFIG) return fn;
  const secretId = process.env.KUBECONFIG_SECRET_ID;
  const parameter = process.env.KUBECONFIG_PARAMETER;
  if (secretId) {
    fn.use(
      lazyMiddleware(async () =>
        (await import('@middy/secrets-manager')).default({
          fetchData: { kubeconfig: secretId },
          setToContext: true,
          cacheExpiry: KUBECONFIG_CACHE_MS,
        }),
      ),
    );
  } else if (parameter) {
    // The roles grant exactly `parameter<name>` (serverless.yml's kubeconfigParameter): a full name.
    if (!parameter.startsWith('/')) {
      throw new Error(
        `KUBECONFIG_PARAMETER must be the parameter's full name, starting with "/": got "${parameter}"`,
      );
    }
    fn.use(
      lazyMiddleware(async () =>
        (await import('@middy/ssm')).default({
          fetchData: { kubeconfig: parameter },
          setToContext: true,
          cacheExpiry: KUBECONFIG_CACHE_MS,
        }),
      ),
    );
  }
  return fn;
}

/**
 * A middleware loaded at its first use: the AWS SDK client behind it is a chunk of its own, read
 * only by containers configured for it, which keeps cold starts of the others short.
 */
function lazyMiddleware<E, R>(
  load: () => Promise<MiddlewareObj<E, R, Error, Context & { kubeconfig: unknown }, { kubeconfig: unknown }>>,
): MiddlewareObj<E, R, Error, Context> {
  const loaded = lazy(load);
  return {
    before: async (request) => {
      // The fetching middleware adds `kubeconfig` to the context it is given.
      const middleware = await loaded();
      return middleware.before?.(request as Parameters<NonNullable<typeof middleware.before>>[0]);
    },
  };
}
