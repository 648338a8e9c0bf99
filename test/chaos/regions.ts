/**
 * The chaos run's AWS side per Region: an ELBv2 simulator, the EC2 simulator linked to it (its
 * managed security groups) and WAFv2, Shield and ACM beside it, each Region its own, as the
 * multi-Region provider's configuration names them (one `regions` entry each).
 */
import { startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { regionsConfigFor, startEdgeSimulators, type EdgeSimulators } from '../../dev/local/pipeline.js';
import { forwardsToMissing } from '../support/elbv2-state.js';
import { REGIONS } from './world.js';

export interface RegionalSims {
  region: string;
  sim: Elbv2Simulator;
  ec2: Ec2Simulator;
  edge: EdgeSimulators;
  close(): Promise<void>;
}

/** After these ELBv2 calls a forward may name a target group that no longer exists. */
const FORWARD_CHANGING = new Set([
  'CreateListener',
  'ModifyListener',
  'CreateRule',
  'ModifyRule',
  'DeleteTargetGroup',
]);

/**
 * Every Region's simulators. `dangling` collects, after every call that can change what a forward
 * names, each forward to a missing target group (an invariant of every moment, not only of the end).
 */
export async function startRegions(seed: number, dangling: string[]): Promise<RegionalSims[]> {
  const out: RegionalSims[] = [];
  for (const [i, region] of REGIONS.entries()) {
    // Each Region's fault dice of their own: the same seed, another stream per Region.
    const regionSeed = seed + 1000 * i;
    const sim: Elbv2Simulator = await startElbv2Simulator({
      seed: regionSeed,
      region,
      afterCall: (action) => {
        if (!FORWARD_CHANGING.has(action)) return;
        for (const f of forwardsToMissing(sim.snapshot()))
          if (dangling.length < 20) dangling.push(`${region} after ${action}: ${f}`);
      },
    });
    // WAFv2 (faulted like ELBv2; the workload names a web ACL), Shield and ACM beside it.
    const edge = await startEdgeSimulators(sim);
    // EC2, linked to ELBv2 (faulted at its own rates, profile.ts): the managed security groups of
    // the stacks that name none; a deleted load balancer's interfaces hold its group for one more
    // DeleteSecurityGroup (a DependencyViolation that clears later, as in AWS).
    const ec2 = await startEc2Simulator({ elbv2: sim, seed: regionSeed, releaseAttempts: 1 });
    out.push({
      region,
      sim,
      ec2,
      edge,
      close: async () => {
        for (const c of [sim, ec2, edge.wafv2, edge.shield, edge.acm]) await c.close().catch(() => undefined);
      },
    });
  }
  return out;
}

/**
 * The provider configuration over every Region (dev/local/pipeline.ts `regionsConfigFor`, as
 * `npm start` writes it): no security groups (stacks that name none get managed ones), the VPC's
 * CIDRs configured, not read from EC2 (the invariants' model needs them too).
 */
export function regionsConfigText(regions: readonly RegionalSims[], extra: Record<string, unknown>): string {
  return regionsConfigFor(
    regions.map(({ region, sim, ec2, edge }) => ({ region, elbv2: sim, ec2, edge })),
    { configuredCidrs: true, managedSecurityGroups: true },
    extra,
  );
}
