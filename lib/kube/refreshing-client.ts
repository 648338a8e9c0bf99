/**
 * A KubeClient whose credential can be replaced while it is in use. The functions' token is
 * short-lived and rotated in the secret they read; when the API server answers 401 (the token
 * expired or was revoked before the cache noticed), the client asks for a newer credential once and
 * repeats the request with it, so an invocation in flight does not fail over a rotation and the
 * container (and its provider, its caches) lives on.
 */
import type { DeleteOptions, KubeClient, ListOptions, PatchType } from './client.js';
import { KubeApiError } from './client.js';
import type { KubeList, KubeObject, ResourceType } from './types.js';

/** Called after a 401: a client with a newer credential, or undefined when there is none. */
export type Reauthenticate = () => Promise<KubeClient | undefined>;

export const isUnauthorized = (err: unknown): boolean => err instanceof KubeApiError && err.code === 401;

export class RefreshingKubeClient implements KubeClient {
  private inner: KubeClient;
  /** One renewal at a time: concurrent 401s wait for the same one. */
  private renewing: { from: KubeClient; next: Promise<KubeClient | undefined> } | undefined;

  constructor(
    inner: KubeClient,
    private readonly reauthenticate: Reauthenticate,
  ) {
    this.inner = inner;
  }

  /** The client requests go to now. */
  get current(): KubeClient {
    return this.inner;
  }

  /** Sends later requests with another credential (same server, same user). */
  use(inner: KubeClient): void {
    this.inner = inner;
  }

  private async renewFrom(failed: KubeClient): Promise<KubeClient | undefined> {
    // Another request already renewed past the client that failed: use what it got.
    if (this.inner !== failed) return this.inner;
    if (this.renewing?.from !== failed) {
      const next = this.reauthenticate().then((client) => {
        if (client && this.inner === failed) this.inner = client;
        return client;
      });
      this.renewing = { from: failed, next };
      void next.finally(() => {
        if (this.renewing?.next === next) this.renewing = undefined;
      });
    }
    return this.renewing.next;
  }

  private async run<R>(call: (client: KubeClient) => Promise<R>): Promise<R> {
    const client = this.inner;
    try {
      return await call(client);
    } catch (err) {
      if (!isUnauthorized(err)) throw err;
      const next = await this.renewFrom(client);
      // No newer credential: the 401 is the answer.
      if (!next || next === client) throw err;
      return call(next);
    }
  }

  get<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    return this.run((k) => k.get<T>(type, namespace, name));
  }

  list<T extends KubeObject>(type: ResourceType, options?: ListOptions): Promise<KubeList<T>> {
    return this.run((k) => k.list<T>(type, options));
  }

  create<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    return this.run((k) => k.create(type, obj));
  }

  update<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    return this.run((k) => k.update(type, obj));
  }

  updateStatus<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    return this.run((k) => k.updateStatus(type, obj));
  }

  patch<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    patchType?: PatchType,
  ): Promise<T> {
    return this.run((k) => k.patch<T>(type, namespace, name, patch, patchType));
  }

  delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<void> {
    return this.run((k) => k.delete(type, namespace, name, options));
  }
}
