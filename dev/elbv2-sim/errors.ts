/** An ELBv2 API error as the service would send it: Query-protocol code, HTTP status and fault type. */
export class SimError extends Error {
  override readonly name = 'SimError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }

  /** AWS Query errors say who is to blame: `Sender` for 4xx, `Receiver` for 5xx. */
  get type(): 'Sender' | 'Receiver' {
    return this.status >= 500 ? 'Receiver' : 'Sender';
  }
}

export const validation = (message: string): SimError => new SimError('ValidationError', message);

export const required = (field: string): SimError =>
  validation(
    `1 validation error detected: Value null at '${field}' failed to satisfy constraint: Member must not be null`,
  );

/** A quota error as ELBv2 words it: "The maximum number of <what> '<limit>' has been reached". */
export const quotaReached = (code: string, what: string, limit: number): SimError =>
  new SimError(code, `The maximum number of ${what} '${limit}' has been reached`);

/** Status codes of the codes a fault script is likely to use; anything else is a 400 client error. */
const STATUS_BY_CODE: Record<string, number> = {
  InternalFailure: 500,
  InternalError: 500,
  ServiceUnavailable: 503,
  HealthUnavailable: 500,
  InsufficientCapacity: 500,
  PriorRequestNotComplete: 429,
};

export const statusForCode = (code: string): number => STATUS_BY_CODE[code] ?? 400;
