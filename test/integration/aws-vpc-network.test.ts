/**
 * Targets as AWS expects them, end to end against the ELBv2 and EC2 simulators (one network):
 * the VPC's CIDRs come from EC2 (a secondary CIDR a configured list misses makes pods in-VPC
 * targets in their subnets' zones, not `all`), and an ALB target group with cross-zone off gets
 * its off-VPC targets in their endpoints' own zones after AWS answers that a zone is required,
 * as LBC retries; nothing then moves them back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { elbv2ClientFor, SIM_NETWORK, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import type { EndpointSlice, MultiClusterIngress } from '../../lib/karmada/types.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { callCounts } from './aws-alb-support.js';
import { startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv | undefined;
let ec2Sim: Ec2Simulator | undefined;
afterEach(async () => {
  await env?.close();
  await ec2Sim?.close();
  env = undefined;
  ec2Sim = undefined;
});

const VPC = SIM_NETWORK.vpcId;

/** Endpoints with the zone each member cluster's EndpointSlice states for them. */
function zonedSlice(cluster: string, addresses: string[], zone: string): EndpointSlice {
  const slice = collectedSlice(cluster, 'serve', { addresses });
  slice.endpoints = slice.endpoints!.map((e) => ({ ...e, zone }));
  return slice;
}

async function setup(config: Partial<AwsProviderConfig>, slices: EndpointSlice[]) {
  const e = (env = await startAwsEnv([service('serve'), ...slices]));
  const ec2 = (ec2Sim = await startEc2Simulator({ inProcess: true }));
  const provider = new AwsProvider(
    { ...e.config, ...config },
    { kube: e.kube, logger: e.logger },
    {
      client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }),
      tagging: taggingClientFor(e.sim),
      ec2: ec2ClientFor(ec2, { retryDelayMs: 1 }),
    },
  );
  const reconcile = async (obj: MultiClusterIngress, resync = false) => {
    const ctx: ProviderContext = { ...e.ctx, signal: new AbortController().signal, resync };
    const got = await provider.loadBalancer().get(ctx, obj);
    return got.exists ? provider.loadBalancer().update(ctx, obj) : provider.loadBalancer().ensure(ctx, obj);
  };
  const measured = async (obj: MultiClusterIngress, resync = false) => {
    e.sim.calls.reset();
    await reconcile(obj, resync);
    return callCounts(e.sim.calls.all());
  };
  const zones = () =>
    Object.fromEntries(e.sim.state.targets().map((t) => [t.Id!, t.AvailabilityZone!] as const));
  return { e, ec2, provider, reconcile, measured, zones };
}

/** Pods in EKS custom networking's range: the VPC's secondary CIDR, its pod subnets (1a, 1b). */
const PODS = [
  zonedSlice('member1', ['100.64.1.10'], 'us-east-1a'),
  zonedSlice('member2', ['100.64.70.9'], 'us-east-1b'),
];

describe("the VPC's CIDRs from EC2", () => {
  it('a secondary CIDR only EC2 knows makes its pods in-VPC targets in their zones, with two EC2 calls per container', async () => {
    const { e, ec2, measured, zones } = await setup({ vpc: { id: VPC } }, PODS);
    const mci = minimalIngress();
    await measured(mci);
    expect(zones()).toEqual({ '100.64.1.10': 'us-east-1a', '100.64.70.9': 'us-east-1b' });
    expect(ec2.calls.all()).toMatchObject({ DescribeVpcs: { ok: 1 }, DescribeSubnets: { ok: 1 } });
    expect(e.logger.lines.some((l) => l.message === 'read the VPC network from EC2')).toBe(true);
    // The next reconciles of the container ask EC2 nothing, and change nothing.
    expect(await measured(mci)).toEqual({});
    e.kube.put(zonedSlice('member2', ['100.64.70.9', '100.64.70.10'], 'us-east-1b'));
    expect(await measured(mci)).toEqual({ RegisterTargets: 1 });
    expect(zones()['100.64.70.10']).toBe('us-east-1b');
    expect(ec2.calls.total()).toBe(2);
  });

  it('a configured list that misses it registers those pods as off-VPC (all), which AWS refuses', async () => {
    const { e, ec2, reconcile } = await setup({ vpc: { id: VPC, cidrs: ['10.0.0.0/16'] } }, PODS);
    await expect(reconcile(minimalIngress())).rejects.toThrow(
      /The IP address '100\.64\.1\.10' is within the VPC, and cannot have its Availability Zone overridden to 'all' from 'us-east-1a'/,
    );
    expect(ec2.calls.total()).toBe(0);
    expect(e.sim.state.targets()).toEqual([]);
  });
});

describe('AWS requires a zone: registered in the endpoints own zones', () => {
  // Off the VPC (a peered VPC, another cluster's network), on an ALB target group with cross-zone off.
  const OFF_VPC = [
    zonedSlice('member1', ['172.20.1.10'], 'us-east-1a'),
    zonedSlice('member2', ['172.20.2.10'], 'us-east-1c'),
  ];
  const crossZoneOff = () =>
    minimalIngress({
      metadata: {
        ...minimalIngress().metadata,
        annotations: {
          'alb.ingress.kubernetes.io/target-group-attributes': 'load_balancing.cross_zone.enabled=false',
        },
      },
    });

  it('retries the refused registration in the endpoints zones, then leaves them there (no loop)', async () => {
    const { e, measured, zones } = await setup({ vpc: { id: VPC } }, OFF_VPC);
    const mci = crossZoneOff();
    const created = await measured(mci);
    expect(created.RegisterTargets).toBe(2);
    expect(e.sim.calls.get('RegisterTargets').errorCodes).toEqual({ ValidationError: 1 });
    expect(zones()).toEqual({ '172.20.1.10': 'us-east-1a', '172.20.2.10': 'us-east-1c' });
    // The fingerprint fast path and a full drift check both take them as wanted.
    expect(await measured(mci)).toEqual({});
    const drift = await measured(mci, true);
    expect(drift.DescribeTargetHealth).toBeGreaterThan(0);
    expect(drift).not.toHaveProperty('RegisterTargets');
    expect(drift).not.toHaveProperty('DeregisterTargets');
    // An endpoint more: the refused call and its retry again, the others untouched.
    e.kube.put(zonedSlice('member2', ['172.20.2.10', '172.20.2.11'], 'us-east-1b'));
    expect(await measured(mci)).toEqual({ RegisterTargets: 2 });
    expect(zones()).toEqual({
      '172.20.1.10': 'us-east-1a',
      '172.20.2.10': 'us-east-1c',
      '172.20.2.11': 'us-east-1b',
    });
  });

  it('with cross-zone on, all is accepted: no retry', async () => {
    const { e, measured, zones } = await setup({ vpc: { id: VPC } }, OFF_VPC);
    expect((await measured(minimalIngress())).RegisterTargets).toBe(1);
    expect(e.sim.calls.get('RegisterTargets').errors).toBe(0);
    expect(zones()).toEqual({ '172.20.1.10': 'all', '172.20.2.10': 'all' });
  });
});
