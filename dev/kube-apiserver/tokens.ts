/**
 * ServiceAccount tokens, as kube-apiserver issues and checks them: the TokenRequest API
 * (`POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`) mints a JWT for a ServiceAccount
 * that exists, with an expiry (`spec.expirationSeconds`, at least 10 minutes, 1 hour by default,
 * capped by the server's maximum) and audiences (by default the server's own); authentication
 * accepts it only before its expiry, for one of the server's audiences, and while the same
 * ServiceAccount (same uid) exists. Signed with HMAC-SHA256 under a key of this process (the real
 * server signs with RS256 under its service-account key; nothing here verifies tokens but the
 * server itself).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, invalid, unauthorized } from './errors.js';
import type { KObject, ResourceDef } from './types.js';

/** kube-apiserver's floor for `expirationSeconds`, and its default. */
export const MIN_TOKEN_EXPIRATION_SECONDS = 600;
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
}

export interface TokenAuthorityOptions {
  /** The `iss` claim; default `https://kubernetes.default.svc.cluster.local`, as Karmada's. */
  issuer?: string;
  /** `--api-audiences`: what a token must be for; default `[issuer]`. */
  audiences?: string[];
  /** `--service-account-max-token-expiration`; unset: no cap. */
  maxExpirationSeconds?: number;
  /** The static admin token (a token file's entry): it authenticates as `admin`, system:masters. */
  adminToken: string;
  /** Accept any other bearer token as the admin too (the stand-in's default: no authn). */
  acceptAnyToken: boolean;
  now?: () => number;
}

interface Claims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string } };
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export class TokenAuthority {
  readonly issuer: string;
  readonly audiences: string[];
  private readonly key = randomBytes(32);
  private readonly now: () => number;

  constructor(private readonly options: TokenAuthorityOptions) {
    this.issuer = options.issuer ?? 'https://kubernetes.default.svc.cluster.local';
    this.audiences = options.audiences ?? [this.issuer];
    this.now = options.now ?? (() => Date.now());
  }

  private sign(input: string): Buffer {
    return createHmac('sha256', this.key).update(input).digest();
  }

  /** The TokenRequest answer for `sa` (the stored ServiceAccount), or a 400/422 for a bad spec. */
  issue(def: ResourceDef, sa: KObject, body: unknown): Record<string, unknown> {
    const request = (body ?? {}) as {
      kind?: string;
      spec?: { audiences?: unknown; expirationSeconds?: unknown };
    };
    if (request.kind != null && request.kind !== 'TokenRequest') {
      throw badRequest(`the kind in the data (${String(request.kind)}) does not match TokenRequest`);
    }
    const spec = request.spec ?? {};
    const name = sa.metadata.name ?? '';
    let seconds =
      spec.expirationSeconds == null ? DEFAULT_TOKEN_EXPIRATION_SECONDS : Number(spec.expirationSeconds);
    if (!Number.isInteger(seconds) || seconds < MIN_TOKEN_EXPIRATION_SECONDS) {
      throw invalid(def, name, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${String(spec.expirationSeconds)}: may not specify a duration less than 10 minutes`,
          field: 'spec.expirationSeconds',
        },
      ]);
    }
    // As kube-apiserver: a longer request is cut to the maximum, not refused.
    const max = this.options.maxExpirationSeconds;
    if (max !== undefined && seconds > max) seconds = max;
    const audiences =
      Array.isArray(spec.audiences) && spec.audiences.length > 0
        ? spec.audiences.map(String)
        : this.audiences;
    const iat = Math.floor(this.now() / 1000);
    const claims: Claims = {
      iss: this.issuer,
      sub: `system:serviceaccount:${sa.metadata.namespace ?? ''}:${name}`,
      aud: audiences,
      exp: iat + seconds,
      iat,
      nbf: iat,
      'kubernetes.io': {
        namespace: sa.metadata.namespace ?? '',
        serviceaccount: { name, uid: sa.metadata.uid ?? '' },
      },
    };
    const unsigned = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    const token = `${unsigned}.${b64url(this.sign(unsigned))}`;
    return {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace: sa.metadata.namespace, creationTimestamp: null },
      spec: { audiences, expirationSeconds: seconds, boundObjectRef: null },
      status: {
        token,
        expirationTimestamp: new Date(claims.exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    };
  }

  /**
   * Who sent the request. `lookup` finds the ServiceAccount a token names (a deleted or recreated
   * one invalidates its tokens). Throws 401 for a token this server would not accept.
   */
  authenticate(
    authorization: string | undefined,
    lookup: (namespace: string, name: string) => KObject | undefined,
  ): UserInfo {
    const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (token !== undefined && token === this.options.adminToken) return admin;
    const claims = token ? this.verify(token) : undefined;
    if (claims === 'ours-but-invalid') throw unauthorized();
    if (claims) {
      const { namespace, serviceaccount } = claims['kubernetes.io'];
      const sa = lookup(namespace, serviceaccount.name);
      if (!sa || sa.metadata.uid !== serviceaccount.uid || sa.metadata.deletionTimestamp)
        throw unauthorized();
      return {
        username: claims.sub,
        uid: serviceaccount.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
      };
    }
    if (this.options.acceptAnyToken) return admin;
    throw unauthorized();
  }

  /** Claims of a valid token of ours; `ours-but-invalid` for one of ours that fails a check; else undefined. */
  private verify(token: string): Claims | 'ours-but-invalid' | undefined {
    const [header, payload, signature, ...rest] = token.split('.');
    if (!header || !payload || signature === undefined || rest.length) return undefined;
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    } catch {
      return undefined;
    }
    if (claims?.iss !== this.issuer) return undefined;
    const expected = this.sign(`${header}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'ours-but-invalid';
    const now = this.now() / 1000;
    if (!(now < claims.exp) || now < claims.nbf) return 'ours-but-invalid';
    if (!Array.isArray(claims.aud) || !claims.aud.some((a) => this.audiences.includes(a))) {
      return 'ours-but-invalid';
    }
    return claims;
  }
}
