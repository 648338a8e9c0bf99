/**
 * What the provider reads from EC2 instead of its configuration: the load balancers' subnets,
 * discovered by LBC's role tags (internal-elb for internal, elb for internet-facing, one per zone),
 * and moved when the tags move (a new container reads them again); the VPC's CIDRs, primary and
 * secondary, and its subnets' zones, which decide each target's AvailabilityZone.
 */
import { expect } from 'vitest';
import type { Scenario } from '../support/suite.js';
import type { World } from '../support/world.js';
import { INTERNAL_ELB_ROLE_TAG, retag } from '../support/network.js';
import { basics, changes, expectNoOpAndResync, mci, mcs, path, rule, slice, svc } from './objects.js';

const only = async (w: World) => (await w.observe(['us-east-1']))['us-east-1']!;
const subnetsBy = (state: Awaited<ReturnType<typeof only>>) =>
  Object.fromEntries(state.loadBalancers.map((l) => [l.name.replace(/-[0-9a-f]{10}$/, ''), l.subnets]));

export const NETWORK_SCENARIOS: Scenario[] = [
  {
    name: 'subnet discovery by role tags: internal and internet-facing load balancers, then the tags move',
    async run(w) {
      const inside = mci('inside', [rule('in.example.com', path('/', 'Prefix', 'serve', 80))]);
      const outside = mci('outside', [rule('out.example.com', path('/', 'Prefix', 'serve', 80))], {
        'alb.ingress.kubernetes.io/scheme': 'internet-facing',
      });
      const tcp = mcs('serve');
      await w.start({ subnets: 'discovered' }, [
        ...basics(),
        svc('serve'),
        slice('member1', 'serve', ['10.1.0.11']),
        inside,
        outside,
        tcp,
      ]);
      await w.settle(inside, outside, tcp);
      const discovered = await only(w);
      const privateSubnets = ['simulated-private-1a', 'simulated-private-1b', 'simulated-private-1c'];
      expect(subnetsBy(discovered)).toEqual({
        'k8s-default-inside': privateSubnets,
        'k8s-default-outside': ['simulated-public-1a', 'simulated-public-1b', 'simulated-public-1c'],
        'k8s-default-serve': privateSubnets,
      });

      // An operator moves zone c's internal role from the private subnet to the pod subnet.
      const network = w.networks['us-east-1']!;
      const id = (name: string) => network.subnets.find((s) => s.name === name)!.id;
      await retag(w.clients().ec2, INTERNAL_ELB_ROLE_TAG, {
        remove: [id('simulated-private-1c')],
        add: [id('simulated-pods-1c')],
      });
      // The network is read once per container (LBC's 10-minute cache): a new one sees the tags.
      await w.h.coldStart();
      w.resetCalls();
      await w.settle(inside, outside, tcp);
      // The objects reconcile concurrently: which call comes first is not the point.
      expect(
        changes(w)
          .filter((c) => c !== 'elbv2:AddTags')
          .sort(),
      ).toEqual([
        // README, "NLB target group attributes": a new container's first full check on moto.
        ...(w.kind === 'moto' ? ['elbv2:ModifyTargetGroupAttributes'] : []),
        'elbv2:SetSubnets',
        'elbv2:SetSubnets',
      ]);
      const moved = await only(w);
      const movedSubnets = ['simulated-pods-1c', 'simulated-private-1a', 'simulated-private-1b'];
      expect(subnetsBy(moved)).toEqual({
        'k8s-default-inside': movedSubnets,
        'k8s-default-outside': ['simulated-public-1a', 'simulated-public-1b', 'simulated-public-1c'],
        'k8s-default-serve': movedSubnets,
      });
      await expectNoOpAndResync(w, [inside, outside, tcp]);
      return { discovered, moved };
    },
  },
  {
    name: "VPC CIDR discovery: each target's zone comes from EC2's CIDRs and subnets",
    async run(w) {
      const o = mci('zones', [rule('zones.example.com', path('/', 'Prefix', 'serve', 80))]);
      await w.start({}, [
        ...basics(),
        svc('serve'),
        // In the primary CIDR, in private-1a; in the secondary CIDR, in pods-1b.
        slice('member1', 'serve', ['10.0.130.5', '100.64.64.10']),
        // In the secondary CIDR but in no subnet: the EndpointSlice's zone, one of the VPC's.
        slice('member2', 'serve', ['100.64.200.7'], 'us-east-1c'),
      ]);
      await w.h.seed([slice('member3', 'serve', ['172.20.0.5']), o]);
      await w.settle(o);
      const state = await only(w);
      expect(state.targetGroups.map((t) => t.targets)).toEqual([
        [
          '10.0.130.5:8080@us-east-1a',
          '100.64.200.7:8080@us-east-1c',
          '100.64.64.10:8080@us-east-1b',
          '172.20.0.5:8080@all',
        ],
      ]);
      await expectNoOpAndResync(w, [o]);
      return { state };
    },
  },
];
