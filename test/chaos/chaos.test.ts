/**
 * The chaos convergence suite's short profile, part of the normal test command: one seeded run of
 * the whole local pipeline, its clusters in two Regions, under every fault (ELBv2 throttling/5xx/timeouts, 409s, lost,
 * duplicated, delayed and reordered notifications, killed invocations), then quiesce, resync,
 * sweep, and nothing may be leaked, missing, diverged, stuck or wrongly reported.
 * The long profile is `npm run chaos` (scripts/chaos.ts); a failure here prints the seed to replay.
 */
import { describe, expect, it } from 'vitest';
import { PROFILES } from './profile.js';
import { formatFigures, passed } from './report.js';
import { runChaos } from './run.js';
import { REGIONS } from './world.js';

// Seed 17 ends with 10 objects' load-balancer stacks in each of the two Regions (20 regional
// stacks), after creates, deletes, recreations, force-deletes, group moves and cluster-weight
// changes, one of them with a web ACL that is disassociated by hand; 5 of them (in each Region)
// with managed security groups, one of which has a rule revoked by hand.
// (Seed 9, the seed before the per-cluster and edge operations joined the workload, now ends with 4.)
const SEED = Number(process.env.CHAOS_SEED ?? '17');

describe('chaos convergence (short profile)', () => {
  it(`converges with nothing leaked, missing or stuck (seed ${SEED})`, { timeout: 120_000 }, async () => {
    // Act
    const figures = await runChaos({ seed: SEED, profile: PROFILES.short });

    // Assert
    console.log(formatFigures(figures));
    expect(figures.operations).toBe(PROFILES.short.operations);
    // The faults really happened, or the run proves nothing.
    expect(Object.values(figures.faults.elbv2).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(figures.faults.kubeConflicts).toBeGreaterThan(0);
    // Managed security groups were made, and EC2 faulted while they were.
    expect(Object.values(figures.faults.ec2).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(figures.invariants.managedGroups).toBeGreaterThan(0);
    // A deleted load balancer's group was held (DependencyViolation) and deleted later: no leak.
    expect(figures.securityGroupsHeld).toBeGreaterThan(0);
    // Accelerators stood in front of some stacks, and Global Accelerator faulted while they were made.
    expect(Object.values(figures.faults.ga).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(figures.invariants.accelerators.expected).toBeGreaterThan(0);
    expect(figures.drained).toBe(true);
    // A run that ends with (almost) nothing standing checks little: keep the seed meaningful.
    expect(figures.invariants.expectedStacks).toBeGreaterThanOrEqual(10);
    // Both Regions worked: each has load balancers of its own clusters.
    for (const region of REGIONS) expect(figures.elbv2CallsByRegion[region]).toBeGreaterThan(0);
    expect(
      passed(figures),
      `seed ${SEED} failed; replay with: npm run chaos -- --profile short --seed ${SEED}`,
    ).toBe(true);
    expect(figures.invariants.findings).toEqual([]);
    // Console edits the fingerprint cannot see: real divergences, repaired by the deep check alone.
    // The web ACL edit needs an object with a web ACL standing at the end: on a loaded machine a
    // recreate that times out can leave none (the invariants above still hold for what stands).
    const expectedDrift = [
      'us-east-1 deregister-target',
      'us-east-1 delete-rule',
      'us-east-1 health-check',
      'eu-west-1 deregister-target',
      'eu-west-1 delete-rule',
      'eu-west-1 health-check',
      'disassociate-web-acl',
      'revoke-security-group-rule',
    ];
    expect(figures.handDrift).toEqual(
      figures.handDrift.includes('disassociate-web-acl')
        ? expectedDrift
        : expectedDrift.filter((d) => d !== 'disassociate-web-acl'),
    );
    expect(figures.handDriftDiverged).toBeGreaterThan(0);
  });
});
