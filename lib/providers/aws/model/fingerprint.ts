/**
 * The no-op fingerprint: a hash of the desired stack (which already contains everything read from
 * Kubernetes: Services, endpoints, annotations, configuration). Stored as a tag on the load
 * balancer after a successful full deploy; equal hash ⇒ nothing to do unless drift is suspected.
 */
import { createHash } from 'node:crypto';
import type { Stack } from './types.js';

/** Bump when the deploy logic changes what a given stack turns into in AWS. */
const FINGERPRINT_VERSION = 'v1';

/** JSON with sorted object keys, so that equal stacks hash equal whatever order built them. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // sort() without a comparator orders by UTF-16 code units: the same order whatever the locale.
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function stackFingerprint(stack: Stack): string {
  return `${FINGERPRINT_VERSION}-${createHash('sha256').update(canonicalJson(stack)).digest('hex').slice(0, 40)}`;
}
