/** Asserting on the InvalidObjectError a model builder or annotation parser throws. */
import { expect } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';

/** The error `fn` throws, checked to be an InvalidObjectError. */
export function refusal(fn: () => unknown): InvalidObjectError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidObjectError);
    return e as InvalidObjectError;
  }
  throw new Error('expected an InvalidObjectError, nothing was thrown');
}

/** Message, field and reason of the error `fn` throws. */
export const refused = (fn: () => unknown) => {
  const e = refusal(fn);
  return { message: e.message, field: e.field, reason: e.reason };
};

/** What `refused` gives for a bad annotation value (parse.ts `invalid`). */
export const bad = (key: string, value: string, why: string) => ({
  message: `annotation ${key}: ${JSON.stringify(value)} ${why}`,
  field: key,
  reason: 'InvalidAnnotation',
});
