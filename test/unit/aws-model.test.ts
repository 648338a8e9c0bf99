import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { buildIngressStack, type IngressStackInput } from '../../lib/providers/aws/model/ingress.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

/** `UPDATE_FIXTURES=1 npx vitest run test/unit/aws-model.test.ts` rewrites the golden stacks. */
const UPDATE_FIXTURES = process.env.UPDATE_FIXTURES === '1';
/** The fixture text as `npm run lint` wants it, so an update diffs only in content. */
async function formatted(file: URL, value: unknown): Promise<string> {
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(file);
  return prettier.format(JSON.stringify(value, null, 2), { ...options, filepath: file.pathname });
}
const fixture = (name: string) => new URL(`../fixtures/aws/${name}.stack.json`, import.meta.url);

/** The README scenario: /testpath → serve:80 with endpoints in member1 and member2. */
function minimalInput(mci: MultiClusterIngress = minimalIngress()): IngressStackInput {
  return {
    mci,
    services: [service('serve')],
    endpointSlices: [
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
      collectedSlice('member2', 'serve', { addresses: ['10.0.2.20', '!10.0.2.21'] }),
    ],
    config,
  };
}

const cases: Array<{ name: string; input: IngressStackInput }> = [
  { name: 'minimal-ingress', input: minimalInput() },
  {
    name: 'traffic-blocked',
    input: minimalInput(minimalIngress({ status: { trafficBlockClusters: ['member2'] } })),
  },
  {
    name: 'off-vpc-targets',
    input: {
      ...minimalInput(),
      endpointSlices: [
        collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
        // Another cluster's pod network (peered VPC / RFC 6598 overlay): AZ "all".
        collectedSlice('member2', 'serve', { addresses: ['172.20.0.5', '100.64.3.4'] }),
      ],
    },
  },
  {
    name: 'hosts-and-ordering',
    input: {
      mci: minimalIngress({
        metadata: { name: 'shop-frontend-ingress', namespace: 'production-eu' },
        spec: {
          defaultBackend: { service: { name: 'web', port: { name: 'http' } } },
          rules: [
            {
              host: 'shop.example.com',
              http: {
                paths: [
                  path('/static', 'ImplementationSpecific', 'web', 'http'),
                  path('/api', 'Prefix', 'api', 8080),
                  path('/', 'Prefix', 'web', 'http'),
                  path('/api/v2/', 'Prefix', 'api', 8080),
                  path('/healthz', 'Exact', 'api', 8080),
                ],
              },
            },
            { host: 'admin.example.com', http: { paths: [path('/', 'Prefix', 'admin', 80)] } },
          ],
        },
      }),
      services: [
        {
          ...service('web', [{ name: 'http', port: 80, targetPort: 'http-web' }]),
          metadata: { name: 'web', namespace: 'production-eu' },
        },
        {
          ...service('api', [
            { name: 'grpc', port: 9090 },
            { name: 'rest', port: 8080, targetPort: 3000 },
          ]),
          metadata: { name: 'api', namespace: 'production-eu' },
        },
        { ...service('admin'), metadata: { name: 'admin', namespace: 'production-eu' } },
      ],
      endpointSlices: [
        collectedSlice('member1', 'web', {
          namespace: 'production-eu',
          addresses: ['10.0.1.5'],
          ports: [{ name: 'http', port: 8081 }],
        }),
        collectedSlice('member2', 'web', {
          namespace: 'production-eu',
          addresses: ['10.0.2.5'],
          ports: [{ name: 'http', port: 8082 }],
        }),
        collectedSlice('member1', 'api', {
          namespace: 'production-eu',
          addresses: ['10.0.1.7'],
          ports: [
            { name: 'grpc', port: 9090 },
            { name: 'rest', port: 3000 },
          ],
        }),
        // Not a Service this MCI uses: ignored.
        collectedSlice('member1', 'other', { namespace: 'production-eu', addresses: ['10.0.1.99'] }),
      ],
      config: { ...config, scheme: 'internet-facing', securityGroups: undefined, defaultTags: {} },
    },
  },
];

describe('Function: buildIngressStack', () => {
  it.each(cases)('builds the $name stack', async ({ name, input }) => {
    // Prepare
    const file = fixture(name);
    // Act
    const stack = JSON.parse(JSON.stringify(buildIngressStack(input)));
    // Assess
    if (UPDATE_FIXTURES) writeFileSync(file, await formatted(file, stack));
    // A missing fixture is a failure, not a fixture to write: a deleted fixture must not pass.
    expect(existsSync(file), `${file.pathname} is missing; UPDATE_FIXTURES=1 writes it`).toBe(true);
    expect(stack).toStrictEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it('is deterministic: the same input yields the same stack', () => {
    expect(buildIngressStack(minimalInput())).toStrictEqual(buildIngressStack(minimalInput()));
  });

  it('answers with a fixed 404 when there is no default backend', () => {
    const listener = buildIngressStack(minimalInput()).resources.find((r) => r.id === '80');
    expect(listener?.spec).toMatchObject({
      defaultActions: [
        { type: 'fixed-response', fixedResponse: { statusCode: '404', contentType: 'text/plain' } },
      ],
    });
  });

  it('excludes the blocked cluster and not-ready endpoints from the targets', () => {
    const tg = buildIngressStack(
      minimalInput(minimalIngress({ status: { trafficBlockClusters: ['member2'] } })),
    ).resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::TargetGroup');
    expect(tg?.spec).toMatchObject({
      targets: [
        { id: '10.0.1.10', port: 8080 },
        { id: '10.0.1.11', port: 8080 },
      ],
    });
  });

  it.each([
    {
      name: 'known from serviceLocations',
      locations: ['member2', 'member2-eu'],
      targets: [{ id: '10.0.3.30', port: 8080 }],
    },
    // Unknown cluster names cannot be told apart from a blocked prefix: err on the side of blocking.
    { name: 'unknown', locations: [], targets: [] },
  ])(
    'blocks a cluster by slice name when Karmada did not annotate the slice ($name)',
    ({ locations, targets }) => {
      const input = minimalInput(
        minimalIngress({
          status: {
            trafficBlockClusters: ['member2'],
            serviceLocations: [{ name: 'serve', clusters: locations }],
          },
        }),
      );
      input.endpointSlices = [
        collectedSlice('member2', 'serve', { addresses: ['10.0.2.20'], noAnnotation: true }),
        collectedSlice('member2-eu', 'serve', { addresses: ['10.0.3.30'], noAnnotation: true }),
      ];
      const tg = buildIngressStack(input).resources.find(
        (r) => r.type === 'AWS::ElasticLoadBalancingV2::TargetGroup',
      );
      expect(tg?.spec).toMatchObject({ targets });
    },
  );

  it('tags every resource with owner, stack and resource ID plus the default tags', () => {
    for (const r of buildIngressStack(minimalInput()).resources) {
      expect(r.spec.tags).toStrictEqual({
        team: 'platform',
        'multicluster.karmada.io/owner': 'karmada-test',
        'multicluster.karmada.io/stack': 'mci/default/minimal-ingress',
        'multicluster.karmada.io/resource': r.id,
      });
    }
  });
});

const rule = (paths: ReturnType<typeof path>[]) => minimalIngress({ spec: { rules: [{ http: { paths } }] } });

describe('Function: buildIngressStack (invalid objects)', () => {
  it.each([
    {
      name: 'a resource backend',
      input: minimalInput(
        minimalIngress({
          spec: {
            rules: [
              {
                http: {
                  paths: [
                    {
                      path: '/x',
                      pathType: 'Prefix',
                      backend: {
                        resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'b' },
                      },
                    },
                  ],
                },
              },
            ],
          },
        }),
      ),
      field: 'spec.rules[0].http.paths[0].backend.resource',
      message: /resource backends/,
    },
    {
      name: 'an unknown Service',
      input: minimalInput(rule([path('/x', 'Prefix', 'nope', 80)])),
      field: 'spec.rules[0].http.paths[0].backend.service.name',
      message: /Service "nope" does not exist/,
    },
    {
      name: 'an unknown port name',
      input: minimalInput(rule([path('/x', 'Prefix', 'serve', 'metrics')])),
      field: 'spec.rules[0].http.paths[0].backend.service.port',
      message: /has no port "metrics"/,
    },
    {
      name: 'an unknown port number',
      input: minimalInput(
        minimalIngress({ spec: { defaultBackend: { service: { name: 'serve', port: { number: 81 } } } } }),
      ),
      field: 'spec.defaultBackend.service.port',
      message: /has no port "81"/,
    },
    {
      name: 'a wildcard in a Prefix path',
      input: minimalInput(rule([path('/a*', 'Prefix', 'serve', 80)])),
      field: 'spec.rules[0].http.paths[0].path',
      message: /wildcards/,
    },
    {
      name: 'a public endpoint address',
      input: {
        ...minimalInput(),
        endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '54.12.3.4'] })],
      },
      field: undefined,
      message: /Service default\/serve: endpoint address 54\.12\.3\.4/,
    },
  ])('rejects $name with InvalidObjectError', ({ input, field, message }) => {
    let caught: unknown;
    try {
      buildIngressStack(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidObjectError);
    expect((caught as InvalidObjectError).field).toBe(field);
    expect((caught as InvalidObjectError).message).toMatch(message);
  });

  it('accepts a public address that only a blocked cluster or a not-ready endpoint has', () => {
    const input = minimalInput(minimalIngress({ status: { trafficBlockClusters: ['member2'] } }));
    input.endpointSlices = [
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '!54.1.1.1'] }),
      collectedSlice('member2', 'serve', { addresses: ['54.2.2.2'] }),
    ];
    expect(() => buildIngressStack(input)).not.toThrow();
  });

  it('rejects more rules than the ALB quota', () => {
    const paths = Array.from({ length: 101 }, (_, i) => path(`/p${i}`, 'Prefix', 'serve', 80));
    expect(() => buildIngressStack(minimalInput(rule(paths)))).toThrow(
      /exceed the quota of 100 rules per load balancer/,
    );
  });
});
