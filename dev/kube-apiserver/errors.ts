import { qualifiedKind, qualifiedResource, type ResourceDef } from './types.js';

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

/** A failure that is answered with a kube-apiserver `Status` body. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Record<string, unknown> {
    const status: Record<string, unknown> = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
    };
    // kube-apiserver omits `details` for BadRequest and friends, but sends `{}` for routing errors.
    if (this.details !== NO_DETAILS) status.details = this.details;
    status.code = this.code;
    return status;
  }
}

const NO_DETAILS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function details(def: ResourceDef, name: string, kind = def.plural): Record<string, unknown> {
  const d: Record<string, unknown> = { name };
  if (def.group) d.group = def.group;
  d.kind = kind;
  return d;
}

export const notFound = (def: ResourceDef, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualifiedResource(def)} "${name}" not found`, details(def, name));

export const namespaceNotFound = (ns: string): ApiError =>
  new ApiError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });

export const routeNotFound = (): ApiError =>
  new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (def: ResourceDef, name: string): ApiError =>
  new ApiError(
    409,
    'AlreadyExists',
    `${qualifiedResource(def)} "${name}" already exists`,
    details(def, name),
  );

export const conflict = (
  def: ResourceDef,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(def)} "${name}": ${why}`,
    details(def, name),
  );

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message, NO_DETAILS);

/** What kube-apiserver answers a request whose credential it does not accept. */
export const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized', NO_DETAILS);

export const gone = (message: string): ApiError => new ApiError(410, 'Expired', message, NO_DETAILS);

export const methodNotAllowed = (): ApiError =>
  new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );

export const unsupportedMediaType = (
  contentType: string,
  accepted = 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
): ApiError =>
  new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted} (got ${contentType})`,
    NO_DETAILS,
  );

export function invalid(def: ResourceDef, name: string, causes: StatusCause[]): ApiError {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? (parts[0] ?? '') : `[${parts.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${qualifiedKind(def)} "${name}" is invalid: ${joined}`, {
    ...details(def, name, def.kind),
    causes,
  });
}

/** Turns anything thrown while serving into the Status kube-apiserver would send. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}
