import type {
  Action,
  AuthenticateCognitoActionConfig,
  AuthenticateOidcActionConfig,
  JwtValidationActionConfig,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import { checkEnum, checkRange } from './validate.js';

// Authentication actions are accepted and stored (nothing here authenticates anyone); what is
// checked is what the API checks: required members, URL shapes, enums, ranges and list sizes.

const HTTPS_URL = /^https:\/\/[^\s/]+(\/\S*)?$/;
const COGNITO_POOL = /^arn:aws:cognito-idp:[a-z0-9-]+:\d{12}:userpool\/[\w-]+$/;
const RESERVED_CLAIMS = new Set(['exp', 'iss', 'nbf', 'iat']);

function checkUrl(value: string | undefined, field: string, max = 2048): string {
  if (value === undefined || value === '') throw required(field);
  if (value.length > max || !HTTPS_URL.test(value))
    throw validation(`The ${field} '${value}' must be a full HTTPS URL of at most ${max} characters`);
  return value;
}

/** Members shared by OIDC and Cognito, with the defaults AWS reports when they are omitted. */
function sessionDefaults(c: AuthenticateOidcActionConfig | AuthenticateCognitoActionConfig, field: string) {
  checkRange(c.SessionTimeout, `${field}.sessionTimeout`, 1, 604800);
  checkEnum(c.OnUnauthenticatedRequest, `${field}.onUnauthenticatedRequest`, [
    'deny',
    'allow',
    'authenticate',
  ]);
  const extra = c.AuthenticationRequestExtraParams ?? {};
  if (Object.keys(extra).length > 10)
    throw validation(`${field}.authenticationRequestExtraParams can have at most 10 entries`);
  return {
    SessionCookieName: c.SessionCookieName ?? 'AWSELBAuthSessionCookie',
    Scope: c.Scope ?? 'openid',
    SessionTimeout: c.SessionTimeout ?? 604800,
    AuthenticationRequestExtraParams: Object.keys(extra).length > 0 ? { ...extra } : undefined,
    OnUnauthenticatedRequest: c.OnUnauthenticatedRequest ?? 'authenticate',
  };
}

function oidc(
  c: AuthenticateOidcActionConfig | undefined,
  previous: readonly Action[],
): AuthenticateOidcActionConfig {
  if (!c) throw required('authenticateOidcConfig');
  const f = 'authenticateOidcConfig';
  if (!c.ClientId) throw required(`${f}.clientId`);
  let secret = c.ClientSecret;
  if (c.UseExistingClientSecret) {
    if (secret !== undefined)
      throw validation('ClientSecret cannot be specified with UseExistingClientSecret');
    secret = previous.find((a) => a.AuthenticateOidcConfig?.ClientId === c.ClientId)?.AuthenticateOidcConfig
      ?.ClientSecret;
    if (secret === undefined)
      throw validation('There is no existing client secret for this client ID to use');
  }
  if (!secret) throw required(`${f}.clientSecret`);
  return {
    Issuer: checkUrl(c.Issuer, `${f}.issuer`),
    AuthorizationEndpoint: checkUrl(c.AuthorizationEndpoint, `${f}.authorizationEndpoint`),
    TokenEndpoint: checkUrl(c.TokenEndpoint, `${f}.tokenEndpoint`),
    UserInfoEndpoint: checkUrl(c.UserInfoEndpoint, `${f}.userInfoEndpoint`),
    ClientId: c.ClientId,
    ClientSecret: secret,
    ...sessionDefaults(c, f),
  };
}

function cognito(c: AuthenticateCognitoActionConfig | undefined): AuthenticateCognitoActionConfig {
  if (!c) throw required('authenticateCognitoConfig');
  const f = 'authenticateCognitoConfig';
  if (!c.UserPoolArn) throw required(`${f}.userPoolArn`);
  if (!COGNITO_POOL.test(c.UserPoolArn)) throw validation(`'${c.UserPoolArn}' is not a valid user pool ARN`);
  if (!c.UserPoolClientId) throw required(`${f}.userPoolClientId`);
  if (!c.UserPoolDomain) throw required(`${f}.userPoolDomain`);
  return {
    UserPoolArn: c.UserPoolArn,
    UserPoolClientId: c.UserPoolClientId,
    UserPoolDomain: c.UserPoolDomain,
    ...sessionDefaults(c, f),
  };
}

function jwt(c: JwtValidationActionConfig | undefined): JwtValidationActionConfig {
  if (!c) throw required('jwtValidationConfig');
  const f = 'jwtValidationConfig';
  checkUrl(c.JwksEndpoint, `${f}.jwksEndpoint`, 256);
  if (!c.Issuer) throw required(`${f}.issuer`);
  if (c.Issuer.length > 256) throw validation(`${f}.issuer must be at most 256 characters`);
  const claims = c.AdditionalClaims ?? [];
  if (claims.length > 10) throw validation(`${f}.additionalClaims can have at most 10 claims`);
  for (const claim of claims) {
    if (!claim.Name) throw required(`${f}.additionalClaims.member.name`);
    if (RESERVED_CLAIMS.has(claim.Name))
      throw validation(`The claim '${claim.Name}' is validated by default and cannot be specified`);
    if (!claim.Format) throw required(`${f}.additionalClaims.member.format`);
    checkEnum(claim.Format, `${f}.additionalClaims.member.format`, [
      'single-string',
      'string-array',
      'space-separated-values',
    ]);
    const values = claim.Values ?? [];
    if (values.length === 0) throw required(`${f}.additionalClaims.member.values`);
    if (values.length > 10) throw validation(`The claim '${claim.Name}' can have at most 10 values`);
    for (const v of values) {
      if (v.length > 256)
        throw validation(`A value of the claim '${claim.Name}' is longer than 256 characters`);
      if (claim.Format === 'space-separated-values' && v.includes(' '))
        throw validation(`Values of the space-separated-values claim '${claim.Name}' cannot contain spaces`);
    }
  }
  return {
    JwksEndpoint: c.JwksEndpoint,
    Issuer: c.Issuer,
    AdditionalClaims: claims.length > 0 ? structuredClone(claims) : undefined,
  };
}

export function normalizeAuthentication(action: Action, previous: readonly Action[]): Action {
  const base = { Type: action.Type, Order: action.Order };
  if (action.Type === 'authenticate-oidc')
    return { ...base, AuthenticateOidcConfig: oidc(action.AuthenticateOidcConfig, previous) };
  if (action.Type === 'authenticate-cognito')
    return { ...base, AuthenticateCognitoConfig: cognito(action.AuthenticateCognitoConfig) };
  return { ...base, JwtValidationConfig: jwt(action.JwtValidationConfig) };
}
