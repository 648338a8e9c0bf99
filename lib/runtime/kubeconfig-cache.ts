/**
 * The functions' kubeconfig, read from AWS Secrets Manager or SSM Parameter Store and kept for the
 * container's next invocations. Its token is short-lived (TokenRequest, rotated into the secret by
 * the `token` function), so the copy is read again after at most `maxAgeMs` and in any case before
 * its token expires; after a 401 it is read again at once (`refresh`). Reads are one at a time, and
 * a store that keeps answering with a refused or expired token is read at most every
 * `minRefetchMs`, not at every request.
 */
import { KubeConfig } from '@kubernetes/client-node';

/** Where the kubeconfig's text is kept. */
export interface KubeconfigStore {
  /** What an error or log line calls it, e.g. `secret multicluster-cloud-provider/kubeconfig`. */
  readonly name: string;
  read(): Promise<string>;
}

export interface CachedKubeconfig {
  text: string;
  fetchedAt: number;
  /** When its current user's token expires (the JWT's `exp`), if it says. */
  tokenExpiresAt?: number;
}

export interface KubeconfigCacheOptions {
  /** Longest a copy is used (a changed secret is seen within this). */
  maxAgeMs: number;
  /** A copy whose token expires within this is read again. */
  expiryMarginMs: number;
  /** Shortest time between two reads, whatever they find. */
  minRefetchMs: number;
  now?: () => number;
}

/** The `exp` of the kubeconfig's current user's token when it is a JWT (ServiceAccount tokens are), in ms. */
export function tokenExpiresAt(text: string): number | undefined {
  let token: string | undefined;
  try {
    const kc = new KubeConfig();
    kc.loadFromString(text);
    token = kc.getCurrentUser()?.token;
  } catch {
    // An unreadable kubeconfig is reported where it is loaded (loadKubeConfig), with its reason.
    return undefined;
  }
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class KubeconfigCache {
  private cached: CachedKubeconfig | undefined;
  private reading: Promise<CachedKubeconfig> | undefined;
  private readonly now: () => number;

  constructor(
    readonly store: KubeconfigStore,
    private readonly options: KubeconfigCacheOptions,
  ) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Whether `c` may still be used without reading the store. */
  private fresh(c: CachedKubeconfig): boolean {
    const age = this.now() - c.fetchedAt;
    if (age < this.options.minRefetchMs) return true;
    if (age >= this.options.maxAgeMs) return false;
    return c.tokenExpiresAt === undefined || this.now() < c.tokenExpiresAt - this.options.expiryMarginMs;
  }

  private read(): Promise<CachedKubeconfig> {
    this.reading ??= this.store
      .read()
      .then((text) => {
        const c: CachedKubeconfig = { text, fetchedAt: this.now() };
        const exp = tokenExpiresAt(text);
        if (exp !== undefined) c.tokenExpiresAt = exp;
        this.cached = c;
        return c;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** The kubeconfig to use now. */
  async get(): Promise<CachedKubeconfig> {
    if (this.cached && this.fresh(this.cached)) return this.cached;
    return this.read();
  }

  /**
   * After the API server refused `refused` (401): the store's kubeconfig if it is another one, or
   * undefined (nothing newer, or read less than `minRefetchMs` ago).
   */
  async refresh(refused: string): Promise<CachedKubeconfig | undefined> {
    if (this.cached && this.cached.text !== refused) return this.cached;
    if (this.cached && this.now() - this.cached.fetchedAt < this.options.minRefetchMs) return undefined;
    const c = await this.read();
    return c.text === refused ? undefined : c;
  }
}
