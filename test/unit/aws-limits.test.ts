/** ELBv2 quotas refused by the model, with the field at fault and reason LimitExceeded. */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress, ServicePort } from '../../lib/karmada/types.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import { checkLimits } from '../../lib/providers/aws/model/limits.js';
import { ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const manyPorts = (n: number): ServicePort[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `p${i}`,
    port: 1000 + i,
    targetPort: 2000 + i,
    protocol: 'TCP',
  }));

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
    expect(err).toMatchObject({ field: 'spec.rules', reason: 'LimitExceeded' });
  });

  it('more than 50 listeners on one NLB', () => {
    const err = thrown(() =>
      buildServiceStack({
        mcs: {
          apiVersion: 'networking.karmada.io/v1alpha1',
          kind: 'MultiClusterService',
          metadata: { name: 'serve', namespace: 'default' },
          spec: { types: ['LoadBalancer'] },
        },
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
        ruleField: () => 'spec.rules[0].http.paths[0]',
      }),
    );
    expect(err).toMatchObject({ field: 'spec.rules[0].http.paths[0]', reason: 'LimitExceeded' });
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
});
