/**
 * The OIDC client Secrets an MCI's authentication names (LBC: `auth-idp-oidc.secretName`, in the
 * MCI's namespace, keys `clientID` or the legacy `clientId`, and `clientSecret`). Each named Secret
 * is read by one GET; nothing else of any Secret is looked at. What the model gets is the client ID
 * and a version; the client secret itself stays in a ClientSecrets, which never prints it and
 * keeps each namespace's apart: an IngressGroup's members each bring their own, and an action's
 * placeholder (deploy/refs.ts SecretRef) is given a secret of its own namespace only.
 */
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import type { MultiClusterIngress, Secret, Service } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import type { SecretValues } from './deploy/refs.js';
import { authAnnotations, oidcSecretName, type OidcSecretInfo } from './model/annotations/auth-keys.js';
import { ALB_KEYS } from './model/annotations/keys.js';

/**
 * Client secrets by namespace, then Secret name. JSON, `util.inspect` and string conversion show
 * only how many there are, so a logged stack, error or plan can never carry one.
 */
export class ClientSecrets implements SecretValues {
  /** Namespace → Secret name → client secret. */
  readonly #values: ReadonlyMap<string, ReadonlyMap<string, string>>;

  private constructor(values: ReadonlyMap<string, ReadonlyMap<string, string>>) {
    this.#values = values;
  }

  /** None. */
  static none(): ClientSecrets {
    return new ClientSecrets(new Map());
  }

  /** The secrets read in one namespace, by Secret name. */
  static of(namespace: string, entries: Iterable<readonly [string, string]>): ClientSecrets {
    const byName = new Map(entries);
    return new ClientSecrets(byName.size > 0 ? new Map([[namespace, byName]]) : new Map());
  }

  get(namespace: string, name: string): string | undefined {
    return this.#values.get(namespace)?.get(name);
  }

  get size(): number {
    let n = 0;
    for (const byName of this.#values.values()) n += byName.size;
    return n;
  }

  /**
   * These and `other`'s, each namespace's still apart (an IngressGroup's members each read their
   * own; two members of one namespace read the same Secrets).
   */
  with(other: ClientSecrets | undefined): ClientSecrets {
    if (!other || other.size === 0) return this;
    const merged = new Map(this.#values);
    for (const [namespace, byName] of other.#values)
      merged.set(namespace, new Map([...(merged.get(namespace) ?? []), ...byName]));
    return new ClientSecrets(merged);
  }

  toJSON(): string {
    return this.toString();
  }

  toString(): string {
    return `[${this.size} OIDC client secret(s), not shown]`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

export interface OidcSecretReads {
  /** What the model sees of each Secret read (found ones only: a missing one is reported by it). */
  oidcSecrets: OidcSecretInfo[];
  clientSecrets: ClientSecrets;
}

const decode = (v: string | undefined) =>
  v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');

/** The Secret names an MCI's backends authenticate with: its own annotations, each Service's over them. */
export function oidcSecretNames(mci: Readonly<MultiClusterIngress>, services: readonly Service[]): string[] {
  const own = mci.metadata.annotations;
  const names = [
    oidcSecretName(ALB_KEYS, own),
    ...services.map((s) => oidcSecretName(ALB_KEYS, authAnnotations(ALB_KEYS, own, s.metadata.annotations))),
  ];
  return [...new Set(names.filter((n): n is string => n !== undefined))].sort();
}

export async function readOidcSecrets(
  kube: KubeClient,
  namespace: string,
  names: readonly string[],
): Promise<OidcSecretReads> {
  const oidcSecrets: OidcSecretInfo[] = [];
  const values: Array<[string, string]> = [];
  for (const name of names) {
    const secret = await kube.get<Secret>(Resources.Secret, namespace, name);
    if (!secret) continue;
    const data = secret.data ?? {};
    // As LBC: trailing whitespace off the client ID, trailing control characters off the secret.
    const clientId = decode(data.clientID ?? data.clientId)?.replace(/\s+$/u, '');
    const clientSecret = decode(data.clientSecret)?.replace(/\p{Cc}+$/u, '');
    oidcSecrets.push({
      name,
      clientId: clientId || undefined,
      hasClientSecret: clientSecret !== undefined && clientSecret !== '',
      // The version says that the Secret changed, and nothing of what it holds.
      version: createHash('sha256')
        .update(`${secret.metadata.uid ?? ''}/${secret.metadata.resourceVersion ?? ''}`)
        .digest('hex')
        .slice(0, 16),
    });
    if (clientSecret) values.push([name, clientSecret]);
  }
  return { oidcSecrets, clientSecrets: ClientSecrets.of(namespace, values) };
}
