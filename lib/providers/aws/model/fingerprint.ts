/**
 * The no-op fingerprint: a hash of the desired stack (which already contains everything read from
 * Kubernetes: Services, endpoints, annotations, configuration). Stored as a tag on the load
 * balancer after a successful full deploy; equal hash ⇒ nothing to do unless drift is suspected.
 */
import { createHash } from 'node:crypto';
import type { Stack, TargetSpec } from './types.js';

/**
 * Bump when the deploy logic changes what a given stack turns into in AWS. v2: targets are no
 * longer part of it (each target group's targets have their own fingerprint, see below).
 */
const FINGERPRINT_VERSION = 'v2';

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

/**
 * The stack's structure: everything but the targets, so that an endpoint change (by far the most
 * frequent) leaves it unchanged and needs no rediscovery of the stack.
 */
export function stackFingerprint(stack: Stack): string {
  const structure = {
    ...stack,
    // What to report is not what to build: a warning never makes a deploy necessary.
    warnings: undefined,
    // Global Accelerator's settings: the accelerator record has its own fingerprint.
    accelerator: undefined,
    // The Secrets' versions are in the actions; their values are never hashed.
    clientSecrets: undefined,
    traffic: undefined,
    drains: undefined,
    // Only target groups have targets; an undefined key is left out of the canonical form.
    resources: stack.resources.map((r) => ({ ...r, spec: { ...r.spec, targets: undefined } })),
  };
  return `${FINGERPRINT_VERSION}-${createHash('sha256').update(canonicalJson(structure)).digest('hex').slice(0, 40)}`;
}

/** One target group's targets (order-independent): recorded on the load balancer per group. */
export function targetsFingerprint(targets: readonly TargetSpec[]): string {
  const keys = targets.map((t) => `${t.id}:${t.port}:${t.availabilityZone ?? ''}`).sort();
  return createHash('sha256').update(keys.join(',')).digest('hex').slice(0, 32);
}
