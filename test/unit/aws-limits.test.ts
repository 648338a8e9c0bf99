/** ELBv2 quotas refused by the model, with the field at fault and reason LimitExceeded. */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress, MultiClusterService, ServicePort } from '../../lib/karmada/types.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import { ACCOUNT_LIMITS as SIM_ACCOUNT_LIMITS } from '../../dev/elbv2-sim/config.js';
import { quotasFromLimits } from '../../lib/providers/aws/account-quotas.js';
import { ACCOUNT_LIMIT_NAMES, checkLimits, DEFAULT_QUOTAS } from '../../lib/providers/aws/model/limits.js';
import { ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const manyPorts = (n: number): ServicePort[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `p${i}`,
    port: 1000 + i,
    targetPort: 2000 + i,
    protocol: 'TCP',
  }));

const serveMcs: MultiClusterService = {
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name: 'serve', namespace: 'default' },
  spec: { types: ['LoadBalancer'] },
};

function thrown(fn: () => unknown): InvalidObjectError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidObjectError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('Function: checkLimits (via the models)', () => {
  it('more than 100 rules on one ALB', () => {
    const paths = Array.from({ length: 101 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 80));
    const err = thrown(() =>
      buildIngressStack({
        mci: minimalIngress({ spec: { rules: [{ http: { paths } }] } }),
        services: [service('serve')],
        endpointSlices: [],
        config,
      }),
    );
    expect(err).toMatchObject({ field: 'spec.rules', reason: 'LimitExceeded' });
  });

  it('counts rules over every listener: 2 listeners × 51 paths is too many', () => {
    const paths = Array.from({ length: 51 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 80));
    const mci: MultiClusterIngress = minimalIngress({
      metadata: {
        name: 'minimal-ingress',
        namespace: 'default',
        annotations: { 'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80},{"HTTP":8080}]' },
      },
      spec: { rules: [{ http: { paths } }] },
    });
    expect(() =>
      buildIngressStack({ mci, services: [service('serve')], endpointSlices: [], config }),
    ).toThrow(/102 listener rules exceed/);
  });

  it('more than 100 target groups', () => {
    const paths = Array.from({ length: 100 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 1000 + i));
    const mci = minimalIngress({
      spec: {
        defaultBackend: { service: { name: 'serve', port: { number: 1100 } } },
        rules: [{ http: { paths } }],
      },
    });
    const err = thrown(() =>
      buildIngressStack({ mci, services: [service('serve', manyPorts(101))], endpointSlices: [], config }),
    );
    expect(err.message).toMatch(/101 target groups exceed the quota of 100/);
    expect(err).toMatchObject({
      field: 'spec.rules',
      reason: 'LimitExceeded',
      quota: 'targetGroupsPerLoadBalancer',
    });
  });

  it('more than 50 listeners on one NLB', () => {
    const err = thrown(() =>
      buildServiceStack({
        mcs: serveMcs,
        service: service('serve', manyPorts(51)),
        endpointSlices: [],
        config,
      }),
    );
    expect(err).toMatchObject({ field: 'spec.ports', reason: 'LimitExceeded' });
  });

  it('more than 5 condition values in one rule, naming the rule', () => {
    const stack: Stack = {
      id: 'mci/default/x',
      ownerId: 'o',
      resources: [
        {
          id: '80:*:Exact:/a',
          type: ResourceTypes.ListenerRule,
          spec: {
            listener: { $ref: '80' },
            priority: 1,
            conditions: [
              { field: 'host-header', values: ['a.example.com', 'b.example.com'] },
              { field: 'path-pattern', values: ['/a', '/b', '/c', '/d'] },
            ],
            actions: [],
            tags: {},
          },
        },
      ],
    };
    const err = thrown(() =>
      checkLimits(stack, {
        rules: 'spec.rules',
        targetGroups: 'spec.rules',
        ruleField: () => ({ field: 'spec.rules[0].http.paths[0]' }),
      }),
    );
    expect(err).toMatchObject({
      field: 'spec.rules[0].http.paths[0]',
      reason: 'LimitExceeded',
      quota: 'conditionValuesPerRule',
    });
    expect(err.message).toMatch(/6 condition values/);
  });

  it('an explicit load balancer name over 32 characters names the annotation', () => {
    const key = 'alb.ingress.kubernetes.io/load-balancer-name';
    const mci = minimalIngress({
      metadata: { name: 'minimal-ingress', namespace: 'default', annotations: { [key]: 'a'.repeat(33) } },
    });
    const err = thrown(() =>
      buildIngressStack({ mci, services: [service('serve')], endpointSlices: [], config }),
    );
    expect(err).toMatchObject({ field: key, reason: 'LimitExceeded' });
  });

  it('more targets in one group than the 1,000 per target group, and more across the ALB than 1,000', () => {
    const addresses = (n: number, base: number) =>
      Array.from({ length: n }, (_, i) => `10.${base}.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    const build = (slices: ReturnType<typeof collectedSlice>[], paths = [path('/', 'Prefix', 'serve', 80)]) =>
      buildIngressStack({
        mci: minimalIngress({ spec: { rules: [{ http: { paths } }] } }),
        services: [
          service('serve', [...manyPorts(2), { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
        ],
        endpointSlices: slices,
        config,
      });
    const one = thrown(() => build([collectedSlice('member1', 'serve', { addresses: addresses(1001, 0) })]));
    expect(one.name).toBe('QuotaExceededError');
    expect(one.message).toMatch(/has 1001 targets; ELBv2 allows 1000 per target group/);
    expect(one).toMatchObject({
      field: 'spec.rules',
      reason: 'LimitExceeded',
      quota: 'targetsPerTargetGroup',
    });
    expect(() =>
      build([collectedSlice('member1', 'serve', { addresses: addresses(1000, 0) })]),
    ).not.toThrow();

    // Two groups of 600 (two ports of the same Service): 1,200 registrations on one ALB.
    const twoPorts = [path('/a', 'Prefix', 'serve', 1000), path('/b', 'Prefix', 'serve', 1001)];
    const wide = collectedSlice('member1', 'serve', {
      addresses: addresses(600, 1),
      ports: [
        { name: 'p0', port: 2000 },
        { name: 'p1', port: 2001 },
      ],
    });
    const all = thrown(() => build([wide], twoPorts));
    expect(all.message).toMatch(
      /1200 targets across the load balancer's target groups exceed the quota of 1000/,
    );
    expect(all).toMatchObject({ quota: 'targetsPerApplicationLoadBalancer' });
  });

  it('an NLB may hold 3,000 targets across its groups, not more', () => {
    const nlb = (n: number, ports = manyPorts(2)) =>
      buildServiceStack({
        mcs: serveMcs,
        service: service('serve', ports),
        endpointSlices: [
          collectedSlice('member1', 'serve', {
            addresses: Array.from({ length: n }, (_, i) => `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`),
            ports: ports.map((p) => ({ name: p.name, port: Number(p.targetPort) })),
          }),
        ],
        config,
      });
    // 2 groups × 800: over an ALB's 1,000, within an NLB's 3,000; 4 × 800 is not.
    expect(() => nlb(800)).not.toThrow();
    const err = thrown(() => nlb(800, manyPorts(4)));
    expect(err.message).toBe(
      "spec.ports: 3200 targets across the load balancer's target groups exceed the quota of 3000 per load balancer",
    );
    expect(err).toMatchObject({ quota: 'targetsPerNetworkLoadBalancer' });
  });

  it("checked against the account's quotas when given, and the message says whose", () => {
    const paths = Array.from({ length: 101 }, (_, i) => path(`/p${i}`, 'Exact', 'serve', 80));
    const mci = minimalIngress({ spec: { rules: [{ http: { paths } }] } });
    const input = { mci, services: [service('serve')], endpointSlices: [] };
    const raised = { ...DEFAULT_QUOTAS, rulesPerLoadBalancer: 200 };
    expect(() => buildIngressStack({ ...input, config: { ...config, accountQuotas: raised } })).not.toThrow();
    const lower = { ...DEFAULT_QUOTAS, rulesPerLoadBalancer: 100 };
    expect(
      thrown(() => buildIngressStack({ ...input, config: { ...config, accountQuotas: lower } })).message,
    ).toBe("spec.rules: 101 listener rules exceed the account's quota of 100 rules per load balancer");
    expect(thrown(() => buildIngressStack({ ...input, config })).message).toBe(
      'spec.rules: 101 listener rules exceed the quota of 100 rules per load balancer',
    );
  });
});

describe('the account quotas (DescribeAccountLimits)', () => {
  it('reads each quota it reports under its DescribeAccountLimits name, keeps the defaults for what is missing or not a positive integer', () => {
    expect(
      quotasFromLimits([
        { Name: 'rules-per-application-load-balancer', Max: '250' },
        { Name: 'targets-per-network-load-balancer', Max: '5000' },
        { Name: 'listeners-per-application-load-balancer', Max: 'lots' },
        { Name: 'target-groups-per-application-load-balancer', Max: '0' },
        { Name: 'condition-values-per-alb-rule', Max: '5.5' },
        { Name: 'gateway-load-balancers', Max: '7' },
      ]),
    ).toStrictEqual({ ...DEFAULT_QUOTAS, rulesPerLoadBalancer: 250, targetsPerNetworkLoadBalancer: 5000 });
    // Each quota under its own DescribeAccountLimits name.
    const named = Object.entries(ACCOUNT_LIMIT_NAMES).map(([quota, name], i) => ({
      quota,
      name,
      max: 7001 + i,
    }));
    const read = quotasFromLimits(named.map((n) => ({ Name: n.name, Max: String(n.max) })));
    for (const n of named) expect(read[n.quota as keyof typeof read]).toBe(n.max);
    // ...and every name is one DescribeAccountLimits answers with (the simulator's list, from AWS's).
    const answered = SIM_ACCOUNT_LIMITS.map(([name]) => name);
    for (const name of Object.values(ACCOUNT_LIMIT_NAMES)) expect(answered).toContain(name);
    expect(quotasFromLimits([])).toStrictEqual(DEFAULT_QUOTAS);
    // Every quota the account reports has its DescribeAccountLimits name; the per-group one and
    // the fixed match evaluations have none.
    expect(Object.keys(ACCOUNT_LIMIT_NAMES).sort()).toStrictEqual(
      Object.keys(DEFAULT_QUOTAS)
        .filter((k) => k !== 'targetsPerTargetGroup' && k !== 'matchEvaluationsPerRule')
        .sort(),
    );
  });
});
