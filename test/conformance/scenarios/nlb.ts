/**
 * MultiClusterService → NLB (an HTTP health check on its TCP group, changed in place), and the
 * managed security groups: an NLB's and an ALB's own frontend group, whose rules follow the source
 * annotations and which goes after its load balancer.
 */
import { expect } from 'vitest';
import type { Scenario } from '../support/suite.js';
import type { World } from '../support/world.js';
import {
  basics,
  changes,
  edit,
  exists,
  expectNoOpAndResync,
  hostnames,
  mci,
  mcs,
  path,
  remove,
  rule,
  slice,
  svc,
} from './objects.js';

const HC = 'service.beta.kubernetes.io/aws-load-balancer-healthcheck-';

const serveObjects = () => [
  ...basics(),
  svc('serve'),
  slice('member1', 'serve', ['10.1.0.11', '10.1.0.12']),
  slice('member2', 'serve', ['10.2.0.21']),
];

/**
 * moto's TCP target groups have no `proxy_protocol_v2.enabled` (AWS states it, false): the first
 * deep check on moto sets it, and records the new fingerprint (README, "NLB target group attributes").
 */
const nlbFirstResync = (w: World) =>
  w.kind === 'moto' ? ['elbv2:ModifyTargetGroupAttributes', 'elbv2:AddTags', 'elbv2:AddTags'] : [];

/** Each DeleteSecurityGroup of a step: `ok`, or the error it was refused with. */
const groupDeletions = (w: World) =>
  w
    .calls()
    .filter((c) => c.action === 'DeleteSecurityGroup')
    .map((c) => c.code ?? 'ok');

/**
 * AWS keeps a deleted load balancer's interfaces a while, so the group is refused
 * (DependencyViolation) and its deletion asked again 2 s later, as LBC polls; our simulators refuse
 * it once, moto never (README, "DeleteSecurityGroup").
 */
const expectedGroupDeletions = (w: World) => (w.kind === 'moto' ? ['ok'] : ['DependencyViolation', 'ok']);

const only = async (w: World) => (await w.observe(['us-east-1']))['us-east-1']!;
const structural = (w: World) => changes(w).filter((c) => c !== 'elbv2:AddTags');

export const NLB_SCENARIOS: Scenario[] = [
  {
    name: 'MCS → NLB: a TCP listener, an HTTP health check changed in place, deletion',
    async run(w) {
      const o = mcs('serve', {
        [`${HC}protocol`]: 'HTTP',
        [`${HC}path`]: '/healthz',
        [`${HC}success-codes`]: '200-399',
      });
      await w.start({}, [...serveObjects(), o]);
      await w.settle(o);
      const created = await only(w);
      expect(
        created.loadBalancers.map((l) => ({ ...l, name: l.name.replace(/[0-9a-f]{10}$/, '#'), tags: {} })),
      ).toEqual([
        {
          name: 'k8s-default-serve-#',
          type: 'network',
          scheme: 'internal',
          ipAddressType: 'ipv4',
          subnets: ['simulated-private-1a', 'simulated-private-1b', 'simulated-private-1c'],
          securityGroups: ['default'],
          tags: {},
        },
      ]);
      expect(created.listeners.map((l) => `${l.protocol} ${l.defaultActions.join()}`)).toEqual([
        'TCP forward tg:k8s-default-serve(default/serve:80)',
      ]);
      expect(
        created.targetGroups.map((t) => `${t.protocol}:${t.port} ${t.healthCheck} ${t.targets.join(' ')}`),
      ).toEqual([
        'TCP:8080 HTTP traffic-port /healthz 10s/10s 3/3 200-399 10.1.0.11:8080@all 10.1.0.12:8080@all 10.2.0.21:8080@all',
      ]);
      expect(await hostnames(w, o)).toHaveLength(1);
      await expectNoOpAndResync(w, [o], nlbFirstResync(w));

      w.resetCalls();
      await edit(w, o, (m) => {
        m.metadata.annotations![`${HC}success-codes`] = '200-299';
        m.metadata.annotations![`${HC}path`] = '/ready';
      });
      await w.settle(o);
      expect(structural(w)).toEqual(['elbv2:ModifyTargetGroup']);
      const modified = await only(w);
      expect(modified.targetGroups.map((t) => t.healthCheck)).toEqual([
        'HTTP traffic-port /ready 10s/10s 3/3 200-299',
      ]);
      await expectNoOpAndResync(w, [o]);

      await remove(w, o);
      await w.settle(o);
      expect(await exists(w, o)).toBe(false);
      const deleted = await only(w);
      expect(deleted).toEqual({
        loadBalancers: [],
        listeners: [],
        rules: [],
        targetGroups: [],
        securityGroups: [],
      });
      return { created, modified, deleted };
    },
  },
  {
    name: "managed security groups: an NLB's group opens its port to the source ranges, follows them, and goes with it",
    async run(w) {
      const o = mcs('serve', { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' });
      await w.start({ securityGroups: 'managed' }, [...serveObjects(), o]);
      await w.settle(o);
      const created = await only(w);
      expect(
        created.securityGroups.map((g) => `${g.name.replace(/[0-9a-f]{10}$/, '#')}: ${g.ingress.join(', ')}`),
      ).toEqual(['k8s-default-serve-#: tcp/80 from 10.0.0.0/8']);
      expect(created.securityGroups[0]!.tags).toMatchObject({
        'multicluster.karmada.io/owner': 'conformance',
        'multicluster.karmada.io/stack': 'mcs/default/serve',
      });
      expect(created.loadBalancers[0]!.securityGroups).toEqual([created.securityGroups[0]!.name]);
      await expectNoOpAndResync(w, [o], nlbFirstResync(w));

      w.resetCalls();
      await edit(w, o, (m) => {
        m.metadata.annotations!['service.beta.kubernetes.io/load-balancer-source-ranges'] =
          '10.0.0.0/8, 192.168.0.0/16';
      });
      await w.settle(o);
      expect(structural(w)).toEqual(['ec2:AuthorizeSecurityGroupIngress']);
      const widened = await only(w);
      expect(widened.securityGroups.map((g) => g.ingress)).toEqual([
        ['tcp/80 from 10.0.0.0/8', 'tcp/80 from 192.168.0.0/16'],
      ]);
      await expectNoOpAndResync(w, [o]);

      w.resetCalls();
      await remove(w, o);
      await w.settle(o);
      expect(await exists(w, o)).toBe(false);
      expect(groupDeletions(w)).toEqual(expectedGroupDeletions(w));
      const deleted = await only(w);
      expect(deleted).toEqual({
        loadBalancers: [],
        listeners: [],
        rules: [],
        targetGroups: [],
        securityGroups: [],
      });
      return { created, widened, deleted };
    },
  },
  {
    name: "managed security groups: an ALB's group opens each listen port to the inbound CIDRs, and goes with it",
    async run(w) {
      const o = mci('web', [rule('web.example.com', path('/', 'Prefix', 'serve', 80))], {
        'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80},{"HTTP":8080}]',
        'alb.ingress.kubernetes.io/inbound-cidrs': '10.0.0.0/8',
      });
      await w.start({ securityGroups: 'managed' }, [...serveObjects(), o]);
      await w.settle(o);
      const created = await only(w);
      expect(
        created.securityGroups.map((g) => `${g.name.replace(/[0-9a-f]{10}$/, '#')}: ${g.ingress.join(', ')}`),
      ).toEqual(['k8s-default-web-#: tcp/80 from 10.0.0.0/8, tcp/8080 from 10.0.0.0/8']);
      expect(created.loadBalancers[0]!.securityGroups).toEqual([created.securityGroups[0]!.name]);
      await expectNoOpAndResync(w, [o]);

      w.resetCalls();
      await edit(w, o, (m) => {
        m.metadata.annotations!['alb.ingress.kubernetes.io/inbound-cidrs'] = '172.16.0.0/12';
      });
      await w.settle(o);
      expect(structural(w).sort()).toEqual([
        'ec2:AuthorizeSecurityGroupIngress',
        'ec2:RevokeSecurityGroupIngress',
      ]);
      const changed = await only(w);
      expect(changed.securityGroups.map((g) => g.ingress)).toEqual([
        ['tcp/80 from 172.16.0.0/12', 'tcp/8080 from 172.16.0.0/12'],
      ]);

      w.resetCalls();
      await remove(w, o);
      await w.settle(o);
      expect(await exists(w, o)).toBe(false);
      expect(groupDeletions(w)).toEqual(expectedGroupDeletions(w));
      expect((await only(w)).securityGroups).toEqual([]);
      return { created, changed };
    },
  },
];
