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
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function stackFingerprint(stack: Stack): string {
  return `${FINGERPRINT_VERSION}-${createHash('sha256').update(canonicalJson(stack)).digest('hex').slice(0, 40)}`;
}
