/**
 * Subnet discovery end to end against the ELBv2 and EC2 simulators (one network): with no
 * subnets annotation and none configured, each load balancer goes into the subnets its scheme's
 * role tag marks, one per zone; names are resolved by their Name tag; a tag changed in EC2 moves
 * the load balancer within the network cache's TTL (the plan says which subnets), and too few
 * tagged zones is an InvalidObjectError naming the key, before any mutating call.
 */
import { CreateTagsCommand, DeleteTagsCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { elbv2ClientFor, SIM_NETWORK, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { AwsProvider, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { formatPlan } from '../../lib/providers/aws/deploy/operations.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv | undefined;
let ec2Sim: Ec2Simulator | undefined;
let ec2: EC2Client | undefined;
afterEach(async () => {
  ec2?.destroy();
  await env?.close();
  await ec2Sim?.close();
  env = undefined;
  ec2Sim = undefined;
  ec2 = undefined;
});

const ids = (pred: (s: (typeof SIM_NETWORK.subnets)[number]) => boolean) =>
  SIM_NETWORK.subnets.filter(pred).map((s) => s.subnetId);
const PUBLIC = ids((s) => s.public);
const PRIVATE = ids((s) => !s.public);
const [PRIVATE_1A, PRIVATE_1B, PRIVATE_1C] = PRIVATE as [string, string, string];
const INTERNAL_TAG = 'kubernetes.io/role/internal-elb';
const TEN_MINUTES = 10 * 60_000;

async function setup(config: Partial<AwsProviderConfig> = {}) {
  const e = (env = await startAwsEnv([
    service('serve'),
    collectedSlice('member1', 'serve', { addresses: ['10.0.128.10'] }),
  ]));
  const sim = (ec2Sim = await startEc2Simulator({ inProcess: true }));
  const client = (ec2 = ec2ClientFor(sim, { retryDelayMs: 1 }));
  let clock = 0;
  const { subnets: _configured, ...rest } = e.config;
  const provider = new AwsProvider(
    // EC2 states the VPC: no CIDR override, no configured subnets.
    { ...rest, vpc: { id: SIM_NETWORK.vpcId }, ...config },
    { kube: e.kube, logger: e.logger },
    {
      client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }),
      tagging: taggingClientFor(e.sim),
      ec2: client,
      network: { now: () => clock },
    },
  );
  const ctx = (resync = false): ProviderContext => ({
    ...e.ctx,
    signal: new AbortController().signal,
    resync,
  });
  const subnetsOf = (name: string) =>
    e.sim
      .snapshot()
      .loadBalancers.find((lb) => lb.LoadBalancerName === name)
      ?.AvailabilityZones?.map((az) => az.SubnetId)
      .sort();
  const onlyLb = () => {
    const [lb] = e.sim.snapshot().loadBalancers;
    return lb?.AvailabilityZones?.map((az) => az.SubnetId).sort();
  };
  return {
    e,
    sim,
    client,
    provider,
    ctx,
    subnetsOf,
    onlyLb,
    later: () => {
      clock += TEN_MINUTES;
    },
  };
}

const withAnnotations = (annotations: Record<string, string>): MultiClusterIngress =>
  minimalIngress({ metadata: { ...minimalIngress().metadata, annotations } });

describe('subnets discovered by role tags', () => {
  it("an internal ALB takes the internal-elb subnets, an internet-facing NLB the elb ones, one per zone, with EC2's one read", async () => {
    const { e, sim, provider, ctx, onlyLb } = await setup();
    await provider.ingress.ensure(ctx(), minimalIngress());
    expect(onlyLb()).toStrictEqual(PRIVATE);
    const nlb: MultiClusterService = mcs(
      'serve',
      {},
      { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' },
    );
    await provider.service.ensure(ctx(), nlb);
    const nlbSubnets = e.sim
      .snapshot()
      .loadBalancers.find((lb) => lb.Type === 'network')
      ?.AvailabilityZones?.map((az) => az.SubnetId)
      .sort();
    expect(nlbSubnets).toStrictEqual(PUBLIC);
    // The network is read once per container: both stacks took their subnets from that one read.
    expect(sim.calls.get('DescribeSubnets').ok).toBe(1);
  });

  it('names are resolved by their Name tag, IDs kept, as LBC does', async () => {
    const { provider, ctx, onlyLb } = await setup();
    await provider.ingress.ensure(
      ctx(),
      withAnnotations({
        'alb.ingress.kubernetes.io/scheme': 'internet-facing',
        'alb.ingress.kubernetes.io/subnets': `simulated-public-1b, ${PUBLIC[0]}`,
      }),
    );
    expect(onlyLb()).toStrictEqual([PUBLIC[0], PUBLIC[1]]);
    await expect(
      provider.ingress.ensure(
        ctx(),
        withAnnotations({ 'alb.ingress.kubernetes.io/subnets': 'no-such-subnet, simulated-private-1a' }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidObjectError',
      field: 'alb.ingress.kubernetes.io/subnets',
      reason: 'SubnetNotFound',
    });
  });

  it('a role tag removed in EC2 moves the ALB within the TTL (the plan names the subnet); too few zones is refused before any call', async () => {
    const { e, client, provider, ctx, onlyLb, later } = await setup();
    const mci = minimalIngress();
    await provider.ingress.ensure(ctx(), mci);
    expect(onlyLb()).toStrictEqual(PRIVATE);

    await client.send(new DeleteTagsCommand({ Resources: [PRIVATE_1C], Tags: [{ Key: INTERNAL_TAG }] }));
    // Within the TTL the container's answer stands: nothing to change.
    expect((await provider.ingress.plan(ctx(true), mci)).plan).toStrictEqual([]);
    later();
    const { plan } = await provider.ingress.plan(ctx(true), mci);
    expect(formatPlan(plan).join('\n')).toContain(`subnets -${PRIVATE_1C}`);
    e.sim.calls.reset();
    await provider.ingress.update(ctx(true), mci);
    // AddTags: the stack's fingerprint bookkeeping, before and after.
    expect(e.mutatingCalls().filter((a) => a !== 'AddTags')).toStrictEqual(['SetSubnets']);
    expect(onlyLb()).toStrictEqual([PRIVATE_1A, PRIVATE_1B]);

    // One tagged zone left: an ALB needs two. Named, before any mutating call; the ALB stays.
    await client.send(new DeleteTagsCommand({ Resources: [PRIVATE_1B], Tags: [{ Key: INTERNAL_TAG }] }));
    later();
    e.sim.calls.reset();
    const refused = await provider.ingress.update(ctx(true), mci).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(InvalidObjectError);
    expect(refused).toMatchObject({
      field: 'alb.ingress.kubernetes.io/subnets',
      reason: 'SubnetsNotDiscovered',
    });
    expect((refused as Error).message).toContain(
      `discovery found internal subnets (tag ${INTERNAL_TAG}) in 1 Availability Zone(s) (us-east-1a); an ALB needs subnets in at least 2`,
    );
    expect(e.mutatingCalls()).toStrictEqual([]);
    expect(onlyLb()).toStrictEqual([PRIVATE_1A, PRIVATE_1B]);

    // Tagged again: served again, in the zones tagged.
    await client.send(
      new CreateTagsCommand({ Resources: [PRIVATE_1C], Tags: [{ Key: INTERNAL_TAG, Value: '' }] }),
    );
    later();
    await provider.ingress.update(ctx(true), mci);
    expect(onlyLb()).toStrictEqual([PRIVATE_1A, PRIVATE_1C]);

    await provider.ingress.ensureDeleted(ctx(), mci);
    expect(e.sim.snapshot().loadBalancers).toStrictEqual([]);
  });

  it("keeps to the tenant policy's allowed subnets rather than pick one it refuses", async () => {
    const { provider, ctx, onlyLb } = await setup({
      tenantPolicy: { rules: [{ name: 'two-zones', subnets: [PRIVATE_1A, PRIVATE_1C, ...PUBLIC] }] },
    });
    await provider.ingress.ensure(ctx(), minimalIngress());
    expect(onlyLb()).toStrictEqual([PRIVATE_1A, PRIVATE_1C]);
  });
});
