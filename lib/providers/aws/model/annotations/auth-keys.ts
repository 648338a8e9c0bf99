/**
 * The authentication keys as plain strings (annotations/auth.ts reads their values): which keys a
 * backend sees, whether an object needs the authentication part at all (model/parts.ts), and the
 * OIDC Secret it names (oidc-secrets.ts reads it). No JSON parsing beyond the Secret's name, so
 * this stays in the start set while auth.ts is a lazy part.
 */
import type { ALB_KEYS } from './keys.js';
import { raw, type Annotations } from './parse.js';

type Keys = typeof ALB_KEYS;

/** What the model knows of an OIDC Secret the provider read (inputs.ts); never the secret. */
export interface OidcSecretInfo {
  name: string;
  /** `clientID` (or the legacy `clientId`), trailing whitespace dropped, as LBC does. */
  clientId: string | undefined;
  hasClientSecret: boolean;
  /** Changes whenever the Secret changes (its UID and resourceVersion, hashed). */
  version: string;
}

export const AUTH_KEYS = (k: Keys) =>
  [
    k.authType,
    k.authIdpOidc,
    k.authIdpCognito,
    k.authOnUnauthenticatedRequest,
    k.authScope,
    k.authSessionCookie,
    k.authSessionTimeout,
  ] as const;

/** The auth keys a backend sees: its Service's, over the MCI's (LBC's svcAndIngAnnotations). */
export function authAnnotations(keys: Keys, mci: Annotations, service: Annotations): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of AUTH_KEYS(keys)) {
    const v = raw(service, key) ?? raw(mci, key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The Secret an `auth-idp-oidc` value names, if it parses that far (inputs.ts reads it). */
export function oidcSecretName(keys: Keys, annotations: Annotations): string | undefined {
  if (raw(annotations, keys.authType)?.toLowerCase() !== 'oidc') return undefined;
  const v = raw(annotations, keys.authIdpOidc);
  if (v === undefined) return undefined;
  try {
    const parsed = JSON.parse(v) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const entry = Object.entries(parsed).find(([k]) => k.toLowerCase() === 'secretname');
    return typeof entry?.[1] === 'string' && entry[1] !== '' ? entry[1] : undefined;
  } catch {
    return undefined; // the model reports the bad JSON
  }
}

/** Whether an MCI, or one of its backend Services, asks for authentication (auth.ts's part). */
export function needsAuthentication(
  keys: Keys,
  mci: Annotations,
  services: ReadonlyArray<{ metadata: { annotations?: Record<string, string> } }>,
): boolean {
  const asks = (a: Annotations) => AUTH_KEYS(keys).some((k) => raw(a, k) !== undefined);
  return (
    raw(mci, keys.jwtValidation) !== undefined ||
    asks(mci) ||
    services.some((s) => asks(s.metadata.annotations))
  );
}
