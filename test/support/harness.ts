/**
 * The one end-to-end environment of the reconciler tests and the bad-input corpus: the Kubernetes
 * API stand-in (over real HTTP, or in process with `inProcess`), the real client-node KubeClient, the provider loaded through the
 * registry, and `processBatch`, the code every function entry point runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed } from '../../dev/local/pipeline.js';
import { INGRESS_CLASS_CONTROLLER } from '../../dev/local/scenario.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { Cluster } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import type { NormalizedNotification, ChangeType } from '../../lib/notification/types.js';
import type { ControllerName } from '../../lib/reconcile/requests.js';
import type { RuntimeConfig } from '../../lib/runtime/config.js';
import { processBatch, type BatchItem, type ItemResult } from '../../lib/runtime/process.js';
import { createRuntimeWith, type Runtime } from '../../lib/runtime/runtime.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';
import { AWS_IN_PROCESS, registerInProcessAws } from './aws-in-process.js';

const CRD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'infra', 'crds');

export interface Harness {
  api: KubeApiServer;
  kube: KubeClient;
  runtime: Runtime;
  logger: MemoryLogger;
  kubeconfigPath: string;
  /** A fresh directory for the test's files (kubeconfig, provider configuration...). */
  dir: string;
  /** Runs one batch: each argument is one item (a notification, or a list of them). */
  deliver(...items: Array<NormalizedNotification | NormalizedNotification[]>): Promise<ItemResult[]>;
  /** Runs one batch of items as the function entry points build them. */
  run(items: BatchItem[]): Promise<ItemResult[]>;
  seed(objects: KubeObject[]): Promise<void>;
  /**
   * A new function container: the runtime and its provider built again from the same
   * configuration over the same API server, so nothing kept in memory (caches) carries over.
   */
  coldStart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  provider?: string;
  /** The provider configuration file's text. */
  providerConfig?: string;
  runtime?: Partial<RuntimeConfig>;
  /** Run only these controllers' requests (all by default, as the functions do). */
  controllers?: readonly ControllerName[];
  /** Serve the CRDs without their schemas (see laxCrds). */
  lax?: boolean;
  /** Objects created before the harness is returned. */
  objects?: KubeObject[];
  /**
   * The API stand-in in process (a component test): the KubeClient's requests go to its request
   * listener with no socket. `kubeconfigPath` then names a server nothing can reach over HTTP.
   * The `aws` provider's clients then reach the simulators its configuration names in process
   * (aws-in-process.ts): start them with `inProcess: true`.
   */
  inProcess?: boolean;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-harness-'));
  const api = await startKubeApiServer({
    ...(options.lax ? { crdFiles: [] } : {}),
    ...(options.inProcess ? { inProcess: true } : {}),
  });
  if (options.lax) for (const crd of laxCrds()) api.registerCrd(crd);
  const kubeconfigPath = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const kube = createKubeClient(
    loadKubeConfig({ file: kubeconfigPath }),
    api.transport ? { transport: api.transport } : {},
  );
  const logger = new MemoryLogger();
  let cloudConfigPath: string | undefined;
  if (options.providerConfig !== undefined) {
    cloudConfigPath = join(dir, 'cloud.yaml');
    await writeFile(cloudConfigPath, options.providerConfig);
  }
  const provider = options.provider ?? 'fake';
  // In process, the AWS provider's clients reach the in-process simulators (aws-in-process.ts).
  if (options.inProcess && provider === 'aws') registerInProcessAws();
  const config: RuntimeConfig = {
    provider: options.inProcess && provider === 'aws' ? AWS_IN_PROCESS : provider,
    providerIngressClass: INGRESS_CLASS_CONTROLLER,
    timeoutSeconds: 30,
    lockNamespace: 'karmada-system',
    ...(cloudConfigPath ? { cloudConfigPath } : {}),
    ...options.runtime,
  };
  registerBuiltinProviders();
  let runtime = await createRuntimeWith(config, kube, logger);
  if (options.objects) await seed(kube, options.objects);
  let batches = 0;
  let items = 0;
  const run = (batch: BatchItem[]) =>
    processBatch(runtime, batch, {
      signal: new AbortController().signal,
      holder: `test-${batches++}`,
      ...(options.controllers ? { controllers: options.controllers } : {}),
    });
  return {
    api,
    kube,
    get runtime() {
      return runtime;
    },
    logger,
    kubeconfigPath,
    dir,
    deliver: (...batch) =>
      run(
        batch.map((item) => ({
          id: String(items++),
          notifications: () => (Array.isArray(item) ? item : [item]),
        })),
      ),
    run,
    seed: (objects) => seed(kube, objects),
    async coldStart() {
      runtime = await createRuntimeWith(config, kube, logger);
    },
    close: () => api.close(),
  };
}

/**
 * The CRDs with their schemas opened up: the Karmada control plane may run an older or laxer CRD
 * than the one we validate against, and then objects our validation refuses are stored (and our
 * condition writes on them accepted). Our own validation is what is under test, not the stand-in's.
 */
function laxCrds(): unknown[] {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return readdirSync(CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(CRD_DIR, f), 'utf8')).map((d) => d.toJS()))
    .map((crd: { spec: { versions: Array<Record<string, unknown>> } }) => ({
      ...crd,
      spec: {
        ...crd.spec,
        versions: crd.spec.versions.map((v) => ({
          ...v,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: open,
                status: open,
              },
            },
          },
        })),
      },
    }));
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

/** Reads, changes and writes an object; returns [before, after] for a notification. */
export async function edit<T extends KubeObject>(
  h: Harness,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  change: (o: T) => void,
  target: 'update' | 'status' = 'update',
): Promise<[T, T]> {
  const before = (await h.kube.get<T>(type, namespace, name))!;
  const next = structuredClone(before);
  change(next);
  const after =
    target === 'update' ? await h.kube.update<T>(type, next) : await h.kube.updateStatus<T>(type, next);
  return [before, after];
}

/** TrafficControl set on (or cleared from) a Cluster's status, delivered as the Cluster's change. */
export async function toggleTrafficControl(h: Harness, name: string, on: boolean): Promise<ItemResult[]> {
  const [old, now] = await edit<Cluster>(
    h,
    Resources.Cluster,
    undefined,
    name,
    (c) => {
      c.status = on ? { remedyActions: ['TrafficControl'] } : {};
    },
    'status',
  );
  return h.deliver(notifyChange('modified', now, old));
}

/** `controller key outcome` of every result, sorted: what a batch did, at a glance. */
export function outcomes(items: ItemResult[]): string[] {
  return items.flatMap((i) => i.results.map((r) => `${r.controller} ${r.key} ${r.outcome}`)).sort();
}

/** The controllers that ran, sorted. */
export function ran(items: ItemResult[]): string[] {
  return items.flatMap((i) => i.results.map((r) => `${r.controller} ${r.key}`)).sort();
}
