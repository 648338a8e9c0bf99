/**
 * The orphan sweep: a stack whose object is gone (deleted while no function ran, its finalizer
 * removed by hand) is deleted whole, and nothing else is touched: not a live object's stack, not a
 * foreign load balancer or target group (no tags), not another owner's (its owner tag).
 */
import {
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  type Tag,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { expect } from 'vitest';
import { MemoryLogger } from '../../../lib/log/logger.js';
import { sweepOrphans } from '../../../lib/maintenance/sweep.js';
import type { Scenario } from '../support/suite.js';
import type { World } from '../support/world.js';
import { basics, edit, expectNoOpAndResync, mci, path, remove, rule, slice, svc } from './objects.js';

const OWNER = 'multicluster.karmada.io/owner';
const STACK = 'multicluster.karmada.io/stack';
const RESOURCE = 'multicluster.karmada.io/resource';
const CREATED_AT = 'multicluster.karmada.io/created-at';

const tags = (record: Record<string, string>): Tag[] =>
  Object.entries(record).map(([Key, Value]) => ({ Key, Value }));

async function foreignResources(w: World): Promise<void> {
  const { elbv2 } = w.clients();
  const network = w.networks['us-east-1']!;
  const lb = (Name: string, t: Record<string, string>) =>
    elbv2.send(
      new CreateLoadBalancerCommand({
        Name,
        Type: 'application',
        Scheme: 'internal',
        Subnets: network.ids('private').slice(0, 2),
        SecurityGroups: [network.defaultSecurityGroupId],
        ...(Object.keys(t).length ? { Tags: tags(t) } : {}),
      }),
    );
  const tg = (Name: string, t: Record<string, string>) =>
    elbv2.send(
      new CreateTargetGroupCommand({
        Name,
        Protocol: 'HTTP',
        Port: 8080,
        VpcId: network.vpcId,
        TargetType: 'ip',
        ...(Object.keys(t).length ? { Tags: tags(t) } : {}),
      }),
    );
  const old = new Date(Date.now() - 2 * 3600_000).toISOString();
  // Named as ours would be, made by someone else.
  await lb('k8s-default-gone-0000000000', {});
  await tg('k8s-default-serve-0000000000', {});
  // Another deployment's stack of the same object name.
  await lb('k8s-default-gone-1111111111', { [OWNER]: 'someone-else', [STACK]: 'mci/default/gone' });
  await tg('k8s-default-serve-1111111111', {
    [OWNER]: 'someone-else',
    [STACK]: 'mci/default/gone',
    [RESOURCE]: 'default/gone-serve:80',
    [CREATED_AT]: old,
  });
}

export const SWEEP_SCENARIOS: Scenario[] = [
  {
    name: 'the orphan sweep deletes an orphaned stack and spares foreign and other-owner resources',
    async run(w) {
      const keep = mci('keep', [rule('keep.example.com', path('/', 'Prefix', 'serve', 80))]);
      const gone = mci('gone', [rule('gone.example.com', path('/', 'Prefix', 'serve', 80))]);
      await w.start({}, [...basics(), svc('serve'), slice('member1', 'serve', ['10.1.0.11']), keep, gone]);
      await w.settle(keep, gone);
      await foreignResources(w);
      // Gone while no function ran: its finalizer taken off by hand, then deleted.
      await edit(w, gone, (o) => {
        o.metadata.finalizers = [];
      });
      await remove(w, gone);
      const before = (await w.observe(['us-east-1']))['us-east-1']!;
      expect(before.loadBalancers).toHaveLength(4);

      w.resetCalls();
      const result = await sweepOrphans(w.h.kube, w.h.runtime.provider, {
        graceSeconds: 0,
        signal: new AbortController().signal,
        logger: new MemoryLogger(),
      });
      expect(result).toMatchObject({
        orphaned: ['mci/default/gone'],
        deleted: ['mci/default/gone'],
        errors: [],
      });
      const after = (await w.observe(['us-east-1']))['us-east-1']!;
      const ofGone = (name: string) => name.startsWith('k8s-default-gone-') && !/-[01]{10}$/.test(name);
      // Exactly the orphan's load balancer, listener, rule and target group went.
      expect(after.loadBalancers).toEqual(before.loadBalancers.filter((l) => !ofGone(l.name)));
      expect(after.listeners).toEqual(before.listeners.filter((l) => !ofGone(l.at.split(':')[0]!)));
      expect(after.rules).toEqual(before.rules.filter((r) => !ofGone(r.at.split(':')[0]!)));
      expect(after.targetGroups).toEqual(
        before.targetGroups.filter((t) => !t.name.includes('(default/gone-')),
      );
      expect(after.loadBalancers.map((l) => l.name.replace(/keep-[0-9a-f]{10}$/, 'keep-#'))).toEqual([
        'k8s-default-gone-0000000000',
        'k8s-default-gone-1111111111',
        'k8s-default-keep-#',
      ]);
      // The live object's stack is whole: its next reconcile and the resync change nothing.
      await expectNoOpAndResync(w, [keep]);
      return { before, after };
    },
  },
];
