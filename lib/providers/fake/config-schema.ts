/**
 * The JSON Schema of the fake provider's configuration file, compiled by scripts/gen-validators.ts
 * into lib/generated/config-validators.js (not loaded at run time).
 */
export const FAKE_METHODS = ['get', 'create', 'update', 'delete'] as const;

const failureRule = {
  type: 'object',
  properties: {
    /** Fail the next N calls of this method. */
    next: { type: 'integer', minimum: 0 },
    /** Fail each call with this probability (seeded, so runs are reproducible). */
    probability: { type: 'number', minimum: 0, maximum: 1 },
    message: { type: 'string' },
    /** Only calls for this object (`namespace/name`) are affected. */
    object: { type: 'string' },
  },
} as const;

export const FAKE_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** Delay before each call answers, like upstream's RequestDelay. */
    requestDelayMs: { type: 'integer', minimum: 0 },
    /** Keep load balancers in this JSON file so that separate local invocations see each other's. */
    stateFile: { type: 'string', minLength: 1 },
    seed: { type: 'integer' },
    failures: {
      type: 'object',
      propertyNames: { enum: FAKE_METHODS },
      additionalProperties: failureRule,
    },
  },
} as const;
