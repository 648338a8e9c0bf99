/**
 * Issue 27, High 1: an accelerator is public exposure. A tenant pinned to `schemes: [internal]`
 * used to get two public anycast IPs in front of its internal ALB by adding
 * `multicluster.karmada.io/global-accelerator: "true"`, and the annotation won even where the
 * configuration had no `globalAccelerator` or disabled it. Now: no accelerator unless the
 * operator configured Global Accelerator and every applicable rule allows one (its
 * `globalAccelerator`, else its schemes); refused with a Warning and LoadBalancerReady=False
 * naming the annotation, nothing created in GA, nothing else lost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';
import { GA, mci, mcs, N, startPolicyEnv, type PolicyEnv } from './policy-env.js';

let env: PolicyEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const INTERNAL_ONLY: TenantPolicy = { rules: [{ name: 'internal-only', schemes: ['internal'] }] };

function expectRefused(
  r: Awaited<ReturnType<PolicyEnv['reconcile']>>,
  reason: string,
  ...parts: string[]
): void {
  expect(r.outcome, JSON.stringify(r)).toBe('invalid');
  expect(r.condition).toMatchObject({ status: 'False', reason });
  for (const p of parts) expect(r.condition.message).toContain(p);
  expect(r.warnings.find((w) => w.reason === reason)?.message).toContain(GA);
  expect(env!.mutating().filter((c) => c.startsWith('ga:'))).toEqual([]);
  expect(env!.ga.snapshot()).toEqual([]);
}

describe('Global Accelerator is public exposure (issue 27, High 1)', () => {
  it('a namespace pinned to internal gets no accelerator from the annotation', async () => {
    env = await startPolicyEnv({ tenantPolicy: INTERNAL_ONLY, globalAccelerator: { enabled: false } });
    const r = await env.reconcile(mci('sneaky', { [GA]: 'true' }));
    expectRefused(r, 'TenantPolicyViolation', GA, 'rule "internal-only"');
    // Nothing of the object's was created either: the refusal comes before any change.
    expect(env.mutating()).toEqual([]);
  });

  it('a MultiClusterService of that namespace neither', async () => {
    env = await startPolicyEnv({ tenantPolicy: INTERNAL_ONLY, globalAccelerator: { enabled: false } });
    expectRefused(await env.reconcile(mcs('serve', { [GA]: 'true' })), 'TenantPolicyViolation', GA);
  });

  it('without globalAccelerator in the configuration the annotation creates no accelerator', async () => {
    env = await startPolicyEnv(
      { tenantPolicy: { rules: [{ name: 'open', globalAccelerator: true }] } },
      {
        gaConfigured: false,
      },
    );
    expectRefused(await env.reconcile(mci('sneaky', { [GA]: 'true' })), 'GlobalAcceleratorNotConfigured', GA);
  });

  it('configured but off by default, and no tenant policy: an internal configuration allows none', async () => {
    env = await startPolicyEnv({ globalAccelerator: { enabled: false } });
    expectRefused(
      await env.reconcile(mci('sneaky', { [GA]: 'true' })),
      'TenantPolicyViolation',
      GA,
      'default',
    );
  });

  it('a rule that sets globalAccelerator: false wins over one that allows internet-facing', async () => {
    env = await startPolicyEnv({
      globalAccelerator: { enabled: false },
      tenantPolicy: {
        rules: [
          { name: 'public', schemes: ['internal', 'internet-facing'] },
          { name: 'no-anycast', globalAccelerator: false },
        ],
      },
    });
    expectRefused(
      await env.reconcile(mcs('serve', { [N('scheme')]: 'internet-facing', [GA]: 'true' })),
      'TenantPolicyViolation',
      'rule "no-anycast"',
    );
  });

  it('configured and allowed by the rule: the accelerator is created', async () => {
    env = await startPolicyEnv({
      globalAccelerator: { enabled: false },
      tenantPolicy: { rules: [{ name: 'anycast-ok', schemes: ['internal'], globalAccelerator: true }] },
    });
    const r = await env.reconcile(mci('web', { [GA]: 'true' }));
    expect(r.outcome, JSON.stringify(r)).not.toBe('invalid');
    expect(env.ga.snapshot()).toHaveLength(1);
  });
});
