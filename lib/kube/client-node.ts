/**
 * KubeClient over @kubernetes/client-node's generic KubernetesObjectApi.
 *
 * Two adjustments to the stock class, both through its protected extension points:
 * - resource metadata (plural, scope) comes from our ResourceType descriptors, so a cold function
 *   does not spend a discovery request per API group before its first read;
 * - responses stay plain JSON (no generated model classes), so an object read from the API has
 *   exactly the shape of one read from a notification, timestamps included.
 * The status subresource and JSON patches, which the stock class does not offer, reuse its own
 * path building, authentication and middleware.
 */
import { PooledAuthentication } from './pooled-authentication.js';
import {
  ApiException,
  createConfiguration,
  HttpMethod,
  KubeConfig,
  KubernetesObjectApi,
  ServerConfiguration,
  type HttpLibrary,
  type KubernetesObject,
  type RequestContext,
  type ResponseContext,
  type V1APIResource,
} from '@kubernetes/client-node';
import type { DeleteOptions, KubeClient, ListOptions, PatchType } from './client.js';
import { KubeApiError } from './client.js';
import type { KubeList, KubeObject, ResourceType } from './types.js';
import { safeErrorLine } from '../log/redact.js';

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

const LIST_PAGE_SIZE = 500;

class PlainObjectApi extends KubernetesObjectApi {
  private readonly known = new Map<string, ResourceType>();

  remember(type: ResourceType): void {
    this.known.set(`${type.apiVersion}/${type.kind}`, type);
  }

  protected override async resource(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    const type = this.known.get(`${apiVersion}/${kind}`);
    if (type) return { name: type.plural, namespaced: type.namespaced, kind, singularName: '', verbs: [] };
    return super.resource(apiVersion, kind);
  }

  protected override async processResponse<T extends KubernetesObject>(
    response: ResponseContext,
  ): Promise<T> {
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) {
      return (text ? JSON.parse(text) : {}) as T;
    }
    throw new ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', text, response.headers);
  }

  /** PUT or PATCH on `<object path>[/subresource]` with a raw JSON body. */
  async send<T extends KubernetesObject>(
    spec: KubeObject,
    method: HttpMethod,
    body: unknown,
    options: { subresource?: string; contentType?: string; query?: Record<string, string> } = {},
  ): Promise<T> {
    let path = await this.specUriPath(
      spec as KubernetesObject,
      method === HttpMethod.POST ? 'create' : 'read',
    );
    if (options.subresource) path += `/${options.subresource}`;
    const ctx: RequestContext = this.configuration.baseServer.makeRequestContext(path, method);
    ctx.setHeaderParam('Accept', 'application/json');
    for (const [k, v] of Object.entries(options.query ?? {})) ctx.setQueryParam(k, v);
    if (body !== undefined) {
      ctx.setHeaderParam('Content-Type', options.contentType ?? 'application/json');
      ctx.setBody(JSON.stringify(body));
    }
    return this.requestPromise<T>(ctx);
  }
}

function toKubeApiError(err: unknown, what: string): unknown {
  if (!(err instanceof ApiException)) return err;
  let reason = '';
  let message = `${what}: HTTP ${err.code}`;
  const body: unknown = typeof err.body === 'string' ? safeJson(err.body) : err.body;
  if (body && typeof body === 'object') {
    const status = body as { reason?: string; message?: string };
    reason = status.reason ?? '';
    if (status.message) message = `${what}: ${status.message}`;
  }
  // The ApiException itself is not kept as the cause: its message repeats the whole response,
  // headers included, and everything useful is in code, reason and message.
  return new KubeApiError(message, err.code, reason);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function header(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
  return {
    apiVersion: type.apiVersion,
    kind: type.kind,
    metadata: type.namespaced ? { name, namespace } : { name },
  };
}

function describe(type: ResourceType, namespace: string | undefined, name?: string): string {
  const id = [namespace, name].filter(Boolean).join('/');
  return id ? `${type.plural} ${id}` : type.plural;
}

export { PooledAuthentication } from './pooled-authentication.js';

export interface KubeClientOptions {
  /**
   * What carries the requests, once authenticated (client-node's `HttpLibrary`): by default
   * client-node's own, over HTTP(S) to the kubeconfig's server. Tests hand them to the API
   * stand-in's request listener in the same process (dev/shared/in-process.ts), with no socket.
   */
  transport?: HttpLibrary;
}

export class ClientNodeKubeClient implements KubeClient {
  private readonly api: PlainObjectApi;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    // As KubeConfig.makeApiClient builds it, with pooled connections.
    this.api = new PlainObjectApi(
      createConfiguration({
        baseServer: new ServerConfiguration(cluster.server, {}),
        authMethods: { default: new PooledAuthentication(kubeConfig) },
        ...(options.transport ? { httpApi: options.transport } : {}),
      }),
    );
  }

  private async call<R>(type: ResourceType, what: string, fn: () => Promise<R>): Promise<R> {
    this.api.remember(type);
    try {
      return await fn();
    } catch (err) {
      throw toKubeApiError(err, what);
    }
  }

  async get<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    try {
      return await this.call(type, `get ${describe(type, namespace, name)}`, () =>
        this.api.send<T & KubernetesObject>(header(type, namespace, name), HttpMethod.GET, undefined),
      );
    } catch (err) {
      if (err instanceof KubeApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  async list<T extends KubeObject>(type: ResourceType, options: ListOptions = {}): Promise<KubeList<T>> {
    const what = `list ${describe(type, options.namespace)}`;
    const page = (limit: number | undefined, cont: string | undefined) =>
      this.call(type, what, () =>
        this.api.list<T & KubernetesObject>(
          type.apiVersion,
          type.kind,
          type.namespaced ? options.namespace : undefined,
          undefined,
          undefined,
          undefined,
          options.fieldSelector,
          options.labelSelector,
          limit,
          cont,
        ),
      ) as unknown as Promise<KubeList<T>>;
    if (options.limit !== undefined) return page(options.limit, options.continue);
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const res = await page(LIST_PAGE_SIZE, cont);
      items.push(...res.items);
      resourceVersion = res.metadata?.resourceVersion;
      cont = res.metadata?.continue || undefined;
    } while (cont);
    return { metadata: { resourceVersion }, items };
  }

  create<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    const o = { ...obj, apiVersion: type.apiVersion, kind: type.kind };
    return this.call(type, `create ${describe(type, obj.metadata.namespace, obj.metadata.name)}`, () =>
      this.api.send<T & KubernetesObject>(o, HttpMethod.POST, o),
    );
  }

  update<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    const o = { ...obj, apiVersion: type.apiVersion, kind: type.kind };
    return this.call(type, `update ${describe(type, obj.metadata.namespace, obj.metadata.name)}`, () =>
      this.api.send<T & KubernetesObject>(o, HttpMethod.PUT, o),
    );
  }

  updateStatus<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    const o = { ...obj, apiVersion: type.apiVersion, kind: type.kind };
    return this.call(
      type,
      `update status of ${describe(type, obj.metadata.namespace, obj.metadata.name)}`,
      () => this.api.send<T & KubernetesObject>(o, HttpMethod.PUT, o, { subresource: 'status' }),
    );
  }

  patch<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    patchType: PatchType = 'merge',
  ): Promise<T> {
    return this.call(type, `patch ${describe(type, namespace, name)}`, () =>
      this.api.send<T & KubernetesObject>(header(type, namespace, name), HttpMethod.PATCH, patch, {
        contentType: PATCH_CONTENT_TYPES[patchType],
      }),
    );
  }

  async delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): Promise<void> {
    const preconditions =
      options.uid || options.resourceVersion
        ? { uid: options.uid, resourceVersion: options.resourceVersion }
        : undefined;
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      ...(preconditions ? { preconditions } : {}),
      ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
    };
    try {
      await this.call(type, `delete ${describe(type, namespace, name)}`, () =>
        this.api.send(header(type, namespace, name), HttpMethod.DELETE, body),
      );
    } catch (err) {
      if (err instanceof KubeApiError && err.code === 404) return;
      throw err;
    }
  }
}

/**
 * Where a kubeconfig comes from: a file, its text (`fetched`: from Secrets Manager / SSM, the
 * Lambda path, held to refuseUnsafe), or the pod's service account.
 */
export type KubeConfigSource = { file: string } | { text: string; fetched?: boolean } | { inCluster: true };

/**
 * What a kubeconfig fetched from Secrets Manager or SSM (the Lambda path) may not contain: a
 * credential plugin runs a program from the kubeconfig inside the function (`exec`) or needs one
 * that is not there (`auth-provider`), and without TLS verification, or over plain http, anyone
 * on the path can read the token and answer in the API server's place. Local files (npm start,
 * tests against the stand-in) may.
 */
function refuseUnsafe(kc: KubeConfig): void {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  const problems: string[] = [];
  if (user?.exec) problems.push(`user "${user.name}" runs an exec credential plugin`);
  if (user?.authProvider) problems.push(`user "${user.name}" uses an auth-provider plugin`);
  if (cluster?.skipTLSVerify) problems.push(`cluster "${cluster.name}" sets insecure-skip-tls-verify`);
  if (cluster?.server.startsWith('http:')) problems.push(`cluster "${cluster.name}" server is plain http://`);
  if (problems.length) {
    throw new Error(
      `refused kubeconfig from the secret: ${problems.join('; ')} (use an https:// server with its CA and a token or client certificate)`,
    );
  }
}

export function loadKubeConfig(source: KubeConfigSource): KubeConfig {
  const kc = new KubeConfig();
  try {
    if ('file' in source) kc.loadFromFile(source.file);
    else if ('text' in source) kc.loadFromString(source.text);
    else kc.loadFromCluster();
  } catch (err) {
    const where =
      'file' in source ? `file "${source.file}"` : 'text' in source ? 'the given text' : 'the cluster';
    // The parser's message can quote the input; keep only its first line, redacted, never the kubeconfig itself.
    throw new Error(`invalid kubeconfig from ${where}: ${safeErrorLine(err)}`);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('invalid kubeconfig: no current cluster');
  // client-node only finds these out at the first request, with messages that do not say they
  // come from the kubeconfig; a function should fail at start, naming the field.
  let server: URL | undefined;
  try {
    server = new URL(cluster.server);
  } catch {
    server = undefined;
  }
  if (!server || (server.protocol !== 'https:' && server.protocol !== 'http:')) {
    throw new Error(
      `invalid kubeconfig: cluster "${cluster.name}" server ${JSON.stringify(cluster.server.slice(0, 100))} is not an absolute https:// URL`,
    );
  }
  if ('text' in source && source.fetched) refuseUnsafe(kc);
  if (server.protocol === 'http:' && !cluster.skipTLSVerify) {
    throw new Error(
      `invalid kubeconfig: cluster "${cluster.name}" server is plain http://, which client-node refuses unless insecure-skip-tls-verify is true`,
    );
  }
  return kc;
}

export function createKubeClient(kubeConfig: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  return new ClientNodeKubeClient(kubeConfig, options);
}
