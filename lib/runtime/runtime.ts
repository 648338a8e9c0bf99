/**
 * What an invocation needs, built once per function container: the Kubernetes client, the
 * provider loaded through the registry (from those the entry point registered, see
 * lib/providers/builtin.ts), the event recorder and the logger.
 */
import { namespaceScoped } from '../kube/namespace-scoped.js';
import { loadKubeConfig, createKubeClient, type KubeConfigSource } from '../kube/client-node.js';
import type { KubeClient } from '../kube/client.js';
import { KubeEventRecorder, type EventRecorder } from '../kube/events.js';
import type { Logger } from '../log/logger.js';
import type { MultiClusterProvider } from '../provider/contract.js';
import { errorMessage } from '../errors.js';
import { initMultiClusterProvider, registeredProviderNames } from '../provider/registry.js';
import type { RuntimeConfig } from './config.js';

export interface Runtime {
  config: RuntimeConfig;
  kube: KubeClient;
  provider: MultiClusterProvider;
  events: EventRecorder;
  logger: Logger;
}

export async function createRuntime(
  config: RuntimeConfig,
  kubeconfig: KubeConfigSource,
  logger: Logger,
): Promise<Runtime> {
  const kube = createKubeClient(loadKubeConfig(kubeconfig));
  return createRuntimeWith(config, kube, logger);
}

/** Same as createRuntime with an existing client (tests, local tools). */
export async function createRuntimeWith(
  config: RuntimeConfig,
  kube: KubeClient,
  logger: Logger,
): Promise<Runtime> {
  // Within ALLOWED_NAMESPACES a cluster-wide LIST is refused: the provider lists per namespace.
  const providerKube = config.allowedNamespaces ? namespaceScoped(kube, config.allowedNamespaces) : kube;
  const provider = await initMultiClusterProvider(config.provider, config.cloudConfigPath, {
    kube: providerKube,
    logger,
  }).catch((err: unknown) => {
    // The registry knows names, not where they come from: say which setting to fix.
    if (registeredProviderNames().includes(config.provider)) throw err;
    throw new Error(`MULTICLUSTER_PROVIDER: ${errorMessage(err)}`, { cause: err });
  });
  if (!provider) throw new Error('MULTICLUSTER_PROVIDER is empty: no provider to run');
  if (!provider.loadBalancer() && !provider.mcsLoadBalancer()) {
    throw new Error(
      `provider "${config.provider}" supports neither MultiClusterIngress nor MultiClusterService`,
    );
  }
  logger.info('provider loaded', {
    provider: provider.providerName(),
    multiClusterIngress: provider.loadBalancer() !== undefined,
    multiClusterService: provider.mcsLoadBalancer() !== undefined,
  });
  return { config, kube, provider, events: new KubeEventRecorder(kube, logger), logger };
}
