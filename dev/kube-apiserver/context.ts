import type { ConflictInjector } from './chaos.js';
import type { ResourceRegistry } from './registry.js';
import type { ObjectStore } from './store.js';
import type { TokenAuthority } from './tokens.js';

/** What every request handler needs; one per server. */
export interface ServerContext {
  registry: ResourceRegistry;
  store: ObjectStore;
  chaos: ConflictInjector;
  bookmarkIntervalMs: number;
  /** Open watch responses, ended on close(). */
  watches: Set<{ end(): void }>;
  /** Bearer-token authentication and the TokenRequest API. */
  tokens: TokenAuthority;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Per-request write settings from the query string, plus the warnings to send back. */
export interface WriteOptions {
  dryRun: boolean;
  /** `?fieldManager=`, else the client's user agent (as kube-apiserver defaults it). */
  fieldManager?: string;
  fieldValidation: FieldValidation;
  warnings: string[];
}
