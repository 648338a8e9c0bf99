/**
 * What each sample event in events/ is expected to do (events/expectations.json): which function it
 * is for, the state of the Kubernetes API stand-in it assumes, the outcome in words, and the part
 * of the function's output that shows it. `npm run invoke` prints the expectation, prepares the
 * stand-in for it and says whether the output matched; a test runs every sample and checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MCI_FINALIZER } from '../../lib/karmada/constants.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import { seed } from '../local/pipeline.js';
import { upstreamScenario } from '../local/scenario.js';

export const EVENTS_DIR = join(import.meta.dirname, '../../events');

/**
 * - `scenario`: the upstream README's objects, just created (nothing reconciled yet).
 * - `mci-deleting`: the same, but `minimal-ingress` was served before (it carries the finalizer) and
 *   `kubectl delete` has just been run on it: it waits, with a deletionTimestamp, for the function.
 */
const Setup = z.enum(['scenario', 'mci-deleting']);
export type Setup = z.infer<typeof Setup>;

const Expectation = z.strictObject({
  function: z.enum(['invoke', 'sqs', 'http']),
  setup: Setup,
  /** The outcome, in words, as a user should read the output. */
  expect: z.string().min(1),
  /** A subset of the function's output (objects: these keys; arrays: these items in order). */
  output: z.unknown(),
});
export type SampleExpectation = z.infer<typeof Expectation>;

export function loadExpectations(dir = EVENTS_DIR): Record<string, SampleExpectation> {
  const raw: unknown = JSON.parse(readFileSync(join(dir, 'expectations.json'), 'utf8'));
  return z.record(z.string(), Expectation).parse(raw);
}

/** Puts the stand-in in the state the sample assumes. */
export async function prepare(kube: KubeClient, setup: Setup): Promise<void> {
  const objects = upstreamScenario();
  if (setup === 'mci-deleting') {
    for (const o of objects) {
      if (o.kind === 'MultiClusterIngress') o.metadata.finalizers = [MCI_FINALIZER];
    }
  }
  await seed(kube, objects);
  if (setup === 'mci-deleting') {
    await kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
  }
}

/** Whether `actual` holds `expected`: objects by key (a JSON string body is parsed), arrays item by item. */
export function matches(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && expected !== null && typeof expected === 'object') {
    try {
      return matches(JSON.parse(actual), expected);
    } catch {
      return false;
    }
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matches(actual[i], e))
    );
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => matches(a[k], v));
  }
  return Object.is(actual, expected);
}
