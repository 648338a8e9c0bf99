/**
 * A warning still goes out when its next step cannot be worded: the next steps are a chunk of their
 * own in the function bundles (lib/reconcile/lifecycle.ts loads them at the first warning), and a
 * chunk missing from the package must not swallow the Event it was to complete. Here the module
 * fails to load as a missing chunk would.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { ingressClass, minimalIngress } from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

vi.mock('../../lib/reconcile/next-steps.js', () => {
  throw new Error('Cannot find module next-steps-XXXX.js');
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('an invalid spec without its next step: the Event says which field, the log why the step is missing', async () => {
  h = await startHarness({ controllers: ['multiclusteringress'] });
  const bad = {
    ...minimalIngress(),
    spec: { rules: [{ http: { paths: [{ path: '/x', pathType: 'Prefix', backend: {} }] } }] },
  };
  await h.seed([ingressClass(), bad as KubeObject]);
  await h.deliver(notify(minimalIngress(), 'added'));
  const events = await h.kube.list<KubeObject & { reason: string; message: string; type: string }>(
    Resources.Event,
    { namespace: 'default' },
  );
  const warning = events.items.find((e) => e.type === 'Warning');
  expect(warning?.reason).toBe('InvalidSpec');
  expect(warning?.message).toMatch(/spec\.rules\[0\]\.http\.paths\[0\]\.backend/);
  expect(warning?.message).not.toMatch(/Next:/);
  const line = h.logger.lines.find((l) => l.message === 'warning sent without its next step');
  expect(line?.level).toBe('ERROR');
  expect(line?.fields).toMatchObject({ reason: 'InvalidSpec' });
  // The loader's ModuleLoadError, naming the part (the cause's wording is the module loader's).
  expect(String(line?.fields?.error)).toMatch(
    /^could not load the next steps of warnings \(reconcile\/next-steps\.ts\): ./,
  );
});
