/**
 * An end-to-end harness for the reconcilers: the Kubernetes API stand-in over real HTTP, the real
 * client-node KubeClient, the provider loaded through the registry, and `processBatch`, the code
 * every function entry point runs.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed } from '../../dev/local/pipeline.js';
import { INGRESS_CLASS_CONTROLLER } from '../../dev/local/scenario.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { NormalizedNotification, ChangeType } from '../../lib/notification/types.js';
import { dependentRequests } from '../../lib/reconcile/dependents.js';
import type { ControllerName, DependentMapper } from '../../lib/reconcile/route.js';
import type { RuntimeConfig } from '../../lib/runtime/config.js';
import { processBatch, type ItemResult } from '../../lib/runtime/process.js';
import { createRuntimeWith, type Runtime } from '../../lib/runtime/runtime.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';

export interface Harness {
  api: KubeApiServer;
  kube: KubeClient;
  runtime: Runtime;
  logger: MemoryLogger;
  kubeconfigPath: string;
  dir: string;
  /** Runs one batch: each argument is one item (a notification, or a list of them). */
  deliver(...items: Array<NormalizedNotification | NormalizedNotification[]>): Promise<ItemResult[]>;
  seed(objects: KubeObject[]): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  provider?: string;
  providerConfig?: string;
  runtime?: Partial<RuntimeConfig>;
  /**
   * Run only these controllers' requests (all by default, as the functions do). The load-balancer
   * controllers' requests for their own objects are always made.
   */
  controllers?: readonly ControllerName[];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-harness-'));
  const api = await startKubeApiServer();
  const kubeconfigPath = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(loadKubeConfig({ file: kubeconfigPath }));
  const logger = new MemoryLogger();
  let cloudConfigPath: string | undefined;
  if (options.providerConfig !== undefined) {
    cloudConfigPath = join(dir, 'cloud.yaml');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(cloudConfigPath, options.providerConfig);
  }
  const config: RuntimeConfig = {
    provider: options.provider ?? 'fake',
    providerIngressClass: INGRESS_CLASS_CONTROLLER,
    timeoutSeconds: 30,
    lockNamespace: 'karmada-system',
    ...(cloudConfigPath ? { cloudConfigPath } : {}),
    ...options.runtime,
  };
  registerBuiltinProviders();
  const runtime = await createRuntimeWith(config, kube, logger);
  const only = options.controllers;
  const dependents: DependentMapper = only
    ? async (deps, note) => (await dependentRequests(deps, note)).filter((r) => only.includes(r.controller))
    : dependentRequests;
  let n = 0;
  return {
    api,
    kube,
    runtime,
    logger,
    kubeconfigPath,
    dir,
    deliver: (...items) =>
      processBatch(
        runtime,
        items.map((item) => ({
          id: String(n++),
          notifications: () => (Array.isArray(item) ? item : [item]),
        })),
        { signal: new AbortController().signal, holder: `test-${n}`, dependents },
      ),
    seed: (objects) => seed(kube, objects),
    close: () => api.close(),
  };
}

/** A notification carrying the object after (and, for an update, before) the change, as the forwarder sends. */
export function notifyChange(
  change: ChangeType,
  object: KubeObject | undefined,
  oldObject?: KubeObject,
): NormalizedNotification {
  const obj = object ?? oldObject;
  if (!obj) throw new Error('notifyChange needs an object');
  return {
    ...notify(obj, change),
    ...(object ? { object } : {}),
    ...(oldObject ? { oldObject } : {}),
  };
}

export function notify(
  obj: { apiVersion?: string; kind?: string; metadata: { namespace?: string; name?: string } },
  change: ChangeType = 'modified',
): NormalizedNotification {
  return {
    change,
    ref: {
      apiVersion: obj.apiVersion ?? '',
      kind: obj.kind ?? '',
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
      name: obj.metadata.name ?? '',
    },
    source: 'native',
  };
}
