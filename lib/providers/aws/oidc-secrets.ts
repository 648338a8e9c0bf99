/**
 * The OIDC client Secrets an MCI's authentication names (LBC: `auth-idp-oidc.secretName`, in the
 * MCI's namespace, keys `clientID` or the legacy `clientId`, and `clientSecret`). Each named Secret
 * is read by one GET; nothing else of any Secret is looked at. What the model gets is the client ID
 * and a version; the client secret itself stays in a ClientSecrets, which never prints it.
 */
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import type { MultiClusterIngress, Secret, Service } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import type { SecretValues } from './deploy/operations.js';
import { authAnnotations, oidcSecretName, type OidcSecretInfo } from './model/annotations/auth-keys.js';
import { ALB_KEYS } from './model/annotations/keys.js';

/**
 * Client secrets by `<namespace>/<name>`. JSON, `util.inspect` and string conversion show only
 * how many there are, so a logged stack, error or plan can never carry one.
 */
export class ClientSecrets implements SecretValues {
  readonly #values: Map<string, string>;

  constructor(entries: Iterable<readonly [string, string]> = []) {
    this.#values = new Map(entries);
  }

  get(secret: string): string | undefined {
    return this.#values.get(secret);
  }

  get size(): number {
    return this.#values.size;
  }

  /** These and `other`'s (an IngressGroup's members each read their own). */
  with(other: ClientSecrets | undefined): ClientSecrets {
    return other && other.size > 0 ? new ClientSecrets([...this.#values, ...other.#values]) : this;
  }

  toJSON(): string {
    return this.toString();
  }

  toString(): string {
    return `[${this.#values.size} OIDC client secret(s), not shown]`;
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
    if (clientSecret) values.push([`${namespace}/${name}`, clientSecret]);
  }
  return { oidcSecrets, clientSecrets: new ClientSecrets(values) };
}
