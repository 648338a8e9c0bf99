import { writeFileSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import type { HttpLibrary } from '@kubernetes/client-node';
import { inProcessUrl } from '../shared/in-process.js';
import { inProcessKubeTransport } from './in-process.js';
import { timestamp } from './admission.js';
import { ConflictInjector, type ConflictInjection } from './chaos.js';
import type { ServerContext } from './context.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { Persistence } from './persist.js';
import {
  BUILTIN_RESOURCES,
  crdFilesIn,
  crdToInputs,
  DEFAULT_CRD_DIR,
  loadCrdFiles,
  ResourceRegistry,
} from './registry.js';
import { RequestLog } from './request-log.js';
import { allowedHosts } from './host-check.js';
import { createHandler } from './server.js';
import { TokenAuthority } from './tokens.js';
import { ObjectStore } from './store.js';
import { createObject } from './writes.js';
import { resourceKeyOf, type KObject, type ResourceDef, type ResourceTypeInput } from './types.js';

export type { ConflictInjection } from './chaos.js';
export type { RequestRecord } from './request-log.js';
export type { KObject, ResourceDef, ResourceTypeInput } from './types.js';

export interface KubeApiServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** JSON state file: loaded at start if present, written (debounced) after writes and on close. */
  persistFile?: string;
  persistDebounceMs?: number;
  /** CRD YAML files to serve; default: every file in infra/crds/. */
  crdFiles?: string[];
  /** Extra resource types on top of the defaults. */
  resources?: ResourceTypeInput[];
  /** Namespaces that exist at start (when not loaded from persistFile). Default: default, karmada-system. */
  namespaces?: string[];
  /** How often watches with allowWatchBookmarks get a BOOKMARK. Default 5000 ms. */
  bookmarkIntervalMs?: number;
  /** Events kept for watch replay; older ones are compacted away. Default 10000. */
  historyLimit?: number;
  /** Bearer token written into kubeConfig(): the admin's (system:masters). */
  token?: string;
  /**
   * Accept any other bearer token (or none) as the admin: the default, the stand-in has no
   * authentication. False: only `token` and the ServiceAccount tokens it issued (TokenRequest),
   * each until it expires; anything else gets 401. An issued token is checked either way.
   */
  acceptAnyToken?: boolean;
  /** `--api-audiences` (default: the issuer) and `--service-account-max-token-expiration`. */
  apiAudiences?: string[];
  maxTokenExpirationSeconds?: number;
  /** Serve HTTPS with this key and certificate (PEM); kubeConfig() then embeds the certificate as the CA. */
  tls?: { key: string; cert: string };
  /**
   * Serve no socket: clients reach it through `transport` (lib/kube/client-node.ts's option), in
   * this process. `url` and kubeConfig() name a host that is never resolved.
   */
  inProcess?: boolean;
}

/** Direct reads and raw writes that bypass HTTP and admission, for tests. */
export interface StoreAccess {
  readonly resourceVersion: number;
  readonly compactedResourceVersion: number;
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KObject | undefined;
  list(apiVersion: string, kind: string, namespace?: string): KObject[];
  /**
   * Stores the object as given (status included, no validation), filling in uid/creationTimestamp/
   * generation when missing; watchers see ADDED or MODIFIED. For seeding test state.
   */
  put(obj: KObject): KObject;
  /** Removes the object outright (finalizers ignored); watchers see DELETED. */
  remove(apiVersion: string, kind: string, namespace: string | undefined, name: string): boolean;
}

export interface KubeApiServer {
  url: string;
  /** 0 in process. */
  port: number;
  /** Set when it serves in process: the client-node transport for its clients (createKubeClient). */
  readonly transport?: HttpLibrary;
  close(): Promise<void>;
  kubeConfig(namespace?: string): string;
  /** Writes kubeConfig() to `path` (creating directories) and returns the path. */
  writeKubeconfig(path: string, namespace?: string): string;
  register(input: ResourceTypeInput): ResourceDef;
  /** Registers every served version of a CustomResourceDefinition object. */
  registerCrd(crd: unknown): ResourceDef[];
  store: StoreAccess;
  /** Forgets history: watches and continue tokens from older versions now get 410 Gone. */
  compact(): number;
  /** Makes a fraction of PUT/PATCH (status included) fail with 409 Conflict; null turns it off. */
  injectConflicts(settings: ConflictInjection | null): void;
  /** Conflicts injected since the last injectConflicts(). */
  readonly injectedConflicts: number;
  requests: RequestLog;
  /** Open watch streams. */
  readonly openWatches: number;
  /** Ends every open watch stream (as an apiserver restart or a dropped connection would); clients re-watch. */
  dropWatches(): number;
  /** Writes the persist file now (no-op without persistFile). */
  flush(): void;
  /** A kubeconfig for this server whose user sends `token` (an issued ServiceAccount token, say). */
  kubeConfigWithToken(token: string, namespace?: string): string;
}

export async function startKubeApiServer(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
  const registry = new ResourceRegistry();
  for (const r of [
    ...BUILTIN_RESOURCES,
    ...loadCrdFiles(options.crdFiles ?? crdFilesIn(DEFAULT_CRD_DIR)),
    ...(options.resources ?? []),
  ]) {
    registry.register(r);
  }
  const store = new ObjectStore(options.historyLimit);
  const chaos = new ConflictInjector();
  const token = options.token ?? 'dev-token';
  const ctx: ServerContext = {
    registry,
    store,
    chaos,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5000,
    watches: new Set(),
    tokens: new TokenAuthority({
      adminToken: token,
      acceptAnyToken: options.acceptAnyToken ?? true,
      ...(options.apiAudiences ? { audiences: options.apiAudiences } : {}),
      ...(options.maxTokenExpirationSeconds !== undefined
        ? { maxExpirationSeconds: options.maxTokenExpirationSeconds }
        : {}),
    }),
  };
  const persistence = options.persistFile
    ? new Persistence(options.persistFile, store, options.persistDebounceMs ?? 200)
    : undefined;
  if (!persistence?.load()) {
    const nsDef = registry.lookup('', 'v1', 'namespaces')!;
    for (const name of options.namespaces ?? ['default', 'karmada-system']) {
      createObject(
        ctx,
        nsDef,
        undefined,
        { metadata: { name } },
        { dryRun: false, fieldValidation: 'Strict', warnings: [] },
      );
    }
  }
  const requests = new RequestLog();
  const listenHost = options.host ?? '127.0.0.1';
  const hosts = allowedHosts(listenHost);
  const handler = createHandler(ctx, requests, () => hosts);
  let server: Server | undefined;
  let url: string;
  let port = 0;
  if (options.inProcess) {
    url = inProcessUrl('kube');
    hosts.add(new URL(url).hostname);
  } else {
    const listening = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
    server = listening;
    listening.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.port ?? 0, listenHost, () => resolve());
    });
    const address = listening.address() as AddressInfo;
    port = address.port;
    url = `${options.tls ? 'https' : 'http'}://${address.address}:${port}`;
  }
  const caCert = options.tls?.cert;
  const defFor = (apiVersion: string, kind: string): ResourceDef => {
    const def = registry.byKind(apiVersion, kind);
    if (!def) throw new Error(`unknown resource type ${apiVersion} ${kind}`);
    return def;
  };
  let closed = false;
  const handle: KubeApiServer = {
    url,
    port,
    ...(options.inProcess ? { transport: inProcessKubeTransport(handler) } : {}),
    async close() {
      if (closed) return;
      closed = true;
      for (const w of [...ctx.watches]) w.end();
      persistence?.close();
      if (!server) return;
      const open = server;
      await new Promise<void>((resolve) => {
        open.close(() => resolve());
        open.closeAllConnections();
      });
    },
    kubeConfig: (namespace) => handle.kubeConfigWithToken(token, namespace),
    kubeConfigWithToken: (t, namespace) =>
      kubeconfigYaml({
        server: url,
        token: t,
        ...(namespace ? { namespace } : {}),
        ...(caCert ? { caCert } : {}),
      }),
    writeKubeconfig(path, namespace) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, handle.kubeConfig(namespace), { mode: 0o600 });
      return path;
    },
    register: (input) => registry.register(input),
    registerCrd: (crd) => crdToInputs(crd).map((i) => registry.register(i)),
    store: {
      get resourceVersion() {
        return store.revision;
      },
      get compactedResourceVersion() {
        return store.compactedRevision;
      },
      get: (apiVersion, kind, namespace, name) =>
        store.get(resourceKeyOf(defFor(apiVersion, kind)), namespace, name),
      list: (apiVersion, kind, namespace) => store.list(resourceKeyOf(defFor(apiVersion, kind)), namespace),
      put(obj) {
        const key = resourceKeyOf(defFor(obj.apiVersion ?? '', obj.kind ?? ''));
        const { namespace, name = '' } = obj.metadata;
        const old = store.get(key, namespace, name);
        const m = { ...obj.metadata };
        m.uid ??= old?.metadata.uid ?? randomUUID();
        m.creationTimestamp ??= old?.metadata.creationTimestamp ?? timestamp();
        m.generation ??= old?.metadata.generation ?? 1;
        return store.put(key, { ...obj, metadata: m }, old ? 'MODIFIED' : 'ADDED');
      },
      remove(apiVersion, kind, namespace, name) {
        const key = resourceKeyOf(defFor(apiVersion, kind));
        const old = store.get(key, namespace, name);
        if (old) store.remove(key, old);
        return old != null;
      },
    },
    compact: () => store.compact(),
    injectConflicts: (settings) => chaos.configure(settings),
    get injectedConflicts() {
      return chaos.injected;
    },
    requests,
    get openWatches() {
      return ctx.watches.size;
    },
    dropWatches() {
      const open = [...ctx.watches];
      for (const w of open) w.end();
      return open.length;
    },
    flush: () => persistence?.flush(),
  };
  return handle;
}
