/**
 * The two AWS implementations the scenarios run against, behind one gateway each (gateway.ts):
 * `moto` (moto_server, with the wrapper that fixes three of its quirks: moto-quirks.ts) and
 * `simulators` (this project's ELBv2, EC2, ACM, WAFv2 and Shield simulators over HTTP, one set per
 * Region). Both start empty but for what an account has (moto: a default VPC; ours: the simulated
 * VPC), and `reset()` takes them back there between scenarios.
 */
import { startAcmSimulator, type AcmSimulator } from '../../../dev/acm-sim/index.js';
import { startEc2Simulator, type Ec2Simulator } from '../../../dev/ec2-sim/index.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../../dev/elbv2-sim/index.js';
import { startShieldSimulator, type ShieldSimulator } from '../../../dev/shield-sim/index.js';
import { startWafv2Simulator, type Wafv2Simulator } from '../../../dev/wafv2-sim/index.js';
import { startGateway, type Gateway } from './gateway.js';
import { motoQuirkFixes } from './moto-quirks.js';
import { startMoto } from './moto.js';

export type TargetKind = 'moto' | 'simulators';
export const TARGET_KINDS: readonly TargetKind[] = ['moto', 'simulators'];

/** The Regions every scenario may use, the primary first. */
export const REGIONS = ['us-east-1', 'eu-west-1'] as const;

export interface Target {
  readonly kind: TargetKind;
  readonly gateway: Gateway;
  /** Back to an empty account; the gateway's calls are forgotten too. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export function startTarget(kind: TargetKind): Promise<Target> {
  return kind === 'moto' ? startMotoTarget() : startSimulatorsTarget();
}

async function startMotoTarget(): Promise<Target> {
  const moto = await startMoto();
  const quirks = motoQuirkFixes();
  // CONFORMANCE_MOTO_AS_IS=1: moto without its wrapper, to see what each fix is for (README).
  const hooks = process.env.CONFORMANCE_MOTO_AS_IS ? {} : quirks.hooks;
  const gateway = await startGateway({ upstream: () => moto.url, hooks });
  return {
    kind: 'moto',
    gateway,
    async reset() {
      await moto.reset();
      quirks.reset();
      gateway.resetCalls();
    },
    async close() {
      await gateway.close();
      await moto.close();
    },
  };
}

interface RegionSims {
  elbv2: Elbv2Simulator;
  ec2: Ec2Simulator;
  acm: AcmSimulator;
  wafv2: Wafv2Simulator;
}

async function startRegionSims(region: string): Promise<RegionSims> {
  const elbv2 = await startElbv2Simulator({ region });
  const loadBalancers = (arn: string) => elbv2.state.store.loadBalancers.get(arn);
  return {
    elbv2,
    // As AWS keeps a deleted load balancer's network interfaces a while, a group it let go of is
    // refused once (DependencyViolation) before it can be deleted (moto never refuses: README).
    ec2: await startEc2Simulator({ elbv2, releaseAttempts: 1 }),
    acm: await startAcmSimulator({ region }),
    wafv2: await startWafv2Simulator({ loadBalancers, region }),
  };
}

async function startSimulatorsTarget(): Promise<Target> {
  let regions = new Map<string, RegionSims>();
  let shield: ShieldSimulator | undefined;
  const start = async () => {
    regions = new Map();
    for (const region of REGIONS) regions.set(region, await startRegionSims(region));
    const primary = regions.get(REGIONS[0])!;
    shield = await startShieldSimulator({
      loadBalancers: (arn) => primary.elbv2.state.store.loadBalancers.get(arn),
    });
  };
  const stop = async () => {
    for (const r of regions.values()) {
      await r.ec2.close();
      await r.elbv2.close();
      await r.acm.close();
      await r.wafv2.close();
    }
    await shield?.close();
  };
  await start();
  const gateway = await startGateway({
    upstream(service, region) {
      if (service === 'shield') return shield?.url;
      const r = regions.get(region);
      if (!r) return undefined;
      switch (service) {
        case 'elasticloadbalancing':
        case 'tagging':
          return r.elbv2.url;
        case 'ec2':
          return r.ec2.url;
        case 'acm':
          return r.acm.url;
        case 'wafv2':
          return r.wafv2.url;
        default:
          return undefined;
      }
    },
  });
  return {
    kind: 'simulators',
    gateway,
    async reset() {
      // In-process servers: a restart costs a few milliseconds and leaves nothing behind.
      await stop();
      await start();
      gateway.resetCalls();
    },
    async close() {
      await gateway.close();
      await stop();
    },
  };
}
