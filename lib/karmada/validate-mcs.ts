/**
 * Validation of incoming MultiClusterService objects: the CRD schema (precompiled by
 * scripts/gen-validators.ts) plus the rules of Karmada's validating webhook, as validate.ts does
 * for the MultiClusterIngress. A module of its own, read only with the MCS controller
 * (lib/reconcile/lazy-controllers.ts).
 */
import { validateMultiClusterServiceSchema } from '../generated/mcs-validator.js';
import type { ValidationIssue } from './semantic-rules.js';
import { multiClusterServiceRules } from './semantic-rules-mcs.js';
import type { MultiClusterService } from './types.js';
import { throwIfInvalid, validate } from './validate.js';

/** Every way `obj` is not a valid MultiClusterService; empty when it is valid. */
export function validateMultiClusterService(obj: unknown): ValidationIssue[] {
  return validate(validateMultiClusterServiceSchema, multiClusterServiceRules, obj);
}

/** Throws InvalidObjectError (field = the first issue's field) unless `obj` is valid. */
export function assertValidMultiClusterService(obj: unknown): asserts obj is MultiClusterService {
  throwIfInvalid('MultiClusterService', validateMultiClusterService(obj));
}
