/**
 * An EC2 API error as the service sends it: `<Response><Errors><Error><Code>` with an HTTP
 * status. EC2's codes are dotted (`InvalidVpcID.NotFound`); its throttling answer is
 * `RequestLimitExceeded` with HTTP 503, not ELBv2's `Throttling` with 400.
 */
export class Ec2Error extends Error {
  override readonly name = 'Ec2Error';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const invalidParameter = (message: string): Ec2Error => new Ec2Error('InvalidParameterValue', message);

/** What the fault dice's codes (dev/elbv2-sim/faults.ts, ELBv2's names) are called by EC2. */
const FAULT_CODES: Readonly<Record<string, { code: string; message: string; status: number }>> = {
  Throttling: { code: 'RequestLimitExceeded', message: 'Request limit exceeded.', status: 503 },
  InternalFailure: { code: 'InternalError', message: 'An internal error has occurred', status: 500 },
  ServiceUnavailable: {
    code: 'Unavailable',
    message: "The server is overloaded and can't handle the request.",
    status: 503,
  },
};

/** An injected fault in EC2's words; a scripted code (any EC2 code) passes through as given. */
export function faultError(code: string, message: string, status: number): Ec2Error {
  const ec2 = FAULT_CODES[code];
  if (ec2) return new Ec2Error(ec2.code, ec2.message, ec2.status);
  const statusFor: Record<string, number> = {
    RequestLimitExceeded: 503,
    InternalError: 500,
    Unavailable: 503,
  };
  return new Ec2Error(code, message, statusFor[code] ?? status);
}
