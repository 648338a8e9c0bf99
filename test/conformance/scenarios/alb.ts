/**
 * MultiClusterIngress → ALB: hosts, paths, annotation conditions and a weighted forward; HTTPS
 * with an imported certificate found by its hosts; endpoint changes; annotation changes (health
 * check, conditions, weights, the order of paths); the no-op reconcile and the resync; deletion.
 */
import { ImportCertificateCommand } from '@aws-sdk/client-acm';
import { DescribeLoadBalancersCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { expect } from 'vitest';
import { selfSigned } from '../support/certificate.js';
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
  path,
  remove,
  rule,
  slice,
  svc,
} from './objects.js';

const WEIGHTED = JSON.stringify({
  type: 'forward',
  forwardConfig: {
    targetGroups: [
      { serviceName: 'stable', servicePort: 80, weight: 90 },
      { serviceName: 'canary', servicePort: 80, weight: 10 },
    ],
  },
});
const PROD_ONLY = JSON.stringify([
  { field: 'http-header', httpHeaderConfig: { httpHeaderName: 'X-Env', values: ['prod'] } },
]);

const shop = () =>
  mci(
    'shop',
    [
      rule(
        'shop.example.com',
        path('/cart', 'Prefix', 'stable', 80),
        path('/checkout', 'Exact', 'weighted', 'use-annotation'),
      ),
      rule('api.example.com', path('/v1', 'Prefix', 'canary', 80)),
    ],
    {
      'alb.ingress.kubernetes.io/actions.weighted': WEIGHTED,
      'alb.ingress.kubernetes.io/conditions.stable': PROD_ONLY,
      'alb.ingress.kubernetes.io/healthcheck-path': '/healthz',
    },
  );

const shopObjects = () => [
  ...basics(),
  svc('stable'),
  svc('canary'),
  slice('member1', 'stable', ['10.1.0.11', '10.1.0.12']),
  slice('member2', 'stable', ['10.2.0.21']),
  slice('member1', 'canary', ['10.1.0.31']),
];

const LB = 'k8s-default-shop-';

async function createShop(w: World) {
  const o = shop();
  await w.start({}, [...shopObjects(), o]);
  await w.settle(o);
  return o;
}

/** The changes of a step but the tags that record what was applied (fingerprints). */
const structural = (w: World) => changes(w).filter((c) => c !== 'elbv2:AddTags');

/** Each load balancer's DNSName, by name, as DescribeLoadBalancers answers. */
async function dnsNames(w: World): Promise<Record<string, string>> {
  const out = await w.clients().elbv2.send(new DescribeLoadBalancersCommand({}));
  return Object.fromEntries(
    (out.LoadBalancers ?? []).map((l) => [l.LoadBalancerName ?? '', l.DNSName ?? '']),
  );
}

const only = async (w: World) => (await w.observe(['us-east-1']))['us-east-1']!;

export const ALB_SCENARIOS: Scenario[] = [
  {
    name: 'MCI → ALB: hosts, paths, conditions, a weighted forward; the no-op reconcile and the resync change nothing',
    async run(w) {
      const o = await createShop(w);
      const state = await only(w);
      expect(state.loadBalancers).toHaveLength(1);
      const lb = state.loadBalancers[0]!;
      expect(lb).toMatchObject({
        type: 'application',
        scheme: 'internal',
        ipAddressType: 'ipv4',
        subnets: ['simulated-private-1a', 'simulated-private-1b', 'simulated-private-1c'],
        securityGroups: ['default'],
      });
      expect(lb.name.startsWith(LB)).toBe(true);
      expect(lb.tags).toMatchObject({
        'multicluster.karmada.io/owner': 'conformance',
        'multicluster.karmada.io/stack': 'mci/default/shop',
      });
      expect(state.listeners.map((l) => `${l.protocol} ${l.defaultActions.join()}`)).toEqual([
        'HTTP fixed-response 404 text/plain ""',
      ]);
      expect(
        state.rules.map((r) => `${r.priority}: ${r.conditions.join(' & ')} → ${r.actions.join()}`),
      ).toEqual([
        // LBC's order: an Exact path before a Prefix one of the same host.
        '1: host-header shop.example.com & path-pattern /checkout → forward tg:k8s-default-canary(default/shop-canary:80)*10 tg:k8s-default-stable(default/shop-stable:80)*90',
        '2: host-header shop.example.com & http-header X-Env=prod & path-pattern /cart,/cart/* → forward tg:k8s-default-stable(default/shop-stable:80)',
        '3: host-header api.example.com & path-pattern /v1,/v1/* → forward tg:k8s-default-canary(default/shop-canary:80)',
      ]);
      expect(
        state.targetGroups.map(
          (t) => `${t.name} ${t.protocol}:${t.port} ${t.healthCheck} ${t.targets.join(' ')}`,
        ),
      ).toEqual([
        'k8s-default-canary(default/shop-canary:80) HTTP:8080 HTTP traffic-port /healthz 15s/5s 2/2 200 10.1.0.31:8080@all',
        'k8s-default-stable(default/shop-stable:80) HTTP:8080 HTTP traffic-port /healthz 15s/5s 2/2 200 10.1.0.11:8080@all 10.1.0.12:8080@all 10.2.0.21:8080@all',
      ]);
      // The status is the load balancer's own DNS name, lower-cased. AWS names an internal one
      // `internal-<name>-<id>.<region>.elb.amazonaws.com`; moto leaves out `internal-` (README).
      const dns = (await dnsNames(w))[lb.name]!;
      expect(await hostnames(w, o)).toEqual([dns.toLowerCase()]);
      if (w.kind === 'simulators')
        expect(dns).toMatch(new RegExp(`^internal-${lb.name}-\\d+\\.us-east-1\\.elb\\.amazonaws\\.com$`));
      await expectNoOpAndResync(w, [o]);
      return { created: state };
    },
  },
  {
    name: 'HTTPS: the certificate is an imported one, found in ACM by the rule hosts',
    async run(w) {
      const { acm } = w.clients();
      const wanted = selfSigned(['*.example.com', 'example.com']);
      const other = selfSigned(['other.test']);
      for (const pem of [other, wanted]) {
        await acm.send(
          new ImportCertificateCommand({
            Certificate: Buffer.from(pem.certificate),
            PrivateKey: Buffer.from(pem.privateKey),
          }),
        );
      }
      const o = mci('secure', [rule('app.example.com', path('/', 'Prefix', 'stable', 80))], {
        'alb.ingress.kubernetes.io/listen-ports': '[{"HTTPS":443}]',
      });
      await w.start({}, [...basics(), svc('stable'), slice('member1', 'stable', ['10.1.0.11']), o]);
      await w.settle(o);
      const state = await only(w);
      expect(
        state.listeners.map(
          (l) =>
            `${l.at.replace(/^k8s-default-secure-[0-9a-f]+/, 'lb')} ${l.protocol} ${l.certificates.join()} ${l.sslPolicy}`,
        ),
      ).toEqual(['lb:443 HTTPS cert:*.example.com ELBSecurityPolicy-2016-08']);
      expect(state.rules.map((r) => `${r.conditions.join(' & ')} → ${r.actions.join()}`)).toEqual([
        'host-header app.example.com & path-pattern /* → forward tg:k8s-default-stable(default/secure-stable:80)',
      ]);
      await expectNoOpAndResync(w, [o]);
      return { created: state };
    },
  },
  {
    name: 'endpoints change: only the targets change, one call each way',
    async run(w) {
      const o = await createShop(w);
      w.resetCalls();
      await edit(w, slice('member1', 'stable', []), (s) => {
        (s as unknown as { endpoints: unknown }).endpoints = (
          slice('member1', 'stable', ['10.1.0.12', '10.1.0.13']) as unknown as { endpoints: unknown }
        ).endpoints;
      });
      await w.settle(o);
      expect(changes(w)).toEqual(['elbv2:RegisterTargets', 'elbv2:DeregisterTargets']);
      const moved = await only(w);
      expect(moved.targetGroups.find((t) => t.name.includes('stable'))?.targets).toEqual([
        '10.1.0.12:8080@all',
        '10.1.0.13:8080@all',
        '10.2.0.21:8080@all',
      ]);

      w.resetCalls();
      await remove(w, slice('member2', 'stable', []));
      await w.settle(o);
      expect(changes(w)).toEqual(['elbv2:DeregisterTargets']);
      const gone = await only(w);
      expect(gone.targetGroups.find((t) => t.name.includes('stable'))?.targets).toEqual([
        '10.1.0.12:8080@all',
        '10.1.0.13:8080@all',
      ]);
      await expectNoOpAndResync(w, [o]);
      return { moved, gone };
    },
  },
  {
    name: 'annotation changes: health check, conditions and weights change in place',
    async run(w) {
      const o = await createShop(w);
      const before = await only(w);
      w.resetCalls();
      await edit(w, o, (m) => {
        const a = m.metadata.annotations!;
        a['alb.ingress.kubernetes.io/healthcheck-path'] = '/ready';
        a['alb.ingress.kubernetes.io/success-codes'] = '200-299';
        a['alb.ingress.kubernetes.io/conditions.stable'] = JSON.stringify([
          { field: 'http-request-method', httpRequestMethodConfig: { values: ['GET', 'HEAD'] } },
        ]);
        a['alb.ingress.kubernetes.io/actions.weighted'] = WEIGHTED.replace(
          '"weight":90',
          '"weight":50',
        ).replace('"weight":10', '"weight":50');
      });
      await w.settle(o);
      // Besides the tags that record what was applied (fingerprints), only these.
      expect(structural(w).sort()).toEqual([
        'elbv2:ModifyRule',
        'elbv2:ModifyRule',
        'elbv2:ModifyTargetGroup',
        'elbv2:ModifyTargetGroup',
      ]);
      const after = await only(w);
      expect(after.loadBalancers.map((l) => l.name)).toEqual(before.loadBalancers.map((l) => l.name));
      expect(
        after.rules.map((r) => `${r.priority}: ${r.conditions.join(' & ')} → ${r.actions.join()}`),
      ).toEqual([
        '1: host-header shop.example.com & path-pattern /checkout → forward tg:k8s-default-canary(default/shop-canary:80)*50 tg:k8s-default-stable(default/shop-stable:80)*50',
        '2: host-header shop.example.com & http-request-method GET,HEAD & path-pattern /cart,/cart/* → forward tg:k8s-default-stable(default/shop-stable:80)',
        '3: host-header api.example.com & path-pattern /v1,/v1/* → forward tg:k8s-default-canary(default/shop-canary:80)',
      ]);
      expect(after.targetGroups.map((t) => t.healthCheck)).toEqual([
        'HTTP traffic-port /ready 15s/5s 2/2 200-299',
        'HTTP traffic-port /ready 15s/5s 2/2 200-299',
      ]);
      await expectNoOpAndResync(w, [o]);
      return { after };
    },
  },
  {
    name: 'the order of paths changes: the rules swap priorities in one SetRulePriorities',
    async run(w) {
      const o = mci('order', [
        rule('order.example.com', path('/a', 'Prefix', 'stable', 80), path('/b', 'Prefix', 'canary', 80)),
      ]);
      await w.start({}, [...shopObjects(), o]);
      await w.settle(o);
      w.resetCalls();
      await edit(w, o, (m) => {
        const paths = (m as unknown as { spec: { rules: Array<{ http: { paths: unknown[] } }> } }).spec
          .rules[0]!.http.paths;
        paths.reverse();
      });
      await w.settle(o);
      expect(structural(w)).toEqual(['elbv2:SetRulePriorities']);
      const after = await only(w);
      expect(after.rules.map((r) => `${r.priority}: ${r.conditions.join(' & ')}`)).toEqual([
        '1: host-header order.example.com & path-pattern /b,/b/*',
        '2: host-header order.example.com & path-pattern /a,/a/*',
      ]);
      await expectNoOpAndResync(w, [o]);
      return { after };
    },
  },
  {
    name: 'delete leaves nothing, and the finalizer goes last',
    async run(w) {
      const o = await createShop(w);
      await remove(w, o);
      await w.settle(o);
      expect(await exists(w, o)).toBe(false);
      const after = await only(w);
      expect(after).toEqual({
        loadBalancers: [],
        listeners: [],
        rules: [],
        targetGroups: [],
        securityGroups: [],
      });
      return { after };
    },
  },
];
