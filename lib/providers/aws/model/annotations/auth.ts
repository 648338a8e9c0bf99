/**
 * Authentication in front of a backend (LBC pkg/ingress/auth_config_builder.go and
 * model_build_actions.go): `auth-type` oidc or cognito with its IdP JSON and session keys, or
 * `jwt-validation`. The auth keys are read from the backend's Service over the MCI's own (as LBC
 * merges them); `jwt-validation` from the MCI only (LBC reads it from the Ingress). The OIDC client
 * ID comes from the Kubernetes Secret the IdP JSON names (keys `clientID`, or the legacy
 * `clientId`, and `clientSecret`), which the model sees as a version only (types.ts ClientSecretRef).
 */
import { InvalidObjectError } from '../../../../errors.js';
import type { AuthenticationAction, AuthenticationSession, JwtValidationSpec } from '../types.js';
import { annotationError, JsonObject, parseJson } from './json-config.js';
import type { ALB_KEYS } from './keys.js';
import { integer, oneOf, raw, type Annotations } from './parse.js';
import type { OidcSecretInfo } from './auth-keys.js';

type Keys = typeof ALB_KEYS;

export const SECRET_NOT_FOUND = 'AuthSecretNotFound';
export const INVALID_AUTH_SECRET = 'InvalidAuthSecret';

const SESSION_TIMEOUT: [number, number] = [1, 604800];

function session(
  annotations: Annotations,
  keys: Keys,
  extra: Record<string, string> | undefined,
): AuthenticationSession {
  return {
    onUnauthenticatedRequest:
      oneOf(annotations, keys.authOnUnauthenticatedRequest, ['authenticate', 'allow', 'deny'] as const) ??
      'authenticate',
    scope: raw(annotations, keys.authScope) ?? 'openid',
    sessionCookieName: raw(annotations, keys.authSessionCookie) ?? 'AWSELBAuthSessionCookie',
    sessionTimeout: integer(annotations, keys.authSessionTimeout, ...SESSION_TIMEOUT) ?? 604800,
    ...(extra ? { extraParams: extra } : {}),
  };
}

const HTTPS_URL = /^https:\/\/[^\s/]+(\/\S*)?$/;

function url(o: JsonObject, name: string): string {
  const v = o.requiredString(name);
  if (!HTTPS_URL.test(v)) throw o.error(name, `must be a full https:// URL, not ${JSON.stringify(v)}`);
  return v;
}

function extraParams(o: JsonObject): Record<string, string> | undefined {
  const v = o.raw('authenticationRequestExtraParams');
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw o.error('authenticationRequestExtraParams', 'must be an object of string values');
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.some(([, x]) => typeof x !== 'string'))
    throw o.error('authenticationRequestExtraParams', 'must be an object of string values');
  if (entries.length > 10) throw o.error('authenticationRequestExtraParams', 'has more than 10 parameters');
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
}

const OIDC_FIELDS = [
  'issuer',
  'authorizationEndpoint',
  'tokenEndpoint',
  'userInfoEndpoint',
  'secretName',
  'authenticationRequestExtraParams',
] as const;
const COGNITO_FIELDS = [
  'userPoolARN',
  'userPoolClientID',
  'userPoolDomain',
  'authenticationRequestExtraParams',
] as const;
const USER_POOL = /^arn:aws[\w-]*:cognito-idp:[a-z0-9-]+:\d{12}:userpool\/[\w-]+$/;

/**
 * The authenticate action of one backend, from the keys it sees (authAnnotations); undefined
 * for `auth-type: none` or no auth-type. `where` names the backend's Service, for errors.
 */
export function authenticateAction(
  annotations: Annotations,
  keys: Keys,
  namespace: string,
  secrets: readonly OidcSecretInfo[],
): AuthenticationAction | undefined {
  const type = oneOf(annotations, keys.authType, ['none', 'oidc', 'cognito'] as const) ?? 'none';
  if (type === 'none') return undefined;
  if (type === 'cognito') {
    const v = raw(annotations, keys.authIdpCognito);
    if (v === undefined)
      throw annotationError(keys.authIdpCognito, '', 'is required with auth-type: cognito');
    const o = JsonObject.of(keys.authIdpCognito, '', parseJson(keys.authIdpCognito, v), COGNITO_FIELDS);
    const userPoolArn = o.requiredString('userPoolARN');
    if (!USER_POOL.test(userPoolArn)) throw o.error('userPoolARN', 'is not a Cognito user pool ARN');
    return {
      type: 'authenticate-cognito',
      cognito: {
        userPoolArn,
        userPoolClientId: o.requiredString('userPoolClientID'),
        userPoolDomain: o.requiredString('userPoolDomain'),
        ...session(annotations, keys, extraParams(o)),
      },
    };
  }
  const v = raw(annotations, keys.authIdpOidc);
  if (v === undefined) throw annotationError(keys.authIdpOidc, '', 'is required with auth-type: oidc');
  const o = JsonObject.of(keys.authIdpOidc, '', parseJson(keys.authIdpOidc, v), OIDC_FIELDS);
  const idp = {
    issuer: url(o, 'issuer'),
    authorizationEndpoint: url(o, 'authorizationEndpoint'),
    tokenEndpoint: url(o, 'tokenEndpoint'),
    userInfoEndpoint: url(o, 'userInfoEndpoint'),
  };
  const secretName = o.requiredString('secretName');
  const extra = extraParams(o);
  const secret = secrets.find((s) => s.name === secretName);
  const where = `annotation ${keys.authIdpOidc}: secretName ${JSON.stringify(secretName)}`;
  if (!secret) {
    throw new InvalidObjectError(`${where}: Secret ${namespace}/${secretName} does not exist`, {
      field: keys.authIdpOidc,
      reason: SECRET_NOT_FOUND,
    });
  }
  const missing = [
    ...(secret.clientId ? [] : ['clientID']),
    ...(secret.hasClientSecret ? [] : ['clientSecret']),
  ];
  if (missing.length > 0) {
    throw new InvalidObjectError(
      `${where}: Secret ${namespace}/${secretName} has no ${missing.join(' and no ')} key (it needs clientID and clientSecret)`,
      { field: keys.authIdpOidc, reason: INVALID_AUTH_SECRET },
    );
  }
  return {
    type: 'authenticate-oidc',
    oidc: {
      ...idp,
      clientId: secret.clientId ?? '',
      clientSecret: { secret: `${namespace}/${secretName}`, version: secret.version },
      ...session(annotations, keys, extra),
    },
  };
}

const CLAIM_FORMATS = ['single-string', 'string-array', 'space-separated-values'] as const;
const RESERVED_CLAIMS = new Set(['exp', 'iss', 'nbf', 'iat']);

/** `jwt-validation` of the MCI (LBC's JwtValidationConfig), or undefined. */
export function jwtValidation(annotations: Annotations, keys: Keys): JwtValidationSpec | undefined {
  const key = keys.jwtValidation;
  const v = raw(annotations, key);
  if (v === undefined) return undefined;
  const o = JsonObject.of(key, '', parseJson(key, v), ['jwksEndpoint', 'issuer', 'additionalClaims']);
  const jwksEndpoint = url(o, 'jwksEndpoint');
  const issuer = o.requiredString('issuer');
  const claims = (o.array('additionalClaims') ?? []).map((c, i) => {
    const path = `additionalClaims[${i}]`;
    const claim = JsonObject.of(key, path, c, ['name', 'format', 'values']);
    const name = claim.requiredString('name');
    if (RESERVED_CLAIMS.has(name)) throw claim.error('name', `${name} is always validated: leave it out`);
    const format = claim.requiredString('format');
    const known = CLAIM_FORMATS.find((f) => f === format);
    if (!known) throw claim.error('format', `must be one of ${CLAIM_FORMATS.join(', ')}`);
    const values = claim.strings('values') ?? [];
    if (values.length === 0 || values.length > 10) throw claim.error('values', 'must list 1 to 10 values');
    return { name, format: known, values };
  });
  if (claims.length > 10) throw annotationError(key, 'additionalClaims', 'has more than 10 claims');
  return { jwksEndpoint, issuer, ...(claims.length > 0 ? { additionalClaims: claims } : {}) };
}
